// The per-host warnings in the editor, over the current snapshot: each SKILL.md's (the list budgets
// are taken over all usable skills at the default context size, so one skill's edit can change
// another's warning; TargetWarnings checks again only the files it may have changed and says which
// did), and the project's, a skill folder a target host does not read, once per host and folder.

import * as fs from 'node:fs';
import * as os from 'node:os';
import type * as vscode from 'vscode';
import { checkSkillForTargets, fieldKeyRanges, type TargetFolderFinding } from '../../core/targets/checks';
import { TargetWarnings } from '../../core/targets/warnings';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import type { Range, SkillDiagnostic, SkillMetadata, SkillRecord } from '../../core/model/types';
import type { SkillsHost } from '../skills/types';
import type { ActiveTargets } from './active-targets';

export class TargetFindings {
  readonly onDidChange: vscode.Event<void>;
  private readonly warnings = new TargetWarnings();
  /** The snapshot and targets the warnings were last brought up to. */
  private followed: { snapshot: RegistrySnapshot; targets: ActiveTargets['profiles'] } | undefined;
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
  forFile(file: string, text?: string, metadata?: SkillMetadata): readonly SkillDiagnostic[] {
    const warnings = this.current();
    if (text === undefined && metadata === undefined) {
      return warnings.warningsOf(file);
    }
    const record = warnings.recordOf(file);
    if (!record || record.status === 'untrusted' || this.targets.profiles.length === 0) {
      return [];
    }
    return checkSkillForTargets(metadata ? { ...record, metadata } : record, {
      targets: this.targets.profiles,
      listings: warnings.listings,
      homeDir: os.homedir(),
      servedInVsCode: true,
      fieldRange: text === undefined ? this.diskRanges(record) : fieldKeyRanges(text),
    });
  }

  /** The project's skill folders a target host does not read (VS Code reads every one through the extension). */
  forProject(): readonly TargetFolderFinding[] {
    return this.current().folders;
  }

  /** The SKILL.md files whose warnings changed since the last call (with the current snapshot and targets). */
  takeChanged(): ReadonlySet<string> {
    return this.current().takeChanged();
  }

  /** The warnings brought up to the current snapshot and targets. */
  private current(): TargetWarnings {
    const snapshot = this.host.snapshot;
    const targets = this.targets.profiles;
    if (this.followed?.snapshot !== snapshot || this.followed.targets !== targets) {
      this.warnings.update(snapshot.skills, { targets, homeDir: os.homedir(), servedInVsCode: true, fieldRanges: (record) => this.diskRanges(record) });
      this.followed = { snapshot, targets };
    }
    return this.warnings;
  }

  /** Key positions of a SKILL.md on disk, read again only when it changed. */
  private diskRanges(record: SkillRecord): (field: string) => Range | undefined {
    const cached = this.ranges.get(record.file);
    if (cached?.mtimeMs === record.mtimeMs) {
      return cached.find;
    }
    let text = '';
    try {
      text = fs.readFileSync(record.file, 'utf8');
    } catch {
      // Gone since the snapshot: the warnings sit on the opening fence until it is back.
    }
    const find = fieldKeyRanges(text);
    this.ranges.set(record.file, { mtimeMs: record.mtimeMs, find });
    return find;
  }
}
