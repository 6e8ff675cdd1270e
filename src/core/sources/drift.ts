// Whether an installed skill folder is still as its lock entry says it was installed (drift): its
// hash against the entry's computedHash, or against the edits the project chose to keep.

import { computeFolderHashes, type FolderHashes } from './folder-hash';
import type { LockEntry } from './lock';

/**
 * `unchanged`: the folder is as installed (computedHash), trigger tests of the user's own aside;
 * `edited`: it is not (drift); `kept`: edited, and the project keeps these edits (keptEditsHash).
 */
export type InstalledState = 'unchanged' | 'edited' | 'kept' | 'missing';

/** How an installed folder stands against its lock entry. */
export interface Drift {
  state: Exclude<InstalledState, 'missing'>;
  /** The folder holds trigger tests (`evals/`) that the version installed or kept did not have: the user's own. */
  ownEvals: boolean;
}

/**
 * The folder's drift from its entry. Trigger tests a user adds to a skill whose version has none
 * (`evals/`, which Draft Trigger Tests writes) are not an edit: the version is judged without them.
 * Trigger tests the version came with are part of it, like any of its files.
 */
export function driftOf(entry: LockEntry, hashes: FolderHashes): Drift {
  const own = hashes.all !== hashes.withoutEvals;
  for (const [state, hash] of [
    ['unchanged', entry.computedHash],
    ['kept', entry.keptEditsHash],
  ] as const) {
    if (hashes.all === hash) {
      return { state, ownEvals: false };
    }
    if (own && hashes.withoutEvals === hash) {
      return { state, ownEvals: true };
    }
  }
  return { state: 'edited', ownEvals: false };
}

export async function folderDrift(entry: LockEntry, folder: string): Promise<Drift> {
  return driftOf(entry, await computeFolderHashes(folder));
}

export async function installedState(entry: LockEntry, folder: string | undefined): Promise<InstalledState> {
  return folder === undefined ? 'missing' : (await folderDrift(entry, folder)).state;
}

/**
 * What deleting the folder would lose that its source cannot give back, to follow the skill's name
 * (`alpha was edited since it was installed`), or undefined when nothing.
 */
export function describeLocalWork(drift: Drift): string | undefined {
  switch (drift.state) {
    case 'edited':
      return 'was edited since it was installed';
    case 'kept':
      return 'holds edits made since it was installed, which the project keeps';
    case 'unchanged':
      return drift.ownEvals ? 'holds trigger tests of your own (evals/)' : undefined;
  }
}
