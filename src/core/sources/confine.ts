// Paths built from what others wrote (a lock's keys and skillPath, a source's sub-path, a
// repository's folders and links) stay inside the folder they belong to: the skills folder, a
// clone, a source folder. Every place that turns such a name or path into a file goes through here.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { isSpecNameCharacter, MAX_NAME_LENGTH } from '../skill-file/schema';
import { errorCode, InputProblem, unlessMissing } from '../util/errors';
import { relativeInside } from '../util/paths';

/** A path from a lock, a source or a repository's content that leads out of where it must stay. */
export class OutsidePathError extends InputProblem {}

/**
 * Why `name` cannot name an installed skill, or undefined when it can: the specification's rule,
 * 1–64 characters of lowercase letters, digits and hyphens, no hyphen at either end or twice in a
 * row. Such a name is one plain folder name everywhere: no separator, no `.` or `..`, no drive.
 */
export function skillNameProblem(name: string): string | undefined {
  const valid =
    name.length > 0 &&
    name.length <= MAX_NAME_LENGTH &&
    name === name.normalize('NFKC') &&
    name === name.toLowerCase() &&
    !name.startsWith('-') &&
    !name.endsWith('-') &&
    !name.includes('--') &&
    Array.from(name).every(isSpecNameCharacter);
  return valid ? undefined : `"${name}" is not a valid skill name (lowercase letters, digits and single hyphens, at most ${MAX_NAME_LENGTH} characters)`;
}

/**
 * A relative path as a lock or a source gives it (`/`-separated; `\\` is read as a separator too)
 * without its empty and `.` parts, joined by `/` ('' for the top); undefined when it is absolute or
 * climbs out with `..`, so it could name something outside whatever it is taken relative to.
 */
export function normalizedRelativePath(relativePath: string): string | undefined {
  const parts = relativePath.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
  const outside = parts.includes('..') || path.posix.isAbsolute(relativePath) || path.win32.isAbsolute(relativePath) || relativePath.includes('\0');
  return outside ? undefined : parts.join('/');
}

/**
 * `root` joined with `relativePath` once its real location (symbolic links followed) is known to be
 * inside `root`; an OutsidePathError when it leads out: absolute, `..`, or a link anywhere along
 * it whose target is outside `root` or missing. A path that does not exist yet is checked as far as
 * it exists.
 * `what` names the path in the message ("the sub-path", "skills-lock.json's skillPath"), `label`
 * the root as people know it. Use it before reading, writing or deleting anything a lock, a source
 * or a repository's content names.
 */
export async function resolveInside(root: string, relativePath: string, what: string, label = root): Promise<string> {
  const relative = normalizedRelativePath(relativePath);
  if (relative === undefined) {
    throw new OutsidePathError(`${what} "${relativePath}" must stay inside ${label}.`);
  }
  const parts = relative === '' ? [] : relative.split('/');
  const inside = path.join(root, ...parts);
  const realRoot = await unlessMissing(fs.realpath(root));
  if (realRoot === undefined) {
    return inside; // Nothing is inside a folder that does not exist, so nothing there can lead out.
  }
  let existing = path.join(realRoot, ...parts);
  for (;;) {
    try {
      existing = await fs.realpath(existing);
      break;
    } catch (error) {
      const code = errorCode(error);
      // A dangling link resolves nowhere yet: writing through it would create its target, wherever that is.
      if (code === 'ELOOP' || (await fs.lstat(existing).catch(() => undefined))?.isSymbolicLink()) {
        throw new OutsidePathError(`${what} "${relativePath}" leads nowhere inside ${label}: a symbolic link on its way points to nothing there.`);
      }
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw error;
      }
      existing = path.dirname(existing);
    }
  }
  if (relativeInside(realRoot, existing) === undefined) {
    throw new OutsidePathError(`${what} "${relativePath}" leads out of ${label} through a symbolic link.`);
  }
  return inside;
}
