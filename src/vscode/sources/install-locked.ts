// "Skills: Install Locked Skills": installs each skill a workspace folder's skills-lock.json lists
// and that is missing, through the core's restore steps as `agent-skills install` does: at the commit
// the lock pins, its signature verified as skills-trust.json requires, audited, and only when its
// copy hashes to the lock's computedHash. A folder that differs from the lock is left to Update
// Skill and Keep Edits; the lock is never written.

import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { auditSkillFolder } from '../../core/audit/audit-folder';
import { DEFAULT_SKILL_LOCATIONS } from '../../core/discovery/roots';
import { resolveInside, skillNameProblem } from '../../core/sources/confine';
import { describeSkipped } from '../../core/sources/install';
import { LOCK_FILE_NAME, lockFile, readLock, type LockEntry, type SkillsLock } from '../../core/sources/lock';
import { fetchLocked, lockedSkill, restoreLocked, type RestoreContext } from '../../core/sources/restore';
import { SourceFetcher } from '../../core/sources/status';
import { readTrustPolicy } from '../../core/sources/trust-policy';
import { errorMessage, InputProblem } from '../../core/util/errors';
import { plural } from '../../core/util/text';
import { readSettings } from '../shared/settings';
import type { SkillsHost } from '../skills/types';
import { acceptsAudit } from './add-from-git';
import type { InstalledSkills } from './installed-skills';
import { isTrustedFor, withCancellableProgress } from './source-ui';

interface Outcome {
  installed: string[];
  /** `name: why`, for each locked skill that could not be installed. */
  failed: string[];
}

/** Installs the missing locked skills of every workspace folder; resolves to the names installed. */
export async function installLockedSkills(host: SkillsHost, installed: InstalledSkills): Promise<string[]> {
  if (!isTrustedFor('install its locked skills')) {
    return [];
  }
  const outcome: Outcome = { installed: [], failed: [] };
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  await withCancellableProgress(
    'Installing locked skills',
    async (signal) => {
      for (const folder of folders) {
        await installMissingIn(folder, signal, outcome, host);
      }
    },
    host,
  );
  await installed.refresh();
  if (outcome.installed.length > 0) {
    void vscode.window.showInformationMessage(`Installed ${plural(outcome.installed.length, 'locked skill')}: ${outcome.installed.join(', ')} (as ${LOCK_FILE_NAME} pins them).`);
  }
  if (outcome.failed.length > 0) {
    void vscode.window.showErrorMessage(`Not installed: ${outcome.failed.join(' ')}`);
  } else if (outcome.installed.length === 0) {
    void vscode.window.showInformationMessage(`Every skill ${LOCK_FILE_NAME} lists is installed.`);
  }
  return outcome.installed;
}

async function installMissingIn(folder: vscode.WorkspaceFolder, signal: AbortSignal, outcome: Outcome, host: SkillsHost): Promise<void> {
  const projectDir = folder.uri.fsPath;
  if ((await fs.stat(lockFile(projectDir)).catch(() => undefined)) === undefined) {
    return;
  }
  let lock: SkillsLock;
  let context: RestoreContext;
  try {
    lock = await readLock(projectDir);
    // Settings come with the workspace too: the location skills go in stays inside the folder.
    const location = readSettings(folder).locations[0] ?? DEFAULT_SKILL_LOCATIONS[0];
    const parent = await resolveInside(projectDir, location, 'agentSkills.locations: the location', `the workspace folder ${folder.name}`);
    context = { projectDir, parent, onlyParent: false, fetcher: new SourceFetcher({ signal }), policy: await readTrustPolicy(projectDir), git: { signal } };
  } catch (error) {
    failed(outcome, folder.name, error, host);
    return;
  }
  try {
    // A key that is no skill name could name any folder: it is left out (and logged by the installed skills' tracker).
    for (const name of Object.keys(lock.skills).filter((key) => skillNameProblem(key) === undefined)) {
      try {
        await installIfMissing(name, lock.skills[name], context, outcome, host);
      } catch (error) {
        failed(outcome, name, error, host);
      }
    }
  } finally {
    await context.fetcher.dispose();
  }
}

async function installIfMissing(name: string, entry: LockEntry, context: RestoreContext, outcome: Outcome, host: SkillsHost): Promise<void> {
  const locked = await lockedSkill(name, entry, context);
  if (locked.state !== 'missing') {
    return;
  }
  const version = await fetchLocked(name, entry, context);
  if (!(await acceptsAudit(version.skill, (await auditSkillFolder(version.skill.folder)).findings))) {
    outcome.failed.push(`${name}: its audit finding was not accepted.`);
    return;
  }
  const result = await restoreLocked(locked, version);
  const signed = version.signature.kind === 'signed' ? `, signed by ${version.signature.signer}` : '';
  host.log.info(`Installed ${name} from ${version.origin}${signed} into ${result.folder} (as ${LOCK_FILE_NAME} pins it).`);
  const skipped = describeSkipped(result);
  if (skipped !== undefined) {
    host.log.warn(`${name}: ${skipped}`);
  }
  await host.applyChanges([{ path: result.folder, kind: 'created' }]);
  outcome.installed.push(name);
}

/** A problem with one skill's input is told and the others go on; anything else stops the command. */
function failed(outcome: Outcome, name: string, error: unknown, host: SkillsHost): void {
  if (!(error instanceof InputProblem)) {
    throw error;
  }
  host.log.error(`${name}: not installed: ${errorMessage(error)}`);
  outcome.failed.push(`${name}: ${errorMessage(error)}`);
}
