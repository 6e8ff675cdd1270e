import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSkillText } from '../../../../src/core/skill-file/parse';
import type { Range, SkillDiagnostic } from '../../../../src/core/model/types';
import { validateBody } from '../../../../src/core/skill-file/validate-body';
import { validateFrontmatter, validNameSuggestion, type FrontmatterValidation } from '../../../../src/core/skill-file/validate-frontmatter';
import { fixtureSkill } from '../../../fixtures/skills/temp-skills';

const FILE = '/skills/demo/SKILL.md';
const DESCRIPTION = 'description: Does one thing well.';
const OPENING_FENCE = range(0, 0, 0, 3);

function range(startLine: number, startColumn: number, endLine: number, endColumn: number): Range {
  return { start: { line: startLine, column: startColumn }, end: { line: endLine, column: endColumn } };
}

interface CheckOptions {
  dirName?: string;
  strict?: boolean;
}

/** Validates the frontmatter made of `lines`; the folder is `demo` unless said otherwise. */
function check(lines: string[], options: CheckOptions = {}): FrontmatterValidation {
  const parsed = parseSkillText(`---\n${lines.join('\n')}\n---\nBody\n`, { file: FILE });
  assert.deepEqual(parsed.diagnostics, [], 'the test frontmatter parses');
  assert.ok(parsed.data);
  const dirName = 'dirName' in options ? options.dirName : 'demo';
  return validateFrontmatter(parsed.data, { file: FILE, dirName, strict: options.strict, locations: parsed.locations });
}

/** `severity:code` of each diagnostic, in order. */
function codes(result: { diagnostics: SkillDiagnostic[] }): string[] {
  return result.diagnostics.map((diagnostic) => `${diagnostic.severity}:${diagnostic.code}`);
}

function only(result: FrontmatterValidation, expected: string): SkillDiagnostic {
  assert.deepEqual(codes(result), [expected]);
  return result.diagnostics[0];
}

