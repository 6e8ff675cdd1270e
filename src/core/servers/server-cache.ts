// Where the skills of a skill server are kept on this machine: one folder per server (its root),
// one folder per skill holding the server's entry as last listed and the files fetched so far.
//
//   <server folder>/<skill folder>/.skill-entry.json   the entry, as listed (name, description, digests)
//   <server folder>/<skill folder>/SKILL.md, …          files fetched on use, each verified before it was kept
//
// Only this extension writes here (its global storage, outside every skill location), always to a
// new file renamed into place; a cached file is still checked against its digest whenever it is
// read, so what a model receives is what the server listed.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { checkServedSkill, contentMismatch, servedFilePath, servedSkillPath, type ServedFile, type ServedSkill } from './served-skill';
import { unlessMissing } from '../util/errors';

export const ENTRY_FILE_NAME = '.skill-entry.json';

/**
 * The folder of a skill in its server's folder: its path in the server's namespace, encoded into
 * one name (`skill://acme/refunds/SKILL.md` → `acme%2Frefunds`), so skills of the same name at
 * different paths stay apart.
 */
export function cacheFolderName(skill: Pick<ServedSkill, 'uri'>): string {
  return encodeURIComponent(servedSkillPath(skill)).replace(/^\./, '%2E');
}

/** The skill path a cache folder's name encodes (see cacheFolderName); the name itself when it is no such encoding. */
export function skillPathOfCacheFolder(folderName: string): string {
  try {
    return decodeURIComponent(folderName);
  } catch {
    return folderName;
  }
}

/** The SKILL.md path a cached skill folder stands for, when the folder holds an entry (it may not be fetched yet). */
export async function cachedSkillFile(dir: string): Promise<string | undefined> {
  const stat = await fs.stat(path.join(dir, ENTRY_FILE_NAME)).catch(() => undefined);
  return stat?.isFile() ? path.join(dir, SKILL_FILE_NAME) : undefined;
}

/** Writes `bytes` to `file` through a new file renamed into place, so no reader sees half of it. */
async function writeAtomically(file: string, bytes: Uint8Array | string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

export interface RefusedEntry {
  uri?: string;
  reason: string;
}

export interface ListingUpdate {
  /** Skill folders whose entry is new or different. */
  changed: string[];
  /** Skill folders removed: the server no longer lists them. */
  removed: string[];
  refused: RefusedEntry[];
}

/**
 * Makes the server's folder hold exactly the listed skills: a new or changed entry is written, the
 * folder of a skill no longer listed is removed. Fetched files stay; a changed digest makes the
 * next read fetch the file again.
 */
export async function storeListing(serverDir: string, skills: readonly ServedSkill[]): Promise<ListingUpdate> {
  const update: ListingUpdate = { changed: [], removed: [], refused: [] };
  const kept = new Set<string>();
  for (const skill of skills) {
    const folder = cacheFolderName(skill);
    if (kept.has(folder)) {
      update.refused.push({ uri: skill.uri, reason: 'the server lists this URI twice' });
      continue;
    }
    if (skill.resources.some((file) => servedFilePath(skill, file) === ENTRY_FILE_NAME)) {
      update.refused.push({ uri: skill.uri, reason: `it has a file named ${ENTRY_FILE_NAME}, a name this extension keeps for itself` });
      continue;
    }
    kept.add(folder);
    const entryFile = path.join(serverDir, folder, ENTRY_FILE_NAME);
    const text = `${JSON.stringify(skill, undefined, 2)}\n`;
    const previous = await fs.readFile(entryFile, 'utf8').catch(() => undefined);
    if (previous !== text) {
      await writeAtomically(entryFile, text);
      update.changed.push(path.join(serverDir, folder));
    }
  }
  const present = await fs.readdir(serverDir, { withFileTypes: true }).catch(() => []);
  for (const entry of present) {
    if (entry.isDirectory() && !kept.has(entry.name)) {
      await fs.rm(path.join(serverDir, entry.name), { recursive: true, force: true });
      update.removed.push(path.join(serverDir, entry.name));
    }
  }
  return update;
}

/** The entry kept in a skill folder, checked again as if just received; the reason when it cannot be used. */
export async function readCachedEntry(dir: string): Promise<{ skill: ServedSkill } | { reason: string } | undefined> {
  const text = await unlessMissing(fs.readFile(path.join(dir, ENTRY_FILE_NAME), 'utf8'));
  if (text === undefined) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { reason: `${ENTRY_FILE_NAME} is not JSON` };
  }
  const check = checkServedSkill(value);
  return check.ok ? { skill: check.skill } : { reason: check.reason };
}

/** A cached file's bytes when they are exactly the listed file (size and digest checked now), else undefined. */
export async function readVerifiedCachedFile(dir: string, relativePath: string, file: ServedFile): Promise<Buffer | undefined> {
  const bytes = await fs.readFile(path.join(dir, ...relativePath.split('/'))).catch(() => undefined);
  return bytes && contentMismatch(bytes, file) === undefined ? bytes : undefined;
}

/** Keeps a verified file in the skill's folder. */
export function storeCachedFile(dir: string, relativePath: string, bytes: Uint8Array): Promise<void> {
  return writeAtomically(path.join(dir, ...relativePath.split('/')), bytes);
}
