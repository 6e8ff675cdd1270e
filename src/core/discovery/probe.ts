// Looks at the folders of a skill root without reading file contents: which are skill folders,
// which are grouping folders to look inside, which are broken links or loops, and in what order
// folders take precedence. A skill folder is the folder directly holding a SKILL.md, directly in
// the root or inside grouping folders (`shipping/land-it/SKILL.md` is the skill `land-it`).

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { findSkillFile, SKILL_FILE_NAME } from '../skill-file/load';
import { cachedSkillFile } from '../servers/server-cache';
import type { DiscoveryProblem, SkillRoot } from '../model/types';
import { errorCode, errorMessage } from '../util/errors';
import { relativeInside, resolveChild } from '../util/paths';
import { IGNORED_FOLDER_NAMES } from './ignored-folders';

/**
 * Grouping folders a skill folder may lie in, at most: `a/b/c/skill/SKILL.md` is found, one more
 * level is not. Bounds the walk of a location that holds other things than skills.
 */
export const MAX_GROUPING_DEPTH = 3;

/** A folder of a root, identified by the root's position in the precedence list. */
export interface FolderKey {
  rootIndex: number;
  /** Relative to the root, with the platform's separator: `pdf`, or `shipping${sep}land-it` inside a grouping folder. */
  folderName: string;
}

/** How many folders deep a key lies in its root: 1 for a direct child. */
export function folderDepth(folderName: string): number {
  let depth = 1;
  for (let index = folderName.indexOf(path.sep); index >= 0; index = folderName.indexOf(path.sep, index + 1)) {
    depth++;
  }
  return depth;
}

/** The name of the folder a key ends in: the name a skill found there must carry. */
export function lastFolderName(folderName: string): string {
  const index = folderName.lastIndexOf(path.sep);
  return index < 0 ? folderName : folderName.slice(index + 1);
}

/**
 * Whether a folder without a SKILL.md is looked inside for skills: not too deep, and neither a
 * hidden folder (tools' state) nor `.git` or `node_modules`.
 */
export function mayBeGroupingFolder(folderName: string): boolean {
  const name = lastFolderName(folderName);
  return !name.startsWith('.') && !IGNORED_FOLDER_NAMES.has(name) && folderDepth(folderName) <= MAX_GROUPING_DEPTH;
}

export interface SkillFolderProbe {
  kind: 'skill';
  dir: string;
  realDir: string;
  file: string;
}

export interface ProblemProbe {
  kind: 'problem';
  problem: DiscoveryProblem;
}

/** A real folder (not a link) without a SKILL.md, looked inside for skill folders. */
export interface GroupingFolderProbe {
  kind: 'group';
}

/** What a folder of a root turned out to be; `none` covers files, ignored folders and other folders. */
export type FolderProbe = SkillFolderProbe | ProblemProbe | GroupingFolderProbe | { kind: 'none' };

export interface RootListing {
  folderNames: string[];
  /** Real path of the root, used to recognise links that point back at it. */
  realPath?: string;
  /** Children the listing shows to be real folders, not links: their real path follows from the root's. */
  plainFolderNames?: ReadonlySet<string>;
  problem?: DiscoveryProblem;
}

export function compareFolders(a: FolderKey, b: FolderKey): number {
  if (a.rootIndex !== b.rootIndex) {
    return a.rootIndex - b.rootIndex;
  }
  return a.folderName < b.folderName ? -1 : a.folderName > b.folderName ? 1 : 0;
}

/**
 * Order among folders declaring the same skill name: root order, then the folder named like the
 * skill, then the one in fewer grouping folders, then by path.
 */
export function compareForName(name: string, a: FolderKey, b: FolderKey): number {
  if (a.rootIndex === b.rootIndex) {
    const aNamed = lastFolderName(a.folderName) === name;
    if (aNamed !== (lastFolderName(b.folderName) === name)) {
      return aNamed ? -1 : 1;
    }
    const depthOrder = folderDepth(a.folderName) - folderDepth(b.folderName);
    if (depthOrder !== 0) {
      return depthOrder;
    }
  }
  return compareFolders(a, b);
}

/**
 * Order among paths to one real folder: root order, then the path named like the real folder, so a
 * link such as `alias → pdf` does not take the place of `pdf` itself (nor trigger a name mismatch).
 */
export function compareForRealDir(realDir: string, a: FolderKey, b: FolderKey): number {
  return compareForName(path.basename(realDir), a, b);
}

function problem(code: string, severity: DiscoveryProblem['severity'], message: string, problemPath: string): ProblemProbe {
  return { kind: 'problem', problem: { code, severity, message, path: problemPath } };
}

/**
 * The children of a root, and what it says about itself (root.notice). A skill server root that is
 * not trusted (named in a workspace's settings, in Restricted Mode) is never read.
 */
export async function listRoot(root: SkillRoot): Promise<RootListing> {
  const listing = root.kind === 'server' && root.untrusted ? { folderNames: [] } : await listRootFolders(root);
  if (!root.notice || listing.problem) {
    return listing;
  }
  return { ...listing, problem: { ...root.notice, path: root.path, ...(root.server === undefined ? {} : { server: root.server }) } };
}

async function listRootFolders(root: SkillRoot): Promise<RootListing> {
  let realPath: string;
  try {
    realPath = await fs.realpath(root.path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { folderNames: [] }; // A root that does not exist (yet) simply holds no skills.
    }
    const reason = code === 'ELOOP' ? 'it is a symbolic link loop' : errorMessage(error);
    return { folderNames: [], problem: problem('root-unreadable', 'warning', `Cannot read skill folder ${root.path}: ${reason}.`, root.path).problem };
  }
  try {
    return { ...(await listFolders(realPath, false)), realPath };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return { folderNames: [] };
    }
    const reason = errorCode(error) === 'ENOTDIR' ? 'it is a file, not a folder' : errorMessage(error);
    return { folderNames: [], realPath, problem: problem('root-unreadable', 'warning', `Cannot read skill folder ${root.path}: ${reason}.`, root.path).problem };
  }
}

