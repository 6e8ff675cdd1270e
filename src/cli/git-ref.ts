// Reads a file as it was at a git ref, through the user's own `git`, for comparisons with an
// earlier version (`eval --baseline`).

import * as path from 'node:path';
import { GitError, runGit } from '../core/sources/git';
import { InputError } from './io';

/**
 * The text of `file` at `ref`; undefined when the file did not exist there. An unknown ref, a
 * folder outside a git repository, or no git at all is an InputError that says which.
 */
export async function readAtGitRef(file: string, ref: string): Promise<string | undefined> {
  const cwd = path.dirname(file);
  try {
    // `./name` makes the path relative to the folder git runs in, not to the repository's top.
    return await runGit(['show', `${ref}:./${path.basename(file)}`], { cwd });
  } catch (error) {
    if (!(error instanceof GitError)) {
      throw error;
    }
    try {
      await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd });
    } catch (verifyError) {
      const reason = verifyError instanceof GitError ? verifyError.message : '';
      if (/not found: install git/.test(reason)) {
        throw new InputError(`${reason} --baseline needs it.`);
      }
      throw new InputError(
        /not a git repository/i.test(reason) || /not a git repository/i.test(error.message)
          ? `${cwd} is not in a git repository, so --baseline cannot read it.`
          : `--baseline ${ref}: no such commit, branch or tag in the repository of ${cwd}.`,
      );
    }
    return undefined;
  }
}
