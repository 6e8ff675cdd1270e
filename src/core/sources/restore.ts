// Installing what skills-lock.json pins, as `npm ci` installs a package lock (`agent-skills install`,
// the editor's Install Locked Skills): each locked skill is fetched through the function of its
// source type, at the commit the lock pins (else at its ref, for a lock `npx skills` wrote), its
// signature verified as the trust policy requires, and copied only when the copy hashes to the
// lock's computedHash. The lock is never written: what is installed is exactly what it says.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { findSkillFile } from '../skill-file/load';
import { InputProblem } from '../util/errors';
import { skillAt, type SourceSkill } from './checkout';
import { computeFolderHash } from './folder-hash';
import type { GitOptions } from './git';
import { findInstalled, installFolder, type InstallResult } from './install';
import { describeSkillPath, entryOrigin, entrySource, LOCK_FILE_NAME, pinnedCommit, SITE_SOURCE_TYPE, type LockEntry, type SkillsLock } from './lock';
import { lockedSignatureState, SignatureRefused, type SignatureState } from './signatures';
import { sourceLabel, type SkillSource } from './source-spec';
import { installedState } from './drift';
import type { SourceFetcher } from './status';
import type { TrustPolicy } from './trust-policy';

/** `as-locked`: the folder hashes to the lock's computedHash (or holds edits the lock keeps); `different`: it does not; `missing`: there is none. */
export type LockedState = 'as-locked' | 'different' | 'missing';

export interface LockedSkill {
  name: string;
  entry: LockEntry;
  /** Where it is installed, or where it would go. */
  folder: string;
  state: LockedState;
}

export interface RestoreContext {
  projectDir: string;
  /** Where a missing skill goes, absolute. */
  parent: string;
  /** Looks for installed skills only in `parent` (`--to`), not in every skill location of the project. */
  onlyParent: boolean;
  fetcher: SourceFetcher;
  policy: TrustPolicy | undefined;
  git?: GitOptions;
}

/** The version of a skill a lock entry pins, fetched and verified, ready to copy. */
export interface LockedVersion {
  skill: SourceSkill;
  /** Where it came from, as people read it: `owner/repo@abc1234`. */
  origin: string;
  signature: SignatureState;
}

/** The version a lock entry pins cannot be installed as the lock says: another content, or none. */
export class LockedVersionProblem extends InputProblem {}

/** Fetches the skill a lock entry of one source type pins; each source type the lock may name has one. */
export type LockedSourceFetch = (name: string, entry: LockEntry, context: RestoreContext) => Promise<LockedVersion>;

/** The source types `install` restores, by the lock's `sourceType`. */
export const LOCKED_SOURCE_TYPES: Readonly<Record<string, LockedSourceFetch>> = {
  git: fromSource,
  github: fromSource,
  gitlab: fromSource,
  local: fromSource,
  [SITE_SOURCE_TYPE]: fromSource,
};

/** Where the locked skill `name` is, and whether it is as the lock says. */
export async function lockedSkill(name: string, entry: LockEntry, context: RestoreContext): Promise<LockedSkill> {
  const found = await findInstalled(context.projectDir, name, context.onlyParent ? context.parent : undefined);
  if (found === undefined) {
    return { name, entry, folder: path.join(context.parent, name), state: 'missing' };
  }
  return { name, entry, folder: found, state: ['unchanged', 'kept'].includes(await installedState(entry, found)) ? 'as-locked' : 'different' };
}

/**
 * The version the entry pins, fetched by its source type's function, its signature verified as the
 * policy requires, and its content compared with the lock's computedHash before anything is copied.
 * Throws an InputProblem saying what stands in the way (SignatureRefused, LockedVersionProblem…).
 */
export async function fetchLocked(name: string, entry: LockEntry, context: RestoreContext): Promise<LockedVersion> {
  const fetchType = Object.hasOwn(LOCKED_SOURCE_TYPES, entry.sourceType) ? LOCKED_SOURCE_TYPES[entry.sourceType] : undefined;
  if (!fetchType) {
    throw new LockedVersionProblem(`its source type "${entry.sourceType}" is not one this tool installs (${Object.keys(LOCKED_SOURCE_TYPES).join(', ')}).`);
  }
  const version = await fetchType(name, entry, context);
  const hash = await computeFolderHash(version.skill.folder);
  if (hash !== entry.computedHash) {
    throw new LockedVersionProblem(differsMessage(entry, version.origin));
  }
  return version;
}

