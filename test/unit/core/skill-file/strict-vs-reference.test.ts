// Strict mode must judge exactly the same skills invalid as the specification's reference
// validator, on every fixture and on generated edge cases. The reference is skills-ref of
// agentskills/agentskills (Python); the tests run its npm port (the `skills-ref` package), which
// gives the same verdicts but on flow-style YAML: the reference reads YAML with strictyaml, which
// refuses flow collections (`[a, b]`, `{a: b}`) anywhere, where the port's js-yaml reads them.
// Those cases carry the reference's verdict, checked with it (scripts/strict-agreement.ts).

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSkillFile, MAX_SKILL_FILE_BYTES } from '../../../../src/core/skill-file/load';
import { fixtureSkillFolders, makeTempRoot, removeTempRoot, writeSkill } from '../../../fixtures/skills/temp-skills';

type ReferenceValidate = (skillDir: string) => Promise<string[]>;

// skills-ref is ESM only; a real dynamic import keeps the CommonJS test transform from turning it into require().
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

async function loadReferenceValidator(): Promise<ReferenceValidate> {
  const module = (await importEsm('skills-ref')) as { validate: ReferenceValidate };
  return module.validate;
}

interface EdgeCase {
  folder: string;
  content: string | Buffer;
  fileName?: string;
}

function skill(frontmatter: string, body = 'Body.\n'): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

const DESCRIPTION = 'description: Does one thing well.';

/** Edge cases holding a flow collection: the npm port reads them, the reference refuses them. */
const FLOW_STYLE_CASES: ReadonlySet<string> = new Set([
  'list-name',
  'metadata-values',
  'metadata-list',
  'tools-flow-list',
  'flow-mapping',
  'flow-empty-mapping',
  'flow-in-block-list',
  'flow-nested',
  'flow-after-comment',
  'flow-root',
]);

