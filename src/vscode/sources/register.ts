// The sources area's one entry, for skills installed from elsewhere: the installed skills' tracker,
// their diagnostics (drift and audit), Add Skills from Git, Check for Updates, Update Skill, Keep
// Edits, Remove Installed Skill, Install Locked Skills and its offer.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../shared/manifest';
import { skillArgument, type SkillArgument } from '../shared/skill-argument';
import { sourcesOnDemand } from '../side-bundles';
import type { SkillsHost } from '../skills/types';
import { entryOrigin } from '../../core/sources/lock';
import type { AddFromGitArgs } from './add-from-git';
import { IncomingFiles, INCOMING_SCHEME } from './incoming-files';
import { InstalledSkills, type InstalledSkill } from './installed-skills';
import { offerLockedSkills } from './locked-offer';
import { SourceDiagnostics } from './source-diagnostics';
import type { Sources } from './types';

/** The offer to install locked skills is remembered in the workspace's memento (context.workspaceState). */
export function register(context: vscode.ExtensionContext, { host }: { host: SkillsHost }): Sources {
  const installed = new InstalledSkills(host, (...args) => sourcesOnDemand().lockedSignatureState(...args));
  const diagnostics = new SourceDiagnostics(host, installed);
  const incoming = new IncomingFiles();
  context.subscriptions.push(
    installed,
    diagnostics,
    vscode.workspace.registerTextDocumentContentProvider(INCOMING_SCHEME, incoming),
    vscode.commands.registerCommand(COMMANDS.addFromGit, (args?: AddFromGitArgs) => sourcesOnDemand().addSkillsFromGit(host, installed, incoming, args)),
    vscode.commands.registerCommand(COMMANDS.checkForUpdates, () => sourcesOnDemand().checkForUpdates(host, installed)),
    vscode.commands.registerCommand(COMMANDS.installLocked, () => sourcesOnDemand().installLockedSkills(host, installed)),
    offerLockedSkills(host, context.workspaceState),
    vscode.commands.registerCommand(COMMANDS.updateSkill, async (argument: unknown) => {
      const reference = skillArgument(argument);
      const skills = reference === undefined ? await chooseForUpdate(installed) : [await chooseInstalled(installed, reference, 'Update Skill')];
      let updated = false;
      for (const skill of skills) {
        updated = (skill !== undefined && (await sourcesOnDemand().updateSkill(skill, host, installed, incoming))) || updated;
      }
      return updated;
    }),
    vscode.commands.registerCommand(COMMANDS.removeSkill, async (argument: unknown) => {
      const skill = await chooseInstalled(installed, skillArgument(argument), 'Remove Installed Skill');
      return skill ? sourcesOnDemand().removeInstalledSkill(skill, host, installed) : false;
    }),
    vscode.commands.registerCommand(COMMANDS.keepEdits, async (argument: unknown) => {
      const skill = await chooseInstalled(installed, skillArgument(argument), 'Keep Edits');
      return skill ? sourcesOnDemand().keepSkillEdits(skill, host, installed) : false;
    }),
  );
  return { installed, diagnostics };
}

/**
 * The installed skills to update, picked from all of them: those Check for Updates found a newer
 * version of are marked, listed first and already selected.
 */
async function chooseForUpdate(installed: InstalledSkills): Promise<InstalledSkill[]> {
  await installed.settled();
  const skills = installed.skills;
  if (skills.length <= 1) {
    if (skills.length === 0) {
      void vscode.window.showInformationMessage('No skill of this workspace was installed from a source.');
    }
    return [...skills];
  }
  const items = skills.map((skill) => {
    const update = installed.marks.get(skill.folder)?.update;
    const found = update === undefined ? '' : ` · update ${update.commit ?? 'available'}`;
    return { label: update === undefined ? skill.name : `$(arrow-circle-up) ${skill.name}`, description: `${entryOrigin(skill.entry)}${found}`, picked: update !== undefined, skill };
  });
  items.sort((a, b) => Number(b.picked) - Number(a.picked));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Update Skill',
    placeHolder: 'Skills to update: each shows what changes and asks first; those with an update found are selected',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return picked?.map((item) => item.skill) ?? [];
}

/** The installed skill a command was given (tree item, SKILL.md URI, folder or name), else the user's pick. */
async function chooseInstalled(installed: InstalledSkills, reference: SkillArgument | undefined, title: string): Promise<InstalledSkill | undefined> {
  await installed.settled();
  if (reference?.folder !== undefined) {
    const skill = installed.find(reference.folder);
    if (!skill) {
      void vscode.window.showWarningMessage(`${path.basename(reference.folder)} was not installed from a source: skills-lock.json has no entry for it.`);
    }
    return skill;
  }
  const candidates = installed.skills.filter((skill) => reference?.name === undefined || skill.name === reference.name);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(reference?.name ? `No installed skill is named "${reference.name}".` : 'No skill of this workspace was installed from a source.');
    return undefined;
  }
  if (candidates.length === 1) {
    return candidates[0];
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((skill) => ({ label: skill.name, description: entryOrigin(skill.entry), skill })),
    { title, placeHolder: 'Which installed skill?' },
  );
  return picked?.skill;
}
