// What replacing an installed skill folder with another version changes, file by file, so an
// update can be shown before it is applied.

import * as fs from 'node:fs/promises';
import { walkFolder } from './folder-walk';

export interface FolderChanges {
  /** Paths relative to the skill folder, `/`-separated, sorted. */
  added: string[];
  removed: string[];
  changed: string[];
}

/** The regular files that `incoming` adds, removes or changes against `installed` (absent: everything is added). */
export async function compareFolders(installed: string | undefined, incoming: string): Promise<FolderChanges> {
  const before = installed === undefined ? new Map<string, string>() : await filesOf(installed);
  const after = await filesOf(incoming);
  const added: string[] = [];
  const changed: string[] = [];
  for (const [file, absolutePath] of after) {
    const old = before.get(file);
    if (old === undefined) {
      added.push(file);
    } else if (!(await fs.readFile(old)).equals(await fs.readFile(absolutePath))) {
      changed.push(file);
    }
  }
  return { added, removed: [...before.keys()].filter((file) => !after.has(file)), changed };
}

/** "changed: SKILL.md; added: scripts/run.sh; removed: old.md", or "no file changes". */
export function describeFolderChanges(changes: FolderChanges): string {
  const parts = (['changed', 'added', 'removed'] as const).filter((kind) => changes[kind].length > 0).map((kind) => `${kind}: ${changes[kind].join(', ')}`);
  return parts.length === 0 ? 'no file changes' : parts.join('; ');
}

async function filesOf(folder: string): Promise<Map<string, string>> {
  const files = (await walkFolder(folder)).filter((entry) => entry.kind === 'file');
  return new Map(files.map((entry) => [entry.relativePath, entry.absolutePath]));
}
