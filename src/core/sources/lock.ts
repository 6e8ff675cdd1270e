// skills-lock.json, in the format `npx skills` writes for project installs, so either tool reads the
// other's lock:
//   {"version":1,"skills":{NAME:{"source","sourceUrl","sourceType","skillPath","computedHash","ref"}}}
// `ref` holds the exact commit installed; `requestedRef` (ours) keeps what was asked for (a branch,
// a tag, or HEAD for the default branch), which `update` follows. Fields we do not know are kept.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode, errorMessage } from '../util/errors';
import { FULL_COMMIT, type SkillSource } from './source-spec';
import { isPlainObject } from '../util/objects';

export const LOCK_FILE_NAME = 'skills-lock.json';
const LOCK_VERSION = 1;

export interface LockEntry {
  source: string;
  sourceUrl?: string;
  /** `git` or `local` when we write it; `npx skills` also writes `github`, `gitlab`, `node_modules`… */
  sourceType: string;
  /** The SKILL.md's path inside the source, `/`-separated. */
  skillPath?: string;
  computedHash: string;
  ref?: string;
  requestedRef?: string;
  [field: string]: unknown;
}

export interface SkillsLock {
  version: number;
  skills: Record<string, LockEntry>;
}

export class LockError extends Error {}

export function lockFile(projectDir: string): string {
  return path.join(projectDir, LOCK_FILE_NAME);
}

/** The project's lock, or an empty one when there is none. Throws LockError naming the file and the problem. */
export async function readLock(projectDir: string): Promise<SkillsLock> {
  const file = lockFile(projectDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return { version: LOCK_VERSION, skills: {} };
    }
    throw new LockError(`${file}: cannot read it: ${errorMessage(error)}`);
  }
  return parseLock(text, file);
}

export function parseLock(text: string, file: string): SkillsLock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LockError(`${file}: not valid JSON (${errorMessage(error)}).`);
  }
  if (!isPlainObject(value) || typeof value.version !== 'number' || !isPlainObject(value.skills)) {
    throw new LockError(`${file}: expected {"version": 1, "skills": {…}}.`);
  }
  if (value.version > LOCK_VERSION) {
    throw new LockError(`${file}: lock version ${value.version} is newer than this tool reads (${LOCK_VERSION}).`);
  }
  for (const [name, entry] of Object.entries(value.skills)) {
    const missing = ['source', 'sourceType', 'computedHash'].filter((field) => !isPlainObject(entry) || typeof entry[field] !== 'string');
    if (missing.length > 0) {
      throw new LockError(`${file}: the entry of "${name}" has no ${missing.join(', ')}.`);
    }
  }
  return value as unknown as SkillsLock;
}

/** Writes the lock as `npx skills` does (names sorted, two-space JSON), by writing beside it and renaming. */
export async function writeLock(projectDir: string, lock: SkillsLock): Promise<void> {
  const skills = Object.fromEntries(
    Object.keys(lock.skills)
      .sort()
      .map((name) => [name, lock.skills[name]]),
  );
  const file = lockFile(projectDir);
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify({ version: LOCK_VERSION, skills }, null, 2)}\n`, 'utf8');
  try {
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** The lock entry of a skill installed from `source` at `commit`, its SKILL.md at `skillPath` in it. */
export function lockEntryFor(source: SkillSource, skillPath: string, computedHash: string, commit: string | undefined, projectDir: string): LockEntry {
  if (source.kind === 'folder') {
    return { source: portableFolder(source.folder, projectDir), sourceType: 'local', skillPath, computedHash };
  }
  return { source: source.lockSource, sourceUrl: source.url, sourceType: 'git', skillPath, computedHash, ref: commit, requestedRef: source.ref ?? 'HEAD' };
}

/** Where the lock says a skill came from, as a source to fetch again; a reason when it cannot be. */
export function entrySource(entry: LockEntry, projectDir: string): SkillSource | string {
  const subPath = entryFolderInSource(entry);
  if (entry.sourceType === 'local') {
    return { kind: 'folder', folder: path.resolve(projectDir, entry.source), subPath };
  }
  if (entry.sourceType === 'git' || entry.sourceType === 'gitlab' || entry.sourceType === 'github') {
    const shorthand = /^[\w.-]+\/[\w.-]+$/.test(entry.source) ? `https://github.com/${entry.source.replace(/\.git$/, '')}.git` : undefined;
    const url = entry.sourceUrl ?? shorthand ?? entry.source;
    return { kind: 'git', url, ref: followedRef(entry), subPath, lockSource: entry.source };
  }
  return `its source type "${entry.sourceType}" is not a git repository or a folder`;
}

/**
 * The ref an update follows: what was asked for at install; for a lock without that field, its
 * `ref` (a commit there is a pin that never moves), else the default branch (undefined).
 */
export function followedRef(entry: LockEntry): string | undefined {
  const asked = entry.requestedRef ?? entry.ref;
  return asked === undefined || asked === 'HEAD' ? undefined : asked;
}

/** The commit the entry was installed from, when the lock records one. */
export function pinnedCommit(entry: LockEntry): string | undefined {
  return entry.ref !== undefined && FULL_COMMIT.test(entry.ref) ? entry.ref : undefined;
}

/** The folder holding the SKILL.md inside the source, '' for its top. */
export function entryFolderInSource(entry: LockEntry): string {
  const folder = path.posix.dirname(entry.skillPath ?? 'SKILL.md');
  return folder === '.' ? '' : folder;
}

/** Where a locked skill came from, as people read it: `owner/repo@abc1234`, `url#v2`, `./folder`. */
export function entryOrigin(entry: LockEntry): string {
  const ref = entry.ref === undefined ? '' : FULL_COMMIT.test(entry.ref) ? `@${entry.ref.slice(0, 7)}` : `#${entry.ref}`;
  return `${entry.source}${ref}`;
}

/** Whether the lock entry was installed from the same repository or folder as `source`. */
export function sameOrigin(entry: LockEntry, source: SkillSource, projectDir: string): boolean {
  const locked = entrySource(entry, projectDir);
  return typeof locked !== 'string' && originKey(locked) === originKey(source);
}

/** A repository by its URL, a folder by its path. */
function originKey(source: SkillSource): string {
  return source.kind === 'git' ? `git ${source.url}` : `folder ${source.folder}`;
}

/**
 * A folder source as `npx skills` writes it: relative to the project when inside or near it,
 * `./`-prefixed; absolute when no relative path leads there (another drive on Windows).
 */
export function portableFolder(folder: string, projectDir: string, paths: path.PlatformPath = path): string {
  const relative = paths.relative(projectDir, folder);
  if (paths.isAbsolute(relative)) {
    return folder.split(paths.sep).join('/');
  }
  const portable = relative.split(paths.sep).join('/');
  return portable === '' ? '.' : portable.startsWith('..') ? portable : `./${portable}`;
}
