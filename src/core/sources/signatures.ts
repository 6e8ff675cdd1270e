// Signed sources: the commit installed from git (or the tag asked for) is checked with git's own
// verification against the allowed-signers file of the trust policy's rule, and what was verified
// (the signed object itself) is kept in the lock entry, so it can be verified again later without
// the source: its commit object hashes to the pinned commit, its tag object names it.
//
// Only SSH signatures are verified. Git runs with none of the user's configuration (ownConfigOnly)
// and with its SSH program and allowed-signers file set here, so no setting of theirs can widen
// what is accepted; a GPG or X.509 signature is never handed to a program at all.

import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorMessage, InputProblem } from '../util/errors';
import { isPlainObject } from '../util/objects';
import type { FetchedSource } from './checkout';
import { runGit, runGitForResult, type GitOptions } from './git';
import { entrySource, LOCK_FILE_NAME, pinnedCommit, type LockEntry } from './lock';
import { checkedRef, FULL_COMMIT, type GitSource } from './source-spec';
import { checkedAllowedSigners, describeRule, lockedSourceNames, ruleFor, TRUST_FILE_NAME, type TrustPolicy, type TrustRule } from './trust-policy';

/** What a lock entry keeps of a verified signature (its `signature` field). */
export interface SignatureRecord {
  /** The principal the allowed-signers file gives the key, e.g. an email address. */
  signer: string;
  /** The key's fingerprint, `SHA256:…`. */
  key: string;
  /** The tag whose signature was verified; absent when it was the commit's. */
  tag?: string;
  /** The signed commit or tag object, exactly as git stores it. */
  signedObject: string;
}

/** A signature that a rule requires is missing, not trusted or broken: nothing is installed. */
export class SignatureRefused extends InputProblem {}

/** A kept signed object larger than this is no commit or tag of a skill's source. */
const MAX_SIGNED_OBJECT_CHARS = 64 * 1024;
const SSH_SIGNATURE = '-----BEGIN SSH SIGNATURE-----';
const OTHER_SIGNATURES = ['-----BEGIN PGP SIGNATURE-----', '-----BEGIN SIGNED MESSAGE-----'];

interface SignedObject {
  kind: 'commit' | 'tag';
  /** Its id in the repository it is read in. */
  id: string;
  text: string;
  /** The tag's name, for a tag. */
  tag?: string;
}

/** The repository of a fetched git source, at the commit installed, and the ref asked for. */
export interface FetchedCommit {
  root: string;
  commit: string;
  /** The branch or tag asked for; its tag, when it is one, is verified first. */
  ref?: string;
  /** The repository's URL, to fetch the tag from when the clone lacks it. */
  url: string;
  /** The source as people know it, for messages. */
  label: string;
}

/**
 * Verifies the signature of the tag asked for (when `ref` is an annotated tag naming the commit),
 * else of the commit itself, under `rule`. Resolves to what the lock keeps; throws SignatureRefused
 * naming the commit and the signer found.
 */
export async function verifyFetchedCommit(fetched: FetchedCommit, rule: TrustRule, projectDir: string, options: GitOptions = {}): Promise<SignatureRecord> {
  const allowedSigners = await checkedAllowedSigners(rule, projectDir);
  const candidates: SignedObject[] = [];
  const tag = fetched.ref === undefined || FULL_COMMIT.test(fetched.ref) ? undefined : await tagObject(fetched, options);
  if (tag) {
    candidates.push(tag);
  }
  candidates.push({ kind: 'commit', id: fetched.commit, text: await runGit(['cat-file', 'commit', fetched.commit], { ...options, cwd: fetched.root }) });
  return verifyCandidates(candidates, fetched.root, allowedSigners, rule, `${fetched.label}: commit ${fetched.commit.slice(0, 7)}`, options);
}

/**
 * Verifies again what a lock entry keeps (`entry.signature`) under `rule`, without its source: the
 * kept commit must hash to the pinned commit, a kept tag must name it. Throws SignatureRefused.
 */
export async function verifyKeptSignature(entry: LockEntry, commit: string, rule: TrustRule, projectDir: string, options: GitOptions = {}): Promise<SignatureRecord> {
  const what = `commit ${commit.slice(0, 7)}`;
  const kept = keptRecord(entry);
  if (typeof kept === 'string') {
    throw new SignatureRefused(`${what}: the signature skills-lock.json keeps for it ${kept}.`);
  }
  const allowedSigners = await checkedAllowedSigners(rule, projectDir);
  const repository = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-signature-'));
  try {
    await runGit(['init', '--quiet', '--bare', repository], { ...options, ownConfigOnly: true });
    const objectFile = path.join(repository, 'signed-object');
    await fs.writeFile(objectFile, kept.signedObject);
    const kind = kept.tag === undefined ? 'commit' : 'tag';
    const hashed = await runGitForResult(['hash-object', '-t', kind, '-w', '--', objectFile], { ...options, cwd: repository, ownConfigOnly: true });
    const id = hashed.stdout.trim();
    if (hashed.exitCode !== 0) {
      throw new SignatureRefused(`${what}: the ${kind} skills-lock.json keeps for its signature is not one git reads.`);
    }
    if (kind === 'commit' && id !== commit) {
      throw new SignatureRefused(`${what}: the signed commit skills-lock.json keeps is another commit (${id.slice(0, 7)}).`);
    }
    if (kind === 'tag' && (tagTarget(kept.signedObject) !== commit || tagName(kept.signedObject) !== kept.tag)) {
      throw new SignatureRefused(`${what}: the signed tag skills-lock.json keeps is not tag ${kept.tag} of this commit.`);
    }
    return await verifyCandidates([{ kind, id, text: kept.signedObject, tag: kept.tag }], repository, allowedSigners, rule, what, options);
  } finally {
    await fs.rm(repository, { recursive: true, force: true });
  }
}

