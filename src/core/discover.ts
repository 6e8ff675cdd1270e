// Walks skill roots: finds skill folders (direct children holding a SKILL.md), follows symlinked
// folders safely, loads metadata (never bodies) and decides shadowing and policy statuses.
// The registry reuses these pieces for incremental updates, so each works on one folder too.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { compileAllowlist } from './allowlist';
import { findSkillFile, loadSkillFile, SKILL_FILE_NAME, type LoadOptions } from './load';
import type { DiscoveryProblem, SkillDiagnostic, SkillRecord, SkillRoot, SkillStatus } from './types';

/** Folders never treated as skills (nor listed as resources). */
export const IGNORED_FOLDER_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Shared by every record without diagnostics, to keep thousands of records lean. */
const NO_DIAGNOSTICS: SkillDiagnostic[] = Object.freeze([]) as unknown as SkillDiagnostic[];

/** Bounds open files while loading thousands of skills (the default fd limit is often 1,024). */
const LOAD_CONCURRENCY = 32;

/** A direct child folder of a root, identified by the root's position in the precedence list. */
export interface FolderKey {
  rootIndex: number;
  folderName: string;
}

export interface SkillFolderProbe {
  kind: 'skill';
  dir: string;
  realDir: string;
  file: string;
}

export interface ProblemProbe {
  kind: 'problem';
  problem: DiscoveryProblem;
}

/** What a direct child of a root turned out to be; `none` covers files, ignored and plain folders. */
export type FolderProbe = SkillFolderProbe | ProblemProbe | { kind: 'none' };

export interface RootListing {
  folderNames: string[];
  /** Real path of the root, used to recognise links that point back at it. */
  realPath?: string;
  /** Children the listing shows to be real folders, not links: their real path follows from the root's. */
  plainFolderNames?: ReadonlySet<string>;
  problem?: DiscoveryProblem;
}

export interface StatusPolicy {
  enabled: boolean;
  isAllowed(name: string): boolean;
  isActive(name: string): boolean;
}

export interface DiscoverOptions extends LoadOptions {
  allowlist?: readonly string[];
  enabled?: boolean;
  /** Decides statuses instead of `allowlist` and `enabled` (the registry passes its own). */
  policy?: StatusPolicy;
  /** Re-read every SKILL.md even when its mtime and size are unchanged. */
  force?: boolean;
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

export function isUsableStatus(status: SkillStatus): boolean {
  return status === 'available' || status === 'active';
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `child` relative to `parent` when inside it ('' for the folder itself), otherwise undefined. */
export function relativeInside(parent: string, child: string): string | undefined {
  const relative = path.relative(parent, child);
  if (path.isAbsolute(relative) || relative === '..' || relative.startsWith(`..${path.sep}`)) {
    return undefined; // Outside, or on another drive.
  }
  return relative;
}

export function compareFolders(a: FolderKey, b: FolderKey): number {
  if (a.rootIndex !== b.rootIndex) {
    return a.rootIndex - b.rootIndex;
  }
  return a.folderName < b.folderName ? -1 : a.folderName > b.folderName ? 1 : 0;
}

/** Order among folders declaring the same skill name: root order, then the folder named like the skill. */
export function compareForName(name: string, a: FolderKey, b: FolderKey): number {
  if (a.rootIndex === b.rootIndex && (a.folderName === name) !== (b.folderName === name)) {
    return a.folderName === name ? -1 : 1;
  }
  return compareFolders(a, b);
}

export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function problem(code: string, severity: DiscoveryProblem['severity'], message: string, problemPath: string): ProblemProbe {
  return { kind: 'problem', problem: { code, severity, message, path: problemPath } };
}

export async function listRoot(root: SkillRoot): Promise<RootListing> {
  let realPath: string;
  try {
    realPath = await fs.realpath(root.path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { folderNames: [] }; // A root that does not exist (yet) simply holds no skills.
    }
    const reason = code === 'ELOOP' ? 'it is a symbolic link loop' : errorMessage(error);
    return { folderNames: [], problem: problem('root-unreadable', 'warning', `Cannot read skill folder ${root.path}: ${reason}.`, root.path).problem };
  }
  try {
    const entries = await fs.readdir(realPath, { withFileTypes: true });
    const folders = entries.filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !IGNORED_FOLDER_NAMES.has(entry.name));
    const folderNames = folders.map((entry) => entry.name).sort();
    const plainFolderNames = new Set(folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name));
    return { folderNames, realPath, plainFolderNames };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return { folderNames: [] };
    }
    const reason = errorCode(error) === 'ENOTDIR' ? 'it is a file, not a folder' : errorMessage(error);
    return { folderNames: [], realPath, problem: problem('root-unreadable', 'warning', `Cannot read skill folder ${root.path}: ${reason}.`, root.path).problem };
  }
}

