// Turns a skill folder into a record: its metadata, diagnostics and file stamp (and, when asked, the
// whole valid file), reusing the previous record when the file is unchanged and keeping the last
// valid version when an edit broke it.

import * as fs from 'node:fs/promises';
import { loadSkillFile, loadSkillFileBlocking, type LoadedSkillFile, type LoadOptions } from '../skill-file/load';
import type { SkillDiagnostic, SkillRecord, SkillRoot, SkillStatus } from '../model/types';
import { lastFolderName, type SkillFolderProbe } from './probe';
import { cachedEntryFile, loadCachedSkill, type LoadedCachedSkill } from '../servers/served-record';

/** Shared by every record without diagnostics, to keep thousands of records lean. */
const NO_DIAGNOSTICS: SkillDiagnostic[] = Object.freeze([]) as unknown as SkillDiagnostic[];

export interface RecordLoadOptions extends LoadOptions {
  /** Re-read every SKILL.md even when its mtime and size are unchanged. */
  force?: boolean;
}

/** Roots that describe the same folder the same way; records of one can serve the other. */
export function sameRoot(a: SkillRoot, b: SkillRoot): boolean {
  return a.path === b.path && a.kind === b.kind && a.label === b.label && !!a.untrusted === !!b.untrusted && a.notice?.message === b.notice?.message;
}

interface RecordFields {
  name: string;
  probe: SkillFolderProbe;
  root: SkillRoot;
  metadata?: SkillRecord['metadata'];
  diagnostics: SkillDiagnostic[];
  status: SkillStatus;
  stale?: boolean;
  lastValidFile?: Buffer;
  uri?: string;
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
  if (fields.lastValidFile) {
    record.lastValidFile = fields.lastValidFile;
  }
  if (fields.uri !== undefined) {
    record.uri = fields.uri;
  }
  return record;
}

/**
 * Loads the metadata of one skill folder. Untrusted roots yield a name-only record without
 * opening the file. An unchanged file (same mtime and size) returns `previous` itself, which
 * keeps re-reads off the incremental path and lets callers detect "nothing changed" by identity.
 * Returns undefined when the SKILL.md disappeared meanwhile.
 */
export async function loadSkillRecord(root: SkillRoot, folderName: string, probe: SkillFolderProbe, options: RecordLoadOptions = {}, previous?: SkillRecord): Promise<SkillRecord | undefined> {
  const sameFile = previous && previous.file === probe.file && previous.realDir === probe.realDir ? previous : undefined;
  // A root described anew (its label changed with the settings) keeps the skill's last valid version, not its record.
  const comparable = sameFile && sameRoot(sameFile.root, root) ? sameFile : undefined;
  const served = root.kind === 'server';
  if (comparable && (root.untrusted || !options.force)) {
    // Untrusted records hold no content, so they never go stale.
    const stat = root.untrusted ? undefined : await fs.stat(served ? cachedEntryFile(probe.dir) : probe.file).catch(() => undefined);
    if (root.untrusted || (stat && stat.mtimeMs === comparable.mtimeMs && stat.size === comparable.size)) {
      return comparable.root === root ? comparable : { ...comparable, root };
    }
  }
  if (root.untrusted) {
    return untrustedRecord(root, folderName, probe);
  }
  const loaded = served
    ? await loadCachedSkill(probe.dir, probe.file, root.server ?? root.label)
    : await loadSkillFile(probe.dir, { strict: options.strict, checkBody: options.checkBody, blockingReads: options.blockingReads, keepFile: options.keepFile });
  return loaded && recordOfLoaded(root, folderName, probe, loaded, sameFile);
}

/**
 * loadSkillRecord for a first load (no earlier record) with blocking reads: for the command line,
 * which loads thousands of skills one after the other, without a promise for each.
 */
export function loadSkillRecordBlocking(root: SkillRoot, folderName: string, probe: SkillFolderProbe, options: LoadOptions = {}): SkillRecord | undefined {
  if (root.untrusted) {
    return untrustedRecord(root, folderName, probe);
  }
  const loaded = loadSkillFileBlocking(probe.dir, options);
  return loaded && recordOfLoaded(root, folderName, probe, loaded, undefined);
}

/** Untrusted roots yield a name-only record, without opening the file: the name of its folder. */
function untrustedRecord(root: SkillRoot, folderName: string, probe: SkillFolderProbe): SkillRecord {
  return makeRecord({ name: lastFolderName(folderName), probe, root, diagnostics: NO_DIAGNOSTICS, status: 'untrusted', mtimeMs: 0, size: 0 });
}

function recordOfLoaded(root: SkillRoot, folderName: string, probe: SkillFolderProbe, loaded: LoadedSkillFile | LoadedCachedSkill, previous: SkillRecord | undefined): SkillRecord {
  const located = loaded.file === probe.file ? probe : { ...probe, file: loaded.file };
  // When an edit broke the file, the last valid version is served until it is fixed.
  const stale = !loaded.metadata && previous?.metadata !== undefined;
  const metadata = loaded.metadata ?? (stale ? previous?.metadata : undefined);
  // A skill server's skill is named by its server and path whatever its frontmatter says (see servedSkillName).
  const served = 'name' in loaded ? loaded : undefined;
  return makeRecord({
    name: served?.name ?? loaded.metadata?.name ?? (stale ? previous!.name : lastFolderName(folderName)),
    probe: located,
    root,
    metadata,
    diagnostics: loaded.diagnostics,
    status: metadata ? 'available' : 'invalid',
    stale,
    lastValidFile: loaded.metadata ? loaded.bytes : stale ? previous!.lastValidFile : undefined,
    uri: served?.uri,
    mtimeMs: loaded.mtimeMs,
    size: loaded.size,
  });
}
