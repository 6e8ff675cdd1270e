import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import matter from 'gray-matter';
import { extractSkillBody, frontmatterHeadLength, frontmatterYaml, parseSkillText, type ParsedSkillText } from '../../../../src/core/skill-file/parse';
import { parseFlatFrontmatter, parseSimpleFrontmatter } from '../../../../src/core/skill-file/flat-frontmatter';
import type { Range, SkillDiagnostic } from '../../../../src/core/model/types';
import { fixtureSkill } from '../../../fixtures/skills/temp-skills';

const FILE = '/skills/demo/SKILL.md';

function parse(text: string, strict = false): ParsedSkillText {
  return parseSkillText(text, { file: FILE, strict, includeBody: true });
}

function range(startLine: number, startColumn: number, endLine: number, endColumn: number): Range {
  return { start: { line: startLine, column: startColumn }, end: { line: endLine, column: endColumn } };
}

/** The only diagnostic, which must have this code and severity. */
function single(parsed: ParsedSkillText, code: string, severity = 'error'): SkillDiagnostic {
  assert.equal(parsed.diagnostics.length, 1, JSON.stringify(parsed.diagnostics));
  const [diagnostic] = parsed.diagnostics;
  assert.equal(diagnostic.code, code);
  assert.equal(diagnostic.severity, severity);
  assert.equal(diagnostic.file, FILE);
  return diagnostic;
}

/** The only diagnostic, which must have this code, severity, message and range. */
function exactly(parsed: ParsedSkillText, code: string, severity: string, message: string, expectedRange: Range): void {
  const { message: actualMessage, range: actualRange } = single(parsed, code, severity);
  assert.equal(actualMessage, message);
  assert.deepEqual(actualRange, expectedRange);
}

function readFixture(name: string): string {
  return fs.readFileSync(path.join(fixtureSkill(name), 'SKILL.md'), 'utf8');
}