/** The entry's kept signature, or what is wrong with it. */
function keptRecord(entry: LockEntry): SignatureRecord | string {
  const kept = entry.signature;
  if (kept === undefined) {
    return 'is missing';
  }
  if (!isPlainObject(kept) || typeof kept.signedObject !== 'string' || typeof kept.signer !== 'string' || typeof kept.key !== 'string' || (kept.tag !== undefined && typeof kept.tag !== 'string')) {
    return 'is not {"signer", "key", "signedObject"[, "tag"]}';
  }
  if (kept.signedObject.length > MAX_SIGNED_OBJECT_CHARS) {
    return 'is too large to be a signed commit or tag';
  }
  if (kept.tag !== undefined) {
    try {
      checkedRef(kept.tag);
    } catch {
      return `names "${kept.tag}", which is no tag name`;
    }
  }
  return { signer: kept.signer, key: kept.key, tag: kept.tag, signedObject: kept.signedObject };
}

/** The annotated tag `fetched.ref`, when it is one and names the commit (fetched from the source when the clone lacks it). */
async function tagObject(fetched: FetchedCommit, options: GitOptions): Promise<SignedObject | undefined> {
  const git = { ...options, cwd: fetched.root };
  const ref = `refs/tags/${fetched.ref}`;
  const has = async (): Promise<boolean> => (await runGitForResult(['rev-parse', '--verify', '--quiet', '--end-of-options', ref], git)).exitCode === 0;
  if (!(await has())) {
    // A branch of that name, or a clone made by commit: a fetch of a tag that does not exist fails, and then there is none.
    await runGitForResult(['fetch', '--quiet', '--depth', '1', '--no-tags', '--', fetched.url, `+${ref}:${ref}`], git);
    if (!(await has())) {
      return undefined;
    }
  }
  const type = (await runGit(['cat-file', '-t', '--end-of-options', ref], git)).trim();
  const peeled = (await runGitForResult(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], git)).stdout.trim();
  if (type !== 'tag' || peeled !== fetched.commit) {
    return undefined;
  }
  const id = (await runGit(['rev-parse', '--verify', '--end-of-options', ref], git)).trim();
  return { kind: 'tag', id, text: await runGit(['cat-file', 'tag', id], git), tag: fetched.ref };
}

/** The first candidate whose SSH signature verifies; else SignatureRefused saying what each one is. */
async function verifyCandidates(candidates: readonly SignedObject[], repository: string, allowedSigners: string, rule: TrustRule, what: string, options: GitOptions): Promise<SignatureRecord> {
  const findings: string[] = [];
  for (const candidate of candidates) {
    const name = candidate.kind === 'tag' ? `tag ${candidate.tag}` : 'the commit';
    const kind = signatureKind(candidate);
    if (kind === 'none') {
      findings.push(`${name} is not signed`);
      continue;
    }
    if (kind === 'other') {
      findings.push(`${name} is signed with a GPG or X.509 key, and only SSH signatures are verified`);
      continue;
    }
    const verdict = await gitVerify(candidate, repository, allowedSigners, rule, options);
    if ('signer' in verdict) {
      return { signer: verdict.signer, key: verdict.key, ...(candidate.tag === undefined ? {} : { tag: candidate.tag }), signedObject: candidate.text };
    }
    findings.push(`${name} ${verdict.problem}`);
  }
  throw new SignatureRefused(`${what}: refused: ${findings.join('; ')}. ${describeRule(rule)} requires a signature by a key ${rule.allowedSigners} lists.`);
}

function signatureKind(object: SignedObject): 'ssh' | 'other' | 'none' {
  const signatures = object.kind === 'commit' ? commitSignatures(object.text) : tagSignatures(object.text);
  if (signatures.length === 0) {
    return 'none';
  }
  return signatures.every((signature) => signature.startsWith(SSH_SIGNATURE)) ? 'ssh' : 'other';
}

/** The first line of each signature header of a commit (gpgsig, gpgsig-sha256); its continuation lines start with a space. */
function commitSignatures(text: string): string[] {
  const headers = text.slice(0, Math.max(0, text.indexOf('\n\n')));
  return [...headers.matchAll(/^gpgsig(?:-sha256)? (.*)$/gm)].map((match) => match[1]);
}

/** The first line of each signature block a tag's message holds. */
function tagSignatures(text: string): string[] {
  return [SSH_SIGNATURE, ...OTHER_SIGNATURES].filter((marker) => text.includes(`\n${marker}\n`));
}

