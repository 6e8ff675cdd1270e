// computedHash as npx skills 1.7.4 computes it (the expected value is what that tool wrote for the
// same folder), and what it leaves out.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { computeFolderHash } from '../../../../src/core/sources/folder-hash';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('computeFolderHash', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, { 'SKILL.md': '---\nname: alpha\ndescription: Alpha skill.\n---\nBody\n', 'notes.txt': 'x' });
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('gives the hash npx skills writes for the same files', async () => {
    assert.equal(await computeFolderHash(dir), '4531b09b75d8d3743f39fe260a093821ad5927bca22e2084b77b211679eee958');
  });

  it('skips .git, node_modules and symbolic links, and sees any other change', async () => {
    const clean = await computeFolderHash(dir);
    await writeTree(dir, { '.git': { HEAD: 'x' }, node_modules: { a: { 'index.js': '' } } });
    await fs.symlink(path.join(dir, 'notes.txt'), path.join(dir, 'link.txt'));
    assert.equal(await computeFolderHash(dir), clean);
    await writeTree(dir, { scripts: { 'run.sh': '' } });
    assert.notEqual(await computeFolderHash(dir), clean);
  });
});
