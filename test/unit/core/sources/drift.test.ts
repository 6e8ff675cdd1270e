// Drift of an installed skill folder from its lock entry: edits, edits the project keeps, and
// trigger tests of the user's own, which are no edit of the version installed.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { describeLocalWork, folderDrift, installedState } from '../../../../src/core/sources/drift';
import { computeFolderHash, computeFolderHashes } from '../../../../src/core/sources/folder-hash';
import type { LockEntry } from '../../../../src/core/sources/lock';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('drift of an installed skill', () => {
  let dir: string;
  let entry: LockEntry;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    entry = { source: 'team/skills', sourceType: 'github', computedHash: await computeFolderHash(dir) };
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('is unchanged as installed, edited after an edit, and missing without a folder', async () => {
    assert.deepEqual(await folderDrift(entry, dir), { state: 'unchanged', ownEvals: false });
    assert.equal(await installedState(entry, undefined), 'missing');
    await fs.appendFile(path.join(dir, 'SKILL.md'), 'My edit.\n');
    assert.deepEqual(await folderDrift(entry, dir), { state: 'edited', ownEvals: false });
    assert.equal(describeLocalWork(await folderDrift(entry, dir)), 'was edited since it was installed');
  });

  it('takes trigger tests added to a version that had none for the user’s own, not for an edit', async () => {
    await writeTree(dir, { evals: { 'triggers.json': '{"cases":[]}' } });
    assert.deepEqual(await folderDrift(entry, dir), { state: 'unchanged', ownEvals: true });
    assert.equal(describeLocalWork(await folderDrift(entry, dir)), 'holds trigger tests of your own (evals/)');
    // An edit beside them is still an edit.
    await fs.appendFile(path.join(dir, 'SKILL.md'), 'My edit.\n');
    assert.equal(await installedState(entry, dir), 'edited');
  });

  it('takes a change to the trigger tests a version came with for an edit', async () => {
    await writeTree(dir, { evals: { 'triggers.json': '{"cases":[]}' } });
    const shipped = { ...entry, computedHash: await computeFolderHash(dir) };
    assert.deepEqual(await folderDrift(shipped, dir), { state: 'unchanged', ownEvals: false });
    await writeTree(dir, { evals: { 'triggers.json': '{"cases":[{"query":"mine"}]}' } });
    assert.equal(await installedState(shipped, dir), 'edited');
  });

  it('is kept while the folder stays as it was when its edits were kept, and edited again after a further edit', async () => {
    await fs.appendFile(path.join(dir, 'SKILL.md'), 'My edit.\n');
    const kept = { ...entry, keptEditsHash: await computeFolderHash(dir) };
    assert.deepEqual(await folderDrift(kept, dir), { state: 'kept', ownEvals: false });
    assert.equal(describeLocalWork(await folderDrift(kept, dir)), 'holds edits made since it was installed, which the project keeps');
    // Trigger tests drafted afterwards do not undo the choice.
    await writeTree(dir, { evals: { 'triggers.json': '{"cases":[]}' } });
    assert.deepEqual(await folderDrift(kept, dir), { state: 'kept', ownEvals: true });
    await fs.appendFile(path.join(dir, 'SKILL.md'), 'Another edit.\n');
    assert.equal(await installedState(kept, dir), 'edited');
  });

  it('hashes without evals/ only what lies in the folder named evals at the top', async () => {
    await writeTree(dir, { docs: { evals: { 'a.txt': 'x' } }, 'evals.md': 'y' });
    const hashes = await computeFolderHashes(dir);
    assert.equal(hashes.withoutEvals, hashes.all);
    assert.equal(hashes.all, await computeFolderHash(dir));
  });
});