const EDGE_CASES: EdgeCase[] = [
  { folder: 'plain', content: skill(`name: plain\n${DESCRIPTION}`) },
  // Names
  { folder: 'naïve-ünïcode', content: skill(`name: naïve-ünïcode\n${DESCRIPTION}`) },
  { folder: 'навык', content: skill(`name: навык\n${DESCRIPTION}`) },
  { folder: '技能', content: skill(`name: 技能\n${DESCRIPTION}`) },
  { folder: 'ελληνικά', content: skill(`name: ελληνικά\n${DESCRIPTION}`) },
  { folder: 'ｐｄｆ', content: skill(`name: ｐｄｆ\n${DESCRIPTION}`) },
  { folder: 'pdf', content: skill(`name: ｐｄｆ\n${DESCRIPTION}`) },
  { folder: 'emoji-😀', content: skill(`name: emoji-😀\n${DESCRIPTION}`) },
  { folder: 'a×b', content: skill(`name: a×b\n${DESCRIPTION}`) },
  { folder: 'Upper', content: skill(`name: Upper\n${DESCRIPTION}`) },
  { folder: 'Навык', content: skill(`name: Навык\n${DESCRIPTION}`) },
  { folder: 'double--hyphen', content: skill(`name: double--hyphen\n${DESCRIPTION}`) },
  { folder: '-leading', content: skill(`name: -leading\n${DESCRIPTION}`) },
  { folder: 'trailing-', content: skill(`name: trailing-\n${DESCRIPTION}`) },
  { folder: 'under_score', content: skill(`name: under_score\n${DESCRIPTION}`) },
  { folder: 'a'.repeat(64), content: skill(`name: ${'a'.repeat(64)}\n${DESCRIPTION}`) },
  { folder: 'a'.repeat(65), content: skill(`name: ${'a'.repeat(65)}\n${DESCRIPTION}`) },
  { folder: 'mismatch-dir', content: skill(`name: other-name\n${DESCRIPTION}`) },
  { folder: 'spaced', content: skill(`name: "  spaced  "\n${DESCRIPTION}`) },
  { folder: '123', content: skill(`name: 123\n${DESCRIPTION}`) },
  { folder: 'true', content: skill(`name: true\n${DESCRIPTION}`) },
  { folder: 'null-name', content: skill(`name:\n${DESCRIPTION}`) },
  { folder: 'empty-name', content: skill(`name: ""\n${DESCRIPTION}`) },
  { folder: 'list-name', content: skill(`name: [list-name]\n${DESCRIPTION}`) },
  { folder: 'missing-name', content: skill(DESCRIPTION) },
  // Descriptions
  { folder: 'no-description', content: skill('name: no-description') },
  { folder: 'empty-description', content: skill('name: empty-description\ndescription: ""') },
  { folder: 'blank-description', content: skill('name: blank-description\ndescription: "   "') },
  { folder: 'null-description', content: skill('name: null-description\ndescription:') },
  { folder: 'number-description', content: skill('name: number-description\ndescription: 42') },
  { folder: 'date-description', content: skill('name: date-description\ndescription: 2024-01-31') },
  { folder: 'map-description', content: skill('name: map-description\ndescription:\n  text: nested') },
  { folder: 'description-1024', content: skill(`name: description-1024\ndescription: ${'d'.repeat(1024)}`) },
  { folder: 'description-1025', content: skill(`name: description-1025\ndescription: ${'d'.repeat(1025)}`) },
  { folder: 'block-description-1024', content: skill(`name: block-description-1024\ndescription: |\n  ${'d'.repeat(1024)}`) },
  { folder: 'emoji-description', content: skill(`name: emoji-description\ndescription: ${'😀'.repeat(600)}`) },
  // Optional spec fields
  { folder: 'compat-500', content: skill(`name: compat-500\n${DESCRIPTION}\ncompatibility: ${'c'.repeat(500)}`) },
  { folder: 'compat-501', content: skill(`name: compat-501\n${DESCRIPTION}\ncompatibility: ${'c'.repeat(501)}`) },
  { folder: 'compat-empty', content: skill(`name: compat-empty\n${DESCRIPTION}\ncompatibility: ""`) },
  { folder: 'compat-null', content: skill(`name: compat-null\n${DESCRIPTION}\ncompatibility:`) },
  { folder: 'compat-number', content: skill(`name: compat-number\n${DESCRIPTION}\ncompatibility: 3`) },
  {
    folder: 'metadata-values',
    content: skill(`name: metadata-values\n${DESCRIPTION}\nmetadata:\n  version: 2\n  beta: true\n  nested:\n    deep: x\n  list: [a, b]\n  nothing:`),
  },
  { folder: 'metadata-text', content: skill(`name: metadata-text\n${DESCRIPTION}\nmetadata: just text`) },
  { folder: 'metadata-list', content: skill(`name: metadata-list\n${DESCRIPTION}\nmetadata: [a, b]`) },
  { folder: 'tools-flow-list', content: skill(`name: tools-flow-list\n${DESCRIPTION}\nallowed-tools: ['Read', 'Write']`) },
  { folder: 'tools-block-list', content: skill(`name: tools-block-list\n${DESCRIPTION}\nallowed-tools:\n  - Read\n  - Grep`) },
  { folder: 'tools-number', content: skill(`name: tools-number\n${DESCRIPTION}\nallowed-tools: 3`) },
  { folder: 'tools-map', content: skill(`name: tools-map\n${DESCRIPTION}\nallowed-tools:\n  read: yes`) },
  { folder: 'license-number', content: skill(`name: license-number\n${DESCRIPTION}\nlicense: 2`) },
  // Flow style, refused by the reference wherever it stands; brackets in text are not flow style
  { folder: 'flow-mapping', content: skill(`name: flow-mapping\n${DESCRIPTION}\nmetadata: {author: me}`) },
  { folder: 'flow-empty-mapping', content: skill(`name: flow-empty-mapping\n${DESCRIPTION}\nmetadata: {}`) },
  { folder: 'flow-in-block-list', content: skill(`name: flow-in-block-list\n${DESCRIPTION}\nallowed-tools:\n  - [Read]`) },
  { folder: 'flow-nested', content: skill(`name: flow-nested\n${DESCRIPTION}\nmetadata:\n  tags: [a]`) },
  { folder: 'flow-after-comment', content: skill(`name: flow-after-comment\n${DESCRIPTION}\nmetadata: # [not this]\n  &tags [a]`) },
  { folder: 'flow-root', content: skill(`{name: flow-root, description: Does one thing well.}`) },
  { folder: 'brackets-in-text', content: skill('name: brackets-in-text\ndescription: Reads [x] and {y} files.') },
  { folder: 'brackets-quoted', content: skill("name: brackets-quoted\ndescription: '[x] first'") },
  { folder: 'brackets-block', content: skill('name: brackets-block\ndescription: |\n  [x] first') },
  { folder: 'brackets-comment', content: skill('name: brackets-comment\ndescription: Does it. # [x]') },
  { folder: 'brackets-continuation', content: skill('name: brackets-continuation\ndescription: Does\n  [x] well') },
  // Fields outside the specification
  { folder: 'unknown-field', content: skill(`name: unknown-field\n${DESCRIPTION}\nversion: 1`) },
  { folder: 'extension-field', content: skill(`name: extension-field\n${DESCRIPTION}\nuser-invocable: false`) },
  // Frontmatter shape
  { folder: 'bad-yaml', content: skill(`name: bad-yaml\ndescription: [unclosed`) },
  { folder: 'duplicate-key', content: skill(`name: duplicate-key\nname: duplicate-key\n${DESCRIPTION}`) },
  { folder: 'tab-indent', content: skill(`name: tab-indent\n${DESCRIPTION}\nmetadata:\n\tauthor: me`) },
  { folder: 'space-tab-indent', content: skill(`name: space-tab-indent\n${DESCRIPTION}\nmetadata:\n  \tauthor: me`) },
  { folder: 'tab-sequence', content: skill(`name: tab-sequence\n${DESCRIPTION}\nallowed-tools:\n\t- Read`) },
  { folder: 'tab-continuation', content: skill(`name: tab-continuation\n${DESCRIPTION}\n\tlicense: MIT`) },
  { folder: 'tab-in-block-text', content: skill('name: tab-in-block-text\ndescription: |\n  Does one\n  \tthing: well.') },
  { folder: 'tab-in-quotes', content: skill('name: tab-in-quotes\ndescription: "Does one\n\tthing: well."') },
  { folder: 'tab-after-key', content: skill(`name:\ttab-after-key\n${DESCRIPTION}`) },
  { folder: 'list-frontmatter', content: skill('- name\n- description') },
  { folder: 'scalar-frontmatter', content: skill('just a sentence') },
  { folder: 'empty-frontmatter', content: '---\n---\nBody.\n' },
  { folder: 'comment-only', content: skill('# nothing here') },
  { folder: 'no-frontmatter', content: '# Title\n\nname: no-frontmatter\n' },
  { folder: 'leading-blank-line', content: `\n${skill(`name: leading-blank-line\n${DESCRIPTION}`)}` },
  { folder: 'unterminated', content: `---\nname: unterminated\n${DESCRIPTION}\n` },
  { folder: 'four-dashes', content: `----\nname: four-dashes\n${DESCRIPTION}\n----\n` },
  { folder: 'fence-comment', content: `--- # fields\nname: fence-comment\n${DESCRIPTION}\n---\n` },
  { folder: 'fence-spaces', content: `---   \nname: fence-spaces\n${DESCRIPTION}\n---   \n` },
  { folder: 'js-fence', content: `---js\n{ name: 'js-fence', description: 'x' }\n---\n` },
  { folder: 'yaml-fence', content: `---yaml\nname: yaml-fence\n${DESCRIPTION}\n---\n` },
  { folder: 'dashes-in-value', content: skill('name: dashes-in-value\ndescription: Use --- between sections.') },
  { folder: 'dashes-in-quotes', content: skill('name: dashes-in-quotes\ndescription: "Use --- between sections."') },
  { folder: 'dashes-in-body-only', content: `---\nname: dashes-in-body-only\n${DESCRIPTION}\n\n# Body\n\n-----\n` },
  { folder: 'closing-fence-suffix', content: `---\nname: closing-fence-suffix\n${DESCRIPTION}\n---more\nBody.\n` },
  // Encoding and file
  { folder: 'crlf', content: skill(`name: crlf\n${DESCRIPTION}`).replace(/\n/g, '\r\n') },
  { folder: 'bom', content: `\uFEFF${skill(`name: bom\n${DESCRIPTION}`)}` },
  { folder: 'nul-in-body', content: skill(`name: nul-in-body\n${DESCRIPTION}`, 'text\0more\n') },
  { folder: 'nul-in-frontmatter', content: skill(`name: nul-in-frontmatter\ndescription: a\0b`) },
  { folder: 'lower-file', content: skill(`name: lower-file\n${DESCRIPTION}`), fileName: 'skill.md' },
  { folder: 'mixed-case-file', content: skill(`name: mixed-case-file\n${DESCRIPTION}`), fileName: 'Skill.md' },
  { folder: 'no-skill-file', content: 'not a skill', fileName: 'README.md' },
];

