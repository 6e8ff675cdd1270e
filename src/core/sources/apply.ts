// The steps that change a project, shared by the command line and the editor: what stands in the
// way of an install, installing a fetched skill and locking it, replacing an installed skill
// with its source's version, keeping its edits and removing it. Asking the user is the caller's
// part; these never ask.

import * as path from 'node:path';
import type { SourceSkill } from './checkout';
import { computeFolderHashes } from './folder-hash';
import { findInstalled, installFolder, removeFolder, type InstallResult } from './install';
import { LockError, lockEntryFor, LOCK_FILE_NAME, sameOrigin, writeLock, type LockEntry, type SkillsLock } from './lock';
import type { SkillSource } from './source-spec';
import { installedState } from './drift';

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
}

/**
 * Installs a skill of a fetched source (at `commit`, for git) and records it in the project's lock.
 * Installed again from the same source, it keeps the trigger tests the user added (installFolder's keepEvals).
 */
export async function installAndLock(skill: SourceSkill, from: { source: SkillSource; commit?: string }, lock: SkillsLock, place: InstallPlace): Promise<Installed> {
  const existing = lock.skills[skill.name];
  const keepEvals = existing !== undefined && sameOrigin(existing, from.source, place.projectDir);
  const installed = await installFolder(skill.folder, place.parent, skill.name, { keepEvals });
  const entry = lockEntryFor(from.source, skill.skillPath, await installedHash(installed), from.commit, place.projectDir, skill.wellKnownDigest);
  lock.skills[skill.name] = entry;
  await writeLock(place.projectDir, lock);
  return { installed, entry };
}

/**
 * Replaces the locked skill `name` with its source's version and moves its lock entry to that
 * commit (or a site's digest); edits kept before are gone with the folder they were made in. Trigger
 * tests the user added are kept.
 */
export async function replaceWithLatest(name: string, latest: { skill: SourceSkill; commit?: string }, lock: SkillsLock, place: InstallPlace): Promise<Installed> {
  const entry = { ...lock.skills[name] };
  delete entry.keptEditsHash;
  const installed = await installFolder(latest.skill.folder, place.parent, name, { keepEvals: true });
  const computedHash = await installedHash(installed);
  const { wellKnownDigest } = latest.skill;
  // A site's entry keeps no skillPath, as `npx skills` writes it: the index names the skill.
  const updated: LockEntry = wellKnownDigest === undefined ? { ...entry, skillPath: latest.skill.skillPath, computedHash } : { ...entry, computedHash, wellKnownDigest };
  if (latest.commit !== undefined) {
    updated.requestedRef = entry.requestedRef ?? entry.ref ?? 'HEAD';
    updated.ref = latest.commit;
  }
  lock.skills[name] = updated;
  await writeLock(place.projectDir, lock);
  return { installed, entry: updated };
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
