// The per-host warnings in the editor, over the current snapshot: each SKILL.md's (the list budgets
// are taken over all usable skills at the default context size, so one skill's edit can change
// another's warning; TargetWarnings checks again only the files it may have changed and says which
// did), and the project's, a skill folder a target host does not read, once per host and folder.

import * as os from 'node:os';
import type * as vscode from 'vscode';
import { checkSkillForTargets, diskFieldRanges, fieldKeyRanges, type TargetFolderFinding } from '../../core/targets/checks';
import { TargetWarnings } from '../../core/targets/warnings';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import type { SkillDiagnostic, SkillMetadata } from '../../core/model/types';
import type { SkillsHost } from '../skills/types';
import type { ActiveTargets } from './active-targets';

export class TargetFindings {
  readonly onDidChange: vscode.Event<void>;
  private readonly warnings = new TargetWarnings();
  /** The snapshot and targets the warnings were last brought up to. */
  private followed: { snapshot: RegistrySnapshot; targets: ActiveTargets['profiles'] } | undefined;
  /** Key positions of each SKILL.md on disk, for the warnings of a file no editor holds. */
  private readonly diskRanges = diskFieldRanges();

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
      this.warnings.update(snapshot.skills, { targets, homeDir: os.homedir(), servedInVsCode: true, fieldRanges: this.diskRanges });
      this.followed = { snapshot, targets };
    }
    return this.warnings;
  }
}