/** Copies the fetched version into the skill's folder, replacing it only once the copy hashes to the lock's computedHash. */
export function restoreLocked(locked: LockedSkill, version: LockedVersion): Promise<InstallResult> {
  return installFolder(version.skill.folder, path.dirname(locked.folder), locked.name, {
    acceptCopy: async (copy) => {
      if ((await computeFolderHash(copy)) !== locked.entry.computedHash) {
        throw new LockedVersionProblem(
          `the copy of ${version.origin} in ${path.dirname(locked.folder)} does not hash to the computedHash of ${LOCK_FILE_NAME} (the source changed while it was copied?); nothing was replaced.`,
        );
      }
    },
  });
}

/** The signature state of an installed skill under the policy: from what the lock keeps, else verified at its source. */
export function installedSignature(name: string, entry: LockEntry, context: RestoreContext): Promise<SignatureState> {
  return lockedSignatureState(name, entry, context.projectDir, context.policy, (source) => context.fetcher.fetch(source), context.git);
}

/** The skill folders in `parents` (holding a SKILL.md) that the lock does not name, by name, sorted. */
export async function unlockedSkillFolders(parents: readonly string[], lock: SkillsLock): Promise<string[]> {
  const found = new Set<string>();
  for (const parent of new Set(parents)) {
    const children = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const child of children) {
      if (child.isDirectory() && !child.name.startsWith('.') && !Object.hasOwn(lock.skills, child.name) && (await findSkillFile(path.join(parent, child.name)))) {
        found.add(child.name);
      }
    }
  }
  return [...found].sort();
}

/** A git repository (at the pinned commit, else at the ref the lock names), a folder, or a site's skill (its artifact's digest checked against the site's index), as entrySource reads the entry. */
async function fromSource(name: string, entry: LockEntry, context: RestoreContext): Promise<LockedVersion> {
  const source = entrySource(entry, context.projectDir, name);
  if (typeof source === 'string') {
    throw new LockedVersionProblem(`${source}.`);
  }
  const pinned = pinnedCommit(entry);
  const fetched = await context.fetcher.fetch(source.kind === 'git' ? { ...source, ref: pinned ?? source.ref } : source);
  const signature = await installedSignature(name, entry, context);
  if (signature.kind === 'refused') {
    throw new SignatureRefused(`${signature.problem}; nothing was installed.`);
  }
  const skill = await skillAt(fetched.root, source.subPath, sourceLabel(source));
  if (!skill || skill.problem !== undefined) {
    throw new LockedVersionProblem(`${versionLabel(source, fetched.commit)} ${skill ? `has a broken ${describeSkillPath(entry)}: ${skill.problem}` : `has no ${describeSkillPath(entry)}`}.`);
  }
  return { skill, origin: versionLabel(source, fetched.commit), signature };
}

function versionLabel(source: SkillSource, commit: string | undefined): string {
  return `${sourceLabel(source)}${commit === undefined ? '' : `@${commit.slice(0, 7)}`}`;
}

/** Why the fetched version is not the locked one; for a lock without a commit, that its ref moved on. */
function differsMessage(entry: LockEntry, origin: string): string {
  if (entry.sourceType === SITE_SOURCE_TYPE) {
    return `${origin} now publishes another version than the computedHash of ${LOCK_FILE_NAME} (a site keeps only its latest): nothing was installed. Updating the skill installs that version and records it in the lock.`;
  }
  if (pinnedCommit(entry) !== undefined || entry.sourceType === 'local') {
    return `${origin} does not hash to the computedHash of ${LOCK_FILE_NAME}; nothing was installed.`;
  }
  return `${LOCK_FILE_NAME} pins no commit (${entryOrigin(entry)}), and ${origin} now differs from its computedHash: the source changed since the lock was written; nothing was installed. Updating the skill installs that version and records it in the lock.`;
}
