// The single source of truth about skills. It publishes immutable snapshots and one change event
// per update. Updates are incremental: a change re-reads only the affected skill folders, and
// statuses are recomputed only for the names those folders carry, so one edit costs the same
// with ten skills as with thousands.

import * as path from 'node:path';
import { compileAllowlist, type NameFilter } from './allowlist';
import {
  compareFolders,
  compareForName,
  compareForRealDir,
  duplicateProblem,
  folderDepth,
  listGroupingFolder,
  listRoot,
  probeFolder,
  type FolderKey,
  type FolderProbe,
  type ProblemProbe,
  type SkillFolderProbe,
} from './probe';
import { nameClashProblems } from './grouping';
import { SKILL_FILE_NAME, type LoadOptions } from '../skill-file/load';
import { discoverSkills, type DiscoveryResult } from './discover';
import { isUsableStatus } from '../model/status';
import { loadSkillRecord, sameRoot } from './record';
import { mapWithConcurrency } from '../util/async';
import { relativeInside } from '../util/paths';
import { resolveNameGroup, type StatusPolicy } from './policy';
import { Emitter, type Event } from '../model/event';
import { modelVisibleSkills } from '../use/catalog';
import { SkillSearchIndex, type FindOptions, type RankedMatches, type SkillMatch } from '../use/find';
import type { DiscoveryProblem, SkillRecord, SkillRoot } from '../model/types';

export interface RegistryOptions {
  strict?: boolean;
  checkBody?: boolean;
  allowlist?: readonly string[];
  enabled?: boolean;
  /**
   * Keep each valid SKILL.md whole (SkillRecord.lastValidFile), to serve it while a later edit
   * leaves the file broken: for the editor and the MCP server, which serve skills for as long as
   * they run. Costs the bytes of the valid SKILL.md files, off the JavaScript heap.
   */
  keepValidFiles?: boolean;
}

/** A registry's first discovery, started before the registry exists (see discoverFirst). */
export interface FirstDiscovery {
  readonly roots: readonly SkillRoot[];
  readonly reading: LoadOptions;
  readonly result: Promise<DiscoveryResult>;
}

/** How a registry made with `options` reads each SKILL.md. */
function readingOf(options: RegistryOptions): LoadOptions {
  return { strict: options.strict, checkBody: options.checkBody, keepFile: options.keepValidFiles };
}

/**
 * Starts reading what the first setRoots(roots) of a registry made with `options` reads, before
 * that registry exists; setRoots(roots, first) then takes it instead of reading again. Statuses are
 * decided by the registry's own policy when it takes the result.
 */
export function discoverFirst(roots: readonly SkillRoot[], options: RegistryOptions): FirstDiscovery {
  const reading = readingOf(options);
  return { roots, reading, result: discoverSkills(roots, reading) };
}

export interface RegistrySnapshot {
  /** Increases with every published change. */
  readonly version: number;
  /** All discovered skills in precedence order (root order, then folder name). */
  readonly skills: readonly SkillRecord[];
  readonly problems: readonly DiscoveryProblem[];
  readonly activeNames: ReadonlySet<string>;
  /** The record the model may use for this name (status available/active), if any. */
  usable(name: string): SkillRecord | undefined;
  /** Every record carrying this name, whatever its status. */
  byName(name: string): SkillRecord[];
  /** The skills the model may invoke that match `query`, best first (the find tool's ranking). */
  findSkills(query: string, options?: FindOptions): SkillMatch[];
  /** The first `limit` of those, and how many there are: what the find tool shows. */
  rankSkills(query: string, limit: number): RankedMatches;
}

export interface SkillChange {
  /** Any file or folder path inside a root (or a root, or one of its ancestors). */
  path: string;
  kind: 'created' | 'changed' | 'deleted';
}

const PROBE_CONCURRENCY = 32;
const SKILL_FILE_NAME_LOWER = SKILL_FILE_NAME.toLowerCase();

/**
 * One search index per registry, shared by its snapshots. It follows the snapshot last searched:
 * moving to a newer one adds and removes only the records that changed in between, and nothing is
 * indexed until the first search.
 */
class SharedSearchIndex {
  private readonly index = new SkillSearchIndex();
  private syncedTo: Snapshot | undefined;

