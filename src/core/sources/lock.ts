// skills-lock.json, in the format `npx skills` writes for project installs, so either tool reads the
// other's lock:
//   {"version":1,"skills":{NAME:{"source","sourceUrl","sourceType","skillPath","computedHash","ref"}}}
// `ref` holds the exact commit installed; `requestedRef` (ours) keeps what was asked for (a branch,
// a tag, or HEAD for the default branch), which `update` follows. A skill from a site is locked as
// `npx skills` locks it: {"source": HOST, "sourceUrl", "sourceType": "well-known", "computedHash",
// "wellKnownDigest"}, found again in the site's index by its name. `keptEditsHash` (ours) records
// edits the project chose to keep: the hash of the installed folder as it was then. Fields we do not
// know are kept, as `npx skills` keeps ours in the entries it does not rewrite (1.7.4; rewriting an
// entry, it reinstalls that skill, so the edits kept there are gone with it).
//
// A lock is someone else's writing as often as ours (a repository's, a pull request's): its keys
// name installed folders, so only skill names are acted on (confine's skillNameProblem), its sources and skillPath pass the checks a typed source
// does (entrySource), a key given twice is told (JSON keeps only the last, which a reviewer may not
// have read), and no URL is written with its user name or password.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode, errorMessage, InputProblem } from '../util/errors';
import { isPlainObject } from '../util/objects';
import { normalizedRelativePath } from './confine';
import { withoutCredentials } from '../util/redact';
import { ABBREVIATED_COMMIT, checkedGitUrl, checkedRef, checkedSiteUrl, FULL_COMMIT, type SkillSource } from './source-spec';

/** The `sourceType` of a skill installed from a site's discovery index. */
export const SITE_SOURCE_TYPE = 'well-known';

export const LOCK_FILE_NAME = 'skills-lock.json';
const LOCK_VERSION = 1;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface LockEntry {
  source: string;
  sourceUrl?: string;
  /** `git`, `local` or `well-known` (a site) when we write it; `npx skills` also writes `github`, `gitlab`, `node_modules`… */
  sourceType: string;
  /** The SKILL.md's path inside the source, `/`-separated. */
  skillPath?: string;
  computedHash: string;
  ref?: string;
  requestedRef?: string;
  /** A site's skill: the digest of what was installed, as the site's index gave it. */
  wellKnownDigest?: string;
  /** The installed folder's hash (computeFolderHash) when the project chose to keep its edits. */
  keptEditsHash?: string;
  [field: string]: unknown;
}

export interface SkillsLock {
  version: number;
  skills: Record<string, LockEntry>;
}

export class LockError extends InputProblem {}

/** Told about what a lock holds that is not wrong enough to refuse it (a key given twice). */
export type LockWarning = (message: string) => void;

export function lockFile(projectDir: string): string {
  return path.join(projectDir, LOCK_FILE_NAME);
}

/** The project's lock, or an empty one when there is none. Throws LockError naming the file and the problem. */
export async function readLock(projectDir: string, warn?: LockWarning): Promise<SkillsLock> {
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
  return parseLock(text, file, warn);
}

export function parseLock(text: string, file: string, warn?: LockWarning): SkillsLock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LockError(`${file}: not valid JSON (${errorMessage(error)}).`);
  }
  if (!isPlainObject(value) || typeof value.version !== 'number' || !isPlainObject(value.skills)) {
    throw new LockError(`${file}: expected {"version": 1, "skills": {…}}.`);
  }
  for (const { object, key } of repeatedKeys(text)) {
    warn?.(`${file}: ${object === '' ? 'the top level' : `"${object}"`} holds the key "${key}" more than once; only the last one counts.`);
  }
  if (value.version > LOCK_VERSION) {
    throw new LockError(`${file}: lock version ${value.version} is newer than this tool reads (${LOCK_VERSION}).`);
  }
  for (const [name, entry] of Object.entries(value.skills)) {
    const missing = ['source', 'sourceType', 'computedHash'].filter((field) => !isPlainObject(entry) || typeof entry[field] !== 'string');
    if (missing.length > 0) {
      throw new LockError(`${file}: the entry of "${name}" has no ${missing.join(', ')}.`);
    }
    if (isPlainObject(entry) && entry.keptEditsHash !== undefined && !(typeof entry.keptEditsHash === 'string' && SHA256_HEX.test(entry.keptEditsHash))) {
      warn?.(`${file}: the entry of "${name}" has a keptEditsHash that is not a SHA-256 hash; its edits are not taken as kept.`);
      delete entry.keptEditsHash;
    }
  }
  return value as unknown as SkillsLock;
}

