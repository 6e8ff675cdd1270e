// The steps that change a project, shared by the command line and the editor: what stands in the
// way of an install, installing a fetched skill and locking it, and replacing an installed skill
// with its source's version. Asking the user is the caller's part; these never ask.

import * as path from 'node:path';
import type { SourceSkill } from './checkout';
import { computeFolderHash } from './folder-hash';
import type { GitOptions } from './git';
import { findInstalled, installFolder, type InstallResult } from './install';
import { entrySource, lockEntryFor, sameOrigin, writeLock, type LockEntry, type SkillsLock } from './lock';
import { SignatureRefused, verifyFetchedCommit, type SignatureRecord } from './signatures';
import { SourceError, sourceLabel, type SkillSource } from './source-spec';
import { installedState } from './status';
import { describeRule, lockedSourceNames, readTrustPolicy, ruleFor, sourceNames } from './trust-policy';

/** Where skills are installed: the project (holding skills-lock.json) and the folder the skill goes in. */
export interface InstallPlace {
  projectDir: string;
  parent: string;
}

/**
 * What installing `name` from `source` would replace that needs the user's word first: a folder
 * not installed from this source (`other-origin`), or one edited since it was installed (`edited`).
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
  return folderExists && (await installedState(existing, folder)) === 'edited' ? { kind: 'edited', folder } : undefined;
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
 * When the project's trust policy requires a signature of the source (`typed`: as the user gave
 * it), it is verified first, and kept in the lock entry; refused, nothing is written.
 */
export async function installAndLock(skill: SourceSkill, from: FetchedFrom & { typed?: string }, lock: SkillsLock, place: InstallPlace, git: GitOptions = {}): Promise<Installed> {
  const signature = await requiredSignature(from, sourceNames(from.source, from.typed), place.projectDir, git);
  const installed = await installFolder(skill.folder, place.parent, skill.name);
  const entry = lockEntryFor(from.source, skill.skillPath, await computeFolderHash(installed.folder), from.commit, place.projectDir);
  if (signature !== undefined) {
    entry.signature = signature;
  }
  lock.skills[skill.name] = entry;
  await writeLock(place.projectDir, lock);
  return { installed, entry, signature };
}

/**
 * Replaces the locked skill `name` with its source's version (`latest`, fetched from the entry's
 * source) and moves its lock entry to that commit, verifying first the signature the trust policy
 * requires; refused, nothing is written.
 */
export async function replaceWithLatest(name: string, latest: { skill: SourceSkill; commit?: string; root: string }, lock: SkillsLock, place: InstallPlace, git: GitOptions = {}): Promise<Installed> {
  const entry = lock.skills[name];
  const source = entrySource(entry, place.projectDir);
  if (typeof source === 'string') {
    throw new SourceError(`${name} cannot be updated: ${source}.`);
  }
  const signature = await requiredSignature({ ...latest, source }, lockedSourceNames(entry, place.projectDir), place.projectDir, git);
  const installed = await installFolder(latest.skill.folder, place.parent, name);
  const { signature: _previous, ...kept } = entry;
  const updated: LockEntry = { ...kept, skillPath: latest.skill.skillPath, computedHash: await computeFolderHash(installed.folder), ...(signature === undefined ? {} : { signature }) };
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