describe('strict mode agrees with the reference validator (skills-ref)', function () {
  let referenceValidate: ReferenceValidate;
  let root: string;
  const generated: string[] = [];

  before(async function () {
    referenceValidate = await loadReferenceValidator();
    root = await makeTempRoot();
    for (const edgeCase of EDGE_CASES) {
      generated.push(await writeSkill(root, edgeCase.folder, edgeCase.content, edgeCase.fileName));
    }
  });

  after(async function () {
    await removeTempRoot(root);
  });

  async function verdicts(dir: string): Promise<{ reference: string[]; ours: string[] }> {
    const reference = FLOW_STYLE_CASES.has(path.basename(dir)) ? ['Invalid YAML in frontmatter: Found ugly disallowed JSONesque flow mapping'] : await referenceValidate(dir);
    const loaded = await loadSkillFile(dir, { strict: true });
    const ours = loaded ? loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.code) : ['no-skill-file'];
    if (loaded && (ours.length === 0) !== (loaded.metadata !== undefined)) {
      assert.fail(`metadata must be present iff there is no error (${dir})`);
    }
    return { reference, ours };
  }

  function describeMismatch(dir: string, reference: string[], ours: string[]): string {
    return `${dir}\n  reference: ${reference.length === 0 ? 'valid' : reference.join(' | ')}\n  strict:    ${ours.length === 0 ? 'valid' : ours.join(', ')}`;
  }

  it('gives the same verdict on every fixture skill folder', async function () {
    const folders = await fixtureSkillFolders();
    assert.ok(folders.length >= 15, 'the fixture folders are found');
    const mismatches: string[] = [];
    for (const dir of folders) {
      const { reference, ours } = await verdicts(dir);
      if ((reference.length === 0) !== (ours.length === 0)) {
        mismatches.push(describeMismatch(dir, reference, ours));
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('gives the same verdict on generated edge cases', async function () {
    const mismatches: string[] = [];
    let invalid = 0;
    for (const dir of generated) {
      const { reference, ours } = await verdicts(dir);
      if (reference.length > 0) {
        invalid++;
      }
      if ((reference.length === 0) !== (ours.length === 0)) {
        mismatches.push(describeMismatch(dir, reference, ours));
      }
    }
    assert.deepEqual(mismatches, []);
    // The cases exercise both verdicts, so agreement is not trivial.
    assert.ok(invalid > 20 && invalid < generated.length - 20, `${invalid} of ${generated.length} invalid`);
  });

  it('accepts allowed-tools as a block list, as the reference does, and warns that the specification asks for a string', async function () {
    const dir = await writeSkill(root, 'tools-block', skill(`name: tools-block\n${DESCRIPTION}\nallowed-tools:\n  - Read\n  - Write`));
    const { reference, ours } = await verdicts(dir);
    assert.deepEqual(reference, []);
    assert.deepEqual(ours, []);
    const loaded = await loadSkillFile(dir, { strict: true });
    const warning = loaded?.diagnostics.find((diagnostic) => diagnostic.code === 'allowed-tools-list');
    assert.equal(warning?.severity, 'warning');
    assert.match(warning.message, /"allowed-tools: Read Write"/);
    assert.match(warning.message, /Claude Code reads this field/);
    assert.equal(loaded?.metadata?.allowedTools, 'Read Write');
  });

  it('refuses a flow-style list in strict mode, at its bracket, and reads it with a warning otherwise', async function () {
    const dir = await writeSkill(root, 'tools-flow', skill(`name: tools-flow\n${DESCRIPTION}\nallowed-tools: ['Read', 'Write']`));
    const strict = await loadSkillFile(dir, { strict: true });
    assert.equal(strict?.metadata, undefined);
    assert.deepEqual(
      strict?.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => [diagnostic.code, diagnostic.range.start]),
      [['flow-collection', { line: 3, column: 15 }]],
    );
    assert.match(strict!.diagnostics.find((diagnostic) => diagnostic.code === 'flow-collection')!.message, /flow-style list \("\[\.\.\.\]"\).*reference validator.*one "- item" per line/);
    const lenient = await loadSkillFile(dir);
    assert.equal(lenient?.metadata?.allowedTools, 'Read Write');
    assert.deepEqual(
      lenient?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]),
      [['allowed-tools-list', 'warning']],
    );
  });

  it('differs only where the size cap refuses a file the reference validator would read', async function () {
    const dir = await writeSkill(root, 'oversized', skill(`name: oversized\n${DESCRIPTION}`, 'x'.repeat(MAX_SKILL_FILE_BYTES)));
    const { reference, ours } = await verdicts(dir);
    assert.deepEqual(reference, []);
    assert.deepEqual(ours, ['file-too-large']);
  });
});