describe('parseSkillText', function () {
  it('reads the frontmatter mapping and the body with its first line', function () {
    const parsed = parse(readFixture('valid'));
    assert.deepEqual(parsed.diagnostics, []);
    assert.equal(parsed.data?.name, 'valid');
    assert.deepEqual(parsed.data?.metadata, { author: 'docs-team', version: '1.2' });
    assert.equal(parsed.bodyStartLine, 10);
    assert.ok(parsed.body?.startsWith('# Release notes\n'));
  });

  it('returns an empty mapping for an empty or comment-only frontmatter', function () {
    const parsed = parse('---\n---\nBody\n');
    assert.deepEqual(parsed.data, {});
    assert.equal(parsed.body, 'Body\n');
    assert.deepEqual(parse('---\n# nothing yet\n\n---\n').data, {});
  });

  it('accepts a YAML comment and trailing spaces on the fence lines', function () {
    const parsed = parse('--- # skill\nname: a\n---  \nBody');
    assert.deepEqual(parsed.diagnostics, []);
    assert.deepEqual(parsed.data, { name: 'a' });
    assert.equal(parsed.body, 'Body');
  });

  describe('messages', function () {
    it('names each problem with the fix', function () {
      const cases: Array<[string, boolean, string, string, string, Range]> = [
        [
          readFixture('bom'),
          true,
          'byte-order-mark',
          'error',
          'The file starts with a byte-order mark, which the specification\'s reference validator does not accept before the opening "---". Save the file as UTF-8 without BOM.',
          range(0, 0, 0, 0),
        ],
        [
          '# Title\r\nText\r\n',
          false,
          'missing-frontmatter',
          'error',
          'SKILL.md must start with YAML frontmatter: a "---" line, the fields (name, description, ...), then a closing "---" line.',
          range(0, 0, 0, 7),
        ],
        ['---- x\nname: a\n---\n', false, 'missing-frontmatter', 'error', 'The first line "---- x" is not a frontmatter fence: the frontmatter must open with a line "---".', range(0, 0, 0, 6)],
        [
          '--- js\n{}\n---\n',
          false,
          'frontmatter-language',
          'error',
          '"---js" frontmatter is not read: only YAML frontmatter is supported, and frontmatter is never run as code. Make the first line exactly "---" and write the fields in YAML.',
          range(0, 4, 0, 6),
        ],
        ['---\nname: a\n', false, 'unterminated-frontmatter', 'error', 'The frontmatter is never closed: add a line "---" after the last field, before the Markdown body.', range(0, 0, 0, 3)],
        [
          '---\nname: a\ndescription: Use --- here\n---\n',
          true,
          'frontmatter-cut',
          'warning',
          'Strict mode ends the frontmatter at this "---", as the reference validator does, although it is not a fence line; the rest of the frontmatter is ignored. Avoid "---" inside frontmatter values.',
          range(2, 17, 2, 20),
        ],
        [
          '---\n- name\n---\n',
          false,
          'frontmatter-not-mapping',
          'error',
          'The frontmatter must be a YAML mapping of fields ("name: ...", "description: ..."), not a list or a single value.',
          range(0, 0, 0, 3),
        ],
        [
          '---\nname: a\nmetadata:\n\tauthor: me\n---\n',
          false,
          'yaml-syntax',
          'error',
          'Invalid YAML in the frontmatter (line 4, column 1): tab characters must not be used in indentation. Indent with spaces.',
          range(3, 0, 3, 1),
        ],
        ['---\nname: a\0\n---\n', false, 'binary-file', 'error', 'SKILL.md contains NUL bytes: it looks like a binary file, not Markdown text. Replace it with a UTF-8 text file.', range(0, 0, 0, 0)],
      ];
      for (const [text, strict, code, severity, message, expectedRange] of cases) {
        exactly(parse(text, strict), code, severity, message, expectedRange);
      }
    });

    it('says what an undecodable byte does in the frontmatter and in the body', function () {
      exactly(
        parse('---\nname: a\ndescription: Bad \uFFFD\n---\nBody\n'),
        'invalid-utf8',
        'error',
        'SKILL.md is not valid UTF-8: the bytes at line 3, column 18 cannot be decoded (the skill is not loaded until it is fixed). Save the file as UTF-8.',
        range(2, 17, 2, 18),
      );
      exactly(
        parse('---\nname: a\n---\nBody \uFFFD\n'),
        'invalid-utf8',
        'warning',
        'SKILL.md is not valid UTF-8: the bytes at line 4, column 6 cannot be decoded (the model would read "\uFFFD" there). Save the file as UTF-8.',
        range(3, 5, 3, 6),
      );
    });
  });

  describe('positions', function () {
    const text = [
      '---',
      'name: demo # the folder name',
      '"description": >',
      '  Folded text',
      '  over two lines.',
      '',
      '# a comment between fields',
      'metadata:',
      '  author: "Ann Lee"',
      '  version: 2',
      'empty:',
      "license: 'MIT'",
      '---',
      'Body',
    ].join('\n');
    const { locations } = parse(text);

    it('spans a plain value without its trailing comment', function () {
      assert.deepEqual(locations.get('name'), { key: range(1, 0, 1, 4), value: range(1, 6, 1, 10) });
    });

    it('spans a quoted key and a folded block value over its lines', function () {
      assert.deepEqual(locations.get('description'), { key: range(2, 0, 2, 13), value: range(2, 15, 4, 17) });
    });

    it('locates the entries of a nested mapping', function () {
      const metadata = locations.get('metadata');
      assert.deepEqual(metadata?.key, range(7, 0, 7, 8));
      assert.deepEqual(metadata?.value, range(8, 2, 9, 12));
      assert.deepEqual(metadata?.children?.get('author'), { key: range(8, 2, 8, 8), value: range(8, 10, 8, 19) });
      assert.deepEqual(metadata?.children?.get('version'), { key: range(9, 2, 9, 9), value: range(9, 11, 9, 12) });
    });

    it('gives an empty value a zero-width range after the colon', function () {
      assert.deepEqual(locations.get('empty'), { key: range(10, 0, 10, 5), value: range(10, 6, 10, 6) });
    });

    it('includes the quotes of a quoted value', function () {
      assert.deepEqual(locations.get('license'), { key: range(11, 0, 11, 7), value: range(11, 9, 11, 14) });
    });
  });

  describe('byte-order mark and line endings', function () {
    it('ignores a byte-order mark in positions and data', function () {
      const parsed = parse(readFixture('bom'));
      assert.deepEqual(parsed.diagnostics, []);
      assert.equal(parsed.data?.name, 'bom');
      assert.deepEqual(parsed.locations.get('name')?.key, range(1, 0, 1, 4));
    });

    it('reports a byte-order mark as an error in strict mode, as the reference validator refuses it', function () {
      const diagnostic = single(parse(readFixture('bom'), true), 'byte-order-mark');
      assert.deepEqual(diagnostic.range, range(0, 0, 0, 0));
    });

    it('reads CRLF files without carriage returns in values or ranges', function () {
      const parsed = parse(readFixture('crlf'));
      assert.deepEqual(parsed.diagnostics, []);
      assert.equal(parsed.data?.description, 'Written with Windows line endings over two lines.\n');
      assert.deepEqual(parsed.locations.get('description')?.value, range(2, 13, 4, 17));
      assert.equal(parsed.bodyStartLine, 6);
      assert.ok(parsed.body?.startsWith('# Body\r\n'));
    });

    it('reads a file that mixes line endings, each line without its carriage return', function () {
      const parsed = parse('---\nname: demo\r\ndescription: Mixed endings.\nlicense: MIT\r\n---\n');
      assert.deepEqual(parsed.diagnostics, []);
      assert.deepEqual(parsed.data, { name: 'demo', description: 'Mixed endings.', license: 'MIT' });
    });
  });

  describe('frontmatter that is not YAML', function () {
    const globalKey = '__skillFrontmatterRan';
    const marker = path.join(os.tmpdir(), 'skill-frontmatter-ran.txt');
    const globals = globalThis as Record<string, unknown>;

    beforeEach(function () {
      delete globals[globalKey];
      fs.rmSync(marker, { force: true });
    });

    afterEach(function () {
      delete globals[globalKey];
      fs.rmSync(marker, { force: true });
    });

    it('runs no code from ---js frontmatter and reports its language', function () {
      const parsed = parse(readFixture('js-frontmatter'));
      const diagnostic = single(parsed, 'frontmatter-language');
      assert.deepEqual(diagnostic.range, range(0, 3, 0, 5));
      assert.match(diagnostic.message, /only YAML/);
      assert.equal(parsed.data, undefined);
      assert.equal(globals[globalKey], undefined, 'no global was set');
      assert.equal(fs.existsSync(marker), false, 'no file was written');
    });

    for (const language of ['javascript', 'coffee', 'cson', 'json', 'yaml']) {
      it(`refuses ---${language} frontmatter`, function () {
        const diagnostic = single(parse(`---${language}\n{"name": "a"}\n---\n`), 'frontmatter-language');
        assert.deepEqual(diagnostic.range, range(0, 3, 0, 3 + language.length));
      });
    }

    it('would run the code through gray-matter alone, which is why it never sees the fence line', function () {
      matter(`---js\n{ name: (globalThis.${globalKey} = true, 'x') }\n---\n`);
      assert.equal(globals[globalKey], true);
    });

    it('loads YAML with the safe schema, without JavaScript types', function () {
      const diagnostic = single(parse("---\nname: !!js/function 'function () { return 1; }'\n---\n"), 'yaml-syntax');
      assert.match(diagnostic.message, /unknown tag/);
      assert.equal(diagnostic.range.start.line, 1);
    });
  });

  describe('the YAML reader, loaded on first use', function () {
    it('reads the first frontmatter that needs it in a process that has not loaded it yet', function () {
      // A fresh copy of the module, as a new process (the command line) has it.
      const modulePath = require.resolve('../../../../src/core/skill-file/parse');
      const cached = require.cache[modulePath];
      delete require.cache[modulePath];
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second instance of the module, with its own state
        const fresh = require(modulePath) as { parseSkillText: typeof parseSkillText };
        const parsed = fresh.parseSkillText('---\nname: demo\ndescription: &text Does one thing.\n---\n', { file: FILE });
        assert.deepEqual(parsed.diagnostics, []);
        assert.deepEqual(parsed.data, { name: 'demo', description: 'Does one thing.' });
      } finally {
        require.cache[modulePath] = cached;
      }
    });
  });

  describe('missing or broken fences', function () {
    it('reports a file without frontmatter on its first line', function () {
      const diagnostic = single(parse(readFixture('no-frontmatter')), 'missing-frontmatter');
      assert.deepEqual(diagnostic.range, range(0, 0, 0, 15));
    });

    it('requires the fence on the very first line', function () {
      single(parse('\n---\nname: a\n---\n'), 'missing-frontmatter');
    });

    it('spans the first line without its line break, or to the end of a one-line file', function () {
      assert.deepEqual(single(parse('\n---\nname: a\n---\n'), 'missing-frontmatter').range, range(0, 0, 0, 0));
      assert.deepEqual(single(parse('# Title'), 'missing-frontmatter').range, range(0, 0, 0, 7));
    });

    it('accepts any white space after the opening fence, as it is not YAML', function () {
      const parsed = parse('---\u00a0\nname: a # note\n---\nBody');
      assert.deepEqual(parsed.diagnostics, []);
      assert.deepEqual(parsed.data, { name: 'a' });
    });

    it('does not take four dashes for a fence', function () {
      const diagnostic = single(parse('----\nname: a\n----\n'), 'missing-frontmatter');
      assert.deepEqual(diagnostic.range, range(0, 0, 0, 4));
    });

    it('reports an unterminated frontmatter on the opening fence', function () {
      const diagnostic = single(parse(readFixture('unterminated')), 'unterminated-frontmatter');
      assert.deepEqual(diagnostic.range, range(0, 0, 0, 3));
    });

    it('ends the frontmatter at the first line starting with ---', function () {
      const parsed = parse('---\nname: a\n---more\nBody\n');
      assert.deepEqual(parsed.data, { name: 'a' });
      assert.equal(parsed.body, 'Body\n');
      assert.equal(parsed.bodyStartLine, 3);
    });

    it('in strict mode ends the frontmatter at the first --- anywhere, with a warning there', function () {
      const parsed = parse('---\nname: a\ndescription: Use --- here\n---\n', true);
      const diagnostic = single(parsed, 'frontmatter-cut', 'warning');
      assert.deepEqual(diagnostic.range, range(2, 17, 2, 20));
      assert.deepEqual(parsed.data, { name: 'a', description: 'Use' });
      assert.deepEqual(parse('---\nname: a\ndescription: Use --- here\n---\n').data, { name: 'a', description: 'Use --- here' });
    });

    it('in strict mode reads a frontmatter cut by a --- that no fence line closes, without a body', function () {
      const parsed = parse('---\nname: a\ndescription: Use --- here\n', true);
      single(parsed, 'frontmatter-cut', 'warning');
      assert.deepEqual(parsed.data, { name: 'a', description: 'Use' });
      assert.equal(parsed.body, undefined);
      assert.equal(parsed.bodyStartLine, undefined);
    });
  });

  describe('YAML errors', function () {
    it('gives the line and column of a syntax error', function () {
      const diagnostic = single(parse('---\nname: a\n  bad: indent\ndescription: x\n---\n'), 'yaml-syntax');
      assert.deepEqual(diagnostic.range, range(2, 5, 2, 13));
      assert.match(diagnostic.message, /line 3, column 6.*bad indentation/);
    });

    it('places an error at the end of the input on the last frontmatter line', function () {
      const diagnostic = single(parse(readFixture('bad-yaml')), 'yaml-syntax');
      assert.equal(diagnostic.range.start.line, 3);
      assert.match(diagnostic.message, /line 4/);
    });

    it('places an error at the end of a CRLF input after the last character, not the carriage return', function () {
      exactly(
        parse('---\r\nname: [a\r\n---\r\n'),
        'yaml-syntax',
        'error',
        'Invalid YAML in the frontmatter (line 2, column 9): fix the syntax there; quote values that contain ": " or start with a special character. The YAML parser says: unexpected end of the stream within a flow collection.',
        range(1, 8, 1, 9),
      );
    });

    it('reports whatever else the YAML reader throws on the first line instead of throwing', function () {
      const engine = (matter as unknown as { engines: { yaml: { parse(yaml: string): unknown } } }).engines.yaml;
      const original = engine.parse;
      try {
        for (const [thrown, reason] of [
          [new Error('boom'), 'boom'],
          ['boom', 'boom'],
          [null, 'null'],
        ] as const) {
          engine.parse = () => {
            throw thrown;
          };
          exactly(
            parse('---\nname: a # note\n---\n'),
            'yaml-syntax',
            'error',
            `Invalid YAML in the frontmatter (line 1, column 1): fix the syntax there; quote values that contain ": " or start with a special character. The YAML parser says: ${reason}.`,
            range(0, 0, 0, 1),
          );
        }
      } finally {
        engine.parse = original;
      }
    });

    it('leads with what to do: quote the value that holds ": ", then the parser\'s words', function () {
      exactly(
        parse('---\nname: notes\ndescription: Writes notes. Use when: asked for notes.\n---\n'),
        'yaml-syntax',
        'error',
        'Invalid YAML in the frontmatter (line 3, column 36): put the value of "description" in quotes, since it contains ": ". The YAML parser says: incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line.',
        range(2, 35, 2, 53),
      );
    });

    it('reports a duplicated key on its second occurrence', function () {
      const diagnostic = single(parse('---\nname: a\nname: b\n---\n'), 'yaml-syntax');
      assert.equal(diagnostic.range.start.line, 2);
      assert.match(diagnostic.message, /duplicated mapping key/);
    });

    it('reports tabs used as indentation', function () {
      const nested = single(parse('---\nname: a\nmetadata:\n\tauthor: me\n---\n'), 'yaml-syntax');
      assert.deepEqual(nested.range, range(3, 0, 3, 1));
      assert.match(nested.message, /tab characters/);
      const afterSpaces = single(parse('---\nname: a\nmetadata:\n  \tauthor: me\n---\n'), 'yaml-syntax');
      assert.deepEqual(afterSpaces.range, range(3, 2, 3, 3));
    });

    it('allows tabs inside block text, quoted text and after a colon', function () {
      assert.deepEqual(parse('---\ndescription: |\n  one\n  \ttwo: x\n---\n').diagnostics, []);
      assert.deepEqual(parse('---\ndescription: "one\n\ttwo"\n---\n').diagnostics, []);
      assert.deepEqual(parse('---\nname:\ta\n---\n').data, { name: 'a' });
    });

    it('requires a mapping, not a list or a single value', function () {
      single(parse('---\n- name\n- description\n---\n'), 'frontmatter-not-mapping');
      single(parse('---\njust words\n---\n'), 'frontmatter-not-mapping');
      single(parse('---\n2024-01-31\n---\n'), 'frontmatter-not-mapping');
    });
  });

  describe('YAML nested too deeply', function () {
    it('says that the nesting is too deep and where, not that the stack overflowed', function () {
      const deepList = `${'['.repeat(20000)}${']'.repeat(20000)}`;
      const flow = single(parse(`---\nname: deep\ndescription: d\nmetadata: ${deepList}\n---\nBody\n`), 'yaml-syntax');
      assert.match(flow.message, /^Invalid YAML in the frontmatter \(line 4, column \d+\): the values are nested too deeply to read/);
      assert.doesNotMatch(flow.message, /call stack/);
      assert.equal(flow.range.start.line, 3);
      const blockLines = Array.from({ length: 6000 }, (_, level) => `${' '.repeat(level)}k${level}:`);
      const block = single(parse(`---\nname: deep\ndescription: d\nmetadata:\n${blockLines.map((line) => ` ${line}`).join('\n')} x\n---\n`), 'yaml-syntax');
      assert.match(block.message, /nested too deeply/);
      assert.equal(block.range.start.line, 4 + blockLines.length - 1);
    });

    const tooDeep = (line: number, column: number, endColumn: number): [string, string, string, Range] => [
      'yaml-syntax',
      'error',
      `Invalid YAML in the frontmatter (line ${line + 1}, column ${column + 1}): the values are nested too deeply to read (thousands of levels of lists or mappings). Fix the syntax there; quote values that contain ": " or start with a special character.`,
      range(line, column, line, endColumn),
    ];

    it('shows the first of the deepest brackets, counting lists and mappings alike', function () {
      const depth = 20000;
      const lines = ['name: deep', 'description: d', `metadata: {a: ${'{'.repeat(depth)}${'}'.repeat(depth + 1)}`, `other: [${'['.repeat(depth)}${']'.repeat(depth + 1)}`, 'tags: [[x]]'];
      exactly(parse(`---\n${lines.join('\n')}\n---\n`), ...tooDeep(3, 13 + depth, lines[2].length));
    });

    it('shows the first of the deepest indented lines, ignoring blank lines, stray brackets and indentation inside brackets', function () {
      const levels = Array.from({ length: 6000 }, (_, level) => `${' '.repeat(level + 1)}k${level}:`);
      const lines = [
        'name: deep',
        'description: see ] and } here',
        'metadata:',
        ...levels.slice(0, -1),
        `${levels[levels.length - 1]} x`,
        `${' '.repeat(6000)}k6000: y`,
        ' '.repeat(7000),
        'z: [',
        `${' '.repeat(7000)}x]`,
      ];
      exactly(parse(`---\n${lines.join('\n')}\n---\n`), ...tooDeep(6003, 6000, 6008));
    });

    it('shows a deep compact list at the start of its line', function () {
      exactly(parse(`---\n${'- '.repeat(20000)}x\n---\n`), ...tooDeep(1, 0, 40001));
    });
  });

  describe('bytes that are not UTF-8', function () {
    const decoded = (bytes: Buffer): string => bytes.toString('utf8');

    it('reports an undecodable byte in the frontmatter as an error at its line and column', function () {
      const text = decoded(Buffer.concat([Buffer.from('---\nname: a\ndescription: Bad '), Buffer.from([0xff]), Buffer.from(' byte.\n---\nBody\n')]));
      const diagnostic = single(parse(text), 'invalid-utf8');
      assert.deepEqual(diagnostic.range, range(2, 17, 2, 18));
      assert.match(diagnostic.message, /^SKILL\.md is not valid UTF-8: the bytes at line 3, column 18 cannot be decoded/);
    });

    it('warns about an undecodable byte in the body, which the model would read', function () {
      const text = decoded(Buffer.concat([Buffer.from('---\nname: a\ndescription: ok\n---\n\nBody '), Buffer.from([0xc3, 0x28])]));
      const diagnostic = single(parse(text), 'invalid-utf8', 'warning');
      assert.deepEqual(diagnostic.range.start, { line: 5, column: 5 });
    });
  });

  describe('binary content', function () {
    it('refuses a file with NUL bytes and no frontmatter', function () {
      const diagnostic = single(parse(readFixture('binary')), 'binary-file');
      assert.deepEqual(diagnostic.range, range(0, 0, 0, 0));
    });

    it('refuses NUL bytes inside the frontmatter', function () {
      single(parse('---\nname: a\0b\n---\n'), 'binary-file');
    });

    it('refuses NUL bytes in an unterminated frontmatter', function () {
      single(parse('---\nname: a\0b\n'), 'binary-file');
    });

    it('looks for NUL bytes in the first 1024 characters of a file without frontmatter', function () {
      single(parse('\0\0'), 'binary-file');
      single(parse(`${'x'.repeat(1023)}\0`), 'binary-file');
      single(parse(`${'x'.repeat(1024)}\0`), 'missing-frontmatter');
    });

    it('leaves NUL bytes after the frontmatter to the body', function () {
      assert.deepEqual(parse('---\nname: a\n---\nx\0y').diagnostics, []);
    });
  });

  it('returns the body only when asked', function () {
    const parsed = parseSkillText('---\nname: a\n---\nBody\n', { file: FILE });
    assert.deepEqual(parsed.data, { name: 'a' });
    assert.equal(parsed.body, undefined);
    assert.equal(parsed.bodyStartLine, undefined);
  });

  it('keeps no state between calls on the same text', function () {
    const text = '---\nname: a\nmetadata:\n  k: v\n---\n';
    const cache = (matter as unknown as { cache: object }).cache;
    const cachedBefore = Object.keys(cache).length;
    const first = parse(text);
    (first.data?.metadata as Record<string, string>).k = 'changed';
    const second = parse(text);
    assert.deepEqual(second.data?.metadata, { k: 'v' });
    assert.equal(Object.keys(cache).length, cachedBefore, "gray-matter's content cache does not grow");
  });
});

