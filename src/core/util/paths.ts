import * as path from 'node:path';

/** `child` relative to `parent` when inside it ('' for the folder itself), otherwise undefined; `paths` as for resolveChild. */
export function relativeInside(parent: string, child: string, paths: path.PlatformPath = path): string | undefined {
  const relative = paths.relative(parent, child);
  if (paths.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${paths.sep}`)) {
    return undefined; // Outside, or on another drive.
  }
  return relative;
}

/** A POSIX path that path.resolve leaves as it is: absolute, without empty, `.` or `..` segments or a final `/`. */
const NOT_RESOLVED_POSIX_PATH = /^(?!\/)|\/\/|\/\.\.?(?:\/|$)|\/$/;

/**
 * `path.resolve(folder, name)` for a plain file or folder name (not `.` or `..`), or such names
 * joined by the platform's separator.
 * Paths discovery works on are already resolved, and re-normalizing each costs more than the file
 * operations on it when thousands of skills are loaded: such a folder only gets the name appended.
 * `paths` is the platform's path module (the tests pass path.win32 to check Windows paths).
 */
export function resolveChild(folder: string, name: string, paths: path.PlatformPath = path): string {
  return paths.sep === '/' && !NOT_RESOLVED_POSIX_PATH.test(folder) ? `${folder}/${name}` : paths.resolve(folder, name);
}

/**
 * `path.resolve(folder, relativePath)` when that lies inside `folder` (or is the folder itself),
 * otherwise undefined. A resolved folder joined to plain names (no empty, `.` or `..` segment, no
 * final `/`) is resolved already and lies inside it, which a look at the joined path tells without
 * normalizing both paths as path.relative does; anything else is resolved and compared in full.
 * `paths` as for resolveChild.
 */
export function resolveInside(folder: string, relativePath: string, paths: path.PlatformPath = path): string | undefined {
  if (paths.sep === '/') {
    const joined = `${folder}/${relativePath}`;
    // An empty folder (the working folder) is the one way for the joined path to start with "/" when the folder does not.
    if (folder !== '' && !NOT_RESOLVED_POSIX_PATH.test(joined)) {
      return joined;
    }
  }
  const resolved = paths.resolve(folder, relativePath);
  return relativeInside(folder, resolved, paths) === undefined ? undefined : resolved;
}
