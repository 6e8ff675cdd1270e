// Walks skill roots: finds skill folders (folders holding a SKILL.md, directly in a root or inside
// grouping folders), follows symlinked skill folders safely, loads metadata (never bodies) and
// decides shadowing and policy statuses. The registry reuses these pieces for incremental updates,
// so each works on one folder too.

import * as path from 'node:path';
import type { DiscoveryProblem, SkillRecord, SkillRoot } from '../model/types';
import { mapWithConcurrency } from '../util/async';
import { nameClashProblems } from './grouping';
import { policyFromOptions, resolveNameGroup, type StatusPolicy } from './policy';
import {
  compareFolders,
  compareForName,
  compareForRealDir,
  duplicateProblem,
  listedFolderProbe,
  listGroupingFolder,
  listRoot,
  mayBeGroupingFolder,
  probeFolder,
  type FolderKey,
  type FolderProbe,
  type ProblemProbe,
  type RootListing,
  type SkillFolderProbe,
} from './probe';
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
  /** The grouping folders looked inside (real folders without a SKILL.md), whether they hold skills or not. */
  groups: FolderKey[];
  /** Per root, in the order of the roots given. */
  rootProblems: (DiscoveryProblem | undefined)[];
  rootRealPaths: (string | undefined)[];
}

type SkillFolder = DiscoveredFolder & { probe: SkillFolderProbe };

/** A folder to look at, and whether its parent's listing shows it to be a real folder rather than a link. */
interface Candidate extends FolderKey {
  plain: boolean;
}

/**
 * Discovers every skill under `roots` (earlier roots take precedence). The folders of the roots are
 * looked at first; those without a SKILL.md are grouping folders, whose folders are looked at next,
 * one level after the other (at most MAX_GROUPING_DEPTH grouping folders deep).
 */
