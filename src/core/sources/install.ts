// Writes and deletes installed skill folders without ever leaving half of one: the copy is made in
// a hidden sibling and renamed into place; a replaced or removed folder is first renamed aside.
// The name comes from a lock or a source, so it must be a skill name, and the folder it names must
// really be inside its parent (no symbolic link out of it) before anything is read, written or deleted.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_SKILL_LOCATIONS } from '../discovery/roots';
import { WELL_KNOWN_LOCATIONS } from '../discovery/unconfigured-locations';
import { EVALS_FOLDER } from '../evals/evals-folder';
import { errorCode } from '../util/errors';
import { OutsidePathError, resolveInside, skillNameProblem } from './confine';
import { pathExists } from '../util/files';
import { walkFolder } from './folder-walk';
import { SourceError } from './source-spec';

export interface InstallResult {
  folder: string;
  /** Symbolic links in the source, not copied (they may point anywhere). */
  skippedLinks: string[];
  /** Sockets, pipes and devices in the source (a local folder can hold them), not copied: they hold no content to copy. */
  skippedSpecialFiles: string[];
  /** The replaced folder's trigger tests (`evals/`) were kept, as the source has none (see InstallOptions). */
  keptEvals: boolean;
}

export interface InstallOptions {
  /**
   * Keep the trigger tests (`evals/`) of the folder being replaced when the incoming version has
   * none: a new version of the same skill, whose tests the user wrote. Their regular files only.
   */
  keepEvals?: boolean;
  /** Checks the finished copy before it replaces anything; what it throws stops the install. */
  acceptCopy?: (copy: string) => Promise<void>;
}

/** What a copy left behind, in one line (undefined when it copied everything): `symbolic links not copied: a; special files …`. */
export function describeSkipped(result: Pick<InstallResult, 'skippedLinks' | 'skippedSpecialFiles'>): string | undefined {
  const parts = [
    result.skippedLinks.length > 0 ? `symbolic links not copied: ${result.skippedLinks.join(', ')}` : '',
    result.skippedSpecialFiles.length > 0 ? `special files (sockets, pipes, devices) not copied: ${result.skippedSpecialFiles.join(', ')}` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/**
 * Copies the skill folder `from` to `parent/name` (regular files and folders; `.git`, `node_modules`,
 * symbolic links and special files stay behind), replacing what is there only once the copy is
 * complete, and once `options.acceptCopy` (given the finished copy) has not thrown.
 */
export async function installFolder(from: string, parent: string, name: string, options: InstallOptions = {}): Promise<InstallResult> {
  const destination = await skillFolderIn(parent, name);
  const staging = siblingPath(parent, name, 'installing');
  const result: InstallResult = { folder: destination, skippedLinks: [], skippedSpecialFiles: [], keptEvals: false };
  // The first folder this creates on the way to `parent`, if any: a failed install takes it away again.
  const created = await fs.mkdir(parent, { recursive: true });
  try {
    await fs.mkdir(staging);
    await copyInto(from, staging, parent, result);
    if (options.keepEvals && (await isRealFolder(path.join(destination, EVALS_FOLDER))) && !(await pathExists(path.join(staging, EVALS_FOLDER)))) {
      await fs.mkdir(path.join(staging, EVALS_FOLDER));
      // Only files: what else the user's folder holds (links, pipes) is not said to be skipped, it was never the source's.
      await copyInto(path.join(destination, EVALS_FOLDER), path.join(staging, EVALS_FOLDER), parent, { skippedLinks: [], skippedSpecialFiles: [] });
      result.keptEvals = true;
    }
    await options.acceptCopy?.(staging);
    await replaceWith(staging, destination);
  } catch (error) {
    await fs.rm(created ?? staging, { recursive: true, force: true });
    throw error;
  }
  return result;
}

/** Copies the regular files and folders of `from` into the existing folder `to`, noting what it leaves behind. */
async function copyInto(from: string, to: string, parent: string, skipped: Pick<InstallResult, 'skippedLinks' | 'skippedSpecialFiles'>): Promise<void> {
  for (const entry of await walkFolder(from)) {
    const target = path.join(to, ...entry.relativePath.split('/'));
    try {
      if (entry.kind === 'folder') {
        await fs.mkdir(target);
      } else if (entry.kind === 'file') {
        await fs.copyFile(entry.absolutePath, target);
      } else {
        (entry.kind === 'symlink' ? skipped.skippedLinks : skipped.skippedSpecialFiles).push(entry.relativePath);
      }
    } catch (error) {
      throw errorCode(error) === 'ENAMETOOLONG' ? new SourceError(`cannot copy ${entry.relativePath}: its path is too long for the file system under ${parent}.`) : error;
    }
  }
}

/** A folder, not a symbolic link to one (which could lead anywhere). */
async function isRealFolder(folder: string): Promise<boolean> {
  return (await fs.lstat(folder).catch(() => undefined))?.isDirectory() ?? false;
}

/** Deletes an installed skill folder (`parent/name`, as findInstalled gives it): renamed aside first, so it disappears at once and whole. */
export async function removeFolder(folder: string): Promise<void> {
  const aside = siblingPath(path.dirname(folder), path.basename(folder), 'removing');
  await fs.rename(await skillFolderIn(path.dirname(folder), path.basename(folder)), aside);
  await fs.rm(aside, { recursive: true, force: true });
}

/**
 * Where a locked skill is installed: `parent/name` for the given parent, else the first of the
 * project's skill locations that has it (ours first, then those of other tools, e.g. `npx
 * skills`'s `.agents/skills`).
 */
export async function findInstalled(projectDir: string, name: string, parent?: string): Promise<string | undefined> {
  const parents = parent !== undefined ? [parent] : [...new Set([...DEFAULT_SKILL_LOCATIONS, ...WELL_KNOWN_LOCATIONS])].map((location) => path.join(projectDir, location));
  for (const folder of parents) {
    const candidate = await skillFolderIn(folder, name);
    if ((await fs.stat(candidate).catch(() => undefined))?.isDirectory()) {
      return candidate;
    }
  }
  return undefined;
}

/**
 * `parent/name` once `name` is known to be a skill name and the folder it names to be really inside
 * `parent`; an OutsidePathError otherwise (a name like `..`, a symbolic link leading out).
 */
async function skillFolderIn(parent: string, name: string): Promise<string> {
  const problem = skillNameProblem(name);
  if (problem !== undefined) {
    throw new OutsidePathError(`${problem}: it cannot name a folder in ${parent}.`);
  }
  return resolveInside(parent, name, 'the skill folder');
}

async function replaceWith(staging: string, destination: string): Promise<void> {
  const aside = siblingPath(path.dirname(destination), path.basename(destination), 'replaced');
  const replacing = await fs
    .rename(destination, aside)
    .then(() => true)
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        return false;
      }
      throw error;
    });
  try {
    await fs.rename(staging, destination);
  } catch (error) {
    if (replacing) {
      await fs.rename(aside, destination);
    }
    throw error;
  }
  if (replacing) {
    await fs.rm(aside, { recursive: true, force: true });
  }
}

/** A hidden sibling, which discovery skips (dot folders are not skills). */
function siblingPath(parent: string, name: string, purpose: string): string {
  return path.join(parent, `.${name}.${purpose}-${randomBytes(4).toString('hex')}`);
}
