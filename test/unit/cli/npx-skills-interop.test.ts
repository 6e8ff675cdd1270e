// skills-lock.json and skills sites shared with the real `npx skills` (the `skills` package, a dev
// dependency), both ways, offline against a bare repository or a site on 127.0.0.1 made in the
// test: its lock reads back here, and ours satisfies it.

import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { CliIo } from '../../../src/cli/io';
import type { CheckedSkillJson } from '../../../src/cli/sources-command';
import type { SkillsLock } from '../../../src/core/sources/lock';
import { runCli } from '../../../src/cli/run';
import { keepEdits } from '../../../src/core/sources/apply';
import { computeFolderHash } from '../../../src/core/sources/folder-hash';
import { readLock } from '../../../src/core/sources/lock';
import { nodeBinaryPath } from '../../../scripts/harness/vscode-server';
import { makeRepo, type TestRepo } from '../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';
import { startSiteServer, type SiteServer } from '../../integration/site-server';
import { REPOSITORY } from './bundle';

const SKILLS_CLI = path.join(REPOSITORY, 'node_modules', 'skills', 'bin', 'cli.mjs');

/** `skills` 1.7.4 needs Node 22 or later: this Node, else the Node 24 the integration harness keeps. */
function nodeForSkills(): string | undefined {
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    return process.execPath;
  }
  return fs.existsSync(nodeBinaryPath()) ? nodeBinaryPath() : undefined;
}

