// Signed sources: skills-trust.json requires, per source pattern, a signature by a key of an
// allowed-signers file; add, update and install verify the pinned commit (or the tag asked for)
// with git's own verification, refuse what fails with nothing written, and keep what was verified
// in the lock, where check and install verify it again. SSH keys and signed commits are made here,
// in local repositories.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CheckedSkillJson } from '../../../src/cli/sources-command';
import type { LockEntry, SkillsLock } from '../../../src/core/sources/lock';
import { allowedSigner, makeRepo, makeSigningKey, withGitConfig, type SigningKey, type TestRepo } from '../../fixtures/trees/git-repo';
import { removeDir, skillText, tempDir } from '../../fixtures/trees/tree';
import { cli } from './run-in-process';

const ALPHA = { skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports.') } } };
const ALPHA_V2 = { skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports, with totals.') } } };

describe('signed sources (skills-trust.json)', function () {
  // Keys, signed commits and clones on a busy machine.
  this.timeout(60_000);
  let dir: string;
  let project: string;
  let repo: TestRepo;
  let alice: SigningKey;
  let mallory: SigningKey;

  before(async () => {
    const keys = await tempDir();
    alice = await makeSigningKey(keys, 'alice');
    mallory = await makeSigningKey(keys, 'mallory');
  });

  beforeEach(async () => {
    dir = await tempDir();
    project = path.join(dir, 'project');
    await fs.mkdir(project);
    repo = await makeRepo(dir);
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  /** The project's policy: sources matching `match` must be signed by a key of the allowed-signers file holding `lines`. */
  async function policy(lines: string[], match = '*'): Promise<void> {
    await fs.mkdir(path.join(project, '.github'), { recursive: true });
    await fs.writeFile(path.join(project, '.github', 'allowed_signers'), `# Who may sign our skills\n${lines.join('\n')}\n`);
    await fs.writeFile(path.join(project, 'skills-trust.json'), JSON.stringify({ version: 1, sources: [{ match, require: 'signed', allowedSigners: '.github/allowed_signers' }] }));
  }

  async function lock(): Promise<SkillsLock> {
    return JSON.parse(await fs.readFile(path.join(project, 'skills-lock.json'), 'utf8')) as SkillsLock;
  }

  async function writeLock(value: SkillsLock): Promise<void> {
    await fs.writeFile(path.join(project, 'skills-lock.json'), JSON.stringify(value, null, 2));
  }

  async function exists(file: string): Promise<boolean> {
    return fs.lstat(file).then(
      () => true,
      () => false,
    );
  }

  async function checkJson(): Promise<{ code: number; skills: CheckedSkillJson[] }> {
    const run = await cli(project, ['check', '--json']);
    return { code: run.code, skills: (JSON.parse(run.stdout) as { skills: CheckedSkillJson[] }).skills };
  }

  it('adds a commit signed by a listed key, keeps the signature in the lock, and check verifies it again', async () => {
    const commit = await repo.commit(ALPHA, 'alpha', alice);
    await policy([allowedSigner('alice@example.com', alice)], 'file://*');
    const run = await cli(project, ['add', repo.url, '--skill', 'alpha']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^Installed alpha → \\.agent/skills/alpha \\(.+@${commit.slice(0, 7)}, signed by alice@example\\.com\\)$`, 'm'));
    const signature = (await lock()).skills.alpha.signature as { signer: string; key: string; signedObject: string; tag?: string };
    assert.deepEqual([signature.signer, signature.key, signature.tag], ['alice@example.com', alice.fingerprint, undefined]);
    assert.match(signature.signedObject, /^tree [0-9a-f]{40}\n[\s\S]*\ngpgsig -----BEGIN SSH SIGNATURE-----\n/);

    const check = await checkJson();
    assert.equal(check.code, 0);
    assert.deepEqual(check.skills[0].signature, { state: 'signed', signer: 'alice@example.com', key: alice.fingerprint });

    // A lock that keeps no signature (as npx skills writes it) is verified at its source.
    const withoutSignature = await lock();
    delete withoutSignature.skills.alpha.signature;
    await writeLock(withoutSignature);
    assert.deepEqual((await checkJson()).skills[0].signature, { state: 'signed', signer: 'alice@example.com', key: alice.fingerprint });
    assert.equal((await cli(project, ['install', '--frozen'])).code, 0);
  });

  it('refuses an unsigned commit and one signed by a key the policy does not list, naming the commit and the signer; nothing is written', async () => {
    await policy([allowedSigner('alice@example.com', alice)]);
    const unsigned = await repo.commit(ALPHA, 'alpha');
    const refused = await cli(project, ['add', repo.url, '--skill', 'alpha']);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `^agent-skills: alpha: ${escape(repo.url)}: commit ${unsigned.slice(0, 7)}: refused: the commit is not signed\\. skills-trust\\.json sources\\[0\\] \\("\\*"\\) requires a signature by a key \\.github/allowed_signers lists\\.$`,
        'm',
      ),
    );
    assert.equal(await exists(path.join(project, '.agent')), false);
    assert.equal(await exists(path.join(project, 'skills-lock.json')), false);

    const byMallory = await repo.commit(ALPHA_V2, 'totals', mallory);
    const stranger = await cli(project, ['add', repo.url, '--skill', 'alpha']);
    assert.equal(stranger.code, 1);
    assert.match(
      stranger.stderr,
      new RegExp(`commit ${byMallory.slice(0, 7)}: refused: the commit is signed by ED25519 key ${escape(mallory.fingerprint)}, which \\.github/allowed_signers does not list\\.`),
    );
    assert.equal(await exists(path.join(project, '.agent')), false);
  });

  it('verifies the tag asked for: a signed tag of an unsigned commit is accepted, an unsigned tag of one is not', async () => {
    await policy([allowedSigner('alice@example.com', alice)]);
    await repo.commit(ALPHA, 'alpha');
    repo.tag('v1', alice);
    repo.tag('v1-unsigned');
    const signedTag = await cli(project, ['add', `${repo.url}#v1`, '--skill', 'alpha']);
    assert.equal(signedTag.code, 0, signedTag.stderr);
    const entry = (await lock()).skills.alpha;
    assert.deepEqual([(entry.signature as { tag?: string }).tag, entry.requestedRef], ['v1', 'v1']);
    assert.match((entry.signature as { signedObject: string }).signedObject, /^object [0-9a-f]{40}\ntype commit\ntag v1\n/);
    assert.equal((await checkJson()).code, 0);

    const unsignedTag = await cli(path.join(dir), ['add', `${repo.url}#v1-unsigned`, '--skill', 'alpha', '--to', 'other']);
    // No policy in dir: accepted there; in the project, refused.
    assert.equal(unsignedTag.code, 0, unsignedTag.stderr);
    const refused = await cli(project, ['add', `${repo.url}#v1-unsigned`, '--skill', 'alpha', '--yes']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused: tag v1-unsigned is not signed; the commit is not signed\./);
    assert.deepEqual((await lock()).skills.alpha, entry, 'the lock still pins the signed tag');
  });

  it('refuses to update to a commit that is not signed, leaving the skill and its lock entry as they were', async () => {
    await policy([allowedSigner('alice@example.com', alice)]);
    await repo.commit(ALPHA, 'alpha', alice);
    assert.equal((await cli(project, ['add', repo.url, '--skill', 'alpha'])).code, 0);
    const before = await lock();
    const unsigned = await repo.commit(ALPHA_V2, 'totals');
    const run = await cli(project, ['update', '--yes']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`^agent-skills: alpha: .+: commit ${unsigned.slice(0, 7)}: refused: the commit is not signed\\.`, 'm'));
    assert.deepEqual(await lock(), before);
    assert.match(await fs.readFile(path.join(project, '.agent/skills/alpha/SKILL.md'), 'utf8'), /Formats alpha reports\.\n/);

    const signed = await repo.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'Formats alpha reports, signed again.') } } }, 'signed again', alice);
    const updated = await cli(project, ['update']);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /signed by alice@example\.com\)/);
    assert.equal((await lock()).skills.alpha.ref, signed);
  });

  it('install verifies what the lock keeps without reaching the source, and fails once the key is no longer listed', async () => {
    await policy([allowedSigner('alice@example.com', alice)]);
    await repo.commit(ALPHA, 'alpha', alice);
    assert.equal((await cli(project, ['add', repo.url, '--skill', 'alpha'])).code, 0);
    // The source is gone: an installed skill's kept signature is verified on its own.
    await fs.rename(repo.bare, `${repo.bare}-moved`);
    const frozen = await cli(project, ['install', '--frozen']);
    assert.equal(frozen.code, 0, frozen.stderr);

    // The key leaves the allowed signers: the pinned commit is no longer verifiable.
    await policy([allowedSigner('bob@example.com', mallory)]);
    const revoked = await cli(project, ['install', '--frozen']);
    assert.equal(revoked.code, 1);
    assert.match(
      revoked.stderr,
      /^agent-skills: alpha: installed as locked, but commit [0-9a-f]{7}: refused: the commit is signed by ED25519 key SHA256:\S+, which \.github\/allowed_signers does not list\./m,
    );
    await fs.rename(`${repo.bare}-moved`, repo.bare);
    const check = await checkJson();
    assert.equal(check.code, 1);
    assert.equal(check.skills[0].signature?.state, 'refused');
    assert.match(check.skills[0].signature?.problem ?? '', /does not list/);
  });

  it('install restores a skill whose lock keeps a verified signature, and refuses one whose kept signature was swapped for another commit', async () => {
    await policy([allowedSigner('alice@example.com', alice)]);
    await repo.commit(ALPHA, 'alpha', alice);
    assert.equal((await cli(project, ['add', repo.url, '--skill', 'alpha'])).code, 0);
    await removeDir(path.join(project, '.agent'));
    const restored = await cli(project, ['install']);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Installed alpha → \.agent\/skills\/alpha \(.+, signed by alice@example\.com\)$/m);

    // Another project installs another commit alice signed; its kept signature is genuine, but not of our commit.
    const other = await makeRepo(dir, 'other');
    const otherCommit = await other.commit({ skills: { alpha: { 'SKILL.md': skillText('alpha', 'Not ours.') } } }, 'not ours', alice);
    const otherProject = path.join(dir, 'other-project');
    await fs.cp(project, otherProject, { recursive: true });
    await fs.rm(path.join(otherProject, 'skills-lock.json'));
    assert.equal((await cli(otherProject, ['add', other.url, '--skill', 'alpha', '--yes'])).code, 0);
    const theirs = (JSON.parse(await fs.readFile(path.join(otherProject, 'skills-lock.json'), 'utf8')) as SkillsLock).skills.alpha;
    const forged = await lock();
    forged.skills.alpha = { ...forged.skills.alpha, signature: theirs.signature } as LockEntry;
    await writeLock(forged);
    await removeDir(path.join(project, '.agent'));
    const refused = await cli(project, ['install']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`the signed commit skills-lock\\.json keeps is another commit \\(${otherCommit.slice(0, 7)}\\)`));
    assert.equal(await exists(path.join(project, '.agent', 'skills', 'alpha')), false);
  });

  it("is not widened by the user's git configuration: their SSH program and allowed-signers file are not used", async () => {
    await policy([allowedSigner('alice@example.com', alice)]);
    const byMallory = await repo.commit(ALPHA, 'alpha', mallory);
    const yes = path.join(dir, 'says-good');
    await fs.writeFile(yes, '#!/bin/sh\necho \'Good "git" signature for alice@example.com with ED25519 key SHA256:forged\' >&2\nexit 0\n', { mode: 0o755 });
    const theirs = path.join(dir, 'their-allowed-signers');
    await fs.writeFile(theirs, `${allowedSigner('alice@example.com', mallory)}\n`);
    const run = await withGitConfig({ 'gpg.ssh.program': yes, 'gpg.ssh.allowedSignersFile': theirs, 'gpg.format': 'openpgp' }, () => cli(project, ['add', repo.url, '--skill', 'alpha']));
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`commit ${byMallory.slice(0, 7)}: refused: the commit is signed by ED25519 key ${escape(mallory.fingerprint)}, which`));
    assert.equal(await exists(path.join(project, '.agent')), false);
  });

  it('applies the first entry whose pattern matches the source as typed or locked, and nothing to a source no entry matches', async () => {
    await repo.commit(ALPHA, 'alpha', mallory);
    await fs.mkdir(path.join(project, 'keys'));
    await fs.writeFile(path.join(project, 'keys', 'team'), `${allowedSigner('alice@example.com', alice)}\n`);
    await fs.writeFile(path.join(project, 'keys', 'vendor'), `${allowedSigner('mallory@vendor.example', mallory)}\n`);
    const trust = (sources: { match: string; allowedSigners: string }[]): Promise<void> =>
      fs.writeFile(path.join(project, 'skills-trust.json'), JSON.stringify({ version: 1, sources: sources.map((source) => ({ ...source, require: 'signed' })) }));

    await trust([{ match: 'https://example.invalid/*', allowedSigners: 'keys/team' }]);
    const unmatched = await cli(project, ['add', repo.url, '--skill', 'alpha']);
    assert.equal(unmatched.code, 0, unmatched.stderr);
    assert.doesNotMatch(unmatched.stdout, /signed by/);
    assert.equal((await lock()).skills.alpha.signature, undefined);
    const json = await checkJson();
    assert.deepEqual(json.skills[0].signature, { state: 'unsigned' });

    await trust([
      { match: `*${path.basename(repo.bare)}`, allowedSigners: 'keys/vendor' },
      { match: '*', allowedSigners: 'keys/team' },
    ]);
    const vendor = await cli(project, ['add', repo.url, '--skill', 'alpha', '--yes']);
    assert.equal(vendor.code, 0, vendor.stderr);
    assert.match(vendor.stdout, /signed by mallory@vendor\.example/);

    await trust([
      { match: '*', allowedSigners: 'keys/team' },
      { match: `*${path.basename(repo.bare)}`, allowedSigners: 'keys/vendor' },
    ]);
    const team = await cli(project, ['add', repo.url, '--skill', 'alpha', '--yes']);
    assert.equal(team.code, 1);
    assert.match(team.stderr, /skills-trust\.json sources\[0\] \("\*"\) requires a signature by a key keys\/team lists/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
