// The hosts the editor checks skills against: `agentSkills.targets` when set, otherwise `vscode`
// plus the hosts whose own skills folder a workspace folder already has (`.claude/skills`, …).

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultTargetIds, targetProfile, parseTargetIds, type TargetProfile } from '../../core/targets/profiles';
import { onDidChangeSettings, readTargetIds } from '../shared/settings';
import type { SkillsHost } from '../skills/types';
import { Disposable } from '../shared/disposable';

export class ActiveTargets extends Disposable {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changeEmitter.event;
  /** Worked out when first asked for (the diagnostics do once the first rows are shown), then kept current. */
  private current: TargetProfile[] | undefined;

  constructor(host: SkillsHost) {
    super();
    this.register(onDidChangeSettings(() => this.update()));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.update()));
    // A host's folder made since (say `.claude/skills`) makes it a default target.
    this.register(host.onDidChange(() => this.update()));
  }

  get profiles(): readonly TargetProfile[] {
    return (this.current ??= effectiveTargets());
  }

  private update(): void {
    if (this.current === undefined) {
      return; // Nobody has asked yet: nothing to tell.
    }
    const next = effectiveTargets();
    if (next.map((profile) => profile.id).join() !== this.current.map((profile) => profile.id).join()) {
      this.current = next;
      this.changeEmitter.fire();
    }
  }
}

function effectiveTargets(): TargetProfile[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const configured = folders.length > 0 ? folders.map((folder) => readTargetIds(folder)) : [readTargetIds()];
  if (configured.some((ids) => ids !== undefined)) {
    return parseTargetIds(configured.flatMap((ids) => ids ?? [])).ids.map((id) => targetProfile(id)!);
  }
  return defaultTargetIds((relative) => folders.some((folder) => isFolder(path.join(folder.uri.fsPath, relative)))).map((id) => targetProfile(id)!);
}

function isFolder(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