async function describeBrokenLink(dir: string, error: unknown): Promise<FolderProbe> {
  const code = errorCode(error);
  if (code === 'ELOOP') {
    return problem('symlink-loop', 'warning', `The link ${dir} loops back on itself; it was skipped.`, dir);
  }
  if (code === 'ENOENT') {
    const target = await fs.readlink(dir).catch(() => undefined);
    if (target === undefined) {
      return { kind: 'none' }; // Not a link: the folder was deleted while being read.
    }
    return problem('dangling-symlink', 'warning', `The link ${dir} points to ${target}, which does not exist; it was skipped.`, dir);
  }
  return problem('unreadable-folder', 'warning', `Cannot read ${dir}: ${errorMessage(error)}.`, dir);
}

/** Looks at one child of a root without reading any file content. */
export async function probeFolder(root: SkillRoot, folderName: string, rootRealPath?: string): Promise<FolderProbe> {
  if (IGNORED_FOLDER_NAMES.has(folderName)) {
    return { kind: 'none' };
  }
  const dir = path.join(root.path, folderName);
  let realDir: string;
  try {
    realDir = await fs.realpath(dir);
    if (!(await fs.stat(realDir)).isDirectory()) {
      return { kind: 'none' };
    }
  } catch (error) {
    const lstat = await fs.lstat(dir).catch(() => undefined);
    if (!lstat) {
      return { kind: 'none' }; // Deleted: not a problem, just gone.
    }
    return describeBrokenLink(dir, error);
  }
  const rootReal = rootRealPath ?? (await fs.realpath(root.path).catch(() => root.path));
  if (relativeInside(realDir, rootReal) !== undefined) {
    // A link to the root itself or one of its ancestors would make the root contain itself.
    return problem('symlink-loop', 'warning', `The link ${dir} points to ${realDir}, which contains the skill folder itself; it was skipped.`, dir);
  }
  let file: string | undefined;
  try {
    file = await findSkillFile(dir);
  } catch (error) {
    return problem('unreadable-folder', 'warning', `Cannot read ${dir}: ${errorMessage(error)}.`, dir);
  }
  if (!file) {
    return { kind: 'none' };
  }
  return { kind: 'skill', dir, realDir: realDir === dir ? dir : realDir, file };
}

/**
 * The probe of a child the root listing shows to be a real folder, taken without touching the
 * disk: loading its SKILL.md is what finds out whether it is a skill (a folder without one loads
 * as nothing). This keeps discovery at one open and read per skill, about what reading the files
 * costs. `knownFile` is the SKILL.md found last time, so an unchanged skill.md is recognised.
 */
function listedFolderProbe(root: SkillRoot, folderName: string, rootRealPath: string, knownFile?: string): SkillFolderProbe {
  const dir = path.join(root.path, folderName);
  const realDir = path.join(rootRealPath, folderName);
  return { kind: 'skill', dir, realDir: realDir === dir ? dir : realDir, file: knownFile ?? path.join(dir, SKILL_FILE_NAME) };
}

/** Roots that describe the same folder the same way; records of one can serve the other. */
export function sameRoot(a: SkillRoot, b: SkillRoot): boolean {
  return a === b || (a.path === b.path && a.kind === b.kind && a.label === b.label && !!a.untrusted === !!b.untrusted);
}