/**
 * Each key an object of the JSON `text` holds more than once, with the path of that object
 * (`skills.alpha`, '' for the top); `text` is valid JSON. A scan, not a parser, so no nesting depth
 * makes it fail.
 */
function repeatedKeys(text: string): { object: string; key: string }[] {
  const repeated: { object: string; key: string }[] = [];
  // One frame per open object (with its keys so far) or array.
  const frames: { path: string; keys?: Set<string> }[] = [];
  let expectingKey = false;
  let lastKey = '';
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    const frame = frames.at(-1);
    if (character === '"') {
      let end = index + 1;
      while (text[end] !== '"') {
        end += text[end] === '\\' ? 2 : 1;
      }
      if (expectingKey && frame?.keys) {
        lastKey = JSON.parse(text.slice(index, end + 1)) as string;
        if (frame.keys.has(lastKey) && !repeated.some((entry) => entry.object === frame.path && entry.key === lastKey)) {
          repeated.push({ object: frame.path, key: lastKey });
        }
        frame.keys.add(lastKey);
        expectingKey = false;
      }
      index = end;
    } else if (character === '{' || character === '[') {
      const path = frame === undefined ? '' : frame.keys ? (frame.path === '' ? lastKey : `${frame.path}.${lastKey}`) : `${frame.path}[]`;
      frames.push(character === '{' ? { path, keys: new Set() } : { path });
      expectingKey = character === '{';
    } else if (character === '}' || character === ']') {
      frames.pop();
    } else if (character === ',') {
      expectingKey = frame?.keys !== undefined;
    }
  }
  return repeated;
}

/**
 * Writes the lock as `npx skills` does (names sorted, two-space JSON), by writing beside it and
 * renaming. No URL is written with a user name or password, whoever put it there.
 */