/**
 * The folders and links in `dir`, sorted by name, without `.git` and `node_modules`, and (with
 * `skipHidden`, inside grouping folders) without hidden ones. Throws what readdir throws.
 */
async function listFolders(dir: string, skipHidden: boolean): Promise<{ folderNames: string[]; plainFolderNames: Set<string> }> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  // One pass over what may be thousands of entries.
  const folderNames: string[] = [];
  const plainFolderNames = new Set<string>();
  for (const entry of entries) {
    if (IGNORED_FOLDER_NAMES.has(entry.name) || (skipHidden && entry.name.startsWith('.'))) {
      continue;
    }
    if (entry.isDirectory()) {
      folderNames.push(entry.name);
      plainFolderNames.add(entry.name);
    } else if (entry.isSymbolicLink()) {
      folderNames.push(entry.name);
    }
  }
  return { folderNames: folderNames.sort(), plainFolderNames };
}

/**
 * The folders inside a grouping folder (`folderName` of `root`), as keys relative to the root
 * with whether each is a real folder; none when it cannot be read (it went away meanwhile).
 */
export async function listGroupingFolder(root: SkillRoot, folderName: string): Promise<{ folderNames: string[]; plainFolderNames: ReadonlySet<string> }> {
  const listing = await listFolders(path.join(root.path, folderName), true).catch(() => ({ folderNames: [], plainFolderNames: new Set<string>() }));
  const inside = (name: string): string => `${folderName}${path.sep}${name}`;
  return { folderNames: listing.folderNames.map(inside), plainFolderNames: new Set([...listing.plainFolderNames].map(inside)) };
}

async function describeBrokenLink(dir: string, error: unknown): Promise<FolderProbe> {
  const code = errorCode(error);
  if (code === 'ELOOP') {
    return problem('symlink-loop', 'warning', `The link ${dir} loops back on itself; it was skipped.`, dir);
  }
  if (code === 'ENOENT') {
    const target = await fs.readlink(dir).catch(() => undefined);
    if (target === undefined) {
      return { kind: 'none' }; // Not a link: the folder was deleted while being read.
    }
    return problem('dangling-symlink', 'warning', `The link ${dir} points to ${target}, which does not exist; it was skipped.`, dir);
  }
  return problem('unreadable-folder', 'warning', `Cannot read ${dir}: ${errorMessage(error)}.`, dir);
}

/** Looks at one folder of a root (`folderName` relative to it) without reading any file content. */
export async function probeFolder(root: SkillRoot, folderName: string, rootRealPath?: string): Promise<FolderProbe> {
  if (IGNORED_FOLDER_NAMES.has(lastFolderName(folderName))) {
    return { kind: 'none' };
  }
  const dir = path.join(root.path, folderName);
  let realDir: string;
  try {
    // A file (or a link to one) resolves too; it holds no SKILL.md, so it is no skill folder below.
    realDir = await fs.realpath(dir);
  } catch (error) {
    const lstat = await fs.lstat(dir).catch(() => undefined);
    if (!lstat) {
      return { kind: 'none' }; // Deleted: not a problem, just gone.
    }
    return describeBrokenLink(dir, error);
  }
  const rootReal = rootRealPath ?? (await fs.realpath(root.path).catch(() => root.path));
  if (relativeInside(realDir, rootReal) !== undefined) {
    // A link to the root itself or one of its ancestors would make the root contain itself.
    return problem('symlink-loop', 'warning', `The link ${dir} points to ${realDir}, which contains the skill folder itself; it was skipped.`, dir);
  }
  // Never throws: an unreadable folder holds no SKILL.md it can find.
  const file = root.kind === 'server' ? await cachedSkillFile(dir) : await findSkillFile(dir);
  if (!file) {
    // Grouping folders are real folders: a link could lead round in a loop or out of the location.
    const isGroup = mayBeGroupingFolder(folderName) && (await fs.lstat(dir).catch(() => undefined))?.isDirectory() === true;
    return isGroup ? { kind: 'group' } : { kind: 'none' };
  }
  return { kind: 'skill', dir, realDir: realDir === dir ? dir : realDir, file };
}

/**
 * The probe of a folder its parent's listing shows to be a real folder, taken without touching the
 * disk: loading its SKILL.md is what finds out whether it is a skill (a folder without one loads
 * as nothing, and may be a grouping folder). This keeps discovery at one open and read per skill,
 * about what reading the files costs. `knownFile` is the SKILL.md found last time, so an unchanged
 * skill.md is recognised. The root's real path leads to the folder's: grouping folders are real folders.
 */
export function listedFolderProbe(root: SkillRoot, folderName: string, rootRealPath: string, knownFile?: string): SkillFolderProbe {
  const dir = resolveChild(root.path, folderName);
  const realDir = rootRealPath === root.path ? dir : resolveChild(rootRealPath, folderName);
  return { kind: 'skill', dir, realDir: realDir === dir ? dir : realDir, file: knownFile ?? `${dir}${path.sep}${SKILL_FILE_NAME}` };
}

export function duplicateProblem(dir: string, primaryDir: string): DiscoveryProblem {
  return {
    code: 'duplicate-skill-folder',
    severity: 'info',
    message: `${dir} is the same folder as ${primaryDir}; the skill is loaded once, from ${primaryDir}.`,
    path: dir,
  };
}
