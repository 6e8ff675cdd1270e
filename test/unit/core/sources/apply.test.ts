// The steps the command line and the editor share to install and update skills, over a bare git
// repository made in the test (file:// URL).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { installAndLock, installConflict, keepEdits, removeAndUnlock, replaceWithLatest } from '../../../../src/core/sources/apply';
import { installedState } from '../../../../src/core/sources/drift';
import { openSource } from '../../../../src/core/sources/checkout';
import { computeFolderHash } from '../../../../src/core/sources/folder-hash';
import { entryOrigin, entrySource, LockError, readLock, type LockEntry } from '../../../../src/core/sources/lock';
import { parseSource } from '../../../../src/core/sources/source-spec';
import { latestSkill, SourceFetcher } from '../../../../src/core/sources/status';
import { makeRepo, type TestRepo } from '../../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir } from '../../../fixtures/trees/tree';

describe('installing and updating skills from a source', () => {
  let dir: string;
  let project: string;
  let parent: string;
  let repo: TestRepo;
  let first: string;

  beforeEach(async () => {
    dir = await tempDir();
    project = path.join(dir, 'project');
    parent = path.join(project, '.agent', 'skills');
    await fs.mkdir(project);
    repo = await makeRepo(dir);
    first = await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') } } }, 'alpha');
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  async function install(): Promise<void> {
    const checkout = await openSource(parseSource(repo.url, project));
    try {
      const lock = await readLock(project);
      assert.equal(await installConflict('alpha', checkout.source, lock, { projectDir: project, parent }), undefined);
      const { entry } = await installAndLock(checkout.skills[0], checkout, lock, { projectDir: project, parent });
      assert.equal(entryOrigin(entry), `${repo.url}@${first.slice(0, 7)}`);
    } finally {
      await checkout.dispose();
    }
  }

  it('installs, locks at the commit, and names what stands in the way of installing again', async () => {
    await install();
    const lock = await readLock(project);
    assert.deepEqual(lock.skills.alpha, {
      source: repo.url,
      sourceUrl: repo.url,
      sourceType: 'git',
      skillPath: 'skills/alpha/SKILL.md',
      computedHash: await computeFolderHash(path.join(parent, 'alpha')),
      ref: first,
      requestedRef: 'HEAD',
    });
    const place = { projectDir: project, parent };
    // From the same source and untouched: nothing to ask.
    assert.equal(await installConflict('alpha', parseSource(repo.url, project), lock, place), undefined);
    await fs.appendFile(path.join(parent, 'alpha', 'SKILL.md'), 'My edit.\n');
    assert.deepEqual(await installConflict('alpha', parseSource(repo.url, project), lock, place), { kind: 'edited', folder: path.join(parent, 'alpha') });
    const other = await makeRepo(dir, 'other-repo');
    await other.commit({ 'SKILL.md': skillText('alpha', 'Another alpha.') });
    assert.deepEqual(await installConflict('alpha', parseSource(other.url, project), lock, place), { kind: 'other-origin', folder: path.join(parent, 'alpha') });
    // A folder nobody installed is someone's own skill.
    await fs.mkdir(path.join(parent, 'beta'));
    assert.deepEqual(await installConflict('beta', parseSource(repo.url, project), lock, place), { kind: 'other-origin', folder: path.join(parent, 'beta') });
  });

  it('replaces an installed skill with its source version and moves the lock to that commit', async () => {
    await install();
    const second = await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports, now with totals.') } } }, 'totals');
    const lock = await readLock(project);
    const source = entrySource(lock.skills.alpha, project, 'alpha');
    assert.ok(typeof source !== 'string');
    const fetcher = new SourceFetcher();
    try {
      const latest = await latestSkill(source, fetcher);
      assert.ok(latest.skill);
      const { entry } = await replaceWithLatest('alpha', { ...latest, skill: latest.skill }, lock, { projectDir: project, parent });
      assert.equal(entry.ref, second);
      assert.equal(entry.requestedRef, 'HEAD');
    } finally {
      await fetcher.dispose();
    }
    assert.match(await fs.readFile(path.join(parent, 'alpha', 'SKILL.md'), 'utf8'), /now with totals/);
    const written = await readLock(project);
    assert.equal(written.skills.alpha.ref, second);
    assert.equal(written.skills.alpha.computedHash, await computeFolderHash(path.join(parent, 'alpha')));
  });

  describe('without git', () => {
    const hash = 'h'.repeat(64);

    it('asks before replacing a skill the lock says came from elsewhere, even when its folder is gone, and not before reinstalling a deleted one', async () => {
      const place = { projectDir: project, parent };
      const shared = path.join(project, 'shared');
      await fs.mkdir(shared);
      const source = parseSource('shared', project);
      const fromElsewhere = { version: 1, skills: { alpha: { source: 'team/skills', sourceType: 'github', computedHash: hash } } };
      assert.deepEqual(await installConflict('alpha', source, fromElsewhere, place), { kind: 'other-origin', folder: path.join(parent, 'alpha') });
      const fromHere = { version: 1, skills: { alpha: { source: './shared', sourceType: 'local', computedHash: hash } } };
      assert.equal(await installConflict('alpha', source, fromHere, place), undefined);
      assert.equal(await installConflict('alpha', source, { version: 1, skills: {} }, place), undefined);
    });

    it('moves a git entry to the new commit, keeping the ref it follows, and leaves a folder entry without one', async () => {
      const place = { projectDir: project, parent };
      await fs.mkdir(parent, { recursive: true });
      const folder = path.join(dir, 'latest', 'alpha');
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, 'SKILL.md'), 'new');
      const skill = { name: 'alpha', folder, skillPath: 'skills/alpha/SKILL.md' };
      const commit = 'c'.repeat(40);
      const replaced = async (entry: LockEntry, latestCommit: string | undefined): Promise<LockEntry> => {
        const lock = { version: 1, skills: { alpha: entry } };
        return (await replaceWithLatest('alpha', { skill, root: folder, commit: latestCommit }, lock, place)).entry;
      };
      const git = { source: 'team/skills', sourceType: 'github', computedHash: hash };
      const newHash = await computeFolderHash(folder);
      // A lock written by npx skills: the ref it recorded (a tag here) is what it follows.
      assert.deepEqual(await replaced({ ...git, ref: 'v2' }, commit), { ...git, skillPath: 'skills/alpha/SKILL.md', computedHash: newHash, ref: commit, requestedRef: 'v2' });
      assert.equal((await replaced(git, commit)).requestedRef, 'HEAD');
      assert.equal((await replaced({ ...git, requestedRef: 'main', ref: 'a'.repeat(40) }, commit)).requestedRef, 'main');
      const local = { source: './shared', sourceType: 'local', computedHash: hash };
      assert.deepEqual(await replaced(local, undefined), { ...local, skillPath: 'skills/alpha/SKILL.md', computedHash: newHash });
      assert.deepEqual((await readLock(project)).skills.alpha, { ...local, skillPath: 'skills/alpha/SKILL.md', computedHash: newHash });
    });

    /** A version of alpha (no trigger tests) in a folder of its own, as a fetched source gives it. */
    async function version(text: string): Promise<{ name: string; folder: string; skillPath: string }> {
      const folder = await fs.mkdtemp(path.join(dir, 'version-'));
      await fs.writeFile(path.join(folder, 'SKILL.md'), text);
      return { name: 'alpha', folder, skillPath: 'alpha/SKILL.md' };
    }

    it('keeps the trigger tests the user added when the same source installs or updates the skill, and hashes the version without them', async () => {
      const place = { projectDir: project, parent };
      const shared = path.join(project, 'shared');
      await fs.mkdir(shared);
      const from = { source: parseSource('shared', project), root: shared };
      const lock = { version: 1, skills: {} as Record<string, LockEntry> };
      await installAndLock(await version('v1'), from, lock, place);
      const installed = path.join(parent, 'alpha');
      await fs.mkdir(path.join(installed, 'evals'));
      await fs.writeFile(path.join(installed, 'evals', 'triggers.json'), '{"cases":[]}');

      const again = await installAndLock(await version('v1'), from, lock, place);
      assert.equal(again.installed.keptEvals, true);
      assert.equal(await fs.readFile(path.join(installed, 'evals', 'triggers.json'), 'utf8'), '{"cases":[]}');
      assert.equal(await installedState(lock.skills.alpha, installed), 'unchanged');

      lock.skills.alpha = { ...lock.skills.alpha, keptEditsHash: 'e'.repeat(64) };
      const updated = await replaceWithLatest('alpha', { skill: await version('v2'), root: shared }, lock, place);
      assert.equal(await fs.readFile(path.join(installed, 'SKILL.md'), 'utf8'), 'v2');
      assert.equal(await fs.readFile(path.join(installed, 'evals', 'triggers.json'), 'utf8'), '{"cases":[]}');
      // The edits kept were in the folder replaced: nothing of them is left to keep.
      assert.equal(updated.entry.keptEditsHash, undefined);
      assert.equal((await readLock(project)).skills.alpha.keptEditsHash, undefined);
      assert.equal(await installedState(updated.entry, installed), 'unchanged');
    });

    it('does not carry trigger tests into a skill installed from another source', async () => {
      const place = { projectDir: project, parent };
      await fs.mkdir(path.join(parent, 'alpha', 'evals'), { recursive: true });
      await fs.writeFile(path.join(parent, 'alpha', 'evals', 'triggers.json'), '{"cases":[]}');
      const lock = { version: 1, skills: { alpha: { source: 'team/skills', sourceType: 'github', computedHash: hash } } };
      const { installed } = await installAndLock(await version('v1'), { source: parseSource(path.join(dir), project), root: dir }, lock, place);
      assert.equal(installed.keptEvals, false);
      assert.deepEqual(await fs.readdir(installed.folder), ['SKILL.md']);
    });

    it('records kept edits in the lock entry, and says so when the entry is gone', async () => {
      const lock = { version: 1, skills: { alpha: { source: 'team/skills', sourceType: 'github', computedHash: hash, ref: 'v1' } } as Record<string, LockEntry> };
      await keepEdits('alpha', 'f'.repeat(64), lock, project);
      assert.deepEqual((await readLock(project)).skills.alpha, { source: 'team/skills', sourceType: 'github', computedHash: hash, ref: 'v1', keptEditsHash: 'f'.repeat(64) });
      await assert.rejects(
        keepEdits('beta', 'f'.repeat(64), lock, project),
        (error: unknown) => error instanceof LockError && /has no entry for beta any more; nothing was recorded/.test(error.message),
      );
    });

    it('removes an installed folder with its lock entry, and the entry alone when the folder is gone', async () => {
      const place = { projectDir: project, parent };
      const lock = { version: 1, skills: {} as Record<string, LockEntry> };
      await fs.mkdir(path.join(project, 'shared'));
      await installAndLock(await version('v1'), { source: parseSource('shared', project), root: path.join(project, 'shared') }, lock, place);
      lock.skills.beta = { source: 'team/skills', sourceType: 'github', computedHash: hash };
      await removeAndUnlock('alpha', path.join(parent, 'alpha'), lock, project);
      assert.deepEqual(await fs.readdir(parent), []);
      await removeAndUnlock('beta', undefined, lock, project);
      assert.deepEqual((await readLock(project)).skills, {});
    });
  });
});