describe('validateFrontmatter', function () {
  it('builds the metadata of a minimal skill with the extension defaults', function () {
    const result = check(['name: demo', DESCRIPTION]);
    assert.deepEqual(result, {
      metadata: { name: 'demo', description: 'Does one thing well.', userInvocable: true, disableModelInvocation: false },
      diagnostics: [],
    });
  });

  it('keeps every specification field', function () {
    const result = check([
      'name: demo',
      'description: |',
      '  Does one thing well.',
      'license: Apache-2.0',
      'compatibility: Needs Python 3.12',
      'allowed-tools: Read Bash(git:*)',
      'metadata:',
      '  author: me',
    ]);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(result.metadata, {
      name: 'demo',
      description: 'Does one thing well.',
      license: 'Apache-2.0',
      compatibility: 'Needs Python 3.12',
      allowedTools: 'Read Bash(git:*)',
      metadata: { author: 'me' },
      userInvocable: true,
      disableModelInvocation: false,
    });
  });

  describe('name', function () {
    it('is required', function () {
      const result = check([DESCRIPTION]);
      assert.deepEqual(only(result, 'error:missing-name').range, OPENING_FENCE);
      assert.equal(result.metadata, undefined);
    });

    it('must not be empty', function () {
      assert.deepEqual(only(check(['name: ""', DESCRIPTION]), 'error:missing-name').range, range(1, 6, 1, 8));
      assert.deepEqual(only(check(['name:', DESCRIPTION]), 'error:missing-name').range, range(1, 0, 1, 4));
      only(check(['name: "   "', DESCRIPTION]), 'error:missing-name');
    });

    it('warns past 64 characters and still loads; strict mode makes it an error', function () {
      assert.deepEqual(codes(check([`name: ${'a'.repeat(64)}`, DESCRIPTION], { dirName: 'a'.repeat(64) })), []);
      const long = 'a'.repeat(65);
      const lenient = check([`name: ${long}`, DESCRIPTION], { dirName: long });
      assert.deepEqual(only(lenient, 'warning:name-too-long').range, range(1, 6, 1, 71));
      assert.equal(lenient.metadata?.name, long);
      only(check([`name: ${long}`, DESCRIPTION], { dirName: long, strict: true }), 'error:name-too-long');
    });

    it('must be lowercase', function () {
      const diagnostic = only(check(['name: Demo', DESCRIPTION], { dirName: 'Demo' }), 'error:name-uppercase');
      assert.deepEqual(diagnostic.range, range(1, 6, 1, 10));
      assert.match(diagnostic.message, /"demo"/);
      only(check(['name: Навык', DESCRIPTION], { dirName: 'Навык' }), 'error:name-uppercase');
    });

    it('suggests only names that pass every rule', function () {
      const wrong = check(['name: Wrong_Name', DESCRIPTION], { dirName: 'wrong-name' });
      const messages = wrong.diagnostics.filter((diagnostic) => diagnostic.code.startsWith('name-') && diagnostic.code !== 'name-mismatch').map((diagnostic) => diagnostic.message);
      assert.deepEqual(messages, [
        'The name must be lowercase: use "wrong-name".',
        'The name contains characters that are not allowed ("_"). Use lowercase letters, digits and hyphens, e.g. "wrong-name".',
      ]);
      for (const [name, suggestion] of [
        ['API Tests', 'api-tests'],
        ['-Release__Notes-', 'release-notes'],
        ['my.skill v2', 'my-skill-v2'],
        ['de--mo', 'de-mo'],
        ['Навык', 'навык'],
      ]) {
        assert.equal(validNameSuggestion(name), suggestion, name);
        const suggested = check([`name: ${suggestion}`, DESCRIPTION], { dirName: suggestion });
        assert.deepEqual(
          suggested.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'),
          [],
          suggestion,
        );
      }
      assert.equal(validNameSuggestion('___'), undefined);
      assert.equal(validNameSuggestion(`A${'b'.repeat(70)}`)?.length, 64);
    });

    it('must not start or end with a hyphen, nor contain "--"', function () {
      only(check(['name: -demo', DESCRIPTION], { dirName: '-demo' }), 'error:name-hyphen-edge');
      only(check(['name: demo-', DESCRIPTION], { dirName: 'demo-' }), 'error:name-hyphen-edge');
      only(check(['name: de--mo', DESCRIPTION], { dirName: 'de--mo' }), 'error:name-consecutive-hyphens');
    });

    it('rejects characters outside letters, digits and hyphens, naming them', function () {
      const diagnostic = only(check(['name: my_skill.v2', DESCRIPTION], { dirName: 'my_skill.v2' }), 'error:name-invalid-characters');
      assert.match(diagnostic.message, /"_", "\."/);
      only(check(['name: αβγ', DESCRIPTION], { dirName: 'αβγ' }), 'error:name-invalid-characters');
      only(check(['name: emoji-😀', DESCRIPTION], { dirName: 'emoji-😀' }), 'error:name-invalid-characters');
    });

    it('accepts lowercase letters the specification allows, warning that VS Code accepts only a-z 0-9 -', function () {
      for (const strict of [false, true]) {
        const result = check(['name: café', DESCRIPTION], { dirName: 'café', strict });
        assert.match(only(result, 'warning:name-not-portable').message, /a-z.*0-9/);
        assert.equal(result.metadata?.name, 'café');
      }
      only(check(['name: 技能', DESCRIPTION], { dirName: '技能' }), 'warning:name-not-portable');
    });

    it('compares names after NFKC normalization, as the specification does', function () {
      const result = check(['name: ｐｄｆ', DESCRIPTION], { dirName: 'pdf' });
      only(result, 'warning:name-not-portable');
      assert.equal(result.metadata?.name, 'pdf');
    });

    it('warns when it differs from the folder, and strict mode makes it an error', function () {
      const lenient = check(['name: other', DESCRIPTION]);
      const diagnostic = only(lenient, 'warning:name-mismatch');
      assert.deepEqual(diagnostic.range, range(1, 6, 1, 11));
      assert.match(diagnostic.message, /folder "demo"/);
      assert.equal(lenient.metadata?.name, 'other');
      only(check(['name: other', DESCRIPTION], { strict: true }), 'error:name-mismatch');
      assert.deepEqual(codes(check(['name: other', DESCRIPTION], { dirName: undefined })), []);
    });

    it('reads a number as text with a warning, and refuses a list', function () {
      const result = check(['name: 123', DESCRIPTION], { dirName: '123' });
      only(result, 'warning:field-type');
      assert.equal(result.metadata?.name, '123');
      only(check(['name: [demo]', DESCRIPTION]), 'error:field-type');
    });

    it('in strict mode reads any value as text, as the reference validator does', function () {
      assert.deepEqual(codes(check(['name: [demo]', DESCRIPTION], { strict: true })), ['warning:field-type']);
      assert.deepEqual(codes(check(['name:', DESCRIPTION], { strict: true })), ['warning:field-type', 'error:name-mismatch']);
    });
  });

  describe('description', function () {
    it('is required', function () {
      const result = check(['name: demo']);
      assert.deepEqual(only(result, 'error:missing-description').range, OPENING_FENCE);
      assert.equal(result.metadata, undefined);
    });

    it('must not be empty or blank', function () {
      assert.deepEqual(only(check(['name: demo', 'description: ""']), 'error:missing-description').range, range(2, 13, 2, 15));
      only(check(['name: demo', 'description: "  "']), 'error:missing-description');
      only(check(['name: demo', 'description:']), 'error:missing-description');
    });

    it('accepts an empty value in strict mode, which the reference validator reads as "null"', function () {
      only(check(['name: demo', 'description:'], { strict: true }), 'warning:field-type');
    });

    it('is limited to 1024 characters, counted in UTF-16 units', function () {
      assert.deepEqual(codes(check(['name: demo', `description: ${'d'.repeat(1024)}`])), []);
      const diagnostic = only(check(['name: demo', `description: ${'d'.repeat(1025)}`]), 'error:description-too-long');
      assert.deepEqual(diagnostic.range, range(2, 13, 2, 1038));
      assert.match(diagnostic.message, /1025/);
      only(check(['name: demo', `description: ${'😀'.repeat(513)}`]), 'error:description-too-long');
    });

    it('is trimmed in the metadata', function () {
      assert.equal(check(['name: demo', 'description: >', '  Folded', '  text.']).metadata?.description, 'Folded text.');
    });
  });

  describe('compatibility', function () {
    it('is limited to 500 characters', function () {
      assert.equal(check(['name: demo', DESCRIPTION, `compatibility: ${'c'.repeat(500)}`]).metadata?.compatibility?.length, 500);
      const result = check(['name: demo', DESCRIPTION, `compatibility: ${'c'.repeat(501)}`]);
      assert.deepEqual(only(result, 'error:compatibility-too-long').range, range(3, 15, 3, 516));
      assert.equal(result.metadata, undefined);
    });

    it('must be text', function () {
      only(check(['name: demo', DESCRIPTION, 'compatibility: 3']), 'error:field-type');
      only(check(['name: demo', DESCRIPTION, 'compatibility:']), 'error:field-type');
    });

    it('warns when empty and leaves it out', function () {
      const result = check(['name: demo', DESCRIPTION, 'compatibility: ""']);
      only(result, 'warning:empty-compatibility');
      assert.equal(result.metadata?.compatibility, undefined);
    });
  });

  describe('license and allowed-tools', function () {
    it('warns about a value that is not text and leaves it out', function () {
      const result = check(['name: demo', DESCRIPTION, 'license: 2', 'allowed-tools: [Read, Write]']);
      assert.deepEqual(codes(result), ['warning:field-type', 'warning:field-type']);
      assert.deepEqual(result.diagnostics[1].range, range(4, 15, 4, 28));
      assert.equal(result.metadata?.license, undefined);
      assert.equal(result.metadata?.allowedTools, undefined);
    });

    it('in strict mode refuses an allowed-tools list, which the specification defines as one string', function () {
      const result = check(['name: demo', DESCRIPTION, "allowed-tools: ['A', 'B']"], { strict: true });
      only(result, 'error:field-type');
      assert.match(result.diagnostics[0].message, /"allowed-tools" must be text \(tool names separated by spaces\), as the specification defines it/);
      assert.equal(result.metadata, undefined);
    });
  });

  describe('metadata', function () {
    it('reads numbers and booleans as text, drops other values, and warns on each', function () {
      const result = check(['name: demo', DESCRIPTION, 'metadata:', '  author: me', '  version: 2', '  beta: true', '  nested:', '    deep: x', '  nothing:']);
      assert.deepEqual(codes(result), ['warning:field-type', 'warning:field-type', 'warning:field-type', 'warning:field-type']);
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => diagnostic.range),
        [range(5, 11, 5, 12), range(6, 8, 6, 12), range(8, 4, 8, 11), range(9, 2, 9, 9)],
      );
      assert.deepEqual(result.metadata?.metadata, { author: 'me', version: '2', beta: 'true' });
    });

    it('warns when it is not a mapping, and ignores it', function () {
      for (const value of ['just text', '[a, b]']) {
        const result = check(['name: demo', DESCRIPTION, `metadata: ${value}`]);
        assert.deepEqual(only(result, 'warning:field-type').range, range(3, 10, 3, 10 + value.length));
        assert.equal(result.metadata?.metadata, undefined);
      }
    });
  });

  describe('extension fields', function () {
    const extensions = ['argument-hint: "[file]"', 'user-invocable: false', 'disable-model-invocation: true', 'context: fork', 'model: gpt-4o'];

    it('are read into the metadata', function () {
      const result = check(['name: demo', DESCRIPTION, ...extensions]);
      assert.deepEqual(result.diagnostics, []);
      assert.deepEqual(result.metadata, {
        name: 'demo',
        description: 'Does one thing well.',
        argumentHint: '[file]',
        userInvocable: false,
        disableModelInvocation: true,
        context: 'fork',
        model: 'gpt-4o',
      });
    });

    it('warn about a value of the wrong type and keep the default', function () {
      const result = check(['name: demo', DESCRIPTION, 'user-invocable: "no"', 'context: forked', 'model: 4']);
      assert.deepEqual(codes(result), ['warning:field-type', 'warning:field-type', 'warning:field-type']);
      assert.match(result.diagnostics[0].message, /true or false/);
      assert.match(result.diagnostics[1].message, /"inline" or "fork"/);
      assert.deepEqual(result.diagnostics[1].range, range(4, 9, 4, 15));
      assert.equal(result.metadata?.userInvocable, true);
      assert.equal(result.metadata?.context, undefined);
    });

    it('are errors in strict mode, on their keys', function () {
      const result = check(['name: demo', DESCRIPTION, ...extensions], { strict: true });
      assert.deepEqual(codes(result), Array(5).fill('error:extension-field'));
      assert.deepEqual(result.diagnostics[1].range, range(4, 0, 4, 14));
      assert.equal(result.metadata, undefined);
    });
  });

  describe('unknown fields', function () {
    it('are warnings on their keys, with a suggestion for near misses', function () {
      const result = check(['name: demo', DESCRIPTION, 'allowed_tools: Read', 'tags: [a]']);
      assert.deepEqual(codes(result), ['warning:unknown-field', 'warning:unknown-field']);
      assert.deepEqual(result.diagnostics[0].range, range(3, 0, 3, 13));
      assert.match(result.diagnostics[0].message, /did you mean "allowed-tools"/);
      assert.doesNotMatch(result.diagnostics[1].message, /did you mean/);
      assert.ok(result.metadata);
    });

    it('are errors in strict mode', function () {
      const result = check(['name: demo', DESCRIPTION, 'tags: [a]'], { strict: true });
      only(result, 'error:unknown-field');
      assert.equal(result.metadata, undefined);
    });
  });
});

