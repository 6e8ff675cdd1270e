import * as path from 'node:path';

/** `child` relative to `parent` when inside it ('' for the folder itself), otherwise undefined. */
export function relativeInside(parent: string, child: string): string | undefined {
  const relative = path.relative(parent, child);
  if (path.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${path.sep}`)) {
    return undefined; // Outside, or on another drive.
  }
  return relative;
}
