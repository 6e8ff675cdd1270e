// agent-skills publish, in-process: what it prints, what it writes, and its exit codes.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CliIo } from '../../../src/cli/io';
import { runCli } from '../../../src/cli/run';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';

async function publish(cwd: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd };
  return { code: await runCli(['publish', ...argv], io), stdout, stderr };
}

describe('agent-skills publish', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(path.join(dir, 'skills'), {
      alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') },
      beta: { 'SKILL.md': skillText('beta', 'Reviews beta changes.'), scripts: { 'run.sh': 'echo\n' } },
    });
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('prints each skill with its artifact and digest, and what it wrote; a second run writes nothing', async () => {
    const first = await publish(dir, ['--out', 'site', 'skills']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^NAME +TYPE +FILES +DIGEST\nalpha +skill-md +1 +sha256:[0-9a-f]{64}\nbeta +archive +2 +sha256:[0-9a-f]{64}\n/);
    assert.match(first.stdout, /Published 2 skills to site\/\.well-known\/agent-skills\/index\.json \(3 files written, 0 unchanged\)\.\n$/);
    assert.equal(first.stderr, '');
    const second = await publish(dir, ['--out', 'site', 'skills']);
    assert.match(second.stdout, /\(0 files written, 3 unchanged\)\.\n$/);
    assert.equal(second.stdout.split('\n').slice(0, 3).join('\n'), first.stdout.split('\n').slice(0, 3).join('\n'));
  });

  it('with --legacy, writes the legacy index too; --allow publishes only the matching skills', async () => {
    const run = await publish(dir, ['--out', 'site', '--legacy', '--allow', 'b*', 'skills']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Published 1 skill to site\/\.well-known\/agent-skills\/index\.json and site\/\.well-known\/skills\/index\.json \(5 files written, 0 unchanged\)/);
    assert.deepEqual(await fs.readdir(path.join(dir, 'site', '.well-known', 'skills', 'beta')), ['SKILL.md', 'scripts']);
  });

  it('publishes the current folder as a project when no ROOT is named', async () => {
    await writeTree(path.join(dir, 'project', '.agent', 'skills'), { gamma: { 'SKILL.md': skillText('gamma', 'Handles gamma.') } });
    const run = await publish(path.join(dir, 'project'), ['--out', '../site']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^NAME +TYPE +FILES +DIGEST\ngamma +skill-md/);
  });

  it('names a skill it cannot publish and exits 1, writing the others', async () => {
    await writeTree(path.join(dir, 'skills'), { broken: { 'SKILL.md': '---\nname: broken\n---\n' } });
    const run = await publish(dir, ['--out', 'site', 'skills']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^agent-skills: skills\/broken\/SKILL\.md: not published: .*description/m);
    assert.match(run.stdout, /Published 2 skills/);
  });

  it('exits 1 and writes nothing when there is no skill to publish', async () => {
    const run = await publish(dir, ['--out', 'site', '--allow', 'nothing', 'skills']);
    assert.deepEqual(run, { code: 1, stdout: '', stderr: 'agent-skills: publish: no skill to publish (none of those found is usable); nothing was written.\n' });
    await assert.rejects(fs.stat(path.join(dir, 'site')));
  });

  it('asks for --out (exit 2), and exits 1 on a ROOT that is not there', async () => {
    const usage = await publish(dir, ['skills']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^agent-skills: publish: name the folder to write the site to with --out DIR\./);
    const missing = await publish(dir, ['--out', 'site', 'no-such-folder']);
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: 'agent-skills: no-such-folder: no such file or folder.\n' });
  });

  it('exits 1 naming the path when the site folder leads out through a symbolic link', async () => {
    await fs.mkdir(path.join(dir, 'site'));
    await fs.mkdir(path.join(dir, 'elsewhere'));
    await fs.symlink(path.join(dir, 'elsewhere'), path.join(dir, 'site', '.well-known'));
    const run = await publish(dir, ['--out', 'site', 'skills']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^agent-skills: the published index "\.well-known\/agent-skills\/index\.json" leads out of .*site through a symbolic link\.\n$/);
    assert.deepEqual(await fs.readdir(path.join(dir, 'elsewhere')), []);
  });
});