  /** The index, holding the skills of `snapshot`. */
  at(snapshot: Snapshot): SkillSearchIndex {
    if (this.syncedTo !== snapshot) {
      this.index.sync(modelVisibleSkills(snapshot.skills));
      this.syncedTo = snapshot;
    }
    return this.index;
  }
}

class Snapshot implements RegistrySnapshot {
  private nameIndex: Map<string, SkillRecord[]> | undefined;

  constructor(
    readonly version: number,
    readonly skills: readonly SkillRecord[],
    readonly problems: readonly DiscoveryProblem[],
    readonly activeNames: ReadonlySet<string>,
    private readonly searchIndex: SharedSearchIndex,
  ) {}

  findSkills(query: string, options?: FindOptions): SkillMatch[] {
    return this.searchIndex.at(this).search(query, options);
  }

  rankSkills(query: string, limit: number): RankedMatches {
    return this.searchIndex.at(this).rank(query, limit);
  }

  usable(name: string): SkillRecord | undefined {
    return this.index()
      .get(name)
      ?.find((record) => isUsableStatus(record.status));
  }

  byName(name: string): SkillRecord[] {
    return [...(this.index().get(name) ?? [])];
  }

  // Built on first lookup only: many snapshots are replaced before anyone asks by name.
  private index(): Map<string, SkillRecord[]> {
    if (!this.nameIndex) {
      this.nameIndex = new Map();
      for (const record of this.skills) {
        const group = this.nameIndex.get(record.name);
        if (group) {
          group.push(record);
        } else {
          this.nameIndex.set(record.name, [record]);
        }
      }
    }
    return this.nameIndex;
  }
}

/** A folder of a root that holds a skill or a problem. */
interface Slot extends FolderKey {
  probe: SkillFolderProbe | ProblemProbe;
  /** Absent for problem folders and for duplicate paths to a real folder loaded elsewhere. */
  record?: SkillRecord;
  problem?: DiscoveryProblem;
}

type SkillSlot = Slot & { probe: SkillFolderProbe };

function insertSorted<T>(items: T[], item: T, compare: (a: T, b: T) => number): void {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compare(items[middle], item) <= 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  items.splice(low, 0, item);
}

function removeItem<T>(items: T[], item: T): void {
  const index = items.indexOf(item);
  if (index >= 0) {
    items.splice(index, 1);
  }
}

function addToGroup<K, T>(groups: Map<K, T[]>, key: K, item: T, compare: (a: T, b: T) => number): void {
  const group = groups.get(key);
  if (group) {
    insertSorted(group, item, compare);
  } else {
    groups.set(key, [item]);
  }
}

function removeFromGroup<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const group = groups.get(key);
  if (group) {
    removeItem(group, item);
    if (group.length === 0) {
      groups.delete(key);
    }
  }
}

function sameProblems(a: readonly DiscoveryProblem[], b: readonly DiscoveryProblem[]): boolean {
  return (
    a.length === b.length &&
    a.every((problem, index) => {
      const other = b[index];
      return problem.code === other.code && problem.path === other.path && problem.message === other.message && problem.severity === other.severity;
    })
  );
}

export class SkillRegistry {
  private readonly searchIndex = new SharedSearchIndex();
  private current: Snapshot = new Snapshot(0, [], [], new Set(), this.searchIndex);
  private readonly changeEmitter = new Emitter<RegistrySnapshot>();
  readonly onDidChange: Event<RegistrySnapshot> = this.changeEmitter.event;

  private roots: readonly SkillRoot[] = [];
  private rootProblems: (DiscoveryProblem | undefined)[] = [];
  private rootRealPaths: (string | undefined)[] = [];
  private slotsByRoot: Map<string, Slot>[] = [];
  /** Per root, the grouping folders looked inside (see discoverSkills), by folder name. */
  private groupsByRoot: Set<string>[] = [];
  /** Every slot in precedence order; the order of `snapshot.skills`. */
  private ordered: Slot[] = [];
  /** Slots holding a record, per skill name, in the order that decides shadowing. */
  private readonly byName = new Map<string, Slot[]>();
  /** Skill slots per real folder: the first one loads it, the others are duplicates. */
  private readonly byRealDir = new Map<string, SkillSlot[]>();

