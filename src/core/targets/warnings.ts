// The per-host warnings of a whole project, kept from one snapshot to the next. A snapshot keeps
// the records that did not change (a change makes a new record), so a SKILL.md is checked again
// only when its record changed or when the listing state of its name, or the size of a host's
// list, moved under it: one skill's longer description can push another past a host's budget.
// Everything else is answered from the last check, the same array each time, so a caller can tell
// what changed by identity.

import { DEFAULT_CONTEXT_TOKENS } from '../defaults';
import { isOffered, targetListings, type TargetListing } from './budget';
import { checkSkillForTargets, listedEntry, sameNamesAs, targetFolderFindings, unreadFolderFinding, type TargetCheckContext, type TargetFolderFinding } from './checks';
import type { Range, SkillDiagnostic, SkillRecord } from '../model/types';
import type { TargetProfile } from './profiles';

export interface TargetWarningsContext {
  targets: readonly TargetProfile[];
  homeDir?: string;
  servedInVsCode?: boolean;
  contextTokens?: number;
  /** Where a SKILL.md's frontmatter keys are (TargetCheckContext.fieldRange); asked for a file when it is checked. */
  fieldRanges?: (record: SkillRecord) => ((field: string) => Range | undefined) | undefined;
}

/** A file's warnings and what they were worked out from. */
interface Checked {
  record: SkillRecord;
  /** Per target, in the context's order: the record's listing state when checked (stateOf). */
  states: (string | undefined)[];
  warnings: readonly SkillDiagnostic[];
}

const NONE: readonly SkillDiagnostic[] = Object.freeze([]);

export class TargetWarnings {
  private settings: string | undefined;
  private records: readonly SkillRecord[] = [];
  private listingsByTarget = new Map<string, TargetListing>();
  private folderFindings: TargetFolderFinding[] = [];
  /** Each SKILL.md's first record in the snapshot (as a path names one file), checked. */
  private readonly byFile = new Map<string, Checked>();
  /** The records the folder findings hold, to tell whether a replaced record was one of them. */
  private inFolderFindings = new Set<SkillRecord>();
  /** Files whose warnings changed since takeChanged last said. */
  private changed = new Set<string>();

  /** The listings the budget warnings are taken from, by host id: those of the targets whose list has a budget. */
  get listings(): ReadonlyMap<string, TargetListing> {
    return this.listingsByTarget;
  }

  /** The project's skill folders a target host does not read. */
  get folders(): readonly TargetFolderFinding[] {
    return this.folderFindings;
  }

  /** The record a file's warnings are about (the first of the snapshot's records with that file). */
  recordOf(file: string): SkillRecord | undefined {
    return this.byFile.get(file)?.record;
  }

  /** A file's warnings: the same array for as long as they do not change; none for an untrusted skill (never read). */
  warningsOf(file: string): readonly SkillDiagnostic[] {
    return this.byFile.get(file)?.warnings ?? NONE;
  }

  /** The files whose warnings changed since the last call (a file that came or went with warnings included); each said once. */
  takeChanged(): ReadonlySet<string> {
    const changed = this.changed;
    this.changed = new Set();
    return changed;
  }

  /** Brings the warnings up to these records (a snapshot's, in precedence order) and targets. */
  update(records: readonly SkillRecord[], context: TargetWarningsContext): void {
    const contextTokens = context.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
    const settings = JSON.stringify([context.targets.map((target) => target.id), context.homeDir ?? null, context.servedInVsCode === true, contextTokens]);
    if (settings !== this.settings) {
      this.settings = settings;
      this.records = [];
      this.listingsByTarget = new Map();
      for (const file of this.byFile.keys()) {
        this.changed.add(file);
      }
      this.byFile.clear();
    }
    const replaced = replacedInPlace(this.records, records);
    if (replaced?.length === 0) {
      return;
    }
    const previousListings = this.listingsByTarget;
    if (!replaced || !replaced.every(([before, after]) => sameOffer(before, after))) {
      // A host without a list budget lists every skill it is offered, cutting none: nothing to warn about.
      this.listingsByTarget = targetListings(
        records,
        context.targets.filter((host) => host.budget.value.kind === 'share'),
        contextTokens,
      );
    }
    this.followFolders(records, replaced, context);
    this.records = records;
    const checkContext: TargetCheckContext = { targets: context.targets, listings: this.listingsByTarget, homeDir: context.homeDir, servedInVsCode: context.servedInVsCode };
    const check = (record: SkillRecord): void => this.check(record, checkContext, context.fieldRanges);
    const moved = replaced && movedNames(previousListings, this.listingsByTarget);
    // One record replaced by another of the same file, names listed as before: only those files and names.
    if (moved && replaced.every(([before, after]) => before.file === after.file && this.byFile.get(before.file)?.record === before)) {
      replaced.forEach(([, after]) => check(after));
      if (moved.size > 0) {
        for (const record of records) {
          if (moved.has(record.name) && this.byFile.get(record.file)?.record === record) {
            check(record);
          }
        }
      }
      return;
    }
    const present = new Set<string>();
    for (const record of records) {
      if (!present.has(record.file)) {
        present.add(record.file);
        check(record);
      }
    }
    for (const [file, { warnings }] of this.byFile) {
      if (!present.has(file)) {
        this.byFile.delete(file);
        if (warnings.length > 0) {
          this.changed.add(file);
        }
      }
    }
  }

