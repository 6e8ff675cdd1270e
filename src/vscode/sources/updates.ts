// "Skills: Check for Updates" marks installed skills whose source has a newer version; "Update
// Skill" shows what would change (a diff of SKILL.md and the list of changed files) and applies it
// only once confirmed, saying first when it would replace edits made since install.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { auditSkillFolder, auditSummary, auditVerdict } from '../../core/audit/audit-folder';
import { replaceWithLatest } from '../../core/sources/apply';
import { compareFolders, describeFolderChanges } from '../../core/sources/folder-diff';
import { installedState } from '../../core/sources/drift';
import { computeFolderHash } from '../../core/sources/folder-hash';
import { entryOrigin, entrySource, readLock } from '../../core/sources/lock';
import { sourceLabel } from '../../core/sources/source-spec';
import { checkLockedSkill, latestSkill, latestSkillProblem, SourceFetcher } from '../../core/sources/status';
import { findSkillFile } from '../../core/skill-file/load';
import { plural } from '../../core/util/text';
import { COMMANDS } from '../shared/manifest';
import type { SkillsHost } from '../skills/types';
import type { IncomingFiles } from './incoming-files';
import type { InstalledSkill, InstalledSkills } from './installed-skills';
import { confirmChoice, isTrustedFor, reportFailure, withCancellableProgress } from './source-ui';

/** What Check for Updates returns to its caller (tests): per installed skill, what its source says. */
export interface UpdateCheck {
  name: string;
  source: string;
  installed: string;
  latestCommit?: string;
  problem?: string;
}

export async function checkForUpdates(host: SkillsHost, installed: InstalledSkills): Promise<UpdateCheck[] | undefined> {
  if (!isTrustedFor('check its installed skills for updates')) {
    return undefined;
  }
  await installed.refresh();
  const skills = [...installed.skills];
  if (skills.length === 0) {
    void vscode.window.showInformationMessage('No skill of this workspace was installed from a source (skills-lock.json lists none that is installed here).');
    return [];
  }
  const checks = await withCancellableProgress(
    `Checking ${plural(skills.length, 'installed skill')} for updates`,
    async (signal) => {
      const fetcher = new SourceFetcher({ signal });
      try {
        return await Promise.all(skills.map((skill) => checkLockedSkill(skill.name, skill.entry, { projectDir: skill.projectDir, parent: path.dirname(skill.folder), fetcher, git: { signal } })));
      } finally {
        await fetcher.dispose();
      }
    },
    host,
  );
  if (!checks) {
    return undefined;
  }
  installed.setUpdates(new Map(checks.map((check, index) => [skills[index].folder, { outdated: check.source === 'outdated', commit: check.latestCommit }])));
  const outdated = checks.filter((check) => check.source === 'outdated');
  const failed = checks.filter((check) => check.source === 'unreachable' || check.source === 'gone');
  const found =
    outdated.length === 0
      ? `All ${plural(skills.length, 'installed skill')} are up to date.`
      : `${outdated.length} of ${plural(skills.length, 'installed skill')} ${outdated.length === 1 ? 'has an update' : 'have updates'}: ${outdated.map((check) => check.name).join(', ')}. Update shows what changes and asks first.`;
  const problems = failed.map((check) => `${check.name}: ${check.problem ?? `${entryOrigin(check.entry)} no longer has it`}`);
  problems.forEach((problem) => host.log.warn(`Check for Updates: ${problem}`));
  host.log.info(`Check for Updates: ${found}`);
  const show = problems.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const update = 'Update…';
  void show(problems.length > 0 ? `${found} Could not check ${problems.join('; ')}.` : found, ...(outdated.length > 0 ? [update] : [])).then(
    // With no skill named, Update Skill offers every installed skill, those found outdated selected.
    (choice) => choice === update && vscode.commands.executeCommand(COMMANDS.updateSkill),
  );
  return checks.map((check) => ({ name: check.name, source: check.source, installed: check.installed, latestCommit: check.latestCommit, problem: check.problem }));
}

