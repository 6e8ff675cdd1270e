// The per-host warnings in the editor, over the current snapshot: each SKILL.md's (the list budgets
// are taken over all usable skills at the default context size, so one skill's edit can change
// another's warning, and the diagnostics look at every file when the snapshot changes), and the
// project's, a skill folder a target host does not read, once per host and folder.

import * as fs from 'node:fs';
import * as os from 'node:os';
import type * as vscode from 'vscode';
import { targetListings, type TargetListing } from '../../core/targets/budget';
import { checkSkillForTargets, fieldKeyRanges, targetFolderFindings, type TargetFolderFinding } from '../../core/targets/checks';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import type { Range, SkillDiagnostic, SkillMetadata, SkillRecord } from '../../core/model/types';
import type { SkillsHost } from '../skills/types';
import type { ActiveTargets } from './active-targets';

export class TargetFindings {
  readonly onDidChange: vscode.Event<void>;
  private listings: { snapshot: RegistrySnapshot; targets: string; byTarget: Map<string, TargetListing>; byFile: Map<string, SkillRecord>; folders: TargetFolderFinding[] } | undefined;
  private readonly ranges = new Map<string, { mtimeMs: number; find: (field: string) => Range | undefined }>();

  constructor(
    private readonly host: SkillsHost,
    private readonly targets: ActiveTargets,
  ) {
    this.onDidChange = targets.onDidChange;
  }

  /**
   * The warnings for one SKILL.md, from its record; `text` and `metadata` are an open editor's
   * (unsaved) version when there is one.
   */
  forFile(file: string, text?: string, metadata?: SkillMetadata): SkillDiagnostic[] {
    const targets = this.targets.profiles;
    if (targets.length === 0) {
      return [];
    }
    const current = this.current();
    const record = current.byFile.get(file);
    if (!record || record.status === 'untrusted') {
      return [];
    }
    const checked = metadata ? { ...record, metadata } : record;
    return checkSkillForTargets(checked, {
      targets,
      listings: current.byTarget,
      homeDir: os.homedir(),
      servedInVsCode: true,
      fieldRange: text === undefined ? this.diskRanges(record.file, record.mtimeMs) : fieldKeyRanges(text),
    });
  }

  /** The project's skill folders a target host does not read (VS Code reads every one through the extension). */
  forProject(): readonly TargetFolderFinding[] {
    return this.targets.profiles.length === 0 ? [] : this.current().folders;
  }

  /** What the snapshot and the targets give, worked out once for both. */
  private current(): NonNullable<TargetFindings['listings']> {
    const snapshot = this.host.snapshot;
    const profiles = this.targets.profiles;
    const targets = profiles.map((profile) => profile.id).join();
    if (this.listings?.snapshot !== snapshot || this.listings.targets !== targets) {
      const byFile = new Map<string, SkillRecord>();
      for (const record of snapshot.skills) {
        if (!byFile.has(record.file)) {
          byFile.set(record.file, record);
        }
      }
      const folders = targetFolderFindings(snapshot.skills, { targets: profiles, homeDir: os.homedir(), servedInVsCode: true });
      this.listings = { snapshot, targets, byTarget: targetListings(snapshot.skills, profiles), byFile, folders };
    }
    return this.listings;
  }

  /** Key positions of a SKILL.md on disk, read again only when it changed. */
  private diskRanges(file: string, mtimeMs: number): (field: string) => Range | undefined {
    const cached = this.ranges.get(file);
    if (cached?.mtimeMs === mtimeMs) {
      return cached.find;
    }
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      // Gone since the snapshot: the warnings sit on the opening fence until it is back.
    }
    const find = fieldKeyRanges(text);
    this.ranges.set(file, { mtimeMs, find });
    return find;
  }
}
