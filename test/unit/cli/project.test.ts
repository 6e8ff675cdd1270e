// `--project DIR` on the commands that discover skills, and the commands run with no folder at
// all, which take the current folder as the project: configured locations from
// .vscode/settings.json, sub-project locations, precedence, and bad settings.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { CliIo } from '../../../src/cli/io';
import type { ListedSkillJson } from '../../../src/cli/list-command';
import type { ValidatedSkillJson } from '../../../src/cli/validate-command';
import { runCli } from '../../../src/cli/run';
import { removeDir, skillText, tempDir, writeTree, type Tree } from '../../fixtures/trees/tree';

async function cli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

function skill(name: string): Tree {
  return { [name]: { 'SKILL.md': skillText(name, `Use for ${name} work.`) } };
}

/** A monorepo whose settings add .github/skills, with skills where the walk must and must not look. */
const MONOREPO: Tree = {
  '.vscode': { 'settings.json': '{\n  // JSONC, as VS Code writes it\n  "agentSkills.locations": [".agent/skills", ".github/skills"],\n}\n' },
  '.gitignore': 'build/\n',
  '.agent': { skills: skill('deploy') },
  '.github': { skills: skill('review') },
  packages: {
    web: { '.agent': { skills: { ...skill('deploy'), ...skill('web-lint') } } },
    api: { '.github': { skills: skill('api-docs') } },
  },
  node_modules: { dependency: { '.agent': { skills: skill('from-dependency') } } },
  build: { out: { '.agent': { skills: skill('built-copy') } } },
  '.cache': { tool: { '.agent': { skills: skill('cached') } } },
};

