// Git through the user's own `git`: their credential helpers and SSH agent work, and no credential
// of ours is ever involved. Clones are shallow, every call has a time limit and can be cancelled,
// git never stops to ask for a password on a terminal nobody sees, it may use only the transports
// of GIT_PROTOCOLS whatever its configuration allows, and what it says about a URL is repeated
// without the URL's credentials.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { errorCode, InputProblem } from '../util/errors';
import { hideCredentials, withoutCredentials } from '../util/redact';
import { ABBREVIATED_COMMIT, FULL_COMMIT, GIT_PROTOCOLS } from './source-spec';

/** Long enough for a large repository over a slow link, short enough that nothing hangs for ever. */
const GIT_TIMEOUT_MS = 5 * 60 * 1000;
const MAX_GIT_OUTPUT_BYTES = 16 * 1024 * 1024;

export class GitError extends InputProblem {}

export interface GitOptions {
  signal?: AbortSignal;
  /** The `git` to run (tests and the editor may name one); PATH's otherwise. */
  gitPath?: string;
}

/** Runs git and resolves to its stdout; rejects with a GitError quoting git's own message. */
export function runGit(args: readonly string[], options: GitOptions & { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      options.gitPath ?? 'git',
      args,
      {
        cwd: options.cwd,
        signal: options.signal,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_GIT_OUTPUT_BYTES,
        windowsHide: true,
        // GIT_ALLOW_PROTOCOL overrides every protocol.*.allow setting of the user's configuration.
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: process.env.GIT_ASKPASS ?? '', GIT_ALLOW_PROTOCOL: GIT_PROTOCOLS.join(':'), LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
        } else if (options.signal?.aborted) {
          reject(new GitError('Cancelled.'));
        } else if (errorCode(error) === 'ENOENT') {
          reject(new GitError('git was not found: install git, or put it on PATH.'));
        } else {
          const said = stderr
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '' && !line.startsWith('Cloning into'));
          reject(new GitError(said.join(' ') || error.message));
        }
      },
    );
  });
}

/**
 * Shallow-clones `url` at `ref` into the new folder `dest`, and resolves to the commit checked out.
 * `ref` is a branch, a tag, a commit or its abbreviation (as the Skills view shows it), or undefined
 * for the default branch. A commit is fetched by itself where the server allows it; else, and for
 * an abbreviation that is no branch or tag, it is looked up in the repository's history.
 */
export async function cloneAt(url: string, ref: string | undefined, dest: string, options: GitOptions = {}): Promise<string> {
  try {
    try {
      if (ref !== undefined && FULL_COMMIT.test(ref)) {
        await runGit(['init', '--quiet', dest], options);
        await runGit(['fetch', '--quiet', '--depth', '1', '--', url, ref], { ...options, cwd: dest });
        await runGit(['checkout', '--quiet', '--detach', 'FETCH_HEAD'], { ...options, cwd: dest });
      } else {
        await runGit(['clone', '--quiet', '--depth', '1', '--no-tags', ...(ref === undefined ? [] : ['--branch', ref]), '--', url, dest], options);
      }
    } catch (error) {
      if (ref === undefined || !(FULL_COMMIT.test(ref) || ABBREVIATED_COMMIT.test(ref)) || options.signal?.aborted) {
        throw error;
      }
      await checkoutFromHistory(url, ref, dest, options);
    }
    return (await runGit(['rev-parse', 'HEAD'], { ...options, cwd: dest })).trim();
  } catch (error) {
    if (error instanceof GitError && error.message !== 'Cancelled.') {
      throw new GitError(`Cannot clone ${withoutCredentials(url)}${ref === undefined ? '' : ` at ${ref}`}: ${hideCredentials(error.message, url)}`);
    }
    throw error;
  }
}

/**
 * Clones `url` with its history (files only for what is checked out, where the server can filter)
 * into `dest`, replacing what a failed attempt left there, and checks out the commit `commit` names.
 */
async function checkoutFromHistory(url: string, commit: string, dest: string, options: GitOptions): Promise<void> {
  await fs.rm(dest, { recursive: true, force: true });
  await runGit(['clone', '--quiet', '--no-checkout', '--filter=blob:none', '--', url, dest], options);
  let found: string;
  try {
    found = (await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${commit}^{commit}`], { ...options, cwd: dest })).trim();
  } catch (error) {
    throw options.signal?.aborted ? error : new GitError(`it has no branch, tag or commit "${commit}".`);
  }
  await runGit(['checkout', '--quiet', '--detach', found], { ...options, cwd: dest });
}

/**
 * The commit `ref` names on the remote now, without cloning (`git ls-remote`): a branch, a tag
 * (peeled to its commit) or `HEAD`. undefined when the remote has no such ref.
 */
export async function remoteCommit(url: string, ref: string, options: GitOptions = {}): Promise<string | undefined> {
  let output: string;
  try {
    // A pattern matches the end of a ref's name, so `v2` alone leaves out the peeled `refs/tags/v2^{}`.
    output = await runGit(['ls-remote', '--', url, ...(ref === 'HEAD' ? ['HEAD'] : [ref, `${ref}^{}`])], options);
  } catch (error) {
    throw error instanceof GitError && error.message !== 'Cancelled.' ? new GitError(`Cannot reach ${withoutCredentials(url)}: ${hideCredentials(error.message, url)}`) : error;
  }
  const commits = new Map<string, string>();
  for (const line of output.split('\n')) {
    const [commit, name] = line.split('\t');
    if (name !== undefined) {
      commits.set(name, commit);
    }
  }
  const wanted = ref === 'HEAD' ? ['HEAD'] : [`refs/heads/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`];
  return wanted.map((name) => commits.get(name)).find((commit) => commit !== undefined);
}
