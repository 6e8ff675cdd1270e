// Paths others wrote stay inside their folder: relative paths tidied or refused, symbolic links
// followed to where they really lead, names that can only be one folder.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { normalizedRelativePath, OutsidePathError, resolveInside, skillNameProblem } from '../../../../src/core/sources/confine';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('confining paths', () => {
  let dir: string;
  let root: string;

  beforeEach(async () => {
    dir = await tempDir();
    root = path.join(dir, 'root');
    await writeTree(root, { inside: { 'file.md': 'x' } });
    await writeTree(path.join(dir, 'outside'), { 'secret.txt': 'secret' });
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('tidies a relative path, reading \\ as a separator, and refuses one that is absolute or climbs out', () => {
    assert.equal(normalizedRelativePath('./a//b/./c/'), 'a/b/c');
    assert.equal(normalizedRelativePath('a\\b'), 'a/b');
    assert.equal(normalizedRelativePath(''), '');
    assert.equal(normalizedRelativePath('.'), '');
    for (const outside of ['..', 'a/../../b', 'a/..', '/etc', '\\\\server\\share', 'C:\\x', 'C:/x', 'a\0b']) {
      assert.equal(normalizedRelativePath(outside), undefined, outside);
    }
  });

  it('takes the specification’s names only', () => {
    assert.equal(skillNameProblem('a'), undefined);
    assert.equal(skillNameProblem('a'.repeat(64)), undefined);
    assert.equal(skillNameProblem('résumé-2'), undefined);
    assert.equal(skillNameProblem('a'.repeat(65)), `"${'a'.repeat(65)}" is not a valid skill name (lowercase letters, digits and single hyphens, at most 64 characters)`);
  });

  it('resolves a path inside its root, existing or not yet, following links that stay inside', async () => {
    await fs.symlink('inside', path.join(root, 'alias'));
    assert.equal(await resolveInside(root, 'inside/file.md', 'the file'), path.join(root, 'inside', 'file.md'));
    assert.equal(await resolveInside(root, 'alias/new/deeper', 'the file'), path.join(root, 'alias', 'new', 'deeper'));
    assert.equal(await resolveInside(root, '', 'the top'), root);
    assert.equal(await resolveInside(path.join(dir, 'not-yet'), 'a/b', 'the file'), path.join(dir, 'not-yet', 'a', 'b'));
    // A file on the way: nothing is under it, and nothing there can lead out.
    assert.equal(await resolveInside(root, 'inside/file.md/x', 'the file'), path.join(root, 'inside', 'file.md', 'x'));
  });

  it('refuses a path leading out through a link, a dangling link or a loop, naming it and the root as given', async () => {
    await fs.symlink(path.join(dir, 'outside'), path.join(root, 'out'));
    await fs.symlink(path.join(dir, 'missing'), path.join(root, 'dangling'));
    await fs.symlink('loop', path.join(root, 'loop'));
    const refused = async (relative: string, message: string): Promise<void> => {
      await assert.rejects(resolveInside(root, relative, 'the sub-path', 'team/skills'), (error: unknown) => error instanceof OutsidePathError && error.message === message, relative);
    };
    await refused('out', 'the sub-path "out" leads out of team/skills through a symbolic link.');
    await refused('out/secret.txt', 'the sub-path "out/secret.txt" leads out of team/skills through a symbolic link.');
    await refused('out/not-there', 'the sub-path "out/not-there" leads out of team/skills through a symbolic link.');
    await refused('dangling', 'the sub-path "dangling" leads nowhere inside team/skills: a symbolic link on its way points to nothing there.');
    await refused('dangling/new', 'the sub-path "dangling/new" leads nowhere inside team/skills: a symbolic link on its way points to nothing there.');
    await refused('loop/x', 'the sub-path "loop/x" leads nowhere inside team/skills: a symbolic link on its way points to nothing there.');
    await refused('../outside', 'the sub-path "../outside" must stay inside team/skills.');
  });
});
