// "Skills: Add Skills from Git…": a source (URL, path, owner/repo, #ref, or a skills site's URL),
// fetched under a cancellable progress notification, then the skills it holds with their audit,
// then the location, then installed and locked as `agent-skills add` does (the core's steps, not a
// copy of them).

import * as path from 'node:path';
import * as vscode from 'vscode';
import { auditSkillFolder, auditSummary, auditVerdict } from '../../core/audit/audit-folder';
import { findingLocation, renderAuditMarkdown } from '../../core/audit/audit-report';
import type { AuditFinding } from '../../core/audit/rules';
import { installAndLock, installConflict, type InstallPlace } from '../../core/sources/apply';
import { openSource, type Checkout, type SourceSkill } from '../../core/sources/checkout';
import { describeSkipped } from '../../core/sources/install';
import { credentialsNotice, entryOrigin, readLock } from '../../core/sources/lock';
import { parseSource, sourceLabel, type SkillSource } from '../../core/sources/source-spec';
import { collapseWhitespace } from '../../core/util/text';
import { errorMessage } from '../../core/util/errors';
import { readSettings } from '../shared/settings';
import type { SkillsHost } from '../skills/types';
import { showLockedPreview } from '../shared/report-preview';
import type { IncomingFiles } from './incoming-files';
import type { InstalledSkills } from './installed-skills';
import { confirmChoice, isTrustedFor, reportFailure, withCancellableProgress } from './source-ui';

/** Arguments for automation and tests; anything left out is asked for. */
export interface AddFromGitArgs {
  source?: string;
  /** Names of the skills to install. */
  skills?: string[];
  /** The folder to install into (absolute), or a location as configured (`.agent/skills`). */
  location?: string;
}

/** A place to install into: a configured location of a trusted workspace folder. */
interface InstallLocation extends InstallPlace {
  location: string;
  folderName: string;
}

/** Installs the chosen skills and returns their names, or undefined when nothing was installed. */
export async function addSkillsFromGit(host: SkillsHost, installed: InstalledSkills, incoming: IncomingFiles, args: AddFromGitArgs = {}): Promise<string[] | undefined> {
  if (!isTrustedFor('install skills into it')) {
    return undefined;
  }
  const locations = installLocations();
  if (locations.length === 0) {
    void vscode.window.showErrorMessage('Open a folder to install skills into: skills from git go to one of its skill locations.');
    return undefined;
  }
  const cwd = locations[0].projectDir;
  const text = args.source ?? (await askSource(cwd));
  if (text === undefined) {
    return undefined;
  }
  let source: SkillSource;
  try {
    source = parseSource(text, cwd);
  } catch (error) {
    void vscode.window.showErrorMessage(errorMessage(error));
    return undefined;
  }
  const notice = credentialsNotice(source);
  if (notice !== undefined) {
    host.log.warn(`${sourceLabel(source)}: ${notice}`);
    void vscode.window.showWarningMessage(`${sourceLabel(source)}: ${notice}`);
  }
  const checkout = await withCancellableProgress(`Fetching ${sourceLabel(source)}`, (signal) => openSource(source, { signal }), host);
  if (!checkout) {
    return undefined;
  }
  try {
    return await installFrom(checkout, locations, host, installed, incoming, args);
  } finally {
    await checkout.dispose();
  }
}

