// A static skills site built from discovered skills: the discovery index (0.2.0) and each skill's
// artifact (its SKILL.md alone, or a .tar.gz of its files), plus on request the legacy index and
// its per-skill files for older clients. Each skill is published as the MCP server publishes it
// (skill-publication.ts: the same files, `evals/` never, the same limits), and the same skills
// always give the same bytes; writing leaves a file that would not change untouched.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { publishSkill } from '../mcp/skill-publication';
import { isUsableStatus } from '../model/status';
import type { SkillRecord } from '../model/types';
import { resolveInside } from '../sources/confine';
import { errorCode, InputProblem } from '../util/errors';
import { ArchiveError, compareBytes, type ArchiveFile } from './archive';
import {
  artifactDigest,
  DISCOVERY_SCHEMA,
  INDEX_FILE_NAME,
  INDEX_FOLDER,
  indexText,
  LEGACY_INDEX_FOLDER,
  parseIndex,
  type ArtifactType,
  type IndexEntry,
  type LegacyIndexEntry,
} from './discovery-index';
import { writeTarGz } from './tar';

export interface PublishedSkill {
  name: string;
  type: ArtifactType;
  digest: string;
  files: number;
}

/** A skill discovery found that is not on the site, and why. */
export interface LeftOutSkill {
  name: string;
  /** Its SKILL.md. */
  file: string;
  reason: string;
  /** Only left out of the legacy index (its paths cannot be written there). */
  legacyOnly?: boolean;
}

export interface SiteBuild {
  skills: PublishedSkill[];
  leftOut: LeftOutSkill[];
  /** Every file of the site, by path relative to the site's folder (`/`-separated). */
  files: Map<string, Buffer>;
}

/** What `writeSite` did, by paths relative to the site's folder. */
export interface SiteWrite {
  written: string[];
  unchanged: string[];
  removed: string[];
}

export const INDEX_PATH = `${INDEX_FOLDER}/${INDEX_FILE_NAME}`;
export const LEGACY_INDEX_PATH = `${LEGACY_INDEX_FOLDER}/${INDEX_FILE_NAME}`;