export async function discoverSkills(roots: readonly SkillRoot[], options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const listings = await Promise.all(roots.map(listRoot));
  const loadRecords = async (folders: readonly SkillFolder[]): Promise<(SkillRecord | undefined)[]> =>
    // Blocking reads happen one after the other anyway: without a promise per skill.
    options.blockingReads && !options.previous
      ? folders.map((folder) => loadSkillRecordBlocking(roots[folder.rootIndex], folder.folderName, folder.probe, options))
      : mapWithConcurrency(folders, LOAD_CONCURRENCY, (folder) => loadSkillRecord(roots[folder.rootIndex], folder.folderName, folder.probe, options, options.previous?.(folder.probe.dir)));

  const folders: DiscoveredFolder[] = [];
  const groups: FolderKey[] = [];
  const pathsByRealDir = new Map<string, SkillFolder[]>();
  /** The path each real folder was loaded from. */
  const loadedFrom = new Map<string, SkillFolder>();
  let level: Candidate[] = listings.flatMap((listing, rootIndex) => listing.folderNames.map((folderName) => ({ rootIndex, folderName, plain: listing.plainFolderNames?.has(folderName) === true })));
  let nested = false;
  while (level.length > 0) {
    const probes = await probeLevel(roots, listings, level, options);
    const metRealDirs: string[] = [];
    // Folders are written out rather than spread from their key: a spread copy takes more memory,
    // which with the rest of 3,000 records was enough to start a full garbage collection.
    level.forEach((key, index) => {
      const probe = probes[index];
      if (probe.kind === 'problem') {
        folders.push({ rootIndex: key.rootIndex, folderName: key.folderName, probe, problem: probe.problem });
      } else if (probe.kind === 'skill') {
        const folder: SkillFolder = { rootIndex: key.rootIndex, folderName: key.folderName, probe };
        const paths = pathsByRealDir.get(probe.realDir);
        if (paths) {
          paths.push(folder);
        } else {
          pathsByRealDir.set(probe.realDir, [folder]);
          metRealDirs.push(probe.realDir);
        }
        folders.push(folder);
      }
    });
    // The checks for one path per real folder: the usual case then makes no sorts, which cost
    // while this code is still interpreted.
    const toLoad = metRealDirs.map((realDir) => {
      const paths = pathsByRealDir.get(realDir)!;
      if (paths.length > 1) {
        paths.sort((a, b) => compareForRealDir(realDir, a, b));
      }
      loadedFrom.set(realDir, paths[0]);
      return paths[0];
    });
    const records = await loadRecords(toLoad);
    toLoad.forEach((folder, index) => {
      folder.record = records[index];
    });
    // A real folder that loaded no SKILL.md may be a grouping folder; its name is looked at last,
    // as most folders are skills.
    const grouping = level.filter((key, index) => {
      const probe = probes[index];
      return key.plain && (probe.kind === 'group' || (probe.kind === 'skill' && !loadedFrom.get(probe.realDir)?.record)) && mayBeGroupingFolder(key.folderName);
    });
    const inside = await mapWithConcurrency(grouping, LOAD_CONCURRENCY, (key) => listGroupingFolder(roots[key.rootIndex], key.folderName));
    level = [];
    grouping.forEach((key, index) => {
      groups.push({ rootIndex: key.rootIndex, folderName: key.folderName });
      const { folderNames, plainFolderNames } = inside[index];
      for (const folderName of folderNames) {
        level.push({ rootIndex: key.rootIndex, folderName, plain: plainFolderNames.has(folderName) });
      }
    });
    nested ||= level.length > 0;
  }

  // The path that loads each real folder, now that every level is known: a later level may hold a
  // better path to a folder an earlier one loaded (a link elsewhere named like it), loaded again.
  const primaries: SkillFolder[] = [];
  const reload: SkillFolder[] = [];
  pathsByRealDir.forEach((paths, realDir) => {
    if (paths.length > 1) {
      paths.sort((a, b) => compareForRealDir(realDir, a, b));
      const loaded = loadedFrom.get(realDir)!;
      if (loaded !== paths[0] && loaded.record) {
        loaded.record = undefined;
        reload.push(paths[0]);
      }
      for (const duplicate of paths.slice(1)) {
        duplicate.problem = duplicateProblem(duplicate.probe.dir, paths[0].probe.dir);
      }
    }
    primaries.push(paths[0]);
  });
  const reloaded = await loadRecords(reload);
  reload.forEach((folder, index) => {
    folder.record = reloaded[index];
  });

  const nameGroups = new Map<string, SkillFolder[]>();
  for (const folder of primaries) {
    const record = folder.record;
    if (record) {
      const group = nameGroups.get(record.name);
      if (group) {
        group.push(folder);
      } else {
        nameGroups.set(record.name, [folder]);
      }
    }
  }
  const policy = options.policy ?? policyFromOptions(options);
  nameGroups.forEach((group, name) => {
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

  // A folder whose SKILL.md vanished between probing and loading is simply gone; so is a grouping folder.
  const present = folders.filter((folder) => folder.record || folder.problem);
  if (nested) {
    present.sort(compareFolders); // Each level came after the one above it.
  }
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
  problems.push(...nameClashProblems(skills));
  return {
    skills,
    problems,
    folders: present,
    groups,
    rootProblems: listings.map((listing) => listing.problem),
    rootRealPaths: listings.map((listing) => listing.realPath),
  };
}

/**
 * Probes one level of folders: a real folder of a trusted root from its listing alone (loading its
 * SKILL.md tells whether it is one), links and untrusted roots' folders on disk.
 */
async function probeLevel(roots: readonly SkillRoot[], listings: readonly RootListing[], level: readonly Candidate[], options: DiscoverOptions): Promise<FolderProbe[]> {
  const probes: (FolderProbe | undefined)[] = level.map((key) => {
    const root = roots[key.rootIndex];
    const { realPath } = listings[key.rootIndex];
    // An untrusted root is never read, so only a probe can tell its skill folders from others.
    if (realPath !== undefined && !root.untrusted && key.plain) {
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
    const { rootIndex, folderName } = level[index];
    probes[index] = await probeFolder(roots[rootIndex], folderName, listings[rootIndex].realPath);
  });
  return probes as FolderProbe[];
}