describe('extractSkillBody', function () {
  it('returns the text after the closing fence line and where it starts', function () {
    assert.deepEqual(extractSkillBody('\uFEFF---\r\nname: a\r\n---\r\nLine 1\r\nLine 2'), { text: 'Line 1\r\nLine 2', startLine: 3 });
    assert.deepEqual(extractSkillBody('---\nname: a\n---'), { text: '', startLine: 2 });
  });

  it('returns undefined without a complete frontmatter', function () {
    assert.equal(extractSkillBody('# Title'), undefined);
    assert.equal(extractSkillBody('# Title\n---\nText'), undefined);
    assert.equal(extractSkillBody('---\nname: a\n'), undefined);
  });
});

describe('frontmatterYaml', function () {
  it('returns the lines between the fences, without the opening line or a byte-order mark', function () {
    assert.equal(frontmatterYaml('\uFEFF--- # note\nname: a\nlicense: MIT\n---\nBody'), 'name: a\nlicense: MIT');
    assert.equal(frontmatterYaml('--- # note\n---\nBody'), '');
    assert.equal(frontmatterYaml('---\n---'), '');
  });

  it('returns undefined without a complete frontmatter', function () {
    assert.equal(frontmatterYaml('# Title\n---\nname: a\n---\n'), undefined);
    assert.equal(frontmatterYaml('---\nname: a\n'), undefined);
  });
});

