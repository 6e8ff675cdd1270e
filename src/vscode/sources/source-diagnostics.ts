// Diagnostics of installed skills: the audit's findings on every file of each (their own source,
// "agent-skills audit", so the Problems panel can filter them), and a warning on a SKILL.md whose
// skill was edited since it was installed, with the choice to keep the edits or overwrite them.

import * as vscode from 'vscode';
import { entryOrigin, entrySourceLabel } from '../../core/sources/lock';
import { errorMessage } from '../../core/util/errors';
import { DIAGNOSTIC_SOURCE } from '../shared/convert';
import { SKILL_FILE_SELECTOR } from '../shared/skill-files';
import { Disposable } from '../shared/disposable';
import { COMMANDS } from '../shared/manifest';
import { sourcesOnDemand } from '../side-bundles';
import type { SkillsHost } from '../skills/types';
import type { InstalledSkill, InstalledSkills } from './installed-skills';

/** The code of the warning on a skill edited since it was installed. */
export const EDITED_SINCE_INSTALL = 'edited-since-install';

export class SourceDiagnostics extends Disposable implements vscode.CodeActionProvider {
  private readonly drift = this.register(vscode.languages.createDiagnosticCollection('agentSkills.drift'));
  private readonly audit = this.register(vscode.languages.createDiagnosticCollection('agentSkills.audit'));
  /** Per installed folder: the hash last audited and the files given findings. */
  private readonly audited = new Map<string, { hash: string; files: vscode.Uri[] }>();
  /** Folders whose drift was already pointed out in a notification (once per edit state). */
  private readonly notified = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: SkillsHost,
    private readonly installed: InstalledSkills,
  ) {
    super();
    this.register(installed.onDidChange(() => this.enqueue()));
    this.register(vscode.languages.registerCodeActionsProvider(SKILL_FILE_SELECTOR, this, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }));
    this.enqueue();
  }

  /** Resolves once the diagnostics follow the installed skills as last seen. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** What the Problems panel holds of installed skills (audit findings, edits since install), by file. */
  entries(): [vscode.Uri, readonly vscode.Diagnostic[]][] {
    const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = [];
    for (const collection of [this.audit, this.drift]) {
      collection.forEach((uri, diagnostics) => void entries.push([uri, diagnostics]));
    }
    return entries;
  }

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const diagnostic = context.diagnostics.find((candidate) => candidate.source === DIAGNOSTIC_SOURCE && candidate.code === EDITED_SINCE_INSTALL);
    const skill = diagnostic && this.installed.find(document.uri.fsPath);
    if (!diagnostic || !skill) {
      return [];
    }
    const keep = new vscode.CodeAction('Keep my edits', vscode.CodeActionKind.QuickFix);
    keep.command = { command: COMMANDS.keepEdits, title: keep.title, arguments: [skill.folder] };
    const overwrite = new vscode.CodeAction(`Overwrite them with ${entrySourceLabel(skill.entry)}'s version…`, vscode.CodeActionKind.QuickFix);
    overwrite.command = { command: COMMANDS.updateSkill, title: overwrite.title, arguments: [vscode.Uri.file(skill.file)] };
    return [keep, overwrite].map((action) => Object.assign(action, { diagnostics: [diagnostic] }));
  }

  private enqueue(): void {
    this.queue = this.queue.then(() => this.update()).catch((error: unknown) => this.host.log.error(`Updating the diagnostics of installed skills failed: ${errorMessage(error)}`));
  }

  private async update(): Promise<void> {
    const skills = this.installed.skills;
    this.drift.clear();
    for (const skill of skills) {
      if (skill.drift.state === 'edited') {
        this.drift.set(vscode.Uri.file(skill.file), [editedWarning(skill)]);
        this.notifyDrift(skill);
      }
    }
    for (const [folder, { files }] of this.audited) {
      if (!skills.some((skill) => skill.folder === folder)) {
        files.forEach((file) => this.audit.delete(file));
        this.audited.delete(folder);
      }
    }
    for (const skill of skills) {
      if (this.audited.get(skill.folder)?.hash !== skill.hash) {
        await this.auditSkill(skill);
      }
    }
  }

  private async auditSkill(skill: InstalledSkill): Promise<void> {
    const byFile = await sourcesOnDemand().auditSkillDiagnostics(skill.folder);
    this.audited.get(skill.folder)?.files.forEach((file) => this.audit.delete(file));
    const files = [...byFile.keys()].map((file) => vscode.Uri.file(file));
    files.forEach((uri) => this.audit.set(uri, byFile.get(uri.fsPath)));
    this.audited.set(skill.folder, { hash: skill.hash, files });
  }

  /** Says once per edit state, in a notification, what the warning says, with both choices at hand. */
  private notifyDrift(skill: InstalledSkill): void {
    if (this.notified.get(skill.folder) === skill.hash) {
      return;
    }
    this.notified.set(skill.folder, skill.hash);
    const keep = 'Keep My Edits';
    const overwrite = 'Overwrite…';
    void vscode.window.showWarningMessage(`${skill.name} was edited since it was installed from ${entryOrigin(skill.entry)}.`, keep, overwrite).then((choice) => {
      if (choice === keep) {
        void vscode.commands.executeCommand(COMMANDS.keepEdits, skill.folder);
      } else if (choice === overwrite) {
        void vscode.commands.executeCommand(COMMANDS.updateSkill, vscode.Uri.file(skill.file));
      }
    });
  }
}

function editedWarning(skill: InstalledSkill): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(0, 0, 0, 3),
    `${skill.name} was edited since it was installed from ${entryOrigin(skill.entry)} (its files no longer match skills-lock.json's computedHash). Keep the edits, or overwrite them with the source's version.`,
    vscode.DiagnosticSeverity.Warning,
  );
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = EDITED_SINCE_INSTALL;
  return diagnostic;
}
