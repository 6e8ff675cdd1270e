import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs/promises';
import { SkillRegistry } from '../../../../src/core/discovery/registry';
import { describeValidation, validateAllSkills } from '../../../../src/core/discovery/validate-all';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('validateAllSkills', () => {
  let dir: string;
  let registry: SkillRegistry;

  beforeEach(async () => {
    dir = await tempDir();
    registry = new SkillRegistry();
  });

  afterEach(async () => {
    registry.dispose();
    await removeDir(dir);
  });

  it('reads every trusted skill in full, body checks included, and skips untrusted ones', async () => {
    await writeTree(path.join(dir, 'ws'), {
      good: { 'SKILL.md': skillText('good', 'Fine.') },
      linked: { 'SKILL.md': skillText('linked', 'Links a missing file.', 'See [guide](references/guide.md).') },
      broken: { 'SKILL.md': '---\nname: broken\n---\n' },
    });
    await writeTree(path.join(dir, 'other'), { hidden: { 'SKILL.md': '---\nname: hidden\n---\n' } });
    await registry.setRoots([root(path.join(dir, 'ws')), root(path.join(dir, 'other'), 'workspace', true)]);

    const summary = await validateAllSkills(registry.snapshot);
    assert.equal(summary.checked, 3);
    assert.equal(summary.errors, 1);
    assert.equal(summary.warnings, 1);
    assert.equal(summary.skippedUntrusted, 1);
    assert.deepEqual(summary.files.get(path.join(dir, 'ws', 'good', 'SKILL.md')), []);
    assert.deepEqual(
      summary.files.get(path.join(dir, 'ws', 'linked', 'SKILL.md'))!.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [['missing-link', 5]],
    );
    assert.ok(![...summary.files.keys()].some((file) => file.includes('hidden')));
  });

  it('checks the trigger tests of trusted skills that have them, never those of untrusted ones', async () => {
    await writeTree(path.join(dir, 'ws'), {
      good: { 'SKILL.md': skillText('good', 'Fine.'), evals: { 'triggers.json': '[{ "query": "do the good thing", "should_trigger": true }]' } },
      tested: { 'SKILL.md': skillText('tested', 'Fine too.'), evals: { 'triggers.json': '[\n  { "query": "", "should_trigger": true }\n]' } },
      plain: { 'SKILL.md': skillText('plain', 'No tests.') },
    });
    await writeTree(path.join(dir, 'other'), { hidden: { 'SKILL.md': skillText('hidden', 'Hidden.'), evals: { 'triggers.json': 'not json' } } });
    await registry.setRoots([root(path.join(dir, 'ws')), root(path.join(dir, 'other'), 'workspace', true)]);

    const summary = await validateAllSkills(registry.snapshot);
    assert.equal(summary.checked, 3);
    assert.equal(summary.errors, 1);
    assert.deepEqual(summary.files.get(path.join(dir, 'ws', 'good', 'evals', 'triggers.json')), []);
    assert.deepEqual(
      summary.files.get(path.join(dir, 'ws', 'tested', 'evals', 'triggers.json'))!.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line, diagnostic.range.start.column]),
      [['triggers-empty-query', 1, 13]],
    );
    assert.ok(![...summary.files.keys()].some((file) => file.includes('plain') && file.endsWith('.json')));
    assert.ok(![...summary.files.keys()].some((file) => file.includes('hidden')));
  });

  it('adds to the trigger tests a warning for a query another skill wins in the search', async () => {
    await writeTree(path.join(dir, 'ws'), {
      'pdf-forms': {
        'SKILL.md': skillText('pdf-forms', 'Fill in PDF forms.'),
        evals: { 'triggers.json': '[\n  { "query": "", "should_trigger": true },\n  { "query": "draft release notes", "should_trigger": true }\n]' },
      },
      'release-notes': { 'SKILL.md': skillText('release-notes', 'Draft release notes from merged changes.') },
    });
    await registry.setRoots([root(path.join(dir, 'ws'))]);

    const summary = await validateAllSkills(registry.snapshot);
    assert.equal(summary.warnings, 1);
    const diagnostics = summary.files.get(path.join(dir, 'ws', 'pdf-forms', 'evals', 'triggers.json'))!;
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [
        ['triggers-empty-query', 1],
        ['overlap-query', 2],
      ],
    );
    assert.match(diagnostics[1].message, /^"draft release notes" ranks release-notes above pdf-forms in the skill search/);
  });

  it('places a warning on descriptions alike at the description of each SKILL.md', async () => {
    const review = (cloud: string): string => `Review a cloud architecture against the well-architected framework pillars for ${cloud} workloads and report the risks.`;
    await writeTree(path.join(dir, 'ws'), { 'aws-review': { 'SKILL.md': skillText('aws-review', review('AWS')) }, 'azure-review': { 'SKILL.md': skillText('azure-review', review('Azure')) } });
    await registry.setRoots([root(path.join(dir, 'ws'))]);

    const summary = await validateAllSkills(registry.snapshot);
    assert.deepEqual(
      [...summary.files.values()].flat().map((diagnostic) => [path.basename(path.dirname(diagnostic.file)), diagnostic.code, diagnostic.range.start.line, diagnostic.range.start.column]),
      [
        ['aws-review', 'overlap-description', 2, 13],
        ['azure-review', 'overlap-description', 2, 13],
      ],
    );
  });

  it('places the warning of a skill broken since the snapshot where its description now stands', async () => {
    const review = (cloud: string): string => `Review a cloud architecture against the well-architected framework pillars for ${cloud} workloads and report the risks.`;
    await writeTree(path.join(dir, 'ws'), { 'aws-review': { 'SKILL.md': skillText('aws-review', review('AWS')) }, 'azure-review': { 'SKILL.md': skillText('azure-review', review('Azure')) } });
    await registry.setRoots([root(path.join(dir, 'ws'))]);
    // Edited after the snapshot: an invalid name, and the description a line lower.
    await fs.writeFile(path.join(dir, 'ws', 'azure-review', 'SKILL.md'), `---\nname: Azure Review\nlicense: MIT\ndescription: ${review('Azure')}\n---\nBody\n`);

    const summary = await validateAllSkills(registry.snapshot);
    assert.deepEqual(
      [...summary.files.values()]
        .flat()
        .filter((diagnostic) => diagnostic.code === 'overlap-description')
        .map((diagnostic) => [path.basename(path.dirname(diagnostic.file)), diagnostic.range.start.line, diagnostic.range.start.column]),
      [
        ['aws-review', 2, 13],
        ['azure-review', 3, 13],
      ],
    );
    assert.ok(summary.errors > 0, 'the edited skill is read as broken');
  });

  it('counts location problems (a dangling link) as the CLI and the Skills view do', async () => {
    await writeTree(path.join(dir, 'ws'), { good: { 'SKILL.md': skillText('good', 'Fine.') } });
    await fs.symlink(path.join(dir, 'nowhere'), path.join(dir, 'ws', 'dangling'));
    await registry.setRoots([root(path.join(dir, 'ws'))]);
    const summary = await validateAllSkills(registry.snapshot);
    assert.deepEqual([summary.checked, summary.errors, summary.warnings], [1, 0, 1]);
    assert.deepEqual(
      summary.locationProblems.map((problem) => [problem.code, path.basename(problem.path)]),
      [['dangling-symlink', 'dangling']],
    );
    assert.equal(describeValidation(summary), 'Checked 1 skill: 0 errors, 1 warning.');
  });

  it('puts a problem that points at a file among the diagnostics of that file', async () => {
    const file = path.join(dir, 'file-root');
    await fs.writeFile(file, 'x');
    await registry.setRoots([root(file)]);
    const summary = await validateAllSkills(registry.snapshot);
    const zero = { line: 0, column: 0 };
    assert.deepEqual(summary.files.get(file), [
      { code: 'root-unreadable', severity: 'warning', message: `Cannot read skill folder ${file}: it is a file, not a folder.`, file, range: { start: zero, end: zero } },
    ]);
    assert.deepEqual(summary.locationProblems, []);
    assert.deepEqual([summary.checked, summary.errors, summary.warnings], [0, 0, 1]);
  });

  it('leaves out a SKILL.md deleted since the snapshot, and keeps a problem whose path is gone', async () => {
    await writeTree(path.join(dir, 'ws'), { good: { 'SKILL.md': skillText('good', 'Fine.') }, gone: { 'SKILL.md': skillText('gone', 'Deleted soon.') } });
    await fs.symlink(path.join(dir, 'nowhere'), path.join(dir, 'ws', 'dangling'));
    await registry.setRoots([root(path.join(dir, 'ws'))]);
    await fs.rm(path.join(dir, 'ws', 'gone', 'SKILL.md'));
    await fs.rm(path.join(dir, 'ws', 'dangling'));
    const summary = await validateAllSkills(registry.snapshot);
    assert.equal(summary.checked, 1);
    assert.deepEqual([...summary.files.keys()], [path.join(dir, 'ws', 'good', 'SKILL.md')]);
    assert.deepEqual(
      summary.locationProblems.map((problem) => problem.code),
      ['dangling-symlink'],
    );
  });

  it('sums up in one sentence', () => {
    assert.equal(describeValidation({ checked: 1, errors: 0, warnings: 2, skippedUntrusted: 0 }), 'Checked 1 skill: 0 errors, 2 warnings.');
    assert.equal(describeValidation({ checked: 3, errors: 1, warnings: 1, skippedUntrusted: 2 }), 'Checked 3 skills: 1 error, 1 warning. 2 skills of the untrusted workspace not read.');
    assert.equal(
      describeValidation({ checked: 3, errors: 2, warnings: 1, skippedUntrusted: 0, installed: { errors: 1, warnings: 0 } }),
      'Checked 3 skills: 2 errors, 1 warning (1 error, 0 warnings of them on installed skills: audit findings or edits since install).',
    );
    assert.equal(describeValidation({ checked: 3, errors: 0, warnings: 0, skippedUntrusted: 0, installed: { errors: 0, warnings: 0 } }), 'Checked 3 skills: 0 errors, 0 warnings.');
  });
});
