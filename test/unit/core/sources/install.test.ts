// Installed skill folders are written and deleted whole: what is copied, what a failed copy leaves
// (nothing new, the old folder intact), and where a locked skill is found.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { describeSkipped, findInstalled, installFolder, removeFolder } from '../../../../src/core/sources/install';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';

async function listTree(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  return entries.map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/') + (entry.isDirectory() ? '/' : '')).sort();
}

describe('installing skill folders', () => {
  let dir: string;
  let from: string;
  let parent: string;

  beforeEach(async () => {
    dir = await tempDir();
    from = path.join(dir, 'source');
    parent = path.join(dir, 'project', '.agent', 'skills');
    await writeTree(from, { 'SKILL.md': 'skill', scripts: { 'run.sh': 'echo', deep: { 'a.txt': 'a' } }, '.git': { HEAD: 'x' }, node_modules: { m: { 'i.js': '' } } });
    await fs.symlink(path.join(from, 'SKILL.md'), path.join(from, 'link.md'));
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('copies files and folders, leaving .git, node_modules and symbolic links behind, and creates the parent', async () => {
    const result = await installFolder(from, parent, 'alpha');
    assert.deepEqual(result, { folder: path.join(parent, 'alpha'), skippedLinks: ['link.md'], skippedSpecialFiles: [] });
    assert.deepEqual(await listTree(parent), ['alpha/', 'alpha/SKILL.md', 'alpha/scripts/', 'alpha/scripts/deep/', 'alpha/scripts/deep/a.txt', 'alpha/scripts/run.sh']);
    assert.equal(await fs.readFile(path.join(parent, 'alpha', 'scripts', 'run.sh'), 'utf8'), 'echo');
  });

  it('leaves pipes behind as special files, not as links, and says so beside the links', async () => {
    execFileSync('mkfifo', [path.join(from, 'scripts', 'pipe')]);
    const result = await installFolder(from, parent, 'alpha');
    assert.deepEqual(result.skippedLinks, ['link.md']);
    assert.deepEqual(result.skippedSpecialFiles, ['scripts/pipe']);
    assert.equal(await fs.stat(path.join(parent, 'alpha', 'scripts', 'pipe')).catch(() => 'absent'), 'absent');
    assert.equal(describeSkipped(result), 'symbolic links not copied: link.md; special files (sockets, pipes, devices) not copied: scripts/pipe');
  });

  it('describes a copy that left nothing behind as nothing, and each kind alone', () => {
    assert.equal(describeSkipped({ folder: 'f', skippedLinks: [], skippedSpecialFiles: [] }), undefined);
    assert.equal(describeSkipped({ folder: 'f', skippedLinks: ['a', 'b'], skippedSpecialFiles: [] }), 'symbolic links not copied: a, b');
    assert.equal(describeSkipped({ folder: 'f', skippedLinks: [], skippedSpecialFiles: ['p'] }), 'special files (sockets, pipes, devices) not copied: p');
  });

  it('replaces an installed folder whole, leaving no hidden sibling', async () => {
    await writeTree(path.join(parent, 'alpha'), { 'old.txt': 'old' });
    await installFolder(from, parent, 'alpha');
    assert.deepEqual(await fs.readdir(parent), ['alpha']);
    assert.deepEqual((await fs.readdir(path.join(parent, 'alpha'))).sort(), ['SKILL.md', 'scripts']);
  });

  it('leaves the installed folder as it was, and no staging copy, when the copy fails', async () => {
    await writeTree(path.join(parent, 'alpha'), { 'old.txt': 'old' });
    await assert.rejects(installFolder(path.join(dir, 'gone'), parent, 'alpha'), (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
    assert.deepEqual(await fs.readdir(parent), ['alpha']);
    assert.deepEqual(await fs.readdir(path.join(parent, 'alpha')), ['old.txt']);
  });

  it('removes an installed folder and everything in it', async () => {
    await installFolder(from, parent, 'alpha');
    await removeFolder(path.join(parent, 'alpha'));
    assert.deepEqual(await fs.readdir(parent), []);
  });

  it('finds an installed skill in the given parent only, or in our location before the other tools’ ones', async () => {
    const project = path.join(dir, 'project');
    assert.equal(await findInstalled(project, 'alpha'), undefined);
    await writeTree(path.join(project, '.claude', 'skills', 'alpha'), { 'SKILL.md': 'x' });
    assert.equal(await findInstalled(project, 'alpha'), path.join(project, '.claude', 'skills', 'alpha'));
    await writeTree(path.join(project, '.agents', 'skills', 'alpha'), { 'SKILL.md': 'x' });
    assert.equal(await findInstalled(project, 'alpha'), path.join(project, '.agents', 'skills', 'alpha'));
    await writeTree(path.join(project, '.agent', 'skills', 'alpha'), { 'SKILL.md': 'x' });
    assert.equal(await findInstalled(project, 'alpha'), path.join(project, '.agent', 'skills', 'alpha'));
    // A file of that name is not an installed skill.
    await writeTree(path.join(project, 'elsewhere'), { alpha: 'a file' });
    assert.equal(await findInstalled(project, 'alpha', path.join(project, 'elsewhere')), undefined);
    assert.equal(await findInstalled(project, 'alpha', path.join(project, '.claude', 'skills')), path.join(project, '.claude', 'skills', 'alpha'));
  });
});
