// The built command line (dist/cli.js), rebuilt for the tests that run it as a real subprocess
// when a source file is newer than it.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';

export const REPOSITORY = path.resolve(__dirname, '..', '..', '..');
export const BUNDLE = path.join(REPOSITORY, 'dist', 'cli.js');

/** True when dist/cli.js is missing or older than a source file it is built from. */
async function bundleIsStale(): Promise<boolean> {
  const built = await fs.stat(BUNDLE).catch(() => undefined);
  if (!built) {
    return true;
  }
  const sources = await fs.readdir(path.join(REPOSITORY, 'src'), { recursive: true, withFileTypes: true });
  for (const entry of sources) {
    if (!entry.isFile()) {
      continue;
    }
    const stat = await fs.stat(path.join(entry.parentPath, entry.name));
    if (stat.mtimeMs > built.mtimeMs) {
      return true;
    }
  }
  return false;
}

export async function ensureBundle(): Promise<void> {
  if (await bundleIsStale()) {
    await promisify(execFile)(process.execPath, [path.join(REPOSITORY, 'scripts', 'build.mjs')], { cwd: REPOSITORY });
  }
}
