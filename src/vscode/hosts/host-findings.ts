// The per-host warnings of each SKILL.md in the editor, over the current snapshot: the list
// budgets are taken over all usable skills at the default context size, so one skill's edit can
// change another's warning, and the diagnostics re-show every file when the snapshot changes.

import * as fs from 'node:fs';
import * as os from 'node:os';
import type * as vscode from 'vscode';
import { hostListings, type HostListing } from '../../core/hosts/budget';
import { checkSkillForHosts, fieldKeyRanges } from '../../core/hosts/checks';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import type { Range, SkillDiagnostic, SkillMetadata } from '../../core/model/types';
import type { SkillsHost } from '../skills-host';
import type { HostTargets } from './host-targets';

export class HostFindings {
  readonly onDidChange: vscode.Event<void>;
  private listings: { snapshot: RegistrySnapshot; targets: string; byHost: Map<string, HostListing> } | undefined;
  private readonly ranges = new Map<string, { mtimeMs: number; find: (field: string) => Range | undefined }>();

  constructor(
    private readonly host: SkillsHost,
    private readonly targets: HostTargets,
  ) {
    this.onDidChange = targets.onDidChange;
  }

  /**
   * The warnings for one SKILL.md, from its record; `text` and `metadata` are an open editor's
   * (unsaved) version when there is one.
   */
  forFile(file: string, text?: string, metadata?: SkillMetadata): SkillDiagnostic[] {
    const targets = this.targets.profiles;
    const record = this.host.snapshot.skills.find((candidate) => candidate.file === file);
    if (targets.length === 0 || !record || record.status === 'untrusted') {
      return [];
    }
    const checked = metadata ? { ...record, metadata } : record;
    return checkSkillForHosts(checked, {
      targets,
      listings: this.currentListings(),
      homeDir: os.homedir(),
      servedInVsCode: true,
      fieldRange: text === undefined ? this.diskRanges(record.file, record.mtimeMs) : fieldKeyRanges(text),
    });
  }

  private currentListings(): Map<string, HostListing> {
    const snapshot = this.host.snapshot;
    const targets = this.targets.profiles.map((profile) => profile.id).join();
    if (this.listings?.snapshot !== snapshot || this.listings.targets !== targets) {
      this.listings = { snapshot, targets, byHost: hostListings(snapshot.skills, this.targets.profiles) };
    }
    return this.listings.byHost;
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
