// A cached skill server entry read as discovery reads a SKILL.md: its metadata and diagnostics come
// from the frontmatter the server listed, checked by the same rules as a file on disk. The SKILL.md
// itself is fetched only when the skill is used.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { LoadedSkillFile } from '../skill-file/load';
import { makeDiagnostic, FILE_START_RANGE } from '../skill-file/diagnostic-codes';
import { validateFrontmatter } from '../skill-file/validate-frontmatter';
import { ENTRY_FILE_NAME, readCachedEntry, skillPathOfCacheFolder } from './server-cache';
import { servedSkillName, servedSkillPath, servedSkillRoot } from './served-skill';

const NO_LOCATIONS = new Map();

/** A cached skill as discovery loads it: what a SKILL.md gives, the name it has in the editor and its URI on the server. */
export interface LoadedCachedSkill extends LoadedSkillFile {
  /** `team/beta`: the server's name, then the skill's path on it (see servedSkillName). */
  name: string;
  /** Absent when the kept entry cannot be used. */
  uri?: string;
}

/** The file whose modification time and size tell whether a cached skill changed. */
export function cachedEntryFile(dir: string): string {
  return path.join(dir, ENTRY_FILE_NAME);
}

/** Loads a cached skill folder's entry as a skill file (`file` is where its SKILL.md is or will be kept); undefined when it has none. */
export async function loadCachedSkill(dir: string, file: string, server: string): Promise<LoadedCachedSkill | undefined> {
  const stat = await fs.stat(cachedEntryFile(dir)).catch(() => undefined);
  const entry = stat && (await readCachedEntry(dir).catch(() => undefined));
  if (!stat || !entry) {
    return undefined;
  }
  const stamp = { mtimeMs: stat.mtimeMs, size: stat.size };
  if ('reason' in entry) {
    const message = `Skill server "${server}" listed an entry that cannot be used: ${entry.reason}.`;
    const name = servedSkillName(server, skillPathOfCacheFolder(path.basename(dir)));
    return { file, name, diagnostics: [makeDiagnostic(file, 'served-entry', 'error', message, FILE_START_RANGE)], ...stamp };
  }
  const { skill } = entry;
  const dirName = servedSkillRoot(skill).split('/').pop();
  const { metadata, diagnostics } = validateFrontmatter(skill.frontmatter, { file, dirName, locations: NO_LOCATIONS });
  const identity = { name: servedSkillName(server, servedSkillPath(skill)), uri: skill.uri };
  return metadata ? { file, metadata, diagnostics, ...identity, ...stamp } : { file, diagnostics, ...identity, ...stamp };
}
