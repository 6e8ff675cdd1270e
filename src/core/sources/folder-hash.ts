// The content hash of an installed skill folder, exactly as `npx skills` computes `computedHash` in
// skills-lock.json, so either tool can tell whether the other's install was edited since.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { EVALS_FOLDER } from '../evals/evals-folder';
import { walkFolder } from './folder-walk';

/**
 * SHA-256 (hex) over the folder's regular files sorted by their `/`-separated relative path with
 * `localeCompare`, each fed as its path then its bytes. `.git` and `node_modules` are skipped, and
 * so are symbolic links (neither followed nor hashed), as `npx skills` 1.7.4 does.
 */
export async function computeFolderHash(folder: string): Promise<string> {
  return (await computeFolderHashes(folder)).all;
}

export interface FolderHashes {
  /** computeFolderHash's: over every file. */
  all: string;
  /** The same without the skill's trigger tests (`evals/`), which may be the user's own. */
  withoutEvals: string;
}

/** Both hashes of the folder, reading each file once. */
export async function computeFolderHashes(folder: string): Promise<FolderHashes> {
  const files = (await walkFolder(folder)).filter((entry) => entry.kind === 'file');
  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  const all = createHash('sha256');
  const withoutEvals = createHash('sha256');
  for (const file of files) {
    const content = await fs.readFile(file.absolutePath);
    all.update(file.relativePath).update(content);
    if (!file.relativePath.startsWith(`${EVALS_FOLDER}/`)) {
      withoutEvals.update(file.relativePath).update(content);
    }
  }
  return { all: all.digest('hex'), withoutEvals: withoutEvals.digest('hex') };
}