  private allowed: NameFilter;
  private reading: LoadOptions;
  private readonly active = new Set<string>();
  private readonly policy: StatusPolicy = {
    enabled: true,
    isAllowed: (name) => this.allowed(name),
    isActive: (name) => this.active.has(name),
  };

  private queue: Promise<void> = Promise.resolve();
  /** Whether the roots were ever scanned (only a first scan may take a FirstDiscovery). */
  private scanned = false;
  /** While an update runs, policy changes only mark names; the update publishes them when done. */
  private busy = false;
  private readonly pendingNames = new Set<string>();
  private pendingAll = false;
  private disposed = false;

  constructor(options: RegistryOptions = {}) {
    this.allowed = compileAllowlist(options.allowlist ?? []);
    this.policy.enabled = options.enabled !== false;
    this.reading = readingOf(options);
  }

  get snapshot(): RegistrySnapshot {
    return this.current;
  }

  /**
   * Replaces the roots (in precedence order) and rescans everything. `first` (see discoverFirst) is
   * taken instead of reading when this is the registry's first scan, of the same roots, with the
   * same options; otherwise the roots are read as usual.
   */
  setRoots(roots: readonly SkillRoot[], first?: FirstDiscovery): Promise<void> {
    return this.enqueue(() => {
      // Keeping the known object of an unchanged root keeps its records (and snapshot) identical.
      const kept = roots.map((root) => this.roots.find((known) => sameRoot(known, root)) ?? root);
      return this.rescan(kept, false, first && this.isFirstScanOf(first, kept) ? first.result : undefined);
    });
  }

  /** Re-reads every skill, even files whose mtime and size did not change. */
  refresh(): Promise<void> {
    return this.enqueue(() => this.rescan(this.roots, true));
  }

  /** Strict mode changes which findings are errors, so every skill is re-read. */
  setStrict(strict: boolean): Promise<void> {
    return this.enqueue(async () => {
      if (this.reading.strict !== strict) {
        this.reading = { ...this.reading, strict };
        await this.rescan(this.roots, true);
      }
    });
  }

  /** Re-reads only the skill folders the changed paths belong to. */
  apply(changes: readonly SkillChange[]): Promise<void> {
    return this.enqueue(() => this.applyChanges(changes));
  }

  setAllowlist(patterns: readonly string[]): void {
    this.allowed = compileAllowlist(patterns);
    this.pendingAll = true;
    this.settle();
  }

  setEnabled(enabled: boolean): void {
    this.policy.enabled = enabled;
    this.pendingAll = true;
    this.settle();
  }

  /** Marks a usable skill active; returns false (and changes nothing) when it is not usable. */
  activate(name: string): boolean {
    if (!this.current.usable(name)) {
      return false;
    }
    if (!this.active.has(name)) {
      this.active.add(name);
      this.pendingNames.add(name);
      this.settle();
    }
    return true;
  }

  deactivate(name: string): void {
    if (this.active.delete(name)) {
      this.pendingNames.add(name);
      this.settle();
    }
  }

  deactivateAll(): void {
    for (const name of this.active) {
      this.pendingNames.add(name);
    }
    this.active.clear();
    this.settle();
  }

  dispose(): void {
    this.disposed = true;
    this.changeEmitter.dispose();
  }

