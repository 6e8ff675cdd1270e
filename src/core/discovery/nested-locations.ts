// Skill locations of sub-projects (monorepo packages): `packages/web/.agent/skills` inside a
// workspace folder whose locations include `.agent/skills`. One breadth-first walk of the folder,
// bounded in depth and in folders read, that skips `node_modules`, `.git`, hidden folders and what
// the .gitignore files met on the way ignore.

import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { IgnoreRules, isIgnoredFolder, type IgnoreScope } from './gitignore';
import { IGNORED_FOLDER_NAMES } from './ignored-folders';
import { mapWithConcurrency } from '../util/async';

/** Sub-projects are looked for this many folder levels below the workspace folder (`apps/web` is 2). */
export const MAX_SUBPROJECT_DEPTH = 3;
/** The walk stops after reading this many folders, so a huge tree costs a bounded time. */
export const MAX_FOLDERS_WALKED = 5000;
/** Folders read at once. */
const WALK_CONCURRENCY = 16;

export interface NestedLocations {
  /** Sub-project folders holding at least one location, `/`-separated and relative to the folder; nearest first, then by name. */
  packages: string[];
  /** True when the walk stopped at MAX_FOLDERS_WALKED before seeing every folder. */
  truncated: boolean;
}

interface Pending {
  dir: string;
  depth: number;
  scopes: readonly IgnoreScope[];
}

/**
 * Finds the sub-projects of `folder` that hold one of `locations` (folder-relative, as configured).
 * The folder itself is not one of them: its own locations are roots already.
 */
export async function findNestedLocations(folder: string, locations: readonly string[], limits = { maxDepth: MAX_SUBPROJECT_DEPTH, maxFolders: MAX_FOLDERS_WALKED }): Promise<NestedLocations> {
  const wanted = locations.map((location) => location.trim()).filter((location) => location !== '' && !path.isAbsolute(location));
  const packages: string[] = [];
  if (wanted.length === 0) {
    return { packages, truncated: false };
  }
  const firstSegments = new Set(wanted.map((location) => location.split(/[\\/]/)[0]));
  let queue: Pending[] = [{ dir: folder, depth: 0, scopes: [] }];
  let walked = 0;
  let truncated = false;
  while (queue.length > 0) {
    if (walked + queue.length > limits.maxFolders) {
      queue = queue.slice(0, limits.maxFolders - walked);
      truncated = true;
    }
    walked += queue.length;
    const levels = await mapWithConcurrency(queue, WALK_CONCURRENCY, (pending) => visit(folder, pending, wanted, firstSegments, limits.maxDepth));
    for (const level of levels) {
      if (level.package !== undefined) {
        packages.push(level.package);
      }
    }
    queue = levels.flatMap((level) => level.children);
  }
  return { packages: sortPackages(packages), truncated };
}

/** Reads one folder: whether it is a sub-project holding a location, and the folders to walk below it. */
async function visit(folder: string, pending: Pending, wanted: readonly string[], firstSegments: ReadonlySet<string>, maxDepth: number): Promise<{ package?: string; children: Pending[] }> {
  const entries = await fs.readdir(pending.dir, { withFileTypes: true }).catch((): Dirent[] => []);
  const names = new Set(entries.map((entry) => entry.name));
  const isPackage = pending.depth > 0 && [...firstSegments].some((segment) => names.has(segment)) && (await holdsLocation(pending.dir, wanted));
  const children: Pending[] = [];
  if (pending.depth < maxDepth) {
    const scopes = names.has('.gitignore') ? [...pending.scopes, await readIgnoreScope(pending.dir)] : pending.scopes;
    for (const entry of entries) {
      // Sub-projects are plain, visible folders: links could lead out of the workspace or round in
      // a loop, and hidden folders hold tools' state, not projects. Locations are not walked into.
      if (!entry.isDirectory() || IGNORED_FOLDER_NAMES.has(entry.name) || entry.name.startsWith('.') || firstSegments.has(entry.name)) {
        continue;
      }
      const dir = path.join(pending.dir, entry.name);
      if (!isIgnoredFolder(dir, scopes)) {
        children.push({ dir, depth: pending.depth + 1, scopes });
      }
    }
  }
  return { ...(isPackage ? { package: path.relative(folder, pending.dir).split(path.sep).join('/') } : {}), children };
}

/** Why some sub-project locations may be missing: the walk of `folder` hit MAX_FOLDERS_WALKED. */
export function nestedLocationsTruncatedMessage(folder: string): string {
  return `Stopped looking for sub-project skill locations in ${folder} after ${MAX_FOLDERS_WALKED.toLocaleString('en-US')} folders; add the missing ones to agentSkills.locations or list the large folders in .gitignore.`;
}

async function holdsLocation(dir: string, locations: readonly string[]): Promise<boolean> {
  for (const location of locations) {
    const stat = await fs.stat(path.join(dir, location)).catch(() => undefined);
    if (stat?.isDirectory()) {
      return true;
    }
  }
  return false;
}

async function readIgnoreScope(dir: string): Promise<IgnoreScope> {
  const rules = await fs.readFile(path.join(dir, '.gitignore'), 'utf8').then(
    (text) => IgnoreRules.parse(text),
    () => IgnoreRules.none,
  );
  return { dir, rules };
}

/** Nearer the workspace folder first (it wins a name), then by name for a stable order. */
function sortPackages(packages: string[]): string[] {
  const depth = (relative: string): number => relative.split('/').length;
  // Sorted by name, then by depth: the second sort keeps the order of equals.
  return packages.sort().sort((a, b) => depth(a) - depth(b));
}
