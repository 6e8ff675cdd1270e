// Fetching a source can be cancelled (the editor's progress notification has a Cancel button):
// git is stopped and its temporary clone deleted, so nothing is left behind.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fetchSource } from '../../../../src/core/sources/checkout';
import { GitError } from '../../../../src/core/sources/git';
import { parseSource } from '../../../../src/core/sources/source-spec';
import { makeRepo } from '../../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir } from '../../../fixtures/trees/tree';

describe('fetchSource cancelled', () => {
  let dir: string;
  let savedTmpdir: string | undefined;

  beforeEach(async () => {
    dir = await tempDir();
    savedTmpdir = process.env.TMPDIR;
  });

  afterEach(async () => {
    process.env.TMPDIR = savedTmpdir;
    if (savedTmpdir === undefined) {
      delete process.env.TMPDIR;
    }
    await removeDir(dir);
  });

  it('stops git, rejects as cancelled and leaves no temporary clone', async () => {
    const repo = await makeRepo(dir);
    await repo.commit({ 'SKILL.md': skillText('alpha', 'Formats alpha reports.') });
    // The clone goes to a temporary folder of its own; a private TMPDIR shows whether any is left.
    const temporary = path.join(dir, 'tmp');
    await fs.mkdir(temporary);
    process.env.TMPDIR = temporary;
    const controller = new AbortController();
    const fetching = fetchSource(parseSource(repo.url, dir), { signal: controller.signal });
    controller.abort();
    await assert.rejects(fetching, (error: unknown) => error instanceof GitError && error.message === 'Cancelled.');
    assert.deepEqual(await fs.readdir(temporary), []);
  });
});