async function installFrom(
  checkout: Checkout,
  locations: readonly InstallLocation[],
  host: SkillsHost,
  installed: InstalledSkills,
  incoming: IncomingFiles,
  args: AddFromGitArgs,
): Promise<string[] | undefined> {
  const label = sourceLabel(checkout.source);
  if (checkout.skills.length === 0) {
    void vscode.window.showErrorMessage(`${label} holds no skills (no folder with a SKILL.md${checkout.source.subPath ? ` under ${checkout.source.subPath}` : ''}).`);
    return undefined;
  }
  // Audited before anything is offered, so the pick list can show what each skill would bring in.
  const audits = new Map(await Promise.all(checkout.skills.map(async (skill) => [skill, (await auditSkillFolder(skill.folder)).findings] as const)));
  // A pick list cuts its lines: every finding of the skills on offer is shown whole beside it.
  const offered = args.skills ? checkout.skills.filter((skill) => args.skills!.includes(skill.name)) : checkout.skills;
  if (offered.some((skill) => (audits.get(skill) ?? []).length > 0)) {
    const report = renderAuditMarkdown(
      label,
      offered.map((skill) => ({ name: skill.name, findings: audits.get(skill) ?? [] })),
    );
    await showLockedPreview(incoming.add('audit', 'Audit before installing.md', report));
  }
  const chosen = args.skills ? namedSkills(checkout, args.skills) : await pickSkills(checkout, audits);
  if (!chosen || chosen.length === 0) {
    return undefined;
  }
  const accepted: SourceSkill[] = [];
  /** The skills the user declined, each with what was left as it was. */
  const skipped: string[] = [];
  for (const skill of chosen) {
    if (await acceptsAudit(skill, audits.get(skill) ?? [])) {
      accepted.push(skill);
    } else {
      skipped.push(`${skill.name} (not installed)`);
    }
  }
  const place = accepted.length > 0 ? await chooseLocation(locations, args.location) : undefined;
  if (!place) {
    tellSkipped(skipped, label);
    return undefined;
  }
  const done: string[] = [];
  try {
    const lock = await readLock(place.projectDir);
    for (const skill of accepted) {
      const conflict = await installConflict(skill.name, checkout.source, lock, place);
      const reason = conflict?.kind === 'other-origin' ? `it exists and was not installed from ${label}` : conflict?.kind === 'edited' ? 'it was edited since it was installed' : undefined;
      const folder = path.join(place.location, skill.name);
      if (reason && !(await confirmChoice(`${folder}: ${reason}. Replace it?`, 'Replace', `Its files are replaced by those of ${label}.`, `Skip ${skill.name}: ${folder} stays as it is.`))) {
        skipped.push(`${skill.name} (${folder} left as it is)`);
        continue;
      }
      const { installed: result, entry } = await installAndLock(skill, checkout, lock, place);
      host.log.info(`Installed ${skill.name} from ${entryOrigin(entry)} into ${result.folder}.`);
      const leftBehind = describeSkipped(result);
      if (leftBehind !== undefined) {
        host.log.warn(`${skill.name}: ${leftBehind}`);
      }
      done.push(skill.name);
      await host.applyChanges([{ path: result.folder, kind: 'created' }]);
    }
  } catch (error) {
    reportFailure(`Installing from ${label} failed`, error, host);
  }
  await installed.refresh();
  if (done.length > 0) {
    const commit = checkout.commit ? `@${checkout.commit.slice(0, 7)}` : '';
    const skippedNote = skipped.length > 0 ? ` Skipped: ${skipped.join(', ')}.` : '';
    void vscode.window.showInformationMessage(`Installed ${done.join(', ')} from ${label}${commit} into ${place.location} (locked in skills-lock.json).${skippedNote}`);
  } else {
    tellSkipped(skipped, label);
  }
  return done.length > 0 ? done : undefined;
}

/** Says which skills were skipped when none was installed, so a declined choice is not taken for a failure. */
function tellSkipped(skipped: readonly string[], label: string): void {
  if (skipped.length > 0) {
    void vscode.window.showInformationMessage(`Nothing was installed from ${label}. Skipped: ${skipped.join(', ')}.`);
  }
}

function askSource(cwd: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Add Skills from Git',
    prompt:
      'A git URL, a local repository or folder, GitHub owner/repo, or a site publishing the Agent Skills discovery index; for git, add #branch, #tag or #commit to pin, and :sub/path to look only there',
    placeHolder: 'e.g. owner/repo, https://example.com/team/skills.git#v2, ../skills-repo, https://skills.example.com',
    ignoreFocusOut: true,
    validateInput: (value) => {
      if (value.trim() === '') {
        return undefined;
      }
      try {
        parseSource(value, cwd);
        return undefined;
      } catch (error) {
        return errorMessage(error);
      }
    },
  });
}