describe('validateBody', function () {
  const context = { file: FILE, skillDir: fixtureSkill('links'), bodyStartLine: 4 };

  function lines(count: number, text = 'line'): string {
    return `${Array(count).fill(text).join('\n')}\n`;
  }

  it('accepts 500 lines and ~5,000 tokens', function () {
    assert.deepEqual(validateBody(lines(500), context), []);
    assert.deepEqual(validateBody('x'.repeat(20_000), context), []);
  });

  it('warns past 500 lines, on the first line over', function () {
    const [diagnostic, ...rest] = validateBody(lines(501), context);
    assert.deepEqual(rest, []);
    assert.equal(diagnostic.code, 'body-too-long');
    assert.equal(diagnostic.severity, 'warning');
    assert.deepEqual(diagnostic.range, range(504, 0, 504, 4));
    assert.match(diagnostic.message, /501 lines/);
  });

  it('warns past ~5,000 tokens (four characters each), on the line where the budget runs out', function () {
    const [diagnostic] = validateBody(lines(3, 'x'.repeat(8000)), context);
    assert.equal(diagnostic.code, 'body-too-long');
    assert.deepEqual(diagnostic.range, range(6, 0, 6, 8000));
    assert.match(diagnostic.message, /about 6001 tokens/);
  });

  it('warns on relative links to files missing from the skill folder, on the link target', function () {
    const text = fs.readFileSync(path.join(context.skillDir, 'SKILL.md'), 'utf8');
    const parsed = parseSkillText(text, { file: FILE, includeBody: true });
    assert.ok(parsed.body !== undefined && parsed.bodyStartLine !== undefined);
    const diagnostics = validateBody(parsed.body, { ...context, bodyStartLine: parsed.bodyStartLine });
    const fileLines = text.split('\n');
    const rangeOf = (target: string): Range => {
      const line = fileLines.findIndex((candidate) => candidate.includes(`](${target})`) || candidate.includes(`]: ${target}`));
      const column = fileLines[line].indexOf(target);
      return range(line, column, line, column + target.length);
    };
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.range]),
      [
        ['missing-link', 'warning', rangeOf('references/gone.md')],
        ['missing-link', 'warning', rangeOf('assets/diagram.png')],
        ['link-outside-skill', 'warning', rangeOf('../outside.md')],
        ['missing-link', 'warning', rangeOf('references/missing-definition.md')],
      ],
    );
    assert.match(diagnostics[0].message, /"references\/gone.md" does not exist/);
  });

  it('finds links in CRLF bodies at the right column', function () {
    const text = fs.readFileSync(path.join(fixtureSkill('crlf'), 'SKILL.md'), 'utf8');
    const parsed = parseSkillText(text, { file: FILE, includeBody: true });
    const diagnostics = validateBody(parsed.body ?? '', { ...context, skillDir: fixtureSkill('crlf'), bodyStartLine: parsed.bodyStartLine ?? 0 });
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range]),
      [['missing-link', range(8, 14, 8, 24)]],
    );
  });
});
