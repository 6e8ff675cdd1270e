import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { compareFolders, describeFolderChanges } from '../../../../src/core/sources/folder-diff';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('compareFolders', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('lists the files a new version adds, removes and changes, by content', async () => {
    await writeTree(path.join(dir, 'installed'), { 'SKILL.md': 'one', 'same.md': 'x', 'gone.md': 'old', scripts: { 'run.sh': 'a' } });
    await writeTree(path.join(dir, 'incoming'), { 'SKILL.md': 'two', 'same.md': 'x', scripts: { 'run.sh': 'a', 'new.sh': 'b' } });
    const changes = await compareFolders(path.join(dir, 'installed'), path.join(dir, 'incoming'));
    assert.deepEqual(changes, { added: ['scripts/new.sh'], removed: ['gone.md'], changed: ['SKILL.md'] });
    assert.equal(describeFolderChanges(changes), 'changed: SKILL.md; added: scripts/new.sh; removed: gone.md');
  });

  it('counts every file as added when nothing is installed, and says when nothing changes', async () => {
    await writeTree(path.join(dir, 'incoming'), { 'SKILL.md': 'x' });
    assert.deepEqual(await compareFolders(undefined, path.join(dir, 'incoming')), { added: ['SKILL.md'], removed: [], changed: [] });
    assert.equal(describeFolderChanges(await compareFolders(path.join(dir, 'incoming'), path.join(dir, 'incoming'))), 'no file changes');
    assert.equal(describeFolderChanges({ added: ['a.md', 'b.md'], removed: [], changed: [] }), 'added: a.md, b.md');
  });
});
