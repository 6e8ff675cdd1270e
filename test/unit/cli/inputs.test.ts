// The roots a long-running command (mcp) serves: a folder that does not exist yet is kept and named,
// anything else unusable is refused with the path and the reason.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { watchedRootsFromArguments } from '../../../src/cli/inputs';
import { InputError, type CliIo } from '../../../src/cli/io';
import { removeDir, tempDir } from '../../fixtures/trees/tree';

describe('watchedRootsFromArguments', () => {
  let dir: string;
  let io: CliIo;

  beforeEach(async () => {
    dir = await tempDir();
    io = { stdout: () => undefined, stderr: () => undefined, cwd: dir };
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('keeps a folder that does not exist yet as a root, labelled as typed, and names it as missing', async () => {
    await fs.mkdir(path.join(dir, 'present'));
    const { roots, missing } = await watchedRootsFromArguments(['present', 'later/skills'], io);
    assert.deepEqual(roots, [
      { path: path.join(dir, 'present'), kind: 'env', label: 'present' },
      { path: path.join(dir, 'later', 'skills'), kind: 'env', label: 'later/skills' },
    ]);
    assert.deepEqual(missing, ['later/skills']);
    assert.deepEqual((await watchedRootsFromArguments(['present'], io)).missing, []);
  });

  it('refuses a file, and a path through a file, naming the path', async () => {
    await fs.writeFile(path.join(dir, 'notes.txt'), 'x');
    await assert.rejects(watchedRootsFromArguments(['notes.txt'], io), (error: unknown) => error instanceof InputError && error.message === 'notes.txt: not a folder.');
    await assert.rejects(
      watchedRootsFromArguments(['notes.txt/skills'], io),
      (error: unknown) => error instanceof InputError && error.message === 'notes.txt/skills: a part of the path is not a folder.',
    );
  });
});