  /**
   * The folder findings: a record replaced by one of the same name in the same folder takes its
   * place in the findings it was in (their messages stay), anything else counts the folders again.
   */
  private followFolders(records: readonly SkillRecord[], replaced: [SkillRecord, SkillRecord][] | undefined, context: TargetWarningsContext): void {
    const relevant = replaced?.filter(([before, after]) => this.inFolderFindings.has(before) || unreadByAny(after, context));
    if (relevant?.length === 0) {
      return;
    }
    if (!relevant?.every(([before, after]) => before.root === after.root && before.name === after.name && this.inFolderFindings.has(before) === unreadByAny(after, context))) {
      this.folderFindings = targetFolderFindings(records, context);
      this.inFolderFindings = new Set(this.folderFindings.flatMap((finding) => finding.skills));
      return;
    }
    const swaps = new Map(relevant);
    this.folderFindings = this.folderFindings.map((finding) =>
      finding.skills.some((record) => swaps.has(record)) ? { ...finding, skills: finding.skills.map((record) => swaps.get(record) ?? record) } : finding,
    );
    for (const [before, after] of relevant) {
      this.inFolderFindings.delete(before);
      this.inFolderFindings.add(after);
    }
  }

  /** Checks a record again when it, its listing states or a list it is cut from changed. */
  private check(record: SkillRecord, context: TargetCheckContext, fieldRanges: TargetWarningsContext['fieldRanges']): void {
    const states = context.targets.map((target) => stateOf(this.listingsByTarget.get(target.id), record.name));
    const before = this.byFile.get(record.file);
    if (before?.record === record && before.states.every((state, index) => state === states[index])) {
      return;
    }
    const fieldRange = fieldRanges?.(record);
    const warnings = record.status === 'untrusted' ? NONE : checkSkillForTargets(record, { ...context, ...(fieldRange ? { fieldRange } : {}) });
    const previous = before?.warnings ?? NONE;
    const kept = sameWarnings(previous, warnings) ? previous : warnings;
    if (kept !== previous) {
      this.changed.add(record.file);
    }
    this.byFile.set(record.file, { record, states, warnings: kept });
  }
}

/**
 * A file's listing state per target: the state of the first entry of its name (as the checks look
 * it up) and the size of the list when that cuts it, as the warning counts the project's skills;
 * none for a target without a budget.
 */
function stateOf(listing: TargetListing | undefined, name: string): string | undefined {
  if (!listing) {
    return undefined;
  }
  const state = listedEntry(listing, name)?.state;
  return state === 'shortened' || state === 'name-only' || state === 'dropped' ? `${state} of ${listing.skills.length}` : state;
}

/**
 * The names whose listing changed between two listings of each target; undefined when a list has
 * other names or another length (then every file is looked at). A list of the same names keeps the
 * name lookup of the one before.
 */
function movedNames(before: ReadonlyMap<string, TargetListing>, after: ReadonlyMap<string, TargetListing>): Set<string> | undefined {
  const moved = new Set<string>();
  for (const [id, listing] of after) {
    const previous = before.get(id);
    if (previous === listing) {
      continue;
    }
    if (previous?.skills.length !== listing.skills.length) {
      return undefined;
    }
    for (let index = 0; index < listing.skills.length; index++) {
      const was = previous.skills[index];
      const is = listing.skills[index];
      if (was.name !== is.name) {
        return undefined;
      }
      if (was.state !== is.state) {
        moved.add(is.name);
      }
    }
    sameNamesAs(listing, previous);
  }
  return moved;
}

/** The records replaced at their places, before and after; undefined when records came, went or moved. */
function replacedInPlace(before: readonly SkillRecord[], after: readonly SkillRecord[]): [SkillRecord, SkillRecord][] | undefined {
  if (before.length !== after.length) {
    return undefined;
  }
  const replaced: [SkillRecord, SkillRecord][] = [];
  for (let index = 0; index < after.length; index++) {
    if (before[index] !== after[index]) {
      replaced.push([before[index], after[index]]);
    }
  }
  return replaced;
}

/** Whether two records are listed alike by every host: usable or not, same name, description and invocation. */
function sameOffer(a: SkillRecord, b: SkillRecord): boolean {
  return isOffered(a) === isOffered(b) && a.name === b.name && a.metadata?.description === b.metadata?.description && a.metadata?.disableModelInvocation === b.metadata?.disableModelInvocation;
}

/** Whether a record belongs in a folder finding of some target. */
function unreadByAny(record: SkillRecord, context: TargetWarningsContext): boolean {
  return context.targets.some((host) => unreadFolderFinding(host, record, context) !== undefined);
}

function sameWarnings(a: readonly SkillDiagnostic[], b: readonly SkillDiagnostic[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
