// Walks skill roots: finds skill folders (direct children holding a SKILL.md), follows symlinked
// folders safely, loads metadata (never bodies) and decides shadowing and policy statuses.
// The registry reuses these pieces for incremental updates, so each works on one folder too.

import * as path from 'node:path';
import type { DiscoveryProblem, SkillRecord, SkillRoot } from '../model/types';
import { mapWithConcurrency } from '../util/async';
import { policyFromOptions, resolveNameGroup, type StatusPolicy } from './policy';
import { compareForName, compareForRealDir, duplicateProblem, listedFolderProbe, listRoot, probeFolder, type FolderKey, type FolderProbe, type ProblemProbe, type SkillFolderProbe } from './probe';
import { loadSkillRecord, loadSkillRecordBlocking, type RecordLoadOptions } from './record';

/** Bounds open files while loading thousands of skills (the default fd limit is often 1,024). */
const LOAD_CONCURRENCY = 32;

export interface DiscoverOptions extends RecordLoadOptions {
  allowlist?: readonly string[];
  enabled?: boolean;
  /** Decides statuses instead of `allowlist` and `enabled` (the registry passes its own). */
  policy?: StatusPolicy;
  /** Earlier record of a skill folder (by `dir`): reused when unchanged, kept as stale version when broken. */
  previous?: (dir: string) => SkillRecord | undefined;
}

export interface DiscoveredFolder extends FolderKey {
  probe: SkillFolderProbe | ProblemProbe;
  /** Absent for problem folders and for a second path to an already loaded real folder. */
  record?: SkillRecord;
  /** Dangling link, loop, unreadable folder, or duplicate path to a real folder. */
  problem?: DiscoveryProblem;
}

export interface DiscoveryResult {
  /** Every record, in precedence order, with its status decided. */
  skills: SkillRecord[];
  problems: DiscoveryProblem[];
  folders: DiscoveredFolder[];
  /** Per root, in the order of the roots given. */
  rootProblems: (DiscoveryProblem | undefined)[];
  rootRealPaths: (string | undefined)[];
}

type SkillFolder = DiscoveredFolder & { probe: SkillFolderProbe };

/** Discovers every skill under `roots` (earlier roots take precedence) in one pass. */
export async function discoverSkills(roots: readonly SkillRoot[], options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const listings = await Promise.all(roots.map(listRoot));
  const keys = listings.flatMap((listing, rootIndex) => listing.folderNames.map((folderName) => ({ rootIndex, folderName })));
  const probes: (FolderProbe | undefined)[] = keys.map((key) => {
    const root = roots[key.rootIndex];
    const { realPath, plainFolderNames } = listings[key.rootIndex];
    // An untrusted root is never read, so only a probe can tell its skill folders from others.
    if (realPath !== undefined && !root.untrusted && plainFolderNames?.has(key.folderName)) {
      return listedFolderProbe(root, key.folderName, realPath, options.previous?.(path.join(root.path, key.folderName))?.file);
    }
    return undefined;
  });
  const unlisted: number[] = [];
  probes.forEach((probe, index) => {
    if (!probe) {
      unlisted.push(index);
    }
  });
  await mapWithConcurrency(unlisted, LOAD_CONCURRENCY, async (index) => {
    const { rootIndex, folderName } = keys[index];
    probes[index] = await probeFolder(roots[rootIndex], folderName, listings[rootIndex].realPath);
  });

  const folders: DiscoveredFolder[] = [];
  const pathsByRealDir = new Map<string, SkillFolder[]>();
  // Folders are written out rather than spread from their key: a spread copy takes more memory,
  // which with the rest of 3,000 records was enough to start a full garbage collection.
  keys.forEach((key, index) => {
    const probe = probes[index]!;
    if (probe.kind === 'problem') {
      folders.push({ rootIndex: key.rootIndex, folderName: key.folderName, probe, problem: probe.problem });
    } else if (probe.kind === 'skill') {
      const folder: SkillFolder = { rootIndex: key.rootIndex, folderName: key.folderName, probe };
      const paths = pathsByRealDir.get(probe.realDir);
      if (paths) {
        paths.push(folder);
      } else {
        pathsByRealDir.set(probe.realDir, [folder]);
      }
      folders.push(folder);
    }
  });
  // Map#forEach and the checks for one path or one folder per name: the usual case then makes no
  // entry arrays, iterators or sorts, which cost while this code is still interpreted.
  const primaries: SkillFolder[] = [];
  pathsByRealDir.forEach((paths, realDir) => {
    if (paths.length > 1) {
      paths.sort((a, b) => compareForRealDir(realDir, a, b));
      for (const duplicate of paths.slice(1)) {
        duplicate.problem = duplicateProblem(duplicate.probe.dir, paths[0].probe.dir);
      }
    }
    primaries.push(paths[0]);
  });

  // Blocking reads happen one after the other anyway: without a promise per skill.
  const records =
    options.blockingReads && !options.previous
      ? primaries.map((folder) => loadSkillRecordBlocking(roots[folder.rootIndex], folder.folderName, folder.probe, options))
      : await mapWithConcurrency(primaries, LOAD_CONCURRENCY, (folder) => loadSkillRecord(roots[folder.rootIndex], folder.folderName, folder.probe, options, options.previous?.(folder.probe.dir)));
  const groups = new Map<string, SkillFolder[]>();
  primaries.forEach((folder, index) => {
    const record = records[index];
    if (record) {
      folder.record = record;
      const group = groups.get(record.name);
      if (group) {
        group.push(folder);
      } else {
        groups.set(record.name, [folder]);
      }
    }
  });
  const policy = options.policy ?? policyFromOptions(options);
  groups.forEach((group, name) => {
    if (group.length > 1) {
      group.sort((a, b) => compareForName(name, a, b));
    }
    const resolved = resolveNameGroup(
      group.map((folder) => folder.record!),
      policy,
    );
    group.forEach((folder, index) => {
      folder.record = resolved[index];
    });
  });

  // A folder whose SKILL.md vanished between probing and loading is simply gone.
  const present = folders.filter((folder) => folder.record || folder.problem);
  const skills: SkillRecord[] = [];
  const problems = listings.flatMap((listing) => (listing.problem ? [listing.problem] : []));
  for (const folder of present) {
    if (folder.record) {
      skills.push(folder.record);
    }
    if (folder.problem) {
      problems.push(folder.problem);
    }
  }
  return {
    skills,
    problems,
    folders: present,
    rootProblems: listings.map((listing) => listing.problem),
    rootRealPaths: listings.map((listing) => listing.realPath),
  };
}
