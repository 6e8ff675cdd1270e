// The quick fixes for "Claude Code reads `.claude/skills`, not `.agent/skills`" (a warning on the
// folder): on each SKILL.md in it, link or copy the skill folder into the host's folder. The
// user's choice each time; an existing folder there is never replaced.

import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isSkillFile, SKILL_FILE_SELECTOR } from '../shared/skill-files';
import { COMMANDS } from '../shared/manifest';
import { pathExists } from '../../core/util/files';
import type { TargetFindings } from './target-findings';

export type AddMode = 'link' | 'copy';

class TargetFolderFixes implements vscode.CodeActionProvider {
  constructor(private readonly findings: TargetFindings) {}

  provideCodeActions(document: vscode.TextDocument): vscode.CodeAction[] {
    if (!isSkillFile(document.uri)) {
      return [];
    }
    const actions: vscode.CodeAction[] = [];
    for (const { host, location, skills } of this.findings.forProject()) {
      const destination =
        skills.some((skill) => skill.file === document.uri.fsPath) && hostFolderFor(document.uri, location.startsWith('~/') ? host.userFolders.value[0] : host.projectFolders.value[0]);
      if (!destination) {
        continue;
      }
      const skillDir = path.dirname(document.uri.fsPath);
      const target = path.join(destination.folder, path.basename(skillDir));
      if (existsNow(target)) {
        continue;
      }
      for (const mode of ['link', 'copy'] as const) {
        const action = new vscode.CodeAction(`${mode === 'link' ? 'Link' : 'Copy'} this skill into \`${destination.shown}\` for ${host.name}`, vscode.CodeActionKind.QuickFix);
        action.command = { command: COMMANDS.addToTargetFolder, title: action.title, arguments: [skillDir, target, mode] };
        actions.push(action);
      }
    }
    return actions;
  }
}

/** The host folder as an absolute path (in the skill's workspace folder, or the home folder for `~/…`) and as the host names it. */
function hostFolderFor(uri: vscode.Uri, folder: string | undefined): { folder: string; shown: string } | undefined {
  if (folder === undefined) {
    return undefined;
  }
  if (folder.startsWith('~/')) {
    return { folder: path.join(os.homedir(), folder.slice(2)), shown: folder };
  }
  const workspaceFolder = vscode.workspace.getWorkspaceFolder(uri);
  return workspaceFolder ? { folder: path.join(workspaceFolder.uri.fsPath, folder), shown: folder } : undefined;
}

function existsNow(file: string): boolean {
  try {
    fsSync.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Links (a relative symbolic link) or copies a skill folder to `target`; refuses when something is there. */
export async function addToTargetFolder(skillDir: string, target: string, mode: AddMode): Promise<boolean> {
  if (await pathExists(target)) {
    void vscode.window.showWarningMessage(`${target} already exists; nothing was changed.`);
    return false;
  }
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (mode === 'link') {
      await fs.symlink(process.platform === 'win32' ? skillDir : path.relative(path.dirname(target), skillDir), target, process.platform === 'win32' ? 'junction' : 'dir');
    } else {
      await fs.cp(skillDir, target, { recursive: true, errorOnExist: true, force: false });
    }
  } catch (error) {
    void vscode.window.showErrorMessage(`Could not ${mode} ${skillDir} to ${target}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  void vscode.window.showInformationMessage(`${mode === 'link' ? 'Linked' : 'Copied'} ${path.basename(skillDir)} to ${target}.`);
  return true;
}

export function registerTargetFolderFixes(findings: TargetFindings): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(SKILL_FILE_SELECTOR, new TargetFolderFixes(findings), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    vscode.commands.registerCommand(COMMANDS.addToTargetFolder, (skillDir: string, target: string, mode: AddMode) => addToTargetFolder(skillDir, target, mode)),
  );
}
