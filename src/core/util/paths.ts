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
  return isResolvedPosixPath(folder, paths) ? `${folder}/${name}` : paths.resolve(folder, name);
}

/** `path.join(folder, name)` for names as resolveChild takes them; it is the same path for a resolved folder. */
export function joinChild(folder: string, name: string, paths: path.PlatformPath = path): string {
  return isResolvedPosixPath(folder, paths) ? `${folder}/${name}` : paths.join(folder, name);
}

function isResolvedPosixPath(folder: string, paths: path.PlatformPath): boolean {
  return paths.sep === '/' && !NOT_RESOLVED_POSIX_PATH.test(folder);
}

/**
 * `path.basename(file)`. Without a final `/`, a POSIX path's last name is all after its last `/`,
 * which a search finds without the checks path.basename makes for every path; the command line
 * takes it from thousands of paths. `paths` as for resolveChild.
 */
export function lastName(file: string, paths: path.PlatformPath = path): string {
  return paths.sep === '/' && !file.endsWith('/') ? file.slice(file.lastIndexOf('/') + 1) : paths.basename(file);
}

/**
 * `path.dirname(file)`, for the same reason as lastName: without a final `/`, the part before the
 * last `/` when that is not the root's (path.dirname keeps `/` and `//` whole). `paths` as for
 * resolveChild.
 */
export function parentFolder(file: string, paths: path.PlatformPath = path): string {
  const slash = file.lastIndexOf('/');
  return paths.sep === '/' && slash > 1 && !file.endsWith('/') ? file.slice(0, slash) : paths.dirname(file);
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
