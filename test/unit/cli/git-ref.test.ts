// What `eval --baseline REF` reads of a SKILL.md at a git ref, through the user's own git, and the
// reason it gives when it cannot: an unknown ref, a folder outside git, no git at all.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { readAtGitRef } from '../../../src/cli/git-ref';
import { InputError } from '../../../src/cli/io';
import { makeRepo, type TestRepo } from '../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';

describe('readAtGitRef (eval --baseline)', function () {
  this.timeout(20_000);
  let dir: string;
  let repo: TestRepo;
  let first: string;

  beforeEach(async () => {
    dir = await tempDir();
    repo = await makeRepo(dir);
    first = await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'The first description.') } } }, 'first');
    await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'The second description.') }, beta: { 'SKILL.md': skillText('beta', 'Added later.') } } }, 'second');
  });

  afterEach(async () => removeDir(dir));

  it('reads the file as it was at a commit or a branch, whatever the folder of the repository it is in', async () => {
    const alpha = path.join(repo.work, 'skills', 'alpha', 'SKILL.md');
    assert.equal(await readAtGitRef(alpha, first), skillText('alpha', 'The first description.'));
    assert.equal(await readAtGitRef(alpha, 'main'), skillText('alpha', 'The second description.'));
  });

  it('is undefined for a file that did not exist at that ref', async () => {
    assert.equal(await readAtGitRef(path.join(repo.work, 'skills', 'beta', 'SKILL.md'), first), undefined);
  });

  it('refuses a ref the repository does not have, naming it and the folder', async () => {
    const folder = path.join(repo.work, 'skills', 'alpha');
    await assert.rejects(readAtGitRef(path.join(folder, 'SKILL.md'), 'no-such-branch'), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(error.message, `--baseline no-such-branch: no such commit, branch or tag in the repository of ${folder}.`);
      return true;
    });
  });

  it('refuses a folder outside any git repository', async () => {
    const outside = path.join(dir, 'outside', 'alpha');
    await writeTree(outside, { 'SKILL.md': skillText('alpha', 'Not in git.') });
    await fs.writeFile(path.join(dir, 'outside', '.git'), 'gitdir: /nonexistent\n'); // stops git looking further up
    await assert.rejects(readAtGitRef(path.join(outside, 'SKILL.md'), 'main'), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.match(error.message, /is not in a git repository, so --baseline cannot read it\.$/);
      return true;
    });
  });

  it('says git is needed when there is none', async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(dir, 'no-git-here');
    try {
      await assert.rejects(readAtGitRef(path.join(repo.work, 'skills', 'alpha', 'SKILL.md'), 'main'), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.match(error.message, /not found: install git.* --baseline needs it\.$/);
        return true;
      });
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
