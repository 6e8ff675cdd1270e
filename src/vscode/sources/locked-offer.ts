// A fresh clone's skills-lock.json lists skills that are not installed: offers "Install N locked
// skills" once per workspace (remembered), only in a trusted one. Install Locked Skills stays in the
// palette for later.

import * as vscode from 'vscode';
import { skillNameProblem } from '../../core/sources/confine';
import { findInstalled } from '../../core/sources/install';
import { LOCK_FILE_NAME, readLock } from '../../core/sources/lock';
import { plural } from '../../core/util/text';
import { COMMANDS } from '../shared/manifest';
import type { SkillsHost } from '../skills/types';

const OFFERED_KEY = 'agentSkills.lockedSkillsOffered';

export function offerLockedSkills(host: SkillsHost, state: vscode.Memento): vscode.Disposable {
  let considering = false;
  const consider = async (): Promise<void> => {
    if (considering || state.get<boolean>(OFFERED_KEY) === true || !host.trusted || !host.settings.enabled) {
      return;
    }
    considering = true;
    try {
      const missing = await missingLockedSkills();
      if (missing.length === 0 || state.get<boolean>(OFFERED_KEY) === true) {
        return;
      }
      await state.update(OFFERED_KEY, true);
      const action = `Install ${plural(missing.length, 'locked skill')}`;
      const choice = await vscode.window.showInformationMessage(`${LOCK_FILE_NAME} lists ${plural(missing.length, 'skill')} not installed in this workspace: ${missing.join(', ')}.`, action);
      if (choice === action) {
        await vscode.commands.executeCommand(COMMANDS.installLocked);
      }
    } finally {
      considering = false;
    }
  };
  const lockWatcher = vscode.workspace.createFileSystemWatcher(`**/${LOCK_FILE_NAME}`);
  void host.firstRowsShown.then(consider);
  return vscode.Disposable.from(
    lockWatcher,
    lockWatcher.onDidCreate(() => void consider()),
    lockWatcher.onDidChange(() => void consider()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void consider()),
  );
}

/**
 * The names each workspace folder's lock lists with no folder where `install` looks (on disk, so a
 * skill being added, whose folder is written before the lock, is never counted). A broken lock is
 * logged by the installed skills' tracker.
 */
async function missingLockedSkills(): Promise<string[]> {
  const missing: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') {
      continue;
    }
    const projectDir = folder.uri.fsPath;
    const lock = await readLock(projectDir).catch(() => undefined);
    const names = Object.keys(lock?.skills ?? {}).filter((name) => skillNameProblem(name) === undefined);
    for (const name of names) {
      if ((await findInstalled(projectDir, name).catch(() => projectDir)) === undefined) {
        missing.push(name);
      }
    }
  }
  return missing;
}