export async function writeLock(projectDir: string, lock: SkillsLock): Promise<void> {
  const skills = Object.fromEntries(
    Object.keys(lock.skills)
      .sort()
      .map((name) => [name, withoutEntryCredentials(lock.skills[name])]),
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

function withoutEntryCredentials(entry: LockEntry): LockEntry {
  const cleaned: LockEntry = { ...entry, source: withoutCredentials(entry.source) };
  if (typeof entry.sourceUrl === 'string') {
    cleaned.sourceUrl = withoutCredentials(entry.sourceUrl);
  }
  return cleaned;
}

/**
 * The lock entry of a skill installed from `source` at `commit`, its SKILL.md at `skillPath` in it;
 * from a site, with the digest the site gave (and no skillPath: its index names the skill).
 */
export function lockEntryFor(source: SkillSource, skillPath: string, computedHash: string, commit: string | undefined, projectDir: string, wellKnownDigest?: string): LockEntry {
  if (source.kind === 'folder') {
    return { source: portableFolder(source.folder, projectDir), sourceType: 'local', skillPath, computedHash };
  }
  if (source.kind === 'site') {
    return { source: source.lockSource, sourceUrl: source.url, sourceType: SITE_SOURCE_TYPE, computedHash, wellKnownDigest };
  }
  return { source: source.lockSource, sourceUrl: withoutCredentials(source.url), sourceType: 'git', skillPath, computedHash, ref: commit, requestedRef: source.ref ?? 'HEAD' };
}

/**
 * What to tell when `source` was given with a user name or password: they serve this fetch only,
 * and a git credential helper keeps them for the next ones; undefined when there are none.
 */
export function credentialsNotice(source: SkillSource): string | undefined {
  if (source.kind !== 'git' || withoutCredentials(source.url) === source.url) {
    return undefined;
  }
  return `the user name and password in the URL serve this fetch only: ${LOCK_FILE_NAME} and the output never hold them. For update and check, let git keep them: set up a credential helper (git config --global credential.helper, e.g. manager, osxkeychain, libsecret or cache; see "git help gitcredentials"), which this fetch hands them to.`;
}

/**
 * Where the lock says the skill `name` came from, as a source to fetch again; a reason when it
 * cannot be: a source type that is neither git, a folder nor a site, no skillPath or one that
 * leaves the source, or a URL or ref that a typed source would be refused for.
 */
export function entrySource(entry: LockEntry, projectDir: string, name: string): SkillSource | string {
  if (entry.sourceType === SITE_SOURCE_TYPE) {
    return entrySite(entry, name);
  }
  const local = entry.sourceType === 'local';
  if (!local && entry.sourceType !== 'git' && entry.sourceType !== 'gitlab' && entry.sourceType !== 'github') {
    return `its source type "${entry.sourceType}" is not a git repository, a folder or a site`;
  }
  const skillPath = entrySkillPath(entry);
  if (typeof skillPath !== 'string') {
    return skillPath.problem;
  }
  const subPath = folderOf(skillPath);
  if (local) {
    return { kind: 'folder', folder: path.resolve(projectDir, entry.source), subPath };
  }
  const shorthand = /^[\w.-]+\/[\w.-]+$/.test(entry.source) ? `https://github.com/${entry.source.replace(/\.git$/, '')}.git` : undefined;
  const url = entry.sourceUrl ?? shorthand ?? entry.source;
  const ref = followedRef(entry);
  try {
    checkedGitUrl(url);
    if (ref !== undefined) {
      checkedRef(ref);
    }
  } catch (error) {
    return errorMessage(error).replace(/\.$/, '');
  }
  return { kind: 'git', url, ref, subPath, lockSource: entrySourceLabel(entry) };
}

/** A site's skill `name`, read again from the site its sourceUrl names (checked as a typed one is). */
function entrySite(entry: LockEntry, name: string): SkillSource | string {
  if (typeof entry.sourceUrl !== 'string') {
    return 'it names no sourceUrl to read its site from';
  }
  try {
    return { kind: 'site', url: checkedSiteUrl(entry.sourceUrl), subPath: name, lockSource: entrySourceLabel(entry) };
  } catch (error) {
    return errorMessage(error).replace(/\.$/, '');
  }
}

/**
 * The entry's skillPath, `/`-separated and tidied, or the problem that makes it unusable. An entry
 * without one (`npx skills` leaves it out where it did not record it) names the SKILL.md at the top.
 */
function entrySkillPath(entry: LockEntry): string | { problem: string } {
  return normalizedRelativePath(entry.skillPath ?? 'SKILL.md') ?? { problem: `its skillPath "${entry.skillPath}" must stay inside its source` };
}

/** Where the entry says its SKILL.md is, for a message that the source does not have it (there). */
export function describeSkillPath(entry: LockEntry): string {
  return entry.skillPath ?? `SKILL.md at its top (the entry in ${LOCK_FILE_NAME} has no skillPath)`;
}

/**
 * The ref an update follows: what was asked for at install; for a lock without that field, its
 * `ref` (a commit there is a pin that never moves), else the default branch (undefined).
 */
export function followedRef(entry: LockEntry): string | undefined {
  const asked = entry.requestedRef ?? entry.ref;
  if (asked === undefined || asked === 'HEAD') {
    return undefined;
  }
  // A commit asked for by its abbreviation is a pin to the commit it named.
  const pinned = pinnedCommit(entry);
  return pinned !== undefined && ABBREVIATED_COMMIT.test(asked) && pinned.startsWith(asked) ? pinned : asked;
}

/** The commit the entry was installed from, when the lock records one. */
export function pinnedCommit(entry: LockEntry): string | undefined {
  return entry.ref !== undefined && FULL_COMMIT.test(entry.ref) ? entry.ref : undefined;
}

/** The folder holding the SKILL.md at `skillPath` (tidied, see entrySkillPath), '' for the source's top. */
function folderOf(skillPath: string): string {
  const folder = path.posix.dirname(skillPath);
  return folder === '.' ? '' : folder;
}

/** Where a locked skill came from, as people read it: `owner/repo@abc1234`, `url#v2`, `./folder`. */
export function entryOrigin(entry: LockEntry): string {
  const ref = entry.ref === undefined ? '' : FULL_COMMIT.test(entry.ref) ? `@${entry.ref.slice(0, 7)}` : `#${entry.ref}`;
  return `${entrySourceLabel(entry)}${ref}`;
}

/** The entry's source as it may be shown: `owner/repo`, a URL without its user name or password, a folder; a site by its URL. */
export function entrySourceLabel(entry: LockEntry): string {
  return withoutCredentials(entry.sourceType === SITE_SOURCE_TYPE && typeof entry.sourceUrl === 'string' ? entry.sourceUrl : entry.source);
}

/** Whether the lock entry was installed from the same repository, folder or site as `source`. */
export function sameOrigin(entry: LockEntry, source: SkillSource, projectDir: string): boolean {
  // The origin alone is compared, not which skill of it: any name will do.
  const locked = entrySource(entry, projectDir, '');
  return typeof locked !== 'string' && originKey(locked) === originKey(source);
}

/** A repository by its URL (with or without the credentials it was typed with), a site by its URL, a folder by its path. */
function originKey(source: SkillSource): string {
  switch (source.kind) {
    case 'git':
      return `git ${withoutCredentials(source.url)}`;
    case 'site':
      return `site ${source.url}`;
    case 'folder':
      return `folder ${source.folder}`;
  }
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