/**
 * git verify-commit or verify-tag with only the settings given here: the signer, or why not. The
 * programs of other signature formats are set to one that fails, should git ever reach for them.
 */
async function gitVerify(object: SignedObject, repository: string, allowedSigners: string, rule: TrustRule, options: GitOptions): Promise<{ signer: string; key: string } | { problem: string }> {
  const settings = ['gpg.format=ssh', 'gpg.ssh.program=ssh-keygen', `gpg.ssh.allowedSignersFile=${allowedSigners}`, 'gpg.program=false', 'gpg.openpgp.program=false', 'gpg.x509.program=false'];
  const result = await runGitForResult([...settings.flatMap((setting) => ['-c', setting]), object.kind === 'tag' ? 'verify-tag' : 'verify-commit', '--end-of-options', object.id], {
    ...options,
    cwd: repository,
    ownConfigOnly: true,
  });
  // What git and ssh-keygen say about the signature goes to stderr; stdout could only echo the object.
  const good = /^Good "git" signature for (.+) with (\S+) key (SHA256:\S+)$/m.exec(result.stderr);
  if (result.exitCode === 0 && good) {
    return { signer: good[1], key: good[3] };
  }
  const unlisted = /^Good "git" signature with (\S+) key (SHA256:\S+)$/m.exec(result.stderr);
  if (unlisted) {
    return { problem: `is signed by ${unlisted[1]} key ${unlisted[2]}, which ${rule.allowedSigners} does not list` };
  }
  const reason = result.stderr
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('Good '));
  return { problem: `has a signature that does not verify (${reason ?? `git exited with ${result.exitCode}`})` };
}

function tagTarget(text: string): string | undefined {
  return /^object ([0-9a-f]{40})\ntype commit\n/.exec(text)?.[1];
}

function tagName(text: string): string | undefined {
  return /^object [0-9a-f]{40}\ntype commit\ntag (.+)\n/.exec(text)?.[1];
}

/** What the trust policy says of a locked skill: signed (by whom), refused (why), or nothing required. */
export type SignatureState = { kind: 'signed'; signer: string; key: string; tag?: string } | { kind: 'refused'; problem: string } | { kind: 'unsigned'; reason: string };

/**
 * The signature state of a locked skill's commit under the project's policy: verified again from
 * what the lock keeps when it keeps it; else, when `fetch` is given, at the source (the pinned
 * commit, or what the lock's ref names). Without a rule for the source, nothing is verified.
 */
export async function lockedSignatureState(
  name: string,
  entry: LockEntry,
  projectDir: string,
  policy: TrustPolicy | undefined,
  fetch?: (source: GitSource) => Promise<FetchedSource>,
  options: GitOptions = {},
): Promise<SignatureState> {
  const rule = ruleFor(policy, lockedSourceNames(entry, projectDir, name));
  if (!rule) {
    return { kind: 'unsigned', reason: `no entry of ${TRUST_FILE_NAME} matches its source, so no signature is checked` };
  }
  try {
    return { kind: 'signed', ...withoutObject(await verifyLocked(name, entry, rule, projectDir, fetch, options)) };
  } catch (error) {
    if (!(error instanceof InputProblem)) {
      throw error;
    }
    return { kind: 'refused', problem: errorMessage(error) };
  }
}

async function verifyLocked(
  name: string,
  entry: LockEntry,
  rule: TrustRule,
  projectDir: string,
  fetch: ((source: GitSource) => Promise<FetchedSource>) | undefined,
  options: GitOptions,
): Promise<SignatureRecord> {
  const source = entrySource(entry, projectDir, name);
  if (typeof source === 'string') {
    throw new SignatureRefused(`${source}, so no signature can be verified as ${describeRule(rule)} requires`);
  }
  if (source.kind !== 'git') {
    throw new SignatureRefused(`${describeRule(rule)} requires a signed commit, and a ${source.kind} source has none`);
  }
  const pinned = pinnedCommit(entry);
  if (pinned !== undefined && entry.signature !== undefined) {
    return verifyKeptSignature(entry, pinned, rule, projectDir, options);
  }
  if (!fetch) {
    throw new SignatureRefused(`${LOCK_FILE_NAME} keeps no verified signature of its commit (${describeRule(rule)} requires one)`);
  }
  const fetched = await fetch({ ...source, ref: pinned ?? source.ref });
  if (fetched.commit === undefined) {
    throw new SignatureRefused(`${source.lockSource} has no commit to verify`);
  }
  return verifyFetchedCommit({ root: fetched.root, commit: fetched.commit, ref: source.ref, url: source.url, label: source.lockSource }, rule, projectDir, options);
}

function withoutObject(record: SignatureRecord): Omit<SignatureRecord, 'signedObject'> {
  const { signedObject: _signedObject, ...shown } = record;
  return shown;
}

/** "signed by alice@example.com", "unsigned": how the signature state reads in a row. */
export function describeSignatureState(state: SignatureState): string {
  return state.kind === 'signed' ? `signed by ${state.signer}` : 'unsigned';
}