describe('agent-skills --project', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, MONOREPO);
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  async function listJson(argv: string[], cwd: string): Promise<ListedSkillJson[]> {
    const run = await cli(['list', '--json', ...argv], cwd);
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { skills: ListedSkillJson[] }).skills;
  }

  it('lists the current folder as the editor shows it when no ROOT is given: configured locations, then sub-projects, nearer ones winning', async () => {
    const skills = await listJson([], dir);
    // Each location by its path relative to the project, as the settings name it.
    assert.deepEqual(
      skills.map((skill) => [skill.name, skill.status, skill.source]),
      [
        ['deploy', 'available', '.agent/skills'],
        ['review', 'available', '.github/skills'],
        ['api-docs', 'available', 'packages/api/.github/skills'],
        ['deploy', 'shadowed', 'packages/web/.agent/skills'],
        ['web-lint', 'available', 'packages/web/.agent/skills'],
      ],
    );
    const table = await cli(['list'], dir);
    assert.match(table.stdout, /^web-lint +available +packages\/web\/\.agent\/skills +/m);
    assert.doesNotMatch(table.stdout, new RegExp(path.basename(dir)));
    assert.equal(skills[3].shadowedBy, path.join(dir, '.agent', 'skills', 'deploy', 'SKILL.md'));
    assert.deepEqual(
      skills.map((skill) => skill.package),
      [undefined, undefined, 'packages/api', 'packages/web', 'packages/web'],
    );
  });

  it('gives the same answer for --project DIR from elsewhere, and puts the project before any ROOT', async () => {
    const elsewhere = await tempDir();
    try {
      await writeTree(elsewhere, { extra: skill('deploy') });
      const fromCwd = await listJson([], dir);
      assert.deepEqual(await listJson(['--project', dir], elsewhere), fromCwd);
      const withRoot = await listJson(['--project', dir, 'extra'], elsewhere);
      assert.deepEqual(
        withRoot.map((skill) => `${skill.name} ${skill.status}`),
        [...fromCwd.map((skill) => `${skill.name} ${skill.status}`), 'deploy shadowed'],
      );
    } finally {
      await removeDir(elsewhere);
    }
  });

  it('validates and prints the catalog of the current folder with no PATH', async () => {
    const validate = await cli(['validate', '--json'], dir);
    assert.equal(validate.code, 0, validate.stdout);
    const validated = (JSON.parse(validate.stdout) as { skills: ValidatedSkillJson[] }).skills;
    assert.deepEqual(validated.map((skill) => skill.name).sort(), ['api-docs', 'deploy', 'deploy', 'review', 'web-lint']);
    const catalog = await cli(['catalog'], dir);
    assert.equal(catalog.code, 0);
    assert.match(catalog.stdout, /^web-lint: Use for web-lint work\. \(in packages\/web\)$/m);
    assert.doesNotMatch(catalog.stdout, /from-dependency|built-copy|cached/);
  });

  it('finds and validates through --project too', async () => {
    const found = await cli(['find', '--project', '.', 'web-lint'], dir);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /^web-lint\s/m);
    const validate = await cli(['validate', '--project', dir], path.dirname(dir));
    assert.match(validate.stdout, /^5 skills checked: 0 errors, 0 warnings$/m);
  });

  it('finds and audits the project when no ROOT or PATH is given, as validate does', async () => {
    const found = await cli(['find', 'web-lint'], dir);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /^web-lint\s/m);
    const audit = await cli(['audit', '--json'], dir);
    assert.equal(audit.code, 0, audit.stderr);
    const audited = (JSON.parse(audit.stdout) as { skills: { path: string }[] }).skills.map((skill) => path.basename(skill.path));
    assert.ok(audited.includes('web-lint'), audited.join(', '));
    const empty = await tempDir();
    try {
      const none = await cli(['audit'], empty);
      assert.equal(none.code, 0);
      assert.equal(none.stderr, 'No skills in this project; give a PATH to audit skills elsewhere.\n');
    } finally {
      await removeDir(empty);
    }
  });

  it('says a project without skills has none and passes, as list does, but fails one named with --project, naming where it looked', async () => {
    const empty = await tempDir();
    try {
      const implicit = await cli(['validate'], empty);
      assert.equal(implicit.code, 0, implicit.stdout);
      assert.equal(implicit.stdout, 'No skills in this project (looked in .agent/skills); give a PATH to check skills elsewhere.\n0 skills checked: 0 errors, 0 warnings\n');
      const json = await cli(['validate', '--json'], empty);
      assert.equal(json.code, 0);
      assert.deepEqual(JSON.parse(json.stdout), { skills: [], problems: [] });
      const named = await cli(['validate', '--project', '.'], empty);
      assert.equal(named.code, 1);
      assert.match(named.stdout, new RegExp(`No skill folders .* found in ${escape(path.join(empty, '.agent', 'skills'))}`));
    } finally {
      await removeDir(empty);
    }
  });

  it('leaves sub-projects out when the settings turn nestedLocations off', async () => {
    await writeTree(dir, { '.vscode': { 'settings.json': '{ "agentSkills.nestedLocations": false }' } });
    assert.deepEqual(
      (await listJson([], dir)).map((skill) => skill.name),
      ['deploy'],
    );
  });

  it('warns about settings it cannot use, naming the file, and falls back to the defaults', async () => {
    const settings = path.join(dir, '.vscode', 'settings.json');
    await writeTree(dir, { '.vscode': { 'settings.json': '{ "agentSkills.locations": ".github/skills" }' } });
    const wrongType = await cli(['list'], dir);
    assert.equal(wrongType.code, 0);
    assert.match(wrongType.stderr, new RegExp(`warning: agentSkills.locations in ${escape(settings)} must be a list of folder paths; the default .agent/skills is used. \\[project-settings\\]`));
    assert.match(wrongType.stdout, /^deploy\s/m);
    await writeTree(dir, { '.vscode': { 'settings.json': '{ "agentSkills.locations": [".github/skills"' } });
    const broken = await cli(['validate'], dir);
    assert.match(
      broken.stdout,
      new RegExp(`${escape('.vscode/settings.json')}: warning: ${escape(settings)} is not valid JSON \\(.* at line 1, column \\d+\\); the default skill locations are used.`),
    );
    assert.equal(broken.code, 0);
  });

  it("validates against the project's agentSkills.targets as the editor does, unless --target names others", async () => {
    const settings = path.join(dir, '.vscode', 'settings.json');
    await writeTree(dir, { '.vscode': { 'settings.json': '{\n  // the hosts this team uses\n  "agentSkills.targets": ["codex", "vscode", "nope"],\n}\n' } });
    const run = await cli(['validate'], dir);
    assert.equal(run.code, 0, run.stdout);
    const findings = run.stdout.split('\n').filter((line) => /\[(host-folder|project-settings)\]$/.test(line));
    assert.deepEqual(findings, [
      `.vscode/settings.json: warning: agentSkills.targets in ${settings} names no host "nope" (hosts: vscode, copilot-cli, claude-code, codex, gemini-cli, cursor, opencode); left out. [project-settings]`,
      '.agent/skills: warning: Codex reads `.agents/skills`, not `.agent/skills`: the skill there (deploy) is invisible to it. [host-folder]',
      'packages/web/.agent/skills: warning: Codex reads `.agents/skills`, not `.agent/skills`: the 2 skills there are invisible to it. [host-folder]',
    ]);
    // VS Code gets every folder through the extension, as in the editor; --target is asked for explicitly.
    const explicit = await cli(['validate', '--json', '--target', 'claude-code'], dir);
    const problems = (JSON.parse(explicit.stdout) as { problems: Array<{ host?: string; code: string }> }).problems;
    assert.deepEqual([...new Set(problems.filter((problem) => problem.code === 'host-folder').map((problem) => problem.host))], ['claude-code']);
  });

  it('warns about an agentSkills.targets that is not a list of host ids, naming the file, and checks no host', async () => {
    const settings = path.join(dir, '.vscode', 'settings.json');
    await writeTree(dir, { '.vscode': { 'settings.json': '{ "agentSkills.targets": "codex" }' } });
    const run = await cli(['validate'], dir);
    assert.equal(run.code, 0);
    assert.match(run.stdout, new RegExp(`warning: agentSkills.targets in ${escape(settings)} must be a list of host ids \\(vscode, .*\\); it is ignored. \\[project-settings\\]`));
    assert.doesNotMatch(run.stdout, /host-folder/);
  });

  it('refuses a --project that is not a folder, in one line', async () => {
    const run = await cli(['list', '--project', 'nowhere'], dir);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'agent-skills: nowhere: no such file or folder.\n');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
