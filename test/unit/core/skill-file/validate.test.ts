import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSkillText } from '../../../../src/core/skill-file/parse';
import type { Range, SkillDiagnostic } from '../../../../src/core/model/types';
import { validateBody } from '../../../../src/core/skill-file/validate-body';
import { validateFrontmatter, validNameSuggestion, type FrontmatterValidation } from '../../../../src/core/skill-file/validate-frontmatter';
import { NEW_SKILL_DESCRIPTION } from '../../../../src/core/skill-file/schema';
import { fixtureSkill, makeTempRoot, removeTempRoot } from '../../../fixtures/skills/temp-skills';

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

/** Each diagnostic as `[severity:code, message, [start line, start column, end line, end column]]`. */
function reported(result: { diagnostics: SkillDiagnostic[] }): Array<[string, string, number[]]> {
  return result.diagnostics.map(({ severity, code, message, range: { start, end } }) => [`${severity}:${code}`, message, [start.line, start.column, end.line, end.column]]);
}

const NOT_PORTABLE = 'is valid for the specification, but VS Code\'s own skills support accepts only lowercase a-z, digits 0-9 and "-". Prefer an ASCII name for portability.';

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

    it('says what is missing or empty, naming the folder when it is known', function () {
      assert.deepEqual(reported(check([DESCRIPTION])), [['error:missing-name', 'The required field "name" is missing. Add "name: demo" (the folder name).', [0, 0, 0, 3]]]);
      assert.deepEqual(reported(check([DESCRIPTION], { dirName: undefined })), [['error:missing-name', 'The required field "name" is missing. Add "name: my-skill" (the folder name).', [0, 0, 0, 3]]]);
      assert.deepEqual(reported(check(['name: ""', DESCRIPTION])), [['error:missing-name', '"name" is empty. Set it to the folder name ("demo").', [1, 6, 1, 8]]]);
      assert.deepEqual(reported(check(['name: ""', DESCRIPTION], { dirName: undefined })), [['error:missing-name', '"name" is empty. Set it to the folder name.', [1, 6, 1, 8]]]);
    });

    it('says how a value that is not text is read', function () {
      assert.deepEqual(reported(check(['name: true', DESCRIPTION], { dirName: 'true' })), [
        ['warning:field-type', '"name" should be text; it is read as "true". Write it as a quoted string.', [1, 6, 1, 10]],
      ]);
      assert.deepEqual(reported(check(['name: [demo]', DESCRIPTION])), [['error:field-type', '"name" must be text. Write it as a quoted string.', [1, 6, 1, 12]]]);
    });

    it('places each format problem on the value, with a suggestion only when one is left', function () {
      assert.deepEqual(reported(check(['name: -demo-', DESCRIPTION], { dirName: '-demo-' })), [
        ['error:name-hyphen-edge', 'The name must not start or end with a hyphen, e.g. "demo".', [1, 6, 1, 12]],
      ]);
      assert.deepEqual(reported(check(['name: "-"', DESCRIPTION], { dirName: '-' })), [['error:name-hyphen-edge', 'The name must not start or end with a hyphen.', [1, 6, 1, 9]]]);
      assert.deepEqual(reported(check(['name: de--mo', DESCRIPTION], { dirName: 'de--mo' })), [
        ['error:name-consecutive-hyphens', 'The name must not contain consecutive hyphens ("--"), e.g. "de-mo".', [1, 6, 1, 12]],
      ]);
      assert.deepEqual(reported(check(['name: Ω', DESCRIPTION], { dirName: 'Ω' })), [
        ['error:name-uppercase', 'The name must be lowercase.', [1, 6, 1, 7]],
        ['error:name-invalid-characters', 'The name contains characters that are not allowed ("Ω"). Use lowercase letters, digits and hyphens.', [1, 6, 1, 7]],
      ]);
    });

    it('warns that a name is not portable beside other warnings, even an over-long name', function () {
      assert.deepEqual(reported(check(['name: café', DESCRIPTION, 'tags: x'], { dirName: 'café' })).slice(1), [['warning:name-not-portable', `The name "café" ${NOT_PORTABLE}`, [1, 6, 1, 10]]]);
      const long = 'é'.repeat(65);
      assert.deepEqual(reported(check([`name: ${long}`, DESCRIPTION], { dirName: long })), [
        ['warning:name-too-long', 'The name is 65 characters long; the limit is 64. Shorten it (and rename the folder to match).', [1, 6, 1, 71]],
        ['warning:name-not-portable', `The name "${long}" ${NOT_PORTABLE}`, [1, 6, 1, 71]],
      ]);
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

    it('says how a value that is not text is read, and when it is empty', function () {
      assert.deepEqual(reported(check(['name: demo', 'description: 42'])), [['warning:field-type', '"description" should be text; it is read as "42". Write it as a quoted string.', [2, 13, 2, 15]]]);
      assert.deepEqual(reported(check(['name: demo', 'description: [a, b]'])), [['error:field-type', '"description" must be text. Write it as a quoted string.', [2, 13, 2, 19]]]);
      assert.deepEqual(reported(check(['name: demo', 'description: ""'])), [
        ['error:missing-description', '"description" is empty. Say what the skill does and when to use it: the model chooses skills by their description.', [2, 13, 2, 15]],
      ]);
    });

    it('warns while it is still the placeholder Create Skill wrote, spaces aside', function () {
      const result = check(['name: demo', `description: "${NEW_SKILL_DESCRIPTION} "`]);
      assert.deepEqual(reported(result), [
        [
          'warning:placeholder-description',
          'The description is still the placeholder Create Skill wrote, so the skill is not offered to the model. Say what the skill does and when to use it.',
          [2, 13, 2, 15 + NEW_SKILL_DESCRIPTION.length + 1],
        ],
      ]);
      assert.equal(result.metadata?.description, NEW_SKILL_DESCRIPTION);
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

    it('says what is wrong: not text, too long, or blank', function () {
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'compatibility: 3'])), [
        ['error:field-type', '"compatibility" must be text describing the environment the skill needs.', [3, 15, 3, 16]],
      ]);
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, `compatibility: ${'c'.repeat(501)}`])), [
        ['error:compatibility-too-long', '"compatibility" is 501 characters long; the limit is 500.', [3, 15, 3, 516]],
      ]);
      const blank = check(['name: demo', DESCRIPTION, 'compatibility: "  "']);
      assert.deepEqual(reported(blank), [['warning:empty-compatibility', '"compatibility" is empty: remove it or describe what the skill needs.', [3, 15, 3, 19]]]);
      assert.equal(blank.metadata?.compatibility, undefined);
    });

    it('is trimmed in the metadata', function () {
      assert.equal(check(['name: demo', DESCRIPTION, 'compatibility: "  Needs git  "']).metadata?.compatibility, 'Needs git');
    });
  });

  describe('license and allowed-tools', function () {
    it('warns about a value that is not text and leaves it out', function () {
      const result = check(['name: demo', DESCRIPTION, 'license: 2', 'allowed-tools: 3']);
      assert.deepEqual(codes(result), ['warning:field-type', 'warning:field-type']);
      assert.deepEqual(result.diagnostics[1].range, range(4, 15, 4, 16));
      assert.equal(result.metadata?.license, undefined);
      assert.equal(result.metadata?.allowedTools, undefined);
    });

    for (const strict of [false, true]) {
      it(`${strict ? 'in strict mode too, ' : ''}reads an allowed-tools list as its names and warns, naming the hosts that read the field`, function () {
        const result = check(['name: demo', DESCRIPTION, "allowed-tools: ['A', 'B']"], { strict });
        only(result, 'warning:allowed-tools-list');
        assert.equal(
          result.diagnostics[0].message,
          '"allowed-tools" is a list; the specification defines it as one string of tool names separated by spaces ("allowed-tools: A B"). Claude Code reads this field and may not understand a list.',
        );
        assert.deepEqual(result.diagnostics[0].range, range(3, 15, 3, 25));
        assert.equal(result.metadata?.allowedTools, 'A B');
      });
    }

    it('warns about a list holding other things than names and leaves it out', function () {
      const result = check(['name: demo', DESCRIPTION, 'allowed-tools: [1, {a: b}]'], { strict: true });
      only(result, 'warning:field-type');
      assert.equal(result.metadata?.allowedTools, undefined);
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

    it('says why a value or the whole field is ignored, on the whole value when it spans lines', function () {
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'metadata: [a,', '  bbbbbbb]'])), [
        ['warning:field-type', '"metadata" should be a mapping of keys to text values (for example "author: me" on an indented line); it is ignored.', [3, 10, 4, 10]],
      ]);
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'metadata:', '  version: 2', '  list: [a]'])), [
        ['warning:field-type', 'metadata "version" should be text; it is read as "2". Write it as a quoted string.', [4, 11, 4, 12]],
        ['warning:field-type', 'metadata "list" must be text; this value is ignored.', [5, 8, 5, 11]],
      ]);
    });

    it('reports an entry of a flow mapping on the whole mapping', function () {
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'metadata: {version: [1]}'])), [['warning:field-type', 'metadata "version" must be text; this value is ignored.', [3, 10, 3, 24]]]);
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

    it('in strict mode say which fields are allowed, and their values are not checked', function () {
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'user-invocable: "no"'], { strict: true })), [
        [
          'error:extension-field',
          '"user-invocable" is not part of the Agent Skills specification (strict mode allows only name, description, license, compatibility, metadata, allowed-tools).',
          [3, 0, 3, 14],
        ],
      ]);
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

    it('list the known fields, the extensions only outside strict mode', function () {
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'tags: x'])), [
        [
          'warning:unknown-field',
          'Unknown frontmatter field "tags". Known fields: name, description, license, compatibility, metadata, allowed-tools, argument-hint, user-invocable, disable-model-invocation, context, model.',
          [3, 0, 3, 4],
        ],
      ]);
      assert.deepEqual(reported(check(['name: demo', DESCRIPTION, 'tags: x'], { strict: true })), [
        ['error:unknown-field', 'Unknown frontmatter field "tags". Known fields: name, description, license, compatibility, metadata, allowed-tools.', [3, 0, 3, 4]],
      ]);
    });

    it('suggest the known field written with other case and without separators', function () {
      assert.match(only(check(['name: demo', DESCRIPTION, 'UserInvocable: true']), 'warning:unknown-field').message, /; did you mean "user-invocable"\? Known fields:/);
    });

    it('suggest the known field written with a dotless ı, as a Turkish keyboard types it', function () {
      assert.match(only(check(['name: demo', DESCRIPTION, 'lıcense: MIT']), 'warning:unknown-field').message, /; did you mean "license"\? Known fields:/);
    });

    it('are placed on the opening fence, as metadata entries are, when the positions of the fields are unknown', function () {
      const result = validateFrontmatter({ name: 'demo', description: 'Does one thing well.', tags: 'x', metadata: { list: [1] } }, { file: FILE, dirName: 'demo', locations: new Map() });
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range]),
        [
          ['unknown-field', OPENING_FENCE],
          ['field-type', OPENING_FENCE],
        ],
      );
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

  it('points at the first line over 500 even when more follow, whatever the line ends', function () {
    for (const body of [lines(502), `${Array(502).fill('line').join('\r\n')}\r\n`, `${lines(500)}line`]) {
      assert.deepEqual(
        validateBody(body, context).map((diagnostic) => diagnostic.range),
        [range(504, 0, 504, 4)],
        JSON.stringify(body.slice(-8)),
      );
    }
  });

  it('points at the line whose end passes ~5,000 tokens, not at one ending exactly on the budget', function () {
    const lineRange = (body: string): Range => validateBody(body, context)[0].range;
    assert.deepEqual(lineRange(lines(5, 'x'.repeat(8000))), range(6, 0, 6, 8000));
    assert.deepEqual(lineRange(`${lines(2, 'y'.repeat(9999))}x`), range(6, 0, 6, 1));
    assert.deepEqual(lineRange(`${lines(499, 'x')}${'x'.repeat(20_000)}`), range(503, 0, 503, 20_000));
  });

  describe('links', function () {
    const missing = (target: string, line: number, column: number): [string, string, Range] => [
      'missing-link',
      `The link target "${target}" does not exist in the skill folder. Create the file or fix the link.`,
      range(line, column, line, column + target.length),
    ];

    function reportedLinks(body: string, skillDir = context.skillDir): Array<[string, string, Range]> {
      return validateBody(body, { ...context, skillDir, bodyStartLine: 0 }).map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.range]);
    }

    it('are not checked inside fenced code, which only a like fence at least as long closes', function () {
      for (const fenced of ['~~~\n[a](tilde.md)\n~~~', '   ```\n[a](indented.md)\n   ```', '````\n```\n[a](inner.md)\n````', '```\n~~~\n[a](mixed.md)\n```']) {
        const body = `${fenced}\n[after](after.md)\n`;
        assert.deepEqual(reportedLinks(body), [missing('after.md', body.split('\n').length - 2, 8)], fenced);
      }
    });

    it('are found at their columns beside code spans, and inside angle brackets', function () {
      assert.deepEqual(reportedLinks('`[a](gone.md)` then [b](missing.md)\n[c](<gone file.md>)\n'), [missing('missing.md', 0, 24), missing('gone file.md', 1, 5)]);
    });

    it('take a target with parentheses, and leave out a title in any quotes and the spaces around it', function () {
      const body = ['[a](g(ab)cd.md)', '[b](gone1.md  "ab")', "[c](gone2.md 'ab')", '[d](gone3.md (ab))', '[e](gone4.md "t" )', ''].join('\n');
      assert.deepEqual(reportedLinks(body), [missing('g(ab)cd.md', 0, 4), missing('gone1.md', 1, 4), missing('gone2.md', 2, 4), missing('gone3.md', 3, 4), missing('gone4.md', 4, 4)]);
    });

    it('read a reference definition only at the start of a line, with or without a space, its target in angle brackets or not', function () {
      assert.deepEqual(reportedLinks('[x]:gone5.md\n[y]: <gone 6.md>\ntext [z]: notadef.md\n'), [missing('gone5.md', 0, 4), missing('gone 6.md', 1, 6)]);
    });

    it('open a fence only with three marks at the start of a line, and blank a code span of any number of backticks', function () {
      assert.deepEqual(reportedLinks('[s](gone6.md) ```\n[a](gone7.md)\n~ about\n[b](gone8.md)\n``[c](gone9.md)``\n'), [
        missing('gone6.md', 0, 4),
        missing('gone7.md', 1, 4),
        missing('gone8.md', 3, 4),
      ]);
    });

    it('are found on a last line without a line end, and a line is read once whatever it ends with', function () {
      assert.deepEqual(reportedLinks('text\n[a](gone10.md) and [\n[b](gone11.md)'), [missing('gone10.md', 1, 4), missing('gone11.md', 2, 4)]);
      assert.deepEqual(reportedLinks('[c](gone12.md) ~~~'), [missing('gone12.md', 0, 4)]);
    });

    it('are looked for only where "](" or "]:" stands, so brackets and fences alone report nothing', function () {
      assert.deepEqual(reportedLinks('[not a link] and [another]\n```\nunclosed [fence]\n'), []);
      assert.deepEqual(reportedLinks('text](gone13.md) and (gone14.md)\n'), []);
    });

    it('still read every fence before a link, a reference definition as an inline link', function () {
      const body = '```\n[a]: gone15.md\n```\n~~~~\n[b](gone16.md)\n~~~\n~~~~\n[c]: gone17.md\n```\n[d](gone18.md)\n';
      assert.deepEqual(reportedLinks(body), [missing('gone17.md', 7, 5)]);
    });

    it('warn about a target outside the skill folder, the parent folder included', function () {
      assert.deepEqual(reportedLinks('[up](..)\n'), [
        ['link-outside-skill', 'The link target ".." is outside the skill folder, so it is not available with the skill. Move the file into the skill folder.', range(0, 5, 0, 7)],
      ]);
    });

    it('judge a target by the folder it leads to: a sibling named like the skill folder is outside, a way back in is inside', async function () {
      const parent = await makeTempRoot();
      try {
        const skillDir = path.join(parent, 'docs');
        fs.mkdirSync(path.join(skillDir, 'references'), { recursive: true });
        fs.mkdirSync(path.join(parent, 'docs-extra'));
        fs.writeFileSync(path.join(skillDir, 'references', 'guide.md'), '');
        fs.writeFileSync(path.join(parent, 'docs-extra', 'file.md'), '');
        // A link inside the folder is judged by its path, as the file is packaged where the link stands.
        fs.symlinkSync(path.join(parent, 'docs-extra'), path.join(skillDir, 'linked'));
        const targets = [
          '../docs-extra/file.md',
          '../docs/references/guide.md',
          'references/../../docs-extra/file.md',
          'references/./guide.md',
          'references//guide.md',
          'references/guide.md/',
          'references/guide.md/.',
          'linked/file.md',
          '%2E%2E/docs-extra/file.md',
          'references%2F..%2F..%2Fdocs-extra%2Ffile.md',
          '..docs-extra/file.md',
          '.',
          './',
          '../docs',
        ];
        const body = `${targets.map((target) => `[x](${target})`).join(' ')}\n`;
        const outside = (target: string): [string, string, Range] => {
          const column = body.indexOf(`(${target})`) + 1;
          return [
            'link-outside-skill',
            `The link target "${target}" is outside the skill folder, so it is not available with the skill. Move the file into the skill folder.`,
            range(0, column, 0, column + target.length),
          ];
        };
        assert.deepEqual(reportedLinks(body, skillDir), [
          outside('../docs-extra/file.md'),
          outside('references/../../docs-extra/file.md'),
          outside('%2E%2E/docs-extra/file.md'),
          outside('references%2F..%2F..%2Fdocs-extra%2Ffile.md'),
          missing('..docs-extra/file.md', 0, body.indexOf('(..docs-extra') + 1),
        ]);
      } finally {
        await removeTempRoot(parent);
      }
    });

    it('read the file a target names before an empty query or fragment', function () {
      assert.deepEqual(reportedLinks('[a](references/guide.md#) [b](references/guide.md?) [c](gone.md#)\n'), [missing('gone.md#', 0, 56)]);
    });

    it('pass over an empty target or one made of a query, even when the skill folder is not on disk', function () {
      assert.deepEqual(reportedLinks('[a](?page=2) [b](<>) [c](gone.md)\n', path.join(context.skillDir, 'not-on-disk')), [missing('gone.md', 0, 25)]);
    });
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