  // Updates run one after another so each starts from a consistent state.
  private enqueue(operation: () => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.disposed) {
        return;
      }
      this.busy = true;
      try {
        await operation();
      } finally {
        this.busy = false;
        this.settle();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private isFirstScanOf(first: FirstDiscovery, roots: readonly SkillRoot[]): boolean {
    return (
      !this.scanned &&
      first.roots.length === roots.length &&
      first.roots.every((root, index) => sameRoot(root, roots[index])) &&
      first.reading.strict === this.reading.strict &&
      first.reading.checkBody === this.reading.checkBody &&
      first.reading.keepFile === this.reading.keepFile
    );
  }

  /** `discovered`: the roots' reading, already started (see setRoots). */
  private async rescan(roots: readonly SkillRoot[], force: boolean, discovered?: Promise<DiscoveryResult>): Promise<void> {
    this.scanned = true;
    const previousByDir = new Map<string, SkillRecord>();
    for (const slot of this.ordered) {
      if (slot.record) {
        previousByDir.set(slot.record.dir, slot.record);
      }
    }
    const result = await (discovered ??
      discoverSkills(roots, {
        ...this.reading,
        force,
        policy: this.policy,
        previous: (dir) => previousByDir.get(dir),
      }));
    if (this.disposed) {
      return;
    }
    this.roots = roots;
    this.rootProblems = result.rootProblems;
    this.rootRealPaths = result.rootRealPaths;
    this.slotsByRoot = roots.map(() => new Map());
    this.groupsByRoot = roots.map(() => new Set());
    for (const group of result.groups) {
      this.groupsByRoot[group.rootIndex].add(group.folderName);
    }
    this.ordered = [];
    for (const name of this.byName.keys()) {
      this.pendingNames.add(name); // Settled too, so a skill the rescan lost stops being active.
    }
    this.byName.clear();
    this.byRealDir.clear();
    for (const folder of result.folders) {
      const slot: Slot = { rootIndex: folder.rootIndex, folderName: folder.folderName, probe: folder.probe, record: folder.record, problem: folder.problem };
      this.slotsByRoot[slot.rootIndex].set(slot.folderName, slot);
      this.ordered.push(slot); // discoverSkills returns folders in precedence order already.
      this.indexRealDir(slot);
      this.indexName(slot); // Marks the name pending.
    }
  }

  private async applyChanges(changes: readonly SkillChange[]): Promise<void> {
    let batch: FolderKey[] = [];
    const seen = new Set<string>();
    const want = (key: FolderKey): void => {
      const id = `${key.rootIndex}/${key.folderName}`;
      if (!seen.has(id)) {
        seen.add(id);
        batch.push(key);
      }
    };
    const rescanRoots = new Set<number>();
    for (const change of changes) {
      this.locateChange(change.path, want, rescanRoots);
    }
    for (const rootIndex of rescanRoots) {
      const listing = await listRoot(this.roots[rootIndex]);
      this.rootProblems[rootIndex] = listing.problem;
      this.rootRealPaths[rootIndex] = listing.realPath;
      for (const folderName of [...listing.folderNames, ...this.slotsByRoot[rootIndex].keys(), ...this.groupsByRoot[rootIndex]]) {
        want({ rootIndex, folderName });
      }
    }

    const previousRecords = new Map<Slot, SkillRecord>();
    const touchedRealDirs = new Set<string>();
    // One level after the other: a grouping folder (new, or still one) brings its folders to look at.
    while (batch.length > 0) {
      const keys = batch.sort((a, b) => folderDepth(a.folderName) - folderDepth(b.folderName));
      batch = [];
      const probes = await mapWithConcurrency(keys, PROBE_CONCURRENCY, (key) => probeFolder(this.roots[key.rootIndex], key.folderName, this.rootRealPaths[key.rootIndex]));
      if (this.disposed) {
        return;
      }
      const grouping: FolderKey[] = [];
      keys.forEach((key, index) => {
        // A folder inside what just stopped being a grouping folder went with it.
        if (this.isLookedAt(key)) {
          this.replaceProbe(key, probes[index], previousRecords, touchedRealDirs);
          if (probes[index].kind === 'group') {
            grouping.push(key);
          }
        }
      });
      const listings = await mapWithConcurrency(grouping, PROBE_CONCURRENCY, (key) => listGroupingFolder(this.roots[key.rootIndex], key.folderName));
      if (this.disposed) {
        return;
      }
      grouping.forEach((key, index) => {
        // Folders known inside it are looked at again too: those gone are dropped.
        for (const folderName of [...listings[index].folderNames, ...this.knownInside(key)]) {
          want({ rootIndex: key.rootIndex, folderName });
        }
      });
    }

    // Loading can reveal a vanished SKILL.md, which removes a slot and may promote a duplicate.
    while (touchedRealDirs.size > 0) {
      const toLoad = this.choosePrimaries(touchedRealDirs);
      touchedRealDirs.clear();
      const records = await mapWithConcurrency(toLoad, PROBE_CONCURRENCY, (slot) => loadSkillRecord(this.roots[slot.rootIndex], slot.folderName, slot.probe, this.reading, previousRecords.get(slot)));
      toLoad.forEach((slot, index) => {
        const record = records[index];
        if (record) {
          slot.record = record;
          this.indexName(slot);
        } else {
          this.removeSlot(slot);
          touchedRealDirs.add(slot.probe.realDir);
        }
      });
    }
  }

  /** Whether a folder is one discovery looks at: directly in its root, or in a grouping folder. */
  private isLookedAt(key: FolderKey): boolean {
    const parent = path.dirname(key.folderName);
    return parent === '.' || this.groupsByRoot[key.rootIndex].has(parent);
  }

  /** The folders directly inside a grouping folder that hold a skill, a problem or are grouping folders themselves. */
  private knownInside(group: FolderKey): string[] {
    const prefix = `${group.folderName}${path.sep}`;
    const inside = (folderName: string): boolean => folderName.startsWith(prefix) && !folderName.includes(path.sep, prefix.length);
    return [...this.slotsByRoot[group.rootIndex].keys(), ...this.groupsByRoot[group.rootIndex]].filter(inside);
  }

  /**
   * Maps a changed path to the folders to re-probe, or to whole roots to re-list. Inside a grouping
   * folder, that is the folder below it the path lies in (a skill folder, or a new folder).
   */
  private locateChange(changedPath: string, want: (key: FolderKey) => void, rescanRoots: Set<number>): void {
    this.roots.forEach((root, rootIndex) => {
      const relative = relativeInside(root.path, changedPath);
      if (relative === undefined) {
        if (relativeInside(changedPath, root.path) !== undefined) {
          rescanRoots.add(rootIndex); // An ancestor of the root appeared or vanished.
        }
      } else if (relative === '') {
        rescanRoots.add(rootIndex);
      } else {
        const groups = this.groupsByRoot[rootIndex];
        let start = 0;
        let end = relative.indexOf(path.sep);
        while (end >= 0 && groups.has(relative.slice(0, end))) {
          start = end + 1;
          end = relative.indexOf(path.sep, start);
        }
        // A SKILL.md appearing in (or leaving) a grouping folder makes it a skill folder (or a grouping folder again).
        const isSkillFileOfGroup = end < 0 && start > 0 && relative.slice(start).toLowerCase() === SKILL_FILE_NAME_LOWER;
        want({ rootIndex, folderName: isSkillFileOfGroup ? relative.slice(0, start - 1) : end < 0 ? relative : relative.slice(0, end) });
      }
    });
    // A linked skill folder may report changes under its real location.
    for (let dir = changedPath; ; dir = path.dirname(dir)) {
      for (const slot of this.byRealDir.get(dir) ?? []) {
        want(slot);
      }
      if (path.dirname(dir) === dir) {
        break;
      }
    }
  }

  private replaceProbe(key: FolderKey, probe: FolderProbe, previousRecords: Map<Slot, SkillRecord>, touchedRealDirs: Set<string>): void {
    const groups = this.groupsByRoot[key.rootIndex];
    if (probe.kind === 'group') {
      groups.add(key.folderName);
    } else if (groups.delete(key.folderName)) {
      this.removeInside(key, touchedRealDirs);
    }
    const slots = this.slotsByRoot[key.rootIndex];
    const existing = slots.get(key.folderName);
    if (existing) {
      if (existing.record) {
        previousRecords.set(existing, existing.record);
      }
      this.unindexName(existing);
      this.unindexRealDir(existing, touchedRealDirs);
      existing.record = undefined;
    }
    if (probe.kind === 'none' || probe.kind === 'group') {
      if (existing) {
        slots.delete(key.folderName);
        removeItem(this.ordered, existing);
      }
      return;
    }
    const slot: Slot = existing ?? { rootIndex: key.rootIndex, folderName: key.folderName, probe };
    slot.probe = probe;
    slot.problem = probe.kind === 'problem' ? probe.problem : undefined;
    if (!existing) {
      slots.set(key.folderName, slot);
      insertSorted(this.ordered, slot, compareFolders);
    }
    if (this.indexRealDir(slot)) {
      touchedRealDirs.add(slot.probe.realDir);
    }
  }

  /** Forgets every folder inside a folder that is no longer a grouping folder. */
  private removeInside(group: FolderKey, touchedRealDirs: Set<string>): void {
    const prefix = `${group.folderName}${path.sep}`;
    const groups = this.groupsByRoot[group.rootIndex];
    for (const folderName of [...groups]) {
      if (folderName.startsWith(prefix)) {
        groups.delete(folderName);
      }
    }
    for (const [folderName, slot] of [...this.slotsByRoot[group.rootIndex]]) {
      if (folderName.startsWith(prefix)) {
        this.removeSlot(slot);
        if (slot.probe.kind === 'skill') {
          touchedRealDirs.add(slot.probe.realDir);
        }
      }
    }
  }

  /** Decides which slot of each touched real folder loads it; returns those needing a (re)load. */
  private choosePrimaries(realDirs: ReadonlySet<string>): SkillSlot[] {
    const toLoad: SkillSlot[] = [];
    for (const realDir of realDirs) {
      const [primary, ...duplicates] = this.byRealDir.get(realDir) ?? [];
      if (!primary) {
        continue;
      }
      primary.problem = undefined;
      if (!primary.record) {
        toLoad.push(primary);
      }
      for (const duplicate of duplicates) {
        if (duplicate.record) {
          this.unindexName(duplicate);
          duplicate.record = undefined;
        }
        duplicate.problem = duplicateProblem(duplicate.probe.dir, primary.probe.dir);
      }
    }
    return toLoad;
  }

  private removeSlot(slot: Slot): void {
    this.unindexName(slot);
    this.unindexRealDir(slot, new Set());
    this.slotsByRoot[slot.rootIndex].delete(slot.folderName);
    removeItem(this.ordered, slot);
  }

  private indexName(slot: Slot): void {
    const name = slot.record?.name;
    if (name !== undefined) {
      this.pendingNames.add(name);
      addToGroup(this.byName, name, slot, (a, b) => compareForName(name, a, b));
    }
  }

  private unindexName(slot: Slot): void {
    const name = slot.record?.name;
    if (name !== undefined) {
      this.pendingNames.add(name);
      removeFromGroup(this.byName, name, slot);
    }
  }

  private indexRealDir(slot: Slot): slot is SkillSlot {
    if (slot.probe.kind !== 'skill') {
      return false;
    }
    const realDir = slot.probe.realDir;
    addToGroup(this.byRealDir, realDir, slot as SkillSlot, (a, b) => compareForRealDir(realDir, a, b));
    return true;
  }

  private unindexRealDir(slot: Slot, touchedRealDirs: Set<string>): void {
    if (slot.probe.kind === 'skill') {
      touchedRealDirs.add(slot.probe.realDir);
      removeFromGroup(this.byRealDir, slot.probe.realDir, slot as SkillSlot);
    }
  }

  /** Recomputes statuses of pending names and publishes a snapshot if anything visible changed. */
  private settle(): void {
    if (this.busy || this.disposed) {
      return;
    }
    // Pending names include those gone from byName, which must stop being active.
    const names = this.pendingAll ? new Set([...this.pendingNames, ...this.byName.keys()]) : [...this.pendingNames];
    this.pendingAll = false;
    this.pendingNames.clear();
    for (const name of names) {
      const group = this.byName.get(name);
      if (group) {
        const resolved = resolveNameGroup(
          group.map((slot) => slot.record!),
          this.policy,
        );
        group.forEach((slot, index) => {
          slot.record = resolved[index];
        });
      }
      if (!group?.some((slot) => isUsableStatus(slot.record!.status))) {
        this.active.delete(name); // A skill that went away is no longer active when it returns.
      }
    }
    this.publishIfChanged();
  }

  private publishIfChanged(): void {
    const skills: SkillRecord[] = [];
    const problems: DiscoveryProblem[] = this.rootProblems.filter((problem): problem is DiscoveryProblem => problem !== undefined);
    const activeNames = new Set<string>();
    for (const slot of this.ordered) {
      if (slot.record) {
        skills.push(slot.record);
        if (slot.record.status === 'active') {
          activeNames.add(slot.record.name);
        }
      }
      if (slot.problem) {
        problems.push(slot.problem);
      }
    }
    problems.push(...nameClashProblems(skills));
    const previous = this.current;
    const unchanged = skills.length === previous.skills.length && skills.every((record, index) => record === previous.skills[index]) && sameProblems(problems, previous.problems);
    if (unchanged) {
      return;
    }
    this.current = new Snapshot(previous.version + 1, skills, problems, activeNames, this.searchIndex);
    this.changeEmitter.fire(this.current);
  }
}