/** Paths the legacy index may name: printable ASCII without `\`, `?`, `#`, `[` or `]`, as its readers fetch them unescaped. */
const LEGACY_SAFE_PATH = /^[\x20-\x7e]+$/;
const LEGACY_UNSAFE_CHARACTER = /[\\?#[\]]/;

/**
 * The site for the usable skills among `records` (not invalid, shadowed or left out by the
 * allowlist), sorted by name; a usable skill that cannot be published (over the limits, a path an
 * archive cannot hold) is left out with the reason.
 */
export async function buildSite(records: readonly SkillRecord[], options: { legacy: boolean }): Promise<SiteBuild> {
  const usable = records.filter((record) => isUsableStatus(record.status)).sort((a, b) => compareBytes(a.name, b.name));
  const skills: PublishedSkill[] = [];
  const leftOut: LeftOutSkill[] = [];
  const files = new Map<string, Buffer>();
  const entries: IndexEntry[] = [];
  const legacyEntries: LegacyIndexEntry[] = [];
  for (const record of usable) {
    const published = await publishSkill(record, undefined, 'on the site');
    if (!published.ok) {
      leftOut.push({ name: record.name, file: record.file, reason: published.message });
      continue;
    }
    const skillFiles: ArchiveFile[] = [...published.publication.files.values()].map((file) => ({ path: file.path, bytes: file.bytes }));
    const description = record.metadata!.description;
    let entry: IndexEntry;
    try {
      entry = artifactEntry(record.name, description, skillFiles, files);
    } catch (error) {
      if (!(error instanceof ArchiveError)) {
        throw error;
      }
      leftOut.push({ name: record.name, file: record.file, reason: error.message });
      continue;
    }
    entries.push(entry);
    skills.push({ name: record.name, type: entry.type, digest: entry.digest, files: skillFiles.length });
    if (options.legacy) {
      const unsafe = skillFiles.find((file) => !LEGACY_SAFE_PATH.test(file.path) || LEGACY_UNSAFE_CHARACTER.test(file.path));
      if (unsafe) {
        leftOut.push({ name: record.name, file: record.file, reason: `"${unsafe.path}" cannot be named in the legacy index (printable ASCII only, without \\ ? # [ ])`, legacyOnly: true });
        continue;
      }
      // SKILL.md first, as the legacy index's readers expect it.
      const paths = skillFiles.map((file) => file.path).sort((a, b) => Number(b === 'SKILL.md') - Number(a === 'SKILL.md') || compareBytes(a, b));
      legacyEntries.push({ name: record.name, description, files: paths });
      for (const file of skillFiles) {
        files.set(`${LEGACY_INDEX_FOLDER}/${record.name}/${file.path}`, file.bytes);
      }
    }
  }
  files.set(INDEX_PATH, indexText({ $schema: DISCOVERY_SCHEMA, skills: entries }));
  if (options.legacy) {
    files.set(LEGACY_INDEX_PATH, indexText({ skills: legacyEntries }));
  }
  return { skills, leftOut, files };
}

/** The index entry of one skill, its artifact added to `files`: SKILL.md itself when it is the only file, else a .tar.gz. */
function artifactEntry(name: string, description: string, skillFiles: readonly ArchiveFile[], files: Map<string, Buffer>): IndexEntry {
  const [only] = skillFiles;
  if (skillFiles.length === 1 && only.path === 'SKILL.md') {
    files.set(`${INDEX_FOLDER}/${name}/SKILL.md`, only.bytes);
    return { name, description, type: 'skill-md', url: `${name}/SKILL.md`, digest: artifactDigest(only.bytes) };
  }
  const archive = writeTarGz(skillFiles);
  files.set(`${INDEX_FOLDER}/${name}.tar.gz`, archive);
  return { name, description, type: 'archive', url: `${name}.tar.gz`, digest: artifactDigest(archive) };
}

/**
 * Writes the site into `folder`: each file whose bytes differ (atomically: beside, then renamed),
 * none that would not change. The artifacts an earlier publish listed in the index being replaced,
 * and no longer listed, are removed; nothing else in `folder` is touched. Every path is confined to
 * `folder` (a symbolic link in it leading out is refused).
 */
export async function writeSite(folder: string, build: SiteBuild): Promise<SiteWrite> {
  const result: SiteWrite = { written: [], unchanged: [], removed: [] };
  const stale = new Set<string>();
  for (const indexPath of [INDEX_PATH, LEGACY_INDEX_PATH]) {
    if (build.files.has(indexPath)) {
      for (const file of await previouslyPublished(folder, indexPath)) {
        stale.add(file);
      }
    }
  }
  for (const [relativePath, bytes] of [...build.files].sort(([a], [b]) => compareBytes(a, b))) {
    stale.delete(relativePath);
    const target = await resolveInside(folder, relativePath, 'the published file');
    const current = await fs.readFile(target).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') {
        return undefined;
      }
      throw error;
    });
    if (current?.equals(bytes)) {
      result.unchanged.push(relativePath);
      continue;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, target).catch(async (error: unknown) => {
      await fs.rm(temporary, { force: true });
      throw error;
    });
    result.written.push(relativePath);
  }
  for (const relativePath of [...stale].sort(compareBytes)) {
    if (await removePublished(folder, relativePath)) {
      result.removed.push(relativePath);
    }
  }
  return result;
}

/**
 * The files the index at `indexPath` in `folder` lists (relative to `folder`), when it is an index
 * this tool can read; an index written by hand or broken lists nothing to remove.
 */
async function previouslyPublished(folder: string, indexPath: string): Promise<string[]> {
  const text = await fs.readFile(await resolveInside(folder, indexPath, 'the published index'), 'utf8').catch(() => undefined);
  if (text === undefined) {
    return [];
  }
  let index: ReturnType<typeof parseIndex>;
  try {
    index = parseIndex(text, indexPath);
  } catch (error) {
    if (error instanceof InputProblem) {
      return [];
    }
    throw error;
  }
  const indexFolder = path.posix.dirname(indexPath);
  if (index.format === 'legacy') {
    return index.skills.flatMap((skill) => skill.files.map((file) => `${indexFolder}/${skill.name}/${file}`));
  }
  // Only plain relative URLs inside the index's folder, as publish writes them: any other names no file of ours.
  return index.skills
    .filter((skill) => /^[\w.-]+(?:\/[\w.-]+)*$/.test(skill.url))
    .map((skill) => path.posix.normalize(`${indexFolder}/${skill.url}`))
    .filter((file) => file.startsWith(`${indexFolder}/`));
}

/** Removes a file an earlier publish wrote, and the folders it leaves empty up to the index's; false when it was not there. */
async function removePublished(folder: string, relativePath: string): Promise<boolean> {
  let target: string;
  try {
    target = await resolveInside(folder, relativePath, 'the published file');
  } catch (error) {
    if (error instanceof InputProblem) {
      return false;
    }
    throw error;
  }
  const stat = await fs.lstat(target).catch(() => undefined);
  if (!stat?.isFile()) {
    return false;
  }
  await fs.rm(target);
  const top = path.join(folder, relativePath.split('/').slice(0, 2).join('/'));
  for (let parent = path.dirname(target); parent.length > top.length; parent = path.dirname(parent)) {
    try {
      await fs.rmdir(parent);
    } catch {
      break; // Not empty: what else is there stays.
    }
  }
  return true;
}
