// The "Skills" commands: palette, view title and item context menus. Each is a few lines over the
// host, the diagnostics or a core function.

import * as vscode from 'vscode';
import { allowSkill, disallowSkill, patternsAllowing, type AllowlistEdit } from '../../core/discovery/allowlist-edit';
import type { SkillViewItem } from '../../core/view/skill-view';
import type { SkillRecord } from '../../core/model/types';
import { leadingProblem } from '../../core/model/status';
import { toVscodeRange } from '../shared/convert';
import { errorMessage } from '../../core/util/errors';
import type { SkillDiagnostics, ValidationReport } from '../diagnostics/types';
import { COMMANDS, SETTINGS, SETTINGS_SECTION } from '../shared/manifest';
import { findRecord } from '../shared/skill-argument';
import type { SkillsHost } from '../skills/types';
import type { UnconfiguredLocations } from '../view/types';

/** A tree item, a skill name or a SKILL.md Uri: what the item commands accept. */
export type SkillReference = SkillViewItem | string | vscode.Uri | undefined;

/** The commands the Skills view's items and title need; Validate Skills, Create Skill and Show Catalog come with the features loaded after the first rows (src/vscode/deferred.ts). */
export function registerCommands(host: SkillsHost, unconfigured: UnconfiguredLocations): vscode.Disposable {
  const register = (id: string, run: (...args: never[]) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, run);
  const withSkill =
    (run: (record: SkillRecord) => unknown) =>
    (reference: SkillReference): unknown => {
      const record = findRecord(host, reference);
      if (!record) {
        void vscode.window.showWarningMessage(`No skill ${typeof reference === 'string' ? `named "${reference}"` : 'selected'}.`);
        return undefined;
      }
      return run(record);
    };

  return vscode.Disposable.from(
    register(COMMANDS.refresh, () => Promise.all([host.refresh(), unconfigured.check()])),
    register(COMMANDS.addFoundLocations, () => unconfigured.addAll()),
    register(COMMANDS.deactivateAll, () => {
      host.registry.deactivateAll();
      host.log.info('Deactivated all skills.');
    }),
    register(COMMANDS.showLog, () => host.log.show()),
    register(COMMANDS.manageTrust, () => vscode.commands.executeCommand('workbench.trust.manage')),
    register(
      COMMANDS.openSkill,
      withSkill(async (record) => {
        if (record.root.kind === 'server' && record.metadata) {
          // A skill server's SKILL.md is fetched and verified on first use; opening it is one.
          try {
            await host.content.readBody(record);
          } catch (error) {
            void vscode.window.showWarningMessage(errorMessage(error));
            return undefined;
          }
        }
        // A skill with a problem opens where the problem is, as the Problems panel would.
        const problem = leadingProblem(record);
        return vscode.window.showTextDocument(vscode.Uri.file(record.file), { preview: true, ...(problem ? { selection: toVscodeRange(problem.range) } : {}) });
      }),
    ),
    register(
      COMMANDS.activate,
      withSkill(async (record) => {
        const result = await host.activateSkill(record.name, undefined, 'view');
        if (!result.ok) {
          void vscode.window.showWarningMessage(result.message);
        }
        return result.ok;
      }),
    ),
    register(
      COMMANDS.deactivate,
      withSkill((record) => {
        host.registry.deactivate(record.name);
        host.log.info(`Deactivated skill "${record.name}".`);
      }),
    ),
    register(
      COMMANDS.allow,
      withSkill((record) => editAllowlist(host, record.name, allowSkill)),
    ),
    register(
      COMMANDS.removeFromAllowlist,
      withSkill((record) => editAllowlist(host, record.name, disallowSkill)),
    ),
    register(
      COMMANDS.reveal,
      withSkill((record) => reveal(record)),
    ),
    register(
      COMMANDS.copyName,
      withSkill((record) => vscode.env.clipboard.writeText(record.name)),
    ),
  );
}

/** Arguments of the Validate command for callers that show the summary themselves. */
export interface ValidateOptions {
  /** Show the summary as a notification (default true); chat's /validate prints it instead. */
  notify?: boolean;
}

/** Skills: Validate Skills. */
export async function validate(diagnostics: SkillDiagnostics, options: ValidateOptions = {}): Promise<ValidationReport> {
  const report = await diagnostics.validateAll();
  if (options.notify === false) {
    return report;
  }
  const show = report.errors > 0 ? vscode.window.showErrorMessage : report.warnings > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  // Not awaited: the command returns its report without waiting for the notification to close.
  void show(report.message, 'Open Problems').then((choice) => {
    if (choice) {
      void vscode.commands.executeCommand('workbench.actions.view.problems');
    }
  });
  return report;
}

/**
 * Edits the workspace value of `agentSkills.allowlist`. Without one, the effective list (from user
 * settings) is the starting point, so the workspace keeps allowing what it allowed before.
 */
async function editAllowlist(host: SkillsHost, name: string, edit: (allowlist: readonly string[], name: string) => AllowlistEdit): Promise<boolean> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const inspected = config.inspect<string[]>(SETTINGS.allowlist);
  const current = inspected?.workspaceValue ?? host.settings.allowlist;
  const result = edit(current, name);
  if (!result.changed) {
    void vscode.window.showInformationMessage(result.reason);
    return false;
  }
  await config.update(SETTINGS.allowlist, result.allowlist, vscode.ConfigurationTarget.Workspace);
  host.log.info(`Allowlist of this workspace is now: ${result.allowlist.join(', ')}.`);
  const stillAllowing = patternsAllowing(result.allowlist, name);
  if (edit === disallowSkill && stillAllowing.length > 0) {
    void vscode.window.showInformationMessage(`"${name}" is still allowed by ${stillAllowing.map((pattern) => `"${pattern}"`).join(', ')} in agentSkills.allowlist.`);
  }
  return true;
}

async function reveal(record: SkillRecord): Promise<void> {
  const folder = vscode.Uri.file(record.dir);
  // The Explorer shows only workspace files; anything else is revealed in the operating system.
  if (vscode.workspace.getWorkspaceFolder(folder)) {
    await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(record.file));
  } else {
    await vscode.commands.executeCommand('revealFileInOS', folder);
  }
}
