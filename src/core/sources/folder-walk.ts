// Lists what a folder holds, depth first in a stable order, for hashing, copying and auditing a
// skill folder. Bounded: a folder past the entry limit is refused rather than walked for ever.

import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { IGNORED_FOLDER_NAMES } from '../discovery/ignored-folders';
import { InputProblem } from '../util/errors';

/** More entries than any skill folder holds; past it the folder is not a skill. */
export const MAX_WALK_ENTRIES = 20_000;

export interface WalkedEntry {
  /** Path inside the walked folder, `/`-separated. */
  relativePath: string;
  absolutePath: string;
  kind: 'file' | 'folder' | 'symlink' | 'other';
}

/**
 * Every entry under `root` (not `root` itself), skipping IGNORED_FOLDER_NAMES (`.git`,
 * `node_modules`); symbolic links are reported, never followed. An InputProblem past `maxEntries`.
 */
export async function walkFolder(root: string, maxEntries = MAX_WALK_ENTRIES): Promise<WalkedEntry[]> {
  const entries: WalkedEntry[] = [];
  const visit = async (folder: string, prefix: string): Promise<void> => {
    // By UTF-16 code units; the names of one listing are never equal.
    const children = (await fs.readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const child of children) {
      if (child.isDirectory() && IGNORED_FOLDER_NAMES.has(child.name)) {
        continue;
      }
      if (entries.length >= maxEntries) {
        throw new InputProblem(`${root} holds more than ${maxEntries.toLocaleString('en-US')} files and folders; it is not a skill folder.`);
      }
      const entry: WalkedEntry = { relativePath: prefix + child.name, absolutePath: path.join(folder, child.name), kind: entryKind(child) };
      entries.push(entry);
      if (entry.kind === 'folder') {
        await visit(entry.absolutePath, `${entry.relativePath}/`);
      }
    }
  };
  await visit(root, '');
  return entries;
}

function entryKind(entry: Dirent): WalkedEntry['kind'] {
  return entry.isFile() ? 'file' : entry.isDirectory() ? 'folder' : entry.isSymbolicLink() ? 'symlink' : 'other';
}
