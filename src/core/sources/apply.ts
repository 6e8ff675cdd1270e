// The steps that change a project, shared by the command line and the editor: what stands in the
// way of an install, installing a fetched skill and locking it, replacing an installed skill
// with its source's version, keeping its edits and removing it. Asking the user is the caller's
// part; these never ask.

import * as path from 'node:path';
import type { SourceSkill } from './checkout';
import { computeFolderHashes } from './folder-hash';
import type { GitOptions } from './git';
import { findInstalled, installFolder, removeFolder, type InstallResult } from './install';
import { entrySource, LockError, lockEntryFor, LOCK_FILE_NAME, sameOrigin, writeLock, type LockEntry, type SkillsLock } from './lock';
import { SignatureRefused, verifyFetchedCommit, type SignatureRecord } from './signatures';
import { SourceError, sourceLabel, type SkillSource } from './source-spec';
import { installedState } from './drift';
import { describeRule, lockedSourceNames, readTrustPolicy, ruleFor, sourceNames } from './trust-policy';

/** Where skills are installed: the project (holding skills-lock.json) and the folder the skill goes in. */
export interface InstallPlace {
  projectDir: string;
  parent: string;
}

/**
 * What installing `name` from `source` would replace that needs the user's word first: a folder
 * not installed from this source (`other-origin`), or one edited since it was installed (`edited`,
 * kept edits included).
 */
export interface InstallConflict {
  kind: 'other-origin' | 'edited';
  folder: string;
}

export async function installConflict(name: string, source: SkillSource, lock: SkillsLock, place: InstallPlace): Promise<InstallConflict | undefined> {
  const existing = lock.skills[name];
  const folder = path.join(place.parent, name);
  const folderExists = (await findInstalled(place.projectDir, name, place.parent)) !== undefined;
  if (existing === undefined || !sameOrigin(existing, source, place.projectDir)) {
    return folderExists || existing !== undefined ? { kind: 'other-origin', folder } : undefined;
  }
  const state = folderExists ? await installedState(existing, folder) : 'missing';
  return state === 'edited' || state === 'kept' ? { kind: 'edited', folder } : undefined;
}

export interface Installed {
  installed: InstallResult;
  entry: LockEntry;
  /** The signature verified, when the trust policy required one. */
  signature?: SignatureRecord;
}

/** A source on disk (a clone at `commit`, or a folder), as fetchSource and openSource give it. */
export interface FetchedFrom {
  source: SkillSource;
  root: string;
  commit?: string;
}

/**
 * Installs a skill of a fetched source (at `commit`, for git) and records it in the project's lock.
 * Installed again from the same source, it keeps the trigger tests the user added (installFolder's keepEvals).
 * When the project's trust policy requires a signature of the source (`typed`: as the user gave
 * it), it is verified first, and kept in the lock entry; refused, nothing is written.
 */
export async function installAndLock(skill: SourceSkill, from: FetchedFrom & { typed?: string }, lock: SkillsLock, place: InstallPlace, git: GitOptions = {}): Promise<Installed> {
  const signature = await requiredSignature(from, sourceNames(from.source, from.typed), place.projectDir, git);
  const existing = lock.skills[skill.name];
  const keepEvals = existing !== undefined && sameOrigin(existing, from.source, place.projectDir);
  const installed = await installFolder(skill.folder, place.parent, skill.name, { keepEvals });
  const entry = lockEntryFor(from.source, skill.skillPath, await installedHash(installed), from.commit, place.projectDir, skill.wellKnownDigest);
  if (signature !== undefined) {
    entry.signature = signature;
  }
  lock.skills[skill.name] = entry;
  await writeLock(place.projectDir, lock);
  return { installed, entry, signature };
}

/**
 * Replaces the locked skill `name` with its source's version (`latest`, fetched from the entry's
 * source) and moves its lock entry to that commit (or a site's digest), verifying first the
 * signature the trust policy requires; refused, nothing is written. Edits kept before are gone with
 * the folder they were made in; trigger tests the user added are kept.
 */
export async function replaceWithLatest(name: string, latest: { skill: SourceSkill; commit?: string; root: string }, lock: SkillsLock, place: InstallPlace, git: GitOptions = {}): Promise<Installed> {
  const source = entrySource(lock.skills[name], place.projectDir, name);
  if (typeof source === 'string') {
    throw new SourceError(`${name} cannot be updated: ${source}.`);
  }
  const signature = await requiredSignature({ ...latest, source }, lockedSourceNames(lock.skills[name], place.projectDir, name), place.projectDir, git);
  const { signature: _previous, keptEditsHash: _kept, ...entry } = lock.skills[name];
  const installed = await installFolder(latest.skill.folder, place.parent, name, { keepEvals: true });
  const computedHash = await installedHash(installed);
  const { wellKnownDigest } = latest.skill;
  // A site's entry keeps no skillPath, as `npx skills` writes it: the index names the skill.
  const fetched: LockEntry = wellKnownDigest === undefined ? { ...entry, skillPath: latest.skill.skillPath, computedHash } : { ...entry, computedHash, wellKnownDigest };
  const updated: LockEntry = signature === undefined ? fetched : { ...fetched, signature };
  if (latest.commit !== undefined) {
    updated.requestedRef = entry.requestedRef ?? entry.ref ?? 'HEAD';
    updated.ref = latest.commit;
  }
  lock.skills[name] = updated;
  await writeLock(place.projectDir, lock);
  return { installed, entry: updated, signature };
}

/**
 * The signature the project's trust policy requires of a fetched source known by `names`, verified:
 * what the lock keeps of it, or undefined when no rule applies. Throws SignatureRefused.
 */
async function requiredSignature(from: FetchedFrom, names: readonly string[], projectDir: string, git: GitOptions): Promise<SignatureRecord | undefined> {
  const rule = ruleFor(await readTrustPolicy(projectDir), names);
  if (!rule) {
    return undefined;
  }
  if (from.source.kind !== 'git' || from.commit === undefined) {
    throw new SignatureRefused(`${sourceLabel(from.source)} is a folder, with no commit to verify: ${describeRule(rule)} requires a signed commit.`);
  }
  return verifyFetchedCommit({ root: from.root, commit: from.commit, ref: from.source.ref, url: from.source.url, label: sourceLabel(from.source) }, rule, projectDir, git);
}

/** The hash of what was installed from the source: without the trigger tests kept from the folder it replaced. */
async function installedHash(installed: InstallResult): Promise<string> {
  const hashes = await computeFolderHashes(installed.folder);
  return installed.keptEvals ? hashes.withoutEvals : hashes.all;
}

/**
 * Records in the lock that the project keeps the edits of `name` as its folder holds them now
 * (`hash`, its computeFolderHash): its drift is then `kept`, for everyone who reads the lock.
 */
export async function keepEdits(name: string, hash: string, lock: SkillsLock, projectDir: string): Promise<void> {
  const entry = lock.skills[name] as LockEntry | undefined;
  if (entry === undefined) {
    throw new LockError(`${path.join(projectDir, LOCK_FILE_NAME)} has no entry for ${name} any more; nothing was recorded.`);
  }
  lock.skills[name] = { ...entry, keptEditsHash: hash };
  await writeLock(projectDir, lock);
}

/** Deletes an installed skill's folder (as findInstalled gives it; none when already gone) and its lock entry. */
export async function removeAndUnlock(name: string, folder: string | undefined, lock: SkillsLock, projectDir: string): Promise<void> {
  if (folder !== undefined) {
    await removeFolder(folder);
  }
  delete lock.skills[name];
  await writeLock(projectDir, lock);
}