describe('frontmatterHeadLength', function () {
  const head = (text: string): number | undefined => {
    const bytes = Buffer.from(text, 'utf8');
    return frontmatterHeadLength(bytes, bytes.length);
  };

  it('asks for more until the closing fence is in view, then counts the bytes up to it', function () {
    assert.equal(head('---\nname: é\n'), undefined);
    assert.equal(head('---\nname: é\n---\nBody'), 16);
    assert.equal(head('\uFEFF---\n---'), 10);
    assert.equal(head('--'), undefined);
  });

  it('looks only at the bytes read so far', function () {
    const bytes = Buffer.from('---\nname: a\n---\n');
    assert.equal(frontmatterHeadLength(bytes, 12), undefined);
    assert.equal(frontmatterHeadLength(bytes, 14), undefined);
    assert.equal(frontmatterHeadLength(bytes, 15), 15);
  });

  it('for a file without frontmatter, asks for enough bytes to detect binary content', function () {
    assert.equal(head('# Title\n'), undefined);
    assert.equal(head(`# Title\n${'x'.repeat(5000)}`), 5008);
    assert.equal(head('x'.repeat(4095)), undefined);
    assert.equal(head('x'.repeat(4096)), 4096);
  });
});

describe('parseFlatFrontmatter', function () {
  const yamlEngine = (matter as unknown as { engines: { yaml: { parse(yaml: string): unknown } } }).engines.yaml;
  const yamlResult = (lines: string[]): unknown => {
    try {
      return yamlEngine.parse(lines.join('\n'));
    } catch (error) {
      return error;
    }
  };

  const values = [
    'plain words',
    'C#',
    'x:y',
    '  spaced  value  ',
    'x [y] {z}',
    "it's",
    'x &y *z !t |p >q %r @s `t',
    'x,y',
    'x - y',
    'x --- y',
    'yes',
    'no',
    'on',
    'Infinity',
    'NaN',
    'x%20y',
    'x? y',
    'x "quoted"',
    'x <<',
    'é ü',
    'naïve',
    'true',
    'False',
    'NULL',
    'Null',
    'b: c',
    'b #c',
    'b#c',
    'x:',
    '2024-01-31',
    '12',
    '0x1F',
    '.inf',
    '~',
    '"quoted"',
    "'single'",
    '[a, b]',
    '{a: 1}',
    '|',
    '>-',
    '&anchor x',
    '*alias',
    '!tag x',
    '@at',
    '`tick`',
    '- item',
    '? key',
    'x\ty',
    'x\u2028y',
    'x\u0085y',
    '😀',
    '',
  ];

  it('gives what the YAML parser gives, or leaves the text to it', function () {
    let taken = 0;
    for (const value of values) {
      for (const lines of [
        ['', `key: ${value}`],
        ['', 'name: a', '', '# note', `key: ${value}`, 'other: b'],
      ]) {
        const flat = parseFlatFrontmatter(lines);
        if (flat === undefined) {
          continue;
        }
        taken++;
        assert.deepEqual(flat, yamlResult(lines), JSON.stringify(lines));
      }
    }
    assert.ok(taken >= 40, `${taken} cases read without the YAML parser`);
  });

  it('leaves nested, indented, repeated and null or boolean entries to the YAML parser', function () {
    for (const lines of [
      ['', 'metadata:', '  a: b'],
      ['', 'description: >', '  folded'],
      ['', 'description: one', '  continued'],
      ['', 'name: a', 'name: b'],
      ['', 'user-invocable: true'],
      ['', 'name: a', '\tb: c'],
      ['', 'name: a # comment'],
    ]) {
      assert.equal(parseFlatFrontmatter(lines), undefined, JSON.stringify(lines));
    }
  });
});