interface RecordFields {
  name: string;
  probe: SkillFolderProbe;
  root: SkillRoot;
  metadata?: SkillRecord['metadata'];
  diagnostics: SkillDiagnostic[];
  status: SkillStatus;
  stale?: boolean;
  mtimeMs: number;
  size: number;
}

function makeRecord(fields: RecordFields): SkillRecord {
  const { probe } = fields;
  const record: SkillRecord = {
    name: fields.name,
    dir: probe.dir,
    file: probe.file,
    realDir: probe.realDir,
    root: fields.root,
    diagnostics: fields.diagnostics.length === 0 ? NO_DIAGNOSTICS : fields.diagnostics,
    status: fields.status,
    mtimeMs: fields.mtimeMs,
    size: fields.size,
  };
  if (fields.metadata) {
    record.metadata = fields.metadata;
  }
  if (fields.stale) {
    record.stale = true;
  }
  return record;
}

/**
 * Loads the metadata of one skill folder. Untrusted roots yield a name-only record without
 * opening the file. An unchanged file (same mtime and size) returns `previous` itself, which
 * keeps re-reads off the incremental path and lets callers detect "nothing changed" by identity.
 * Returns undefined when the SKILL.md disappeared meanwhile.
 */
export async function loadSkillRecord(
  root: SkillRoot,
  folderName: string,
  probe: SkillFolderProbe,
  options: DiscoverOptions = {},
  previous?: SkillRecord,
): Promise<SkillRecord | undefined> {
  const comparable = previous && previous.file === probe.file && previous.realDir === probe.realDir && sameRoot(previous.root, root) ? previous : undefined;
  if (comparable && (root.untrusted || !options.force)) {
    // Untrusted records hold no content, so they never go stale.
    const stat = root.untrusted ? undefined : await fs.stat(probe.file).catch(() => undefined);
    if (root.untrusted || (stat && stat.mtimeMs === comparable.mtimeMs && stat.size === comparable.size)) {
      return comparable.root === root ? comparable : { ...comparable, root };
    }
  }
  if (root.untrusted) {
    return makeRecord({ name: folderName, probe, root, diagnostics: NO_DIAGNOSTICS, status: 'untrusted', mtimeMs: 0, size: 0 });
  }
  const loaded = await loadSkillFile(probe.dir, { strict: options.strict, checkBody: options.checkBody, blockingReads: options.blockingReads });
  if (!loaded) {
    return undefined;
  }
  const located = loaded.file === probe.file ? probe : { ...probe, file: loaded.file };
  const common = { probe: located, root, diagnostics: loaded.diagnostics, mtimeMs: loaded.mtimeMs, size: loaded.size, status: 'available' as const };
  if (loaded.metadata) {
    return makeRecord({ ...common, name: loaded.metadata.name, metadata: loaded.metadata });
  }
  if (comparable?.metadata) {
    // The edit broke the file: keep serving the last valid version until it is fixed.
    return makeRecord({ ...common, name: comparable.name, metadata: comparable.metadata, stale: true });
  }
  return makeRecord({ ...common, name: folderName, status: 'invalid' });
}

/** The record itself when status and winner are unchanged, otherwise a copy carrying them. */
function withStatus(record: SkillRecord, status: SkillStatus, shadowedBy: string | undefined): SkillRecord {
  if (record.status === status && record.shadowedBy === shadowedBy) {
    return record;
  }
  const copy: SkillRecord = { ...record, status, shadowedBy };
  if (shadowedBy === undefined) {
    delete copy.shadowedBy; // Keep records free of keys that say nothing.
  }
  return copy;
}

/**
 * Decides the statuses of all records that share one name, given in precedence order. Only a
 * record with (possibly stale) metadata from a trusted root can win: an invalid or untrusted
 * skill must not hide a working one further down the list.
 */
