// The steps that change a project, shared by the command line and the editor: what stands in the
// way of an install, installing a fetched skill and locking it, and replacing an installed skill
// with its source's version. Asking the user is the caller's part; these never ask.

import * as path from 'node:path';
import type { SourceSkill } from './checkout';
import { computeFolderHash } from './folder-hash';
import { findInstalled, installFolder, type InstallResult } from './install';
import { lockEntryFor, sameOrigin, writeLock, type LockEntry, type SkillsLock } from './lock';
import type { SkillSource } from './source-spec';
import { installedState } from './status';

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
}

/** Installs a skill of a fetched source (at `commit`, for git) and records it in the project's lock. */
export async function installAndLock(skill: SourceSkill, from: { source: SkillSource; commit?: string }, lock: SkillsLock, place: InstallPlace): Promise<Installed> {
  const installed = await installFolder(skill.folder, place.parent, skill.name);
  const entry = lockEntryFor(from.source, skill.skillPath, await computeFolderHash(installed.folder), from.commit, place.projectDir, skill.wellKnownDigest);
  lock.skills[skill.name] = entry;
  await writeLock(place.projectDir, lock);
  return { installed, entry };
}

/** Replaces the locked skill `name` with its source's version and moves its lock entry to that commit (or a site's digest). */
export async function replaceWithLatest(name: string, latest: { skill: SourceSkill; commit?: string }, lock: SkillsLock, place: InstallPlace): Promise<Installed> {
  const entry = lock.skills[name];
  const installed = await installFolder(latest.skill.folder, place.parent, name);
  const computedHash = await computeFolderHash(installed.folder);
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
