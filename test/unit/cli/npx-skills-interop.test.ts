// skills-lock.json shared with the real `npx skills` (the `skills` package, a dev dependency), both
// ways, offline against a bare repository made in the test: its lock reads back here, and ours
// satisfies it.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { CliIo } from '../../../src/cli/io';
import type { CheckedSkillJson } from '../../../src/cli/sources-command';
import { runCli } from '../../../src/cli/run';
import { keepEdits } from '../../../src/core/sources/apply';
import { computeFolderHash } from '../../../src/core/sources/folder-hash';
import { readLock } from '../../../src/core/sources/lock';
import { nodeBinaryPath } from '../../../scripts/harness/vscode-server';
import { makeRepo, type TestRepo } from '../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir } from '../../fixtures/trees/tree';
import { REPOSITORY } from './bundle';

const SKILLS_CLI = path.join(REPOSITORY, 'node_modules', 'skills', 'bin', 'cli.mjs');

/** `skills` 1.7.4 needs Node 22 or later: this Node, else the Node 24 the integration harness keeps. */
function nodeForSkills(): string | undefined {
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    return process.execPath;
  }
  return fs.existsSync(nodeBinaryPath()) ? nodeBinaryPath() : undefined;
}

async function npxSkills(node: string, cwd: string, home: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(node, [SKILLS_CLI, ...args], {
    cwd,
    env: { ...process.env, HOME: home, DISABLE_TELEMETRY: '1', NO_COLOR: '1', CI: '1' },
    timeout: 60_000,
  });
  return stdout;
}

async function ours(cwd: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd };
  return { code: await runCli(argv, io), stdout, stderr };
}

describe('skills-lock.json shared with npx skills 1.7.4', function () {
  this.timeout(120_000);
  let dir: string;
  let project: string;
  let home: string;
  let repo: TestRepo;
  let node: string;

  before(function () {
    const found = nodeForSkills();
    if (!found) {
      // Only where neither Node 22+ nor the harness's Node 24 (npm run test:integration installs it) exists.
      this.skip();
    }
    node = found;
  });

  beforeEach(async () => {
    dir = await tempDir();
    project = path.join(dir, 'project');
    home = path.join(dir, 'home');
    fs.mkdirSync(project);
    fs.mkdirSync(home);
    repo = await makeRepo(dir);
    await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.'), 'notes.txt': 'x' }, beta: { 'SKILL.md': skillText('beta', 'Reviews beta changes.') } } });
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('reads the lock npx skills writes: its install is unchanged and current', async () => {
    await npxSkills(node, project, home, ['add', repo.url, '--skill', 'alpha', '-a', 'github-copilot', '-y', '--copy']);
    assert.ok(fs.existsSync(path.join(project, '.agents/skills/alpha/SKILL.md')));
    const run = await ours(project, ['check', '--json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const [alpha] = (JSON.parse(run.stdout) as { skills: CheckedSkillJson[] }).skills;
    assert.deepEqual(
      { name: alpha.name, installed: alpha.installed, source: alpha.source, path: alpha.path },
      { name: 'alpha', installed: 'unchanged', source: 'current', path: '.agents/skills/alpha' },
    );
  });

  it('writes a lock npx skills is satisfied with: same hash, up to date, nothing rewritten', async () => {
    assert.equal((await ours(project, ['add', repo.url, '--skill', 'alpha'])).code, 0);
    const lockFile = path.join(project, 'skills-lock.json');
    const ourLock = fs.readFileSync(lockFile, 'utf8');

    const output = await npxSkills(node, project, home, ['update', '--project', '--yes']);
    assert.match(output, /All project skills are up to date/);
    assert.equal(fs.readFileSync(lockFile, 'utf8'), ourLock);

    // Its own install of the same skill hashes to the computedHash we wrote.
    const other = path.join(dir, 'other');
    fs.mkdirSync(other);
    await npxSkills(node, other, home, ['add', repo.url, '--skill', 'alpha', '-a', 'github-copilot', '-y', '--copy']);
    const theirs = JSON.parse(fs.readFileSync(path.join(other, 'skills-lock.json'), 'utf8')) as { skills: Record<string, { computedHash: string }> };
    const mine = JSON.parse(ourLock) as { skills: Record<string, { computedHash: string }> };
    assert.equal(mine.skills.alpha.computedHash, theirs.skills.alpha.computedHash);
  });
  it('keeps the edits a project kept through npx skills writing the lock again: it ignores the field and keeps it', async () => {
    assert.equal((await ours(project, ['add', repo.url, '--skill', 'alpha'])).code, 0);
    const folder = path.join(project, '.agent/skills/alpha');
    fs.appendFileSync(path.join(folder, 'SKILL.md'), 'Our own closing line.\n');
    await keepEdits('alpha', await computeFolderHash(folder), await readLock(project), project);
    const kept = (await readLock(project)).skills.alpha.keptEditsHash;

    assert.match(await npxSkills(node, project, home, ['update', '--project', '--yes']), /All project skills are up to date/);
    await npxSkills(node, project, home, ['add', repo.url, '--skill', 'beta', '-a', 'github-copilot', '-y', '--copy']);
    const lock = await readLock(project);
    assert.deepEqual(Object.keys(lock.skills), ['alpha', 'beta']);
    assert.equal(lock.skills.alpha.keptEditsHash, kept);
    const run = await ours(project, ['check', '--json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal((JSON.parse(run.stdout) as { skills: CheckedSkillJson[] }).skills.find((skill) => skill.name === 'alpha')?.installed, 'kept');
  });
});
