// What the user decides about one installed skill besides updating it: Keep My Edits, recorded in
// the project's skills-lock.json so every reader of the lock (a teammate's `agent-skills check`)
// agrees, and Remove, which asks first and takes the folder and its lock entry away.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { keepEdits, removeAndUnlock } from '../../core/sources/apply';
import { describeLocalWork, folderDrift } from '../../core/sources/drift';
import { computeFolderHash } from '../../core/sources/folder-hash';
import { findInstalled } from '../../core/sources/install';
import { entryOrigin, LOCK_FILE_NAME, readLock } from '../../core/sources/lock';
import type { SkillsHost } from '../skills/types';
import type { InstalledSkill, InstalledSkills } from './installed-skills';
import { confirmChoice, isTrustedFor, reportFailure } from './source-ui';

/** Records that the project keeps the edits of `skill` as its folder holds them now; true when recorded. */
export async function keepSkillEdits(skill: InstalledSkill, host: SkillsHost, installed: InstalledSkills): Promise<boolean> {
  try {
    const lock = await readLock(skill.projectDir);
    await keepEdits(skill.name, await computeFolderHash(skill.folder), lock, skill.projectDir);
    host.log.info(`Keeping the edits of ${skill.name} made since it was installed (recorded in ${path.join(skill.projectDir, LOCK_FILE_NAME)}).`);
    await installed.refresh();
    return true;
  } catch (error) {
    reportFailure(`Keeping the edits of ${skill.name} failed`, error, host);
    return false;
  }
}

/** Deletes an installed skill's folder and its lock entry once the user confirms; true when removed. */
export async function removeInstalledSkill(skill: InstalledSkill, host: SkillsHost, installed: InstalledSkills): Promise<boolean> {
  if (!isTrustedFor('remove its installed skills')) {
    return false;
  }
  try {
    const folder = await findInstalled(skill.projectDir, skill.name, path.dirname(skill.folder));
    const relative = path.relative(skill.projectDir, skill.folder);
    const work = folder === undefined ? undefined : describeLocalWork(await folderDrift(skill.entry, folder));
    const detail = `Deletes ${relative} and its entry in ${LOCK_FILE_NAME}.${work === undefined ? '' : ` It ${work}: that is lost too.`}`;
    if (!(await confirmChoice(`Remove ${skill.name}, installed from ${entryOrigin(skill.entry)}?`, 'Remove', detail, `Keep ${skill.name}: nothing is deleted.`))) {
      return false;
    }
    const lock = await readLock(skill.projectDir);
    if (!lock.skills[skill.name]) {
      void vscode.window.showErrorMessage(`${skill.name} is no longer in ${path.join(skill.projectDir, LOCK_FILE_NAME)}; nothing was removed.`);
      return false;
    }
    await removeAndUnlock(skill.name, folder, lock, skill.projectDir);
    host.log.info(`Removed ${skill.name} (${skill.folder}) and its entry in ${LOCK_FILE_NAME}.`);
    await host.applyChanges([{ path: skill.folder, kind: 'deleted' }]);
    await installed.refresh();
    void vscode.window.showInformationMessage(`Removed ${skill.name}: ${relative} and its entry in ${LOCK_FILE_NAME} are gone.`);
    return true;
  } catch (error) {
    reportFailure(`Removing ${skill.name} failed`, error, host);
    return false;
  }
}