/** Updates one installed skill; true when it was replaced. */
export async function updateSkill(skill: InstalledSkill, host: SkillsHost, installed: InstalledSkills, incoming: IncomingFiles): Promise<boolean> {
  if (!isTrustedFor('update its skills')) {
    return false;
  }
  const source = entrySource(skill.entry, skill.projectDir, skill.name);
  if (typeof source === 'string') {
    void vscode.window.showErrorMessage(`${skill.name} cannot be updated: ${source}.`);
    return false;
  }
  let fetcher: SourceFetcher | undefined;
  try {
    const latest = await withCancellableProgress(`Fetching ${sourceLabel(source)} for ${skill.name}`, (signal) => latestSkill(source, (fetcher = new SourceFetcher({ signal }))), host);
    if (!latest) {
      return false;
    }
    const problem = latestSkillProblem(skill.entry, source, latest.skill);
    if (problem !== undefined || !latest.skill) {
      void vscode.window.showErrorMessage(`${skill.name}: ${problem}; left as it is.`);
      return false;
    }
    const edited = (await installedState(skill.entry, skill.folder)) !== 'unchanged';
    const unchanged = (await computeFolderHash(latest.skill.folder)) === skill.entry.computedHash;
    if (unchanged && !edited) {
      installed.setUpdates(new Map([[skill.folder, { outdated: false }]]));
      void vscode.window.showInformationMessage(`${skill.name} is up to date (${entryOrigin(skill.entry)}).`);
      return false;
    }
    const newOrigin = `${sourceLabel(source)}${latest.commit ? `@${latest.commit.slice(0, 7)}` : ''}`;
    const diff = await showSkillFileDiff(skill, latest.skill.folder, newOrigin, incoming);
    const changes = describeFolderChanges(await compareFolders(skill.folder, latest.skill.folder));
    const findings = (await auditSkillFolder(latest.skill.folder)).findings;
    const detail = [
      `Files: ${changes}.`,
      edited ? 'Your edits since install are overwritten.' : undefined,
      `Audit of the new version: ${auditSummary(findings)}${
        auditVerdict(findings) === 'high'
          ? ` (${findings
              .filter((finding) => finding.severity === 'high')
              .map((finding) => `${finding.file}: ${finding.message}`)
              .join('; ')})`
          : ''
      }.`,
    ].filter((line) => line !== undefined);
    const question = unchanged ? `Overwrite your edits of ${skill.name} with ${newOrigin}?` : `Update ${skill.name} from ${entryOrigin(skill.entry)} to ${newOrigin}?`;
    if (!(await confirmChoice(question, edited ? 'Overwrite My Edits' : 'Update', detail.join(' ')))) {
      return false;
    }
    const lock = await readLock(skill.projectDir);
    if (!lock.skills[skill.name]) {
      void vscode.window.showErrorMessage(`${skill.name} is no longer in ${skill.projectDir}'s skills-lock.json; nothing was changed.`);
      return false;
    }
    const { entry } = await replaceWithLatest(skill.name, { ...latest, skill: latest.skill }, lock, { projectDir: skill.projectDir, parent: path.dirname(skill.folder) });
    host.log.info(`Updated ${skill.name} to ${entryOrigin(entry)} (${changes}).`);
    // Old ↔ new no longer says what is installed.
    await closeDiff(diff, incoming);
    await host.applyChanges([{ path: skill.folder, kind: 'created' }]);
    await installed.refresh();
    void vscode.window.showInformationMessage(`Updated ${skill.name} to ${entryOrigin(entry)}.`);
    return true;
  } catch (error) {
    reportFailure(`Updating ${skill.name} failed`, error, host);
    return false;
  } finally {
    await fetcher?.dispose();
  }
}

/** The installed SKILL.md on the left, the incoming one on the right; returns the right side's URI. */
async function showSkillFileDiff(skill: InstalledSkill, incomingFolder: string, newOrigin: string, incoming: IncomingFiles): Promise<vscode.Uri> {
  const incomingFile = await findSkillFile(incomingFolder);
  const text = incomingFile ? await fs.readFile(incomingFile, 'utf8') : '';
  const right = incoming.add(newOrigin.replace(/[/@]/g, '-'), skill.file, text);
  await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(skill.file), right, `${skill.name}: installed ↔ ${newOrigin}`, { preview: true });
  return right;
}

/** Closes every tab showing the diff whose right side is `right`, and forgets its text. */
async function closeDiff(right: vscode.Uri, incoming: IncomingFiles): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === right.toString());
  await vscode.window.tabGroups.close(tabs);
  incoming.forget(right);
}