function namedSkills(checkout: Checkout, names: readonly string[]): SourceSkill[] | undefined {
  const missing = names.filter((name) => !checkout.skills.some((skill) => skill.name === name));
  if (missing.length > 0) {
    void vscode.window.showErrorMessage(`${sourceLabel(checkout.source)} has no skill ${missing.join(', ')} (it has: ${checkout.skills.map((skill) => skill.name).join(', ')}).`);
    return undefined;
  }
  return checkout.skills.filter((skill) => names.includes(skill.name) && installable(skill));
}

function installable(skill: SourceSkill): boolean {
  if (skill.problem) {
    void vscode.window.showErrorMessage(`${skill.skillPath}: cannot install "${skill.name}": ${skill.problem}.`);
  }
  return skill.problem === undefined;
}

interface SkillPick extends vscode.QuickPickItem {
  skill: SourceSkill;
}

/** The skills of the source, each with its description and its audit; high findings lead and are marked. */
async function pickSkills(checkout: Checkout, audits: ReadonlyMap<SourceSkill, readonly AuditFinding[]>): Promise<SourceSkill[] | undefined> {
  const items: SkillPick[] = checkout.skills.map((skill) => {
    const findings = audits.get(skill) ?? [];
    const verdict = auditVerdict(findings);
    const about = skill.problem ? `Cannot be installed: ${skill.problem}` : collapseWhitespace(skill.description ?? '');
    return {
      label: verdict === 'high' ? `$(warning) ${skill.name}` : skill.name,
      description: `${verdict === 'high' ? '$(error)' : verdict === 'clean' ? '$(pass)' : '$(info)'} audit: ${auditSummary(findings)}${findings.length > 0 ? ' (every finding in the Audit preview)' : ''}`,
      detail: about,
      skill,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: `Add Skills from ${sourceLabel(checkout.source)}${checkout.commit ? `@${checkout.commit.slice(0, 7)}` : ''}`,
    placeHolder: 'Skills to install: each was audited; a high finding asks again before it is installed',
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  return picked?.map((item) => item.skill).filter(installable);
}

/** A skill with a high finding is installed only when the user confirms, having read the findings. */
export async function acceptsAudit(skill: SourceSkill, findings: readonly AuditFinding[]): Promise<boolean> {
  if (auditVerdict(findings) !== 'high') {
    return true;
  }
  const high = findings.filter((finding) => finding.severity === 'high');
  const detail = high.map((finding) => `${findingLocation(finding)}: ${finding.message}`).join(' ');
  return confirmChoice(`${skill.name}: the audit found ${auditSummary(findings)}. Install it anyway?`, 'Install Anyway', detail);
}

/** Every configured location of every trusted workspace folder, in precedence order. */
function installLocations(): InstallLocation[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .flatMap((folder) => readSettings(folder).locations.map((location) => ({ location, folderName: folder.name, projectDir: folder.uri.fsPath, parent: path.resolve(folder.uri.fsPath, location) })));
}

async function chooseLocation(locations: readonly InstallLocation[], asked: string | undefined): Promise<InstallLocation | undefined> {
  if (asked !== undefined) {
    const wanted = locations.find((candidate) => candidate.location === asked || candidate.parent === path.resolve(asked));
    if (!wanted) {
      void vscode.window.showErrorMessage(`"${asked}" is not a skill location of this window (agentSkills.locations: ${locations.map((candidate) => candidate.location).join(', ')}).`);
    }
    return wanted;
  }
  if (locations.length === 1) {
    return locations[0];
  }
  const multiRoot = new Set(locations.map((candidate) => candidate.projectDir)).size > 1;
  const picked = await vscode.window.showQuickPick(
    locations.map((candidate) => ({ label: candidate.location, description: multiRoot ? candidate.folderName : candidate.parent, candidate })),
    { title: 'Add Skills from Git', placeHolder: 'Install into which location?', ignoreFocusOut: true },
  );
  return picked?.candidate;
}
