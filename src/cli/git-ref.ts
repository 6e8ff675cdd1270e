// Reads a file as it was at a git ref, through the user's own `git`, for comparisons with an
// earlier version (`eval --baseline`).

import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { InputError } from './io';

/** At most this much of one file is read from git (SKILL.md files are capped far below it). */
const MAX_GIT_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * The text of `file` at `ref`; undefined when the file did not exist there. An unknown ref, a
 * folder outside a git repository, or no git at all is an InputError that says which.
 */
export async function readAtGitRef(file: string, ref: string): Promise<string | undefined> {
  const folder = path.dirname(file);
  // `./name` makes the path relative to the folder git runs in, not to the repository's top.
  const { code, stdout, stderr } = await git(folder, ['show', `${ref}:./${path.basename(file)}`]);
  if (code === 0) {
    return stdout;
  }
  const verified = await git(folder, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (verified.code !== 0) {
    const reason = verified.stderr.trim() || stderr.trim();
    throw new InputError(
      /not a git repository/i.test(reason) ? `${folder} is not in a git repository, so --baseline cannot read it.` : `--baseline ${ref}: no such commit, branch or tag in the repository of ${folder}.`,
    );
  }
  return undefined;
}

function git(cwd: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOENT') {
        reject(new InputError('git is not installed or not on PATH; --baseline needs it.'));
        return;
      }
      resolve({ code: error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0, stdout, stderr });
    });
  });
}
