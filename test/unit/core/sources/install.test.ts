// Installed skill folders are written and deleted whole: what is copied, what a failed copy leaves
// (nothing new, the old folder intact), and where a locked skill is found.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { OutsidePathError } from '../../../../src/core/sources/confine';
import { describeSkipped, findInstalled, installFolder, removeFolder } from '../../../../src/core/sources/install';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { fsError, withFs, type FsPromises } from '../discovery/fs-stub';

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
    assert.deepEqual(result, { folder: path.join(parent, 'alpha'), skippedLinks: ['link.md'], skippedSpecialFiles: [], keptEvals: false });
    assert.deepEqual(await listTree(parent), ['alpha/', 'alpha/SKILL.md', 'alpha/scripts/', 'alpha/scripts/deep/', 'alpha/scripts/deep/a.txt', 'alpha/scripts/run.sh']);
    assert.equal(await fs.readFile(path.join(parent, 'alpha', 'scripts', 'run.sh'), 'utf8'), 'echo');
  });

  it('keeps the replaced folder’s trigger tests when asked and the incoming version has none, their regular files only', async () => {
    await installFolder(from, parent, 'alpha');
    const evals = path.join(parent, 'alpha', 'evals');
    await writeTree(evals, { 'triggers.json': '{"cases":[]}' });
    await fs.symlink('/etc/passwd', path.join(evals, 'passwd'));
    // Without keepEvals (another source's version), they go with the folder.
    assert.equal((await installFolder(from, parent, 'alpha')).keptEvals, false);
    assert.ok(!(await exists(evals)));
    await writeTree(evals, { 'triggers.json': '{"cases":[]}' });
    await fs.symlink('/etc/passwd', path.join(evals, 'passwd'));
    const kept = await installFolder(from, parent, 'alpha', { keepEvals: true });
    assert.deepEqual([kept.keptEvals, kept.skippedLinks], [true, ['link.md']]);
    assert.deepEqual(await listTree(evals), ['triggers.json']);
    // A version that brings trigger tests of its own brings them in place of the user's.
    await writeTree(from, { evals: { 'triggers.json': '{"cases":["theirs"]}' } });
    assert.equal((await installFolder(from, parent, 'alpha', { keepEvals: true })).keptEvals, false);
    assert.equal(await fs.readFile(path.join(evals, 'triggers.json'), 'utf8'), '{"cases":["theirs"]}');
  });

  it('does not follow an evals/ that is a symbolic link out of the skill when keeping trigger tests', async () => {
    const outside = path.join(dir, 'outside');
    await writeTree(outside, { 'secret.txt': 'TOP SECRET' });
    await installFolder(from, parent, 'alpha');
    await fs.symlink(outside, path.join(parent, 'alpha', 'evals'));
    const result = await installFolder(from, parent, 'alpha', { keepEvals: true });
    assert.equal(result.keptEvals, false);
    assert.ok(!(await exists(path.join(parent, 'alpha', 'evals'))));
    assert.equal(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET');
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
    assert.equal(describeSkipped({ skippedLinks: [], skippedSpecialFiles: [] }), undefined);
    assert.equal(describeSkipped({ skippedLinks: ['a', 'b'], skippedSpecialFiles: [] }), 'symbolic links not copied: a, b');
    assert.equal(describeSkipped({ skippedLinks: [], skippedSpecialFiles: ['p', 'q'] }), 'special files (sockets, pipes, devices) not copied: p, q');
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

  /** A replacement of fs.rename or fs.mkdir that fails with `code` for a first path (relative to the test folder) matching `refused`. */
  function refusing<K extends 'rename' | 'mkdir'>(refused: RegExp, code: string): (original: FsPromises[K]) => FsPromises[K] {
    return (original) =>
      (async (...args: unknown[]) => {
        const relative = path.relative(dir, String(args[0])).split(path.sep).join('/');
        if (refused.test(relative)) {
          throw fsError(code, `${code}: refused, ${relative}`);
        }
        return (original as (...args: unknown[]) => Promise<unknown>)(...args);
      }) as FsPromises[K];
  }

  it('copies into a hidden sibling named for the install, and sets aside the folder it replaces or removes under a name saying so', async () => {
    const moves: string[] = [];
    const name = (folder: unknown): string => path.basename(String(folder)).replace(/-[0-9a-f]{8}$/, '-…');
    const noting =
      (original: FsPromises['rename']): FsPromises['rename'] =>
      async (source, target) => {
        moves.push(`${name(source)} -> ${name(target)}`);
        return original(source, target);
      };
    await installFolder(from, parent, 'alpha');
    await withFs('rename', noting, async () => {
      await installFolder(from, parent, 'alpha');
      await removeFolder(path.join(parent, 'alpha'));
    });
    assert.deepEqual(moves, ['alpha -> .alpha.replaced-…', '.alpha.installing-… -> alpha', 'alpha -> .alpha.removing-…']);
  });

  it('says why the copy could not start, and leaves nothing behind, not even the folders made for it', async () => {
    await assert.rejects(
      withFs('mkdir', refusing<'mkdir'>(/installing/, 'ENOSPC'), () => installFolder(from, parent, 'alpha')),
      { code: 'ENOSPC' },
    );
    assert.deepEqual(await fs.readdir(dir), ['source']);
    await fs.mkdir(parent, { recursive: true });
    await assert.rejects(
      withFs('mkdir', refusing<'mkdir'>(/installing/, 'ENOSPC'), () => installFolder(from, parent, 'alpha')),
      { code: 'ENOSPC' },
    );
    assert.deepEqual(await fs.readdir(parent), []);
  });

  it('keeps the installed folder, and says why, when it cannot be set aside', async () => {
    await writeTree(path.join(parent, 'alpha'), { 'old.txt': 'old' });
    await assert.rejects(
      withFs('rename', refusing<'rename'>(/skills\/alpha$/, 'EBUSY'), () => installFolder(from, parent, 'alpha')),
      { code: 'EBUSY' },
    );
    assert.deepEqual(await listTree(parent), ['alpha/', 'alpha/old.txt']);
  });

  it('puts the installed folder back when the copy cannot take its place, and says why; a first install leaves nothing', async () => {
    await assert.rejects(
      withFs('rename', refusing<'rename'>(/installing/, 'EXDEV'), () => installFolder(from, parent, 'alpha')),
      { code: 'EXDEV' },
    );
    assert.deepEqual(await fs.readdir(dir), ['source']);
    await writeTree(path.join(parent, 'alpha'), { 'old.txt': 'old' });
    await assert.rejects(
      withFs('rename', refusing<'rename'>(/installing/, 'EXDEV'), () => installFolder(from, parent, 'alpha')),
      { code: 'EXDEV' },
    );
    assert.deepEqual(await listTree(parent), ['alpha/', 'alpha/old.txt']);
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

  it('installs, finds and removes only a folder named by a skill name, really inside its parent', async () => {
    const victim = path.join(dir, 'victim');
    await writeTree(victim, { 'keep.txt': 'keep' });
    const project = path.join(dir, 'project');
    for (const name of ['..', '.', '../../victim', victim, 'A', 'a/b']) {
      const refused = (error: unknown): boolean => error instanceof OutsidePathError && error.message.startsWith(`"${name}" is not a valid skill name (`);
      await assert.rejects(installFolder(from, parent, name), refused, name);
      await assert.rejects(findInstalled(project, name), refused, name);
      await assert.rejects(findInstalled(project, name, parent), refused, name);
    }
    await assert.rejects(removeFolder(path.join(parent, '..')), OutsidePathError);
    assert.deepEqual(await fs.readdir(victim), ['keep.txt']);
    assert.deepEqual((await fs.readdir(dir)).sort(), ['source', 'victim']);
  });

  it('neither writes through, reads through nor deletes through an installed folder that is a symbolic link leading out', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    await writeTree(elsewhere, { 'keep.txt': 'keep' });
    await fs.mkdir(parent, { recursive: true });
    await fs.symlink(elsewhere, path.join(parent, 'alpha'));
    await fs.symlink(path.join(dir, 'nowhere'), path.join(parent, 'beta'));
    const leadsOut = (error: unknown): boolean => error instanceof OutsidePathError && error.message === `the skill folder "alpha" leads out of ${parent} through a symbolic link.`;
    await assert.rejects(installFolder(from, parent, 'alpha'), leadsOut);
    await assert.rejects(findInstalled(path.join(dir, 'project'), 'alpha'), leadsOut);
    await assert.rejects(removeFolder(path.join(parent, 'alpha')), leadsOut);
    await assert.rejects(installFolder(from, parent, 'beta'), (error: unknown) => error instanceof OutsidePathError && /^the skill folder "beta" leads nowhere inside /.test(error.message));
    assert.deepEqual(await fs.readdir(elsewhere), ['keep.txt']);
    assert.equal(await fs.stat(path.join(dir, 'nowhere')).catch(() => 'absent'), 'absent');
    assert.deepEqual((await fs.readdir(parent)).sort(), ['alpha', 'beta']);
  });
});

async function exists(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => undefined)) !== undefined;
}