describe('parseSimpleFrontmatter', function () {
  const yamlEngine = (matter as unknown as { engines: { yaml: { parse(yaml: string): unknown } } }).engines.yaml;
  const lineChoices = [
    'name: a',
    'metadata:',
    '  author: me',
    '  version: "1.3"',
    "  tag: 'x: y'",
    '    deeper: x',
    ' odd: x',
    '',
    '  ',
    '# note',
    '  # note',
    '\ttab: x',
    '  \ttab: x',
    'quoted: "a: b #c"',
    'escaped: "q\\"x"',
    "doubled: 'it''s'",
    'after: "y" z',
    'spaced: "y"  ',
    'empty: ""',
    'null: null',
    'word: "null"',
    '  - item',
    'list:',
    'metadata: flat',
    '   author: other',
    'trailing: x\u00a0',
    '\u00a0',
    ' \t',
    'name: b',
  ];

  it('gives what the YAML parser gives, or leaves the text to it', function () {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    let taken = 0;
    for (let run = 0; run < 20000; run++) {
      const lines = [''];
      for (let count = 1 + Math.floor(next() * 6); count > 0; count--) {
        lines.push(lineChoices[Math.floor(next() * lineChoices.length)]);
      }
      const simple = parseSimpleFrontmatter(lines);
      if (simple === undefined) {
        continue;
      }
      taken++;
      let expected: unknown;
      try {
        expected = yamlEngine.parse(lines.join('\n')) ?? {};
      } catch (error) {
        expected = error;
      }
      assert.deepEqual(simple, expected, JSON.stringify(lines));
    }
    assert.ok(taken >= 1000, `${taken} cases read without the YAML parser`);
  });

  it('reads a metadata block with quoted values', function () {
    assert.deepEqual(parseSimpleFrontmatter(['', 'name: a', 'metadata:', '  author: me', '  version: "1.3"', 'license: MIT']), {
      name: 'a',
      metadata: { author: 'me', version: '1.3' },
      license: 'MIT',
    });
  });
});
