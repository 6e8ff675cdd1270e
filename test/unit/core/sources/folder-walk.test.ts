// Listing a skill folder for hashing, copying and auditing: a stable order, what is skipped, what
// each entry is, and the bound on a folder too big to be a skill.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { walkFolder } from '../../../../src/core/sources/folder-walk';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { withFs, type FsPromises } from '../discovery/fs-stub';

describe('walkFolder', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('lists entries depth first, each folder by name in code-unit order, skipping .git and node_modules folders', async () => {
    const names = ['b', 'a', 'C', 'é', 'a-b', 'a.b', 'A', '_', 'z9', 'z10'];
    await writeTree(dir, Object.fromEntries(names.map((name) => [name, 'x'])));
    await writeTree(dir, { sub: { 'y.md': 'y', 'x.md': 'x' }, '.git': { HEAD: 'x' }, node_modules: { m: 'x' } });
    await fs.writeFile(path.join(dir, '.gitignore'), 'node_modules'); // a file named like nothing skipped
    const walked = await walkFolder(dir);
    assert.deepEqual(
      walked.map((entry) => `${entry.kind} ${entry.relativePath}`),
      ['file .gitignore', 'file A', 'file C', 'file _', 'file a', 'file a-b', 'file a.b', 'file b', 'folder sub', 'file sub/x.md', 'file sub/y.md', 'file z10', 'file z9', 'file é'],
    );
    assert.equal(walked[9].absolutePath, path.join(dir, 'sub', 'x.md'));
  });

  it('reports symbolic links and other entries without following them', async () => {
    await writeTree(dir, { target: { 'inside.md': 'x' } });
    await fs.symlink(path.join(dir, 'target'), path.join(dir, 'link'));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'socket'), resolve));
    try {
      assert.deepEqual(
        (await walkFolder(dir)).map((entry) => `${entry.kind} ${entry.relativePath}`),
        ['symlink link', 'other socket', 'folder target', 'file target/inside.md'],
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a folder holding more entries than the bound, and walks one holding exactly that many', async () => {
    await writeTree(dir, { a: 'x', b: { c: 'x' } });
    assert.equal((await walkFolder(dir, 3)).length, 3);
    await assert.rejects(walkFolder(dir, 2), { message: `${dir} holds more than 2 files and folders; it is not a skill folder.` });
    await writeTree(dir, Object.fromEntries(Array.from({ length: 1300 }, (_, index) => [`f${index}`, ''])));
    await assert.rejects(walkFolder(dir, 1234), { message: `${dir} holds more than 1,234 files and folders; it is not a skill folder.` });
  });
  it('orders entries by their names’ UTF-16 code units, whatever order the file system lists them in', async () => {
    await writeTree(dir, { b: 'x', 'é.md': 'x', B: 'x', a: { z: 'x', A: 'x' }, 'Z.md': 'x' });
    const reversed = (readdir: FsPromises['readdir']): FsPromises['readdir'] => {
      const list = readdir as (...args: unknown[]) => Promise<unknown[]>;
      return (async (...args: unknown[]) => (await list(...args)).reverse()) as unknown as FsPromises['readdir'];
    };
    for (const listing of [(readdir: FsPromises['readdir']) => readdir, reversed]) {
      const walked = await withFs('readdir', listing, () => walkFolder(dir));
      assert.deepEqual(
        walked.map((entry) => entry.relativePath),
        ['B', 'Z.md', 'a', 'a/A', 'a/z', 'b', 'é.md'],
      );
    }
  });
});