export function resolveNameGroup(group: readonly SkillRecord[], policy: StatusPolicy): SkillRecord[] {
  const winner = group.find((record) => record.metadata && !record.root.untrusted);
  return group.map((record) => {
    if (!policy.enabled) {
      return withStatus(record, 'disabled', undefined);
    }
    if (record.root.untrusted) {
      return withStatus(record, 'untrusted', undefined);
    }
    if (!record.metadata) {
      return withStatus(record, 'invalid', undefined);
    }
    if (record !== winner && winner) {
      return withStatus(record, 'shadowed', winner.file);
    }
    if (!policy.isAllowed(record.name)) {
      return withStatus(record, 'not-allowed', undefined);
    }
    return withStatus(record, policy.isActive(record.name) ? 'active' : 'available', undefined);
  });
}

export function duplicateProblem(dir: string, primaryDir: string): DiscoveryProblem {
  return {
    code: 'duplicate-skill-folder',
    severity: 'info',
    message: `${dir} is the same folder as ${primaryDir}; the skill is loaded once, from ${primaryDir}.`,
    path: dir,
  };
}

export function policyFromOptions(options: { allowlist?: readonly string[]; enabled?: boolean }, active: ReadonlySet<string> = new Set()): StatusPolicy {
  return { enabled: options.enabled !== false, isAllowed: compileAllowlist(options.allowlist ?? []), isActive: (name) => active.has(name) };
}

type SkillFolder = DiscoveredFolder & { probe: SkillFolderProbe };

/** Discovers every skill under `roots` (earlier roots take precedence) in one pass. */
export async function discoverSkills(roots: readonly SkillRoot[], options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const listings = await Promise.all(roots.map(listRoot));
  const keys = listings.flatMap((listing, rootIndex) => listing.folderNames.map((folderName) => ({ rootIndex, folderName })));
  const probes = await mapWithConcurrency(keys, LOAD_CONCURRENCY, async (key) => {
    const root = roots[key.rootIndex];
    const { realPath, plainFolderNames } = listings[key.rootIndex];
    // An untrusted root is never read, so only a probe can tell its skill folders from others.
    if (realPath !== undefined && !root.untrusted && plainFolderNames?.has(key.folderName)) {
      return listedFolderProbe(root, key.folderName, realPath, options.previous?.(path.join(root.path, key.folderName))?.file);
    }
    return probeFolder(root, key.folderName, realPath);
  });

  const folders: DiscoveredFolder[] = [];
  const primaryByRealDir = new Map<string, SkillFolder>();
  keys.forEach((key, index) => {
    const probe = probes[index];
    if (probe.kind === 'problem') {
      folders.push({ ...key, probe, problem: probe.problem });
    } else if (probe.kind === 'skill') {
      const folder: SkillFolder = { ...key, probe };
      const primary = primaryByRealDir.get(probe.realDir);
      if (primary) {
        folder.problem = duplicateProblem(probe.dir, primary.probe.dir);
      } else {
        primaryByRealDir.set(probe.realDir, folder);
      }
      folders.push(folder);
    }
  });

  const primaries = [...primaryByRealDir.values()];
  const records = await mapWithConcurrency(primaries, LOAD_CONCURRENCY, (folder) =>
    loadSkillRecord(roots[folder.rootIndex], folder.folderName, folder.probe, options, options.previous?.(folder.probe.dir)),
  );
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
  for (const [name, group] of groups) {
    group.sort((a, b) => compareForName(name, a, b));
    const resolved = resolveNameGroup(group.map((folder) => folder.record!), policy);
    group.forEach((folder, index) => {
      folder.record = resolved[index];
    });
  }

  // A folder whose SKILL.md vanished between probing and loading is simply gone.
  const present = folders.filter((folder) => folder.record || folder.problem);
  return {
    skills: present.flatMap((folder) => (folder.record ? [folder.record] : [])),
    problems: [...listings.flatMap((listing) => (listing.problem ? [listing.problem] : [])), ...present.flatMap((folder) => (folder.problem ? [folder.problem] : []))],
    folders: present,
    rootProblems: listings.map((listing) => listing.problem),
    rootRealPaths: listings.map((listing) => listing.realPath),
  };
}
