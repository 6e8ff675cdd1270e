// What `check` reports for each locked skill: its folder against the lock's hash (drift), and its
// source against what was installed, over folders and local bare git repositories.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { computeFolderHash } from '../../../../src/core/sources/folder-hash';
import type { LockEntry } from '../../../../src/core/sources/lock';
import { checkLockedSkill, SourceFetcher, type CheckContext } from '../../../../src/core/sources/status';
import { makeRepo } from '../../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('checking locked skills', () => {
  let dir: string;
  let project: string;
  let installed: string;
  let fetcher: SourceFetcher;
  let context: CheckContext;

  beforeEach(async () => {
    dir = await tempDir();
    project = path.join(dir, 'project');
    installed = path.join(project, '.agent', 'skills', 'alpha');
    await writeTree(installed, { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    fetcher = new SourceFetcher();
    context = { projectDir: project, fetcher };
  });

  afterEach(async () => {
    await fetcher.dispose();
    await removeDir(dir);
  });

  async function folderEntry(): Promise<LockEntry> {
    await writeTree(path.join(project, 'shared', 'alpha'), { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    return { source: './shared', sourceType: 'local', skillPath: 'alpha/SKILL.md', computedHash: await computeFolderHash(installed) };
  }

  it('finds a skill unchanged and current, then edited, then outdated, then gone from its folder source', async () => {
    const entry = await folderEntry();
    assert.deepEqual(await checkLockedSkill('alpha', entry, context), { name: 'alpha', entry, folder: installed, installed: 'unchanged', source: 'current', latestCommit: undefined });
    await fs.appendFile(path.join(installed, 'SKILL.md'), 'Mine.\n');
    assert.equal((await checkLockedSkill('alpha', entry, context)).installed, 'edited');
    await fs.appendFile(path.join(project, 'shared', 'alpha', 'SKILL.md'), 'Theirs.\n');
    assert.equal((await checkLockedSkill('alpha', entry, context)).source, 'outdated');
    await fs.rm(path.join(project, 'shared', 'alpha'), { recursive: true });
    assert.deepEqual(await checkLockedSkill('alpha', entry, context), { name: 'alpha', entry, folder: installed, installed: 'edited', source: 'gone', latestCommit: undefined });
  });

  it('takes a lock entry without skillPath for a skill at the top of its source', async () => {
    await writeTree(path.join(project, 'shared', 'alpha'), { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    const entry: LockEntry = { source: './shared/alpha', sourceType: 'local', computedHash: await computeFolderHash(installed) };
    assert.deepEqual(await checkLockedSkill('alpha', entry, context), { name: 'alpha', entry, folder: installed, installed: 'unchanged', source: 'current', latestCommit: undefined });
  });

  it('reports a skill whose folder is missing, and looks only in the parent it is given', async () => {
    const entry = await folderEntry();
    const check = await checkLockedSkill('alpha', entry, { ...context, parent: path.join(project, 'elsewhere') });
    assert.equal(check.folder, undefined);
    assert.equal(check.installed, 'missing');
    assert.equal(check.source, 'current');
  });

  it('says why a source cannot be checked or reached', async () => {
    const entry = await folderEntry();
    assert.deepEqual(await checkLockedSkill('alpha', { ...entry, sourceType: 'node_modules' }, context), {
      name: 'alpha',
      entry: { ...entry, sourceType: 'node_modules' },
      folder: installed,
      installed: 'unchanged',
      source: 'unreachable',
      problem: 'cannot be checked: its source type "node_modules" is not a git repository, a folder or a site',
    });
    const unreachable = await checkLockedSkill('alpha', { ...entry, source: 'https://127.0.0.1:1/none.git', sourceType: 'git' }, context);
    assert.equal(unreachable.source, 'unreachable');
    assert.match(unreachable.problem ?? '', /^Cannot clone https:\/\/127\.0\.0\.1:1\/none\.git: /);
    assert.equal(unreachable.installed, 'unchanged');
  });

  it('compares a folder source by content, whatever commit its lock names', async () => {
    const entry = { ...(await folderEntry()), ref: 'b'.repeat(40), requestedRef: 'HEAD' };
    assert.equal((await checkLockedSkill('alpha', entry, context)).source, 'current');
  });

  it('takes a lock that follows a commit as pinned, without fetching', async () => {
    const commit = 'a'.repeat(40);
    const entry: LockEntry = { source: 'https://127.0.0.1:1/none.git', sourceType: 'git', computedHash: 'x', ref: commit, requestedRef: commit };
    assert.deepEqual(await checkLockedSkill('alpha', entry, context), { name: 'alpha', entry, folder: installed, installed: 'edited', source: 'pinned', latestCommit: commit });
  });

  describe('against a git repository', () => {
    it('compares by commit first, then by content, and names a branch that went away', async () => {
      const repo = await makeRepo(dir);
      const first = await repo.commit({ alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') } });
      const entry: LockEntry = { source: repo.url, sourceType: 'git', skillPath: 'alpha/SKILL.md', computedHash: await computeFolderHash(installed), ref: first, requestedRef: 'HEAD' };
      // The head is the pinned commit: current, without cloning.
      assert.deepEqual(await checkLockedSkill('alpha', entry, context), { name: 'alpha', entry, folder: installed, installed: 'unchanged', source: 'current', latestCommit: first });
      // A new commit that leaves the skill as it was: still current, at the new commit.
      const second = await repo.commit({ 'README.md': 'about' });
      assert.deepEqual(await checkLockedSkill('alpha', entry, context), { name: 'alpha', entry, folder: installed, installed: 'unchanged', source: 'current', latestCommit: second });
      const third = await repo.commit({ alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports with totals.') } });
      const later = await checkLockedSkill('alpha', entry, { ...context, fetcher: new SourceFetcher() });
      assert.equal(later.source, 'outdated');
      assert.equal(later.latestCommit, third);
      // A lock that follows a branch the repository no longer has.
      assert.deepEqual(await checkLockedSkill('alpha', { ...entry, requestedRef: 'release' }, context), {
        name: 'alpha',
        entry: { ...entry, requestedRef: 'release' },
        folder: installed,
        installed: 'unchanged',
        source: 'unreachable',
        problem: `${repo.url} has no branch or tag "release" any more`,
      });
    });
  });

  it('fetches a source once per ref and deletes its clones when disposed', async () => {
    const repo = await makeRepo(dir);
    await repo.commit({ 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    repo.tag('v1');
    const git = { kind: 'git', url: repo.url, subPath: '', lockSource: repo.url } as const;
    const head = await fetcher.fetch(git);
    assert.equal(await fetcher.fetch({ ...git }), head);
    const tagged = await fetcher.fetch({ ...git, ref: 'v1' });
    assert.notEqual(tagged, head);
    const branch = await fetcher.fetch({ ...git, ref: 'main' });
    assert.notEqual(branch, tagged);
    assert.equal(await fetcher.fetch({ ...git, ref: 'main' }), branch);
    const folder = { kind: 'folder', folder: path.join(project, 'shared'), subPath: '' } as const;
    assert.equal(await fetcher.fetch(folder), await fetcher.fetch({ ...folder, subPath: 'x' }));
    assert.notEqual(await fetcher.fetch({ ...folder, folder: project }), await fetcher.fetch(folder));
    await fetcher.dispose();
    await assert.rejects(fs.stat(head.root), { code: 'ENOENT' });
    await assert.rejects(fs.stat(tagged.root), { code: 'ENOENT' });
    // Disposed: the next fetch clones again.
    const again = await fetcher.fetch(git);
    assert.notEqual(again, head);
    await fs.stat(again.root);
  });
});
