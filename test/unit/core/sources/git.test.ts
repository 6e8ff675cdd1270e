// Git through the user's own git, over a local bare repository: clones at a branch, a tag or a
// commit, remote refs without cloning, and git's own words when something fails.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { GitError, cloneAt, remoteCommit, runGit } from '../../../../src/core/sources/git';
import { makeRepo, withGitConfig, type TestRepo } from '../../../fixtures/trees/git-repo';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';

function isGitError(message: string | RegExp): (error: unknown) => boolean {
  return (error) => error instanceof GitError && (typeof message === 'string' ? error.message === message : message.test(error.message));
}

describe('git', () => {
  let dir: string;
  let repo: TestRepo;
  let first: string;
  let second: string;

  before(async () => {
    dir = await tempDir();
    repo = await makeRepo(dir);
    first = await repo.commit({ 'a.txt': 'first' });
    repo.tag('v1');
    second = await repo.commit({ 'a.txt': 'second' });
  });

  after(async () => {
    await removeDir(dir);
  });

  it('runs git in the given folder and resolves to its output', async () => {
    assert.equal((await runGit(['rev-parse', 'HEAD'], { cwd: repo.work })).trim(), second);
  });

  it('says when git is not there', async () => {
    await assert.rejects(runGit(['--version'], { gitPath: path.join(dir, 'no-git') }), isGitError('git was not found: install git, or put it on PATH.'));
  });

  it("quotes git's own message, one line, without the progress line", async () => {
    await assert.rejects(runGit(['clone', '--', `${repo.url}-missing`, path.join(dir, 'clone-missing')]), (error: unknown) => {
      assert.ok(error instanceof GitError);
      assert.doesNotMatch(error.message, /Cloning into/);
      assert.match(error.message, /^fatal: '[^']+-missing' does not appear to be a git repository fatal: Could not read from remote repository\. /);
      return true;
    });
    await assert.rejects(runGit(['clone', '--', path.join(dir, 'missing'), path.join(dir, 'clone')]), isGitError(/^fatal: repository '.+missing' does not exist$/));
  });

  it('falls back to the process error when git says nothing', async () => {
    const silent = path.join(dir, 'silent-git');
    await fs.writeFile(silent, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    await assert.rejects(runGit(['status'], { gitPath: silent }), isGitError(/^Command failed: .+silent-git status\n?$/));
  });

  it('runs git where it can never ask for a password, in plain English, with the rest of the environment kept', async () => {
    const printing = path.join(dir, 'printing-git');
    await fs.writeFile(printing, '#!/bin/sh\nenv\n', { mode: 0o755 });
    const saved = process.env.GIT_ASKPASS;
    delete process.env.GIT_ASKPASS;
    try {
      const environment = new Map((await runGit([], { gitPath: printing })).split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
      assert.deepEqual(
        ['GIT_TERMINAL_PROMPT', 'GIT_ASKPASS', 'GIT_ALLOW_PROTOCOL', 'LC_ALL', 'PATH'].map((name) => environment.get(name)),
        ['0', '', 'file:git:http:https:ssh', 'C', process.env.PATH],
      );
    } finally {
      if (saved !== undefined) {
        process.env.GIT_ASKPASS = saved;
      }
    }
  });

  it('quotes each line git says trimmed, leaving out blank lines, in one line', async () => {
    const talking = path.join(dir, 'talking-git');
    await fs.writeFile(talking, "#!/bin/sh\nprintf '  error: first  \\n\\n\\tfatal: second\\n' >&2\nexit 128\n", { mode: 0o755 });
    await assert.rejects(runGit(['status'], { gitPath: talking }), isGitError('error: first fatal: second'));
  });

  it('clones the default branch, a tag or a commit, and resolves to the commit checked out', async () => {
    const clone = async (name: string, ref: string | undefined): Promise<{ commit: string; text: string }> => {
      const dest = path.join(dir, name);
      const commit = await cloneAt(repo.url, ref, dest);
      return { commit, text: await fs.readFile(path.join(dest, 'a.txt'), 'utf8') };
    };
    assert.deepEqual(await clone('head', undefined), { commit: second, text: 'second' });
    assert.deepEqual(await clone('tag', 'v1'), { commit: first, text: 'first' });
    assert.deepEqual(await clone('commit', first), { commit: first, text: 'first' });
    assert.deepEqual(await clone('branch', 'main'), { commit: second, text: 'second' });
  });

  it('names the repository and the ref when a clone fails', async () => {
    // A branch or tag is cloned (git names the branch it cannot find); only a full commit is fetched by itself.
    await assert.rejects(
      cloneAt(repo.url, 'nope', path.join(dir, 'nope')),
      isGitError(`Cannot clone ${repo.url} at nope: warning: Could not find remote branch nope to clone. fatal: Remote branch nope not found in upstream origin`),
    );
    await assert.rejects(cloneAt(`${repo.url}-missing`, undefined, path.join(dir, 'missing')), isGitError(new RegExp(`^Cannot clone ${repo.url}-missing: fatal: `)));
    await assert.rejects(cloneAt(repo.url, 'b'.repeat(40), path.join(dir, 'no-commit')), isGitError(new RegExp(`^Cannot clone ${repo.url} at b{40}: `)));
  });

  it('says Cancelled, and only that, when the clone is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(cloneAt(repo.url, undefined, path.join(dir, 'cancelled'), { signal: controller.signal }), isGitError('Cancelled.'));
    await assert.rejects(remoteCommit(repo.url, 'main', { signal: controller.signal }), isGitError('Cancelled.'));
  });

  it('reads the commit a branch, a tag (peeled) or HEAD names on the remote, undefined for none', async () => {
    assert.equal(await remoteCommit(repo.url, 'HEAD'), second);
    assert.equal(await remoteCommit(repo.url, 'main'), second);
    assert.equal(await remoteCommit(repo.url, 'v1'), first);
    assert.equal(await remoteCommit(repo.url, 'nope'), undefined);
    await assert.rejects(remoteCommit(`${repo.url}-missing`, 'main'), isGitError(new RegExp(`^Cannot reach ${repo.url}-missing: `)));
  });

  it('prefers a branch to a tag of the same name, and reads a lightweight tag', async () => {
    const other = await makeRepo(dir, 'same-name');
    const one = await other.commit({ 'a.txt': '1' });
    const two = await other.commit({ 'a.txt': '2' });
    // Tags on the older commit, one of them named like the branch.
    await runGit(['tag', 'light', one], { cwd: other.work });
    await runGit(['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', 'tag', '--annotate', '--message', 'tag', 'main', one], { cwd: other.work });
    await runGit(['push', '--quiet', 'origin', 'refs/tags/light', 'refs/tags/main'], { cwd: other.work });
    assert.equal(await remoteCommit(other.url, 'main'), two);
    assert.equal(await remoteCommit(other.url, 'light'), one);
  });

  it('clones at an abbreviated commit, as the Skills view shows it, and names one the repository lacks', async () => {
    const clone = async (name: string, ref: string): Promise<{ commit: string; text: string }> => {
      const dest = path.join(dir, name);
      const commit = await cloneAt(repo.url, ref, dest);
      return { commit, text: await fs.readFile(path.join(dest, 'a.txt'), 'utf8') };
    };
    assert.deepEqual(await clone('short', first.slice(0, 7)), { commit: first, text: 'first' });
    assert.deepEqual(await clone('shortest', second.slice(0, 4)), { commit: second, text: 'second' });
    await assert.rejects(cloneAt(repo.url, 'abcdef0', path.join(dir, 'no-short')), isGitError(`Cannot clone ${repo.url} at abcdef0: it has no branch, tag or commit "abcdef0".`));
  });

  it('finds a commit in the history when the server will not send it by itself', async () => {
    // Git's first protocol refuses a commit no branch or tag points at, unless the server allows it.
    await withGitConfig({ 'protocol.version': '0' }, async () => {
      assert.equal(await cloneAt(repo.url, first, path.join(dir, 'old-protocol')), first);
    });
    assert.equal(await fs.readFile(path.join(dir, 'old-protocol', 'a.txt'), 'utf8'), 'first');
  });

  it('repeats what git says about a URL without its user name or password', async () => {
    // Nothing listens on port 9 of this machine: git fails at once, quoting the URL.
    const url = 'http://alice:s3cr3t%21@127.0.0.1:9/team/skills.git';
    const hidden = (error: unknown): boolean => error instanceof GitError && !/alice|s3cr3t/.test(error.message) && /http:\/\/127\.0\.0\.1:9\/team\/skills\.git/.test(error.message);
    await assert.rejects(cloneAt(url, undefined, path.join(dir, 'credentials')), hidden);
    await assert.rejects(remoteCommit(url, 'main'), hidden);
    await assert.rejects(remoteCommit('http://TOKEN1234@127.0.0.1:9/x.git', 'main'), (error: unknown) => error instanceof GitError && !error.message.includes('TOKEN1234'));
  });

  it('lets git use only the transports the product supports, whatever the user configured', async () => {
    const marker = path.join(dir, 'ran');
    await withGitConfig({ 'protocol.ext.allow': 'always', 'protocol.allow': 'always' }, async () => {
      await assert.rejects(cloneAt(`ext::sh -c touch% ${marker}`, undefined, path.join(dir, 'ext-clone')), isGitError(/transport 'ext' not allowed/));
      await assert.rejects(remoteCommit(`ext::sh -c touch% ${marker}`, 'main'), GitError);
    });
    assert.equal(await fs.stat(marker).catch(() => 'absent'), 'absent');
  });
});
