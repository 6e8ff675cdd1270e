// The content hash of an installed skill folder, exactly as `npx skills` computes `computedHash` in
// skills-lock.json, so either tool can tell whether the other's install was edited since.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { walkFolder } from './folder-walk';

/**
 * SHA-256 (hex) over the folder's regular files sorted by their `/`-separated relative path with
 * `localeCompare`, each fed as its path then its bytes. `.git` and `node_modules` are skipped, and
 * so are symbolic links (neither followed nor hashed), as `npx skills` 1.7.4 does.
 */
export async function computeFolderHash(folder: string): Promise<string> {
  const files = (await walkFolder(folder)).filter((entry) => entry.kind === 'file');
  files.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file.relativePath);
    hash.update(await fs.readFile(file.absolutePath));
  }
  return hash.digest('hex');
}
