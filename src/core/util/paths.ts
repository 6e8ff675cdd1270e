import * as path from 'node:path';

/** `child` relative to `parent` when inside it ('' for the folder itself), otherwise undefined. */
export function relativeInside(parent: string, child: string): string | undefined {
  const relative = path.relative(parent, child);
  if (path.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${path.sep}`)) {
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