/** The Node to run `skills` with; the suite is skipped only where neither Node 22+ nor the harness's Node 24 (npm run test:integration installs it) exists. */
function nodeForSkillsOrSkip(suite: Mocha.Context): string {
  const found = nodeForSkills();
  if (!found) {
    suite.skip();
  }
  return found!;
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
    node = nodeForSkillsOrSkip(this);
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

  it('install restores the lock npx skills wrote (no commit: at its ref), and writes nothing once the ref moved on', async () => {
    await npxSkills(node, project, home, ['add', repo.url, '--skill', 'alpha', '-a', 'github-copilot', '-y', '--copy']);
    const lockFile = path.join(project, 'skills-lock.json');
    const theirLock = fs.readFileSync(lockFile, 'utf8');
    assert.equal((JSON.parse(theirLock) as { skills: Record<string, { ref?: string }> }).skills.alpha.ref, undefined, 'npx skills pins no commit');
    const installed = path.join(project, '.agents/skills/alpha');
    const frozenAsWritten = await ours(project, ['install', '--frozen']);
    assert.equal(frozenAsWritten.code, 0, frozenAsWritten.stderr);
    fs.rmSync(installed, { recursive: true });

    const restored = await ours(project, ['install', '--to', '.agents/skills']);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Installed alpha → \.agents\/skills\/alpha \(/m);
    assert.deepEqual(fs.readdirSync(installed).sort(), ['SKILL.md', 'notes.txt']);
    assert.equal(fs.readFileSync(lockFile, 'utf8'), theirLock);
    assert.equal((await ours(project, ['install', '--frozen'])).code, 0);

    await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports, with totals.') } } });
    fs.rmSync(installed, { recursive: true });
    for (const argv of [
      ['install', '--frozen'],
      ['install', '--to', '.agents/skills', '--yes'],
    ]) {
      const run = await ours(project, argv);
      assert.equal(run.code, 1, argv.join(' '));
      assert.match(
        run.stderr,
        /alpha: .*skills-lock\.json pins no commit \(.+\), and .+@[0-9a-f]{7} now differs from its computedHash: the source changed since the lock was written; nothing was installed\./,
      );
      assert.equal(fs.existsSync(installed), false, argv.join(' '));
      assert.equal(fs.readFileSync(lockFile, 'utf8'), theirLock);
    }
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

describe('skills sites shared with npx skills 1.7.4', function () {
  this.timeout(120_000);
  let dir: string;
  let home: string;
  let node: string;
  let server: SiteServer;

  before(function () {
    node = nodeForSkillsOrSkip(this);
  });

  beforeEach(async () => {
    dir = await tempDir();
    home = path.join(dir, 'home');
    fs.mkdirSync(home);
  });

  afterEach(async () => {
    await server?.close();
    await removeDir(dir);
  });

  function project(name: string): string {
    const folder = path.join(dir, name);
    fs.mkdirSync(folder);
    return folder;
  }

  function lockOf(folder: string): SkillsLock {
    return JSON.parse(fs.readFileSync(path.join(folder, 'skills-lock.json'), 'utf8')) as SkillsLock;
  }

  /** `npx skills update` prints nothing more for a site whose digests match the lock's; a changed one it reinstalls. */
  function assertCurrentForNpxSkills(output: string): void {
    assert.match(output, new RegExp(`Checking skills from source: ${server.origin}`));
    assert.doesNotMatch(output, /Updating|Failed/);
  }

  async function checkedByUs(folder: string): Promise<string[][]> {
    const run = await ours(folder, ['check', '--json']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    return (JSON.parse(run.stdout) as { skills: CheckedSkillJson[] }).skills.map((skill) => [skill.name, skill.installed, skill.source]);
  }

  it('installs from a site our publish wrote, and each tool reads the other’s lock', async () => {
    await writeTree(path.join(dir, 'skills'), {
      alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') },
      beta: { 'SKILL.md': skillText('beta', 'Reviews beta changes.'), scripts: { 'run.sh': 'echo beta\n' } },
    });
    assert.equal((await ours(dir, ['publish', '--out', 'site', 'skills'])).code, 0);
    server = await startSiteServer(path.join(dir, 'site'));

    const theirs = project('theirs');
    await npxSkills(node, theirs, home, ['add', server.origin, '--skill', 'alpha', '--skill', 'beta', '-a', 'github-copilot', '-y', '--copy']);
    assert.equal(fs.readFileSync(path.join(theirs, '.agents/skills/beta/scripts/run.sh'), 'utf8'), 'echo beta\n');
    assert.deepEqual(await checkedByUs(theirs), [
      ['alpha', 'unchanged', 'current'],
      ['beta', 'unchanged', 'current'],
    ]);

    const mine = project('mine');
    assert.equal((await ours(mine, ['add', server.origin, '--yes'])).code, 0);
    const ourLock = fs.readFileSync(path.join(mine, 'skills-lock.json'), 'utf8');
    assert.deepEqual(JSON.parse(ourLock), lockOf(theirs));
    assertCurrentForNpxSkills(await npxSkills(node, mine, home, ['update', '--project', '--yes']));
    assert.equal(fs.readFileSync(path.join(mine, 'skills-lock.json'), 'utf8'), ourLock);
  });

  it('installs from a site built by hand to the schema (GNU tar and Info-ZIP archives) as npx skills does', async () => {
    const site = path.join(dir, 'site');
    const artifacts = path.join(site, '.well-known/agent-skills');
    await writeTree(path.join(dir, 'src'), {
      alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') },
      beta: { 'SKILL.md': skillText('beta', 'Reviews beta changes.'), references: { 'guide.md': '# Guide\n' } },
      gamma: { 'SKILL.md': skillText('gamma', 'Handles gamma.'), 'notes.txt': 'g' },
    });
    fs.mkdirSync(artifacts, { recursive: true });
    fs.copyFileSync(path.join(dir, 'src/alpha/SKILL.md'), path.join(artifacts, 'alpha.md'));
    // Entries named from the skill's folder: npx skills refuses `./`-prefixed names.
    execFileSync('tar', ['-czf', path.join(artifacts, 'beta.tar.gz'), '-C', path.join(dir, 'src/beta'), 'SKILL.md', 'references']);
    execFileSync('zip', ['-q', '-r', path.join(artifacts, 'gamma.zip'), 'SKILL.md', 'notes.txt'], { cwd: path.join(dir, 'src/gamma') });
    const digest = (file: string): string =>
      `sha256:${createHash('sha256')
        .update(fs.readFileSync(path.join(artifacts, file)))
        .digest('hex')}`;
    const index = {
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills: [
        { name: 'alpha', description: 'Formats alpha reports.', type: 'skill-md', url: 'alpha.md', digest: digest('alpha.md') },
        { name: 'beta', description: 'Reviews beta changes.', type: 'archive', url: '/.well-known/agent-skills/beta.tar.gz', digest: digest('beta.tar.gz') },
        { name: 'gamma', description: 'Handles gamma.', type: 'archive', url: 'gamma.zip', digest: digest('gamma.zip') },
      ],
    };
    fs.writeFileSync(path.join(artifacts, 'index.json'), JSON.stringify(index, null, 2));
    server = await startSiteServer(site);

    const mine = project('mine');
    const run = await ours(mine, ['add', server.origin, '--yes']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fs.readFileSync(path.join(mine, '.agent/skills/beta/references/guide.md'), 'utf8'), '# Guide\n');
    assert.equal(fs.readFileSync(path.join(mine, '.agent/skills/gamma/notes.txt'), 'utf8'), 'g');
    const ourLock = fs.readFileSync(path.join(mine, 'skills-lock.json'), 'utf8');
    assertCurrentForNpxSkills(await npxSkills(node, mine, home, ['update', '--project', '--yes']));
    assert.equal(fs.readFileSync(path.join(mine, 'skills-lock.json'), 'utf8'), ourLock);

    const theirs = project('theirs');
    await npxSkills(node, theirs, home, ['add', server.origin, '--skill', 'alpha', '--skill', 'beta', '--skill', 'gamma', '-a', 'github-copilot', '-y', '--copy']);
    assert.deepEqual(lockOf(theirs), JSON.parse(ourLock));
    assert.deepEqual(await checkedByUs(theirs), [
      ['alpha', 'unchanged', 'current'],
      ['beta', 'unchanged', 'current'],
      ['gamma', 'unchanged', 'current'],
    ]);
  });
});
