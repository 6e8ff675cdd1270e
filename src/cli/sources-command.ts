// `agent-skills add | update | check | remove`: skills installed from git repositories or folders,
// pinned in the project's skills-lock.json (the format `npx skills` writes). The project is the
// working folder; skills go to `--to DIR`, by default its first skill location (.agent/skills).
// Nothing the user edited or installed otherwise is replaced or deleted without asking (or --yes).
// A problem with one skill (its lock entry, its source, its folder) is told naming it, and the
// others go on; the command then exits 1.

import * as path from 'node:path';
import { auditSkillFolder, auditSummary, auditVerdict } from '../core/audit/audit-folder';
import { DEFAULT_SKILL_LOCATIONS } from '../core/discovery/roots';
import { openSource, type Checkout, type SourceSkill } from '../core/sources/checkout';
import { computeFolderHash } from '../core/sources/folder-hash';
import { installAndLock, installConflict, removeAndUnlock, replaceWithLatest } from '../core/sources/apply';
import { describeSkipped, findInstalled, type InstallResult } from '../core/sources/install';
import { skillNameProblem } from '../core/sources/confine';
import { credentialsNotice, entryOrigin, entrySource, LOCK_FILE_NAME, readLock, type SkillsLock } from '../core/sources/lock';
import { describeSignatureState, type SignatureState } from '../core/sources/signatures';
import { parseSource, sourceLabel } from '../core/sources/source-spec';
import { describeLocalWork, folderDrift, installedState } from '../core/sources/drift';
import { checkLockedSkill, latestSkill, latestSkillProblem, SourceFetcher, type SkillCheck } from '../core/sources/status';
import { readTrustPolicy } from '../core/sources/trust-policy';
import { InputProblem } from '../core/util/errors';
import { collapseWhitespace } from '../core/util/text';
import { parseArguments } from './args';
import { ADD_USAGE } from './usage/add';
import { CHECK_USAGE } from './usage/check';
import { REMOVE_USAGE } from './usage/remove';
import { UPDATE_USAGE } from './usage/update';
import { displayPath, ExitCode, InputError, plural, PROGRAM, UsageError, type CliIo } from './io';
import { formatTable } from './list-command';

export interface Project {
  dir: string;
  /** `--to`, resolved; undefined when not given. */
  to?: string;
  /** Where new skills go: `--to`, else the first skill location. */
  installParent: string;
  yes: boolean;
  io: CliIo;
}

export function project(options: Map<string, string | true>, io: CliIo): Project {
  // --to is a 'value' option: parseArguments gives it a string or refuses the command line.
  const to = options.get('to');
  const resolvedTo = typeof to === 'string' ? path.resolve(io.cwd, to) : undefined;
  return { dir: io.cwd, to: resolvedTo, installParent: resolvedTo ?? path.join(io.cwd, DEFAULT_SKILL_LOCATIONS[0]), yes: options.has('yes'), io };
}

export async function addCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, lists, operands } = parseArguments('add', args, ADD_USAGE.options);
  if (operands.length !== 1) {
    throw new UsageError('add: give exactly one SOURCE (a git URL, a local repository or folder, or owner/repo).');
  }
  const context = project(options, io);
  const source = parseSource(operands[0], io.cwd);
  const lock = await projectLock(context.dir, io);
  // A broken policy is told before anything is fetched.
  await readTrustPolicy(context.dir);
  io.stderr(`Fetching ${sourceLabel(source)}…\n`);
  const notice = credentialsNotice(source);
  if (notice !== undefined) {
    io.stderr(`${PROGRAM}: ${notice}\n`);
  }
  const checkout = await openSource(source);
  try {
    if (checkout.skills.length === 0) {
      throw new InputError(`${sourceLabel(source)}: holds no skills (no folder with a SKILL.md${source.subPath ? ` under ${source.subPath}` : ''}).`);
    }
    const audits = new Map(await Promise.all(checkout.skills.map(async (skill) => [skill, (await auditSkillFolder(skill.folder)).findings] as const)));
    const rows = checkout.skills.map((skill) => [skill.name, auditSummary(audits.get(skill) ?? []), skill.problem ? `cannot install: ${skill.problem}` : collapseWhitespace(skill.description ?? '')]);
    io.stdout(formatTable([['NAME', 'AUDIT', 'DESCRIPTION'], ...rows], io.columns));
    const chosen = await chooseSkills(checkout, lists.get('skill') ?? [], context);
    let failed = false;
    for (const skill of chosen) {
      failed = !(await forSkill(skill.name, io, async () => (await passesAudit(skill.name, skill.folder, context)) && addSkill(skill, checkout, operands[0], lock, context))) || failed;
    }
    return failed ? ExitCode.failure : ExitCode.ok;
  } finally {
    await checkout.dispose();
  }
}

async function chooseSkills(checkout: Checkout, asked: readonly string[], context: Project): Promise<SourceSkill[]> {
  const { io } = context;
  const installable = checkout.skills.filter((skill) => skill.problem === undefined);
  if (asked.includes('*')) {
    return installable;
  }
  if (asked.length > 0) {
    return asked.map((name) => {
      const skill = checkout.skills.find((candidate) => candidate.name === name);
      if (!skill) {
        throw new InputError(`${sourceLabel(checkout.source)} has no skill "${name}" (it has: ${checkout.skills.map((candidate) => candidate.name).join(', ')}).`);
      }
      if (skill.problem) {
        throw new InputError(`${skill.skillPath}: cannot install "${name}": ${skill.problem}.`);
      }
      return skill;
    });
  }
  if (context.yes) {
    return installable;
  }
  if (!io.ask) {
    throw new InputError(
      `${sourceLabel(checkout.source)} holds ${plural(checkout.skills.length, 'skill')}: name the ones to install with --skill NAME, or pass --yes to install all (there is no terminal to ask on).`,
    );
  }
  const answer = (await io.ask(`Install which skills? Names separated by spaces, * for all, nothing to stop: `)).trim();
  if (answer === '') {
    return [];
  }
  return chooseSkills(checkout, answer.split(/[\s,]+/), { ...context, io: { ...io, ask: undefined } });
}

/** Installs one skill and records it in the lock; false (with the reason on stderr) when it was not. */
async function addSkill(skill: SourceSkill, checkout: Checkout, typed: string, lock: SkillsLock, context: Project): Promise<boolean> {
  const { io } = context;
  const parent = context.to ?? (lock.skills[skill.name] ? path.dirname((await findInstalled(context.dir, skill.name)) ?? path.join(context.installParent, skill.name)) : context.installParent);
  const place = { projectDir: context.dir, parent };
  const conflict = await installConflict(skill.name, checkout.source, lock, place);
  if (conflict) {
    const reason =
      conflict.kind === 'other-origin'
        ? `${displayPath(conflict.folder, io)} exists and was not installed from ${sourceLabel(checkout.source)}`
        : `${displayPath(conflict.folder, io)} was edited since it was installed`;
    if (!(await confirmed(`${reason}: replace it?`, context))) {
      io.stderr(`${PROGRAM}: ${skill.name}: not installed: ${reason} (pass --yes to replace it).\n`);
      return false;
    }
  }
  const { installed, entry, signature } = await installAndLock(skill, { ...checkout, typed }, lock, place);
  io.stdout(`Installed ${skill.name} → ${displayPath(installed.folder, io)} (${entryOrigin(entry)}${signedBy(signature)})\n`);
  reportSkipped(skill.name, installed, io);
  return true;
}

export async function updateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, operands } = parseArguments('update', args, UPDATE_USAGE.options);
  const context = project(options, io);
  const lock = await projectLock(context.dir, io);
  await readTrustPolicy(context.dir);
  const { names, refused } = lockedNames(lock, operands, 'update', io);
  const fetcher = new SourceFetcher();
  let failed = refused;
  try {
    for (const name of names) {
      failed = !(await forSkill(name, io, () => updateSkill(name, lock, fetcher, context))) || failed;
    }
  } finally {
    await fetcher.dispose();
  }
  return failed ? ExitCode.failure : ExitCode.ok;
}

async function updateSkill(name: string, lock: SkillsLock, fetcher: SourceFetcher, context: Project): Promise<boolean> {
  const { io } = context;
  const entry = lock.skills[name];
  const source = entrySource(entry, context.dir, name);
  if (typeof source === 'string') {
    io.stderr(`${PROGRAM}: ${name}: cannot be updated: ${source}.\n`);
    return false;
  }
  const latest = await latestSkill(source, fetcher);
  const problem = latestSkillProblem(entry, source, latest.skill);
  if (problem !== undefined || !latest.skill) {
    io.stderr(`${PROGRAM}: ${name}: ${problem}; left as it is.\n`);
    return false;
  }
  const folder = await findInstalled(context.dir, name, context.to);
  const state = await installedState(entry, folder);
  const edited = state === 'edited' || state === 'kept';
  const nothingNewer = (await computeFolderHash(latest.skill.folder)) === entry.computedHash;
  // Nothing newer: edits stay unless --yes asks for the installed version back; a missing folder is installed again.
  if (nothingNewer && (state === 'unchanged' || (edited && !context.yes))) {
    const edits = state === 'kept' ? '; the edits the project keeps are left as they are' : edited ? '; edited since it was installed, the edits are left as they are' : '';
    io.stdout(`${name}: up to date (${entryOrigin(entry)})${edits}\n`);
    return true;
  }
  if (!(await passesAudit(name, latest.skill.folder, context))) {
    return false;
  }
  if (edited && !(await confirmed(`${name} was edited since it was installed: replace your edits with the source's newer version?`, context))) {
    io.stderr(`${PROGRAM}: ${name}: not updated: it was edited since it was installed (pass --yes to replace your edits with the newer version).\n`);
    return false;
  }
  const {
    installed,
    entry: updated,
    signature,
  } = await replaceWithLatest(name, { ...latest, skill: latest.skill }, lock, {
    projectDir: context.dir,
    parent: folder ? path.dirname(folder) : context.installParent,
  });
  io.stdout(`Updated ${name} → ${displayPath(installed.folder, io)} (${entryOrigin(updated)}${signedBy(signature)})\n`);
  reportSkipped(name, installed, io);
  return true;
}

export interface CheckedSkillJson {
  name: string;
  /** `unchanged`, `edited` (since install), `kept` (edited, and the project keeps the edits) or `missing`. */
  installed: SkillCheck['installed'];
  /** `current`, `outdated`, `pinned`, `gone` (from the source) or `unreachable`. */
  source: SkillCheck['source'];
  origin: string;
  path?: string;
  latestCommit?: string;
  problem?: string;
  /** With a skills-trust.json: `signed` (signer, key, tag), `refused` (problem), or `unsigned` (no rule for its source). */
  signature?: { state: SignatureState['kind']; signer?: string; key?: string; tag?: string; problem?: string };
}

export async function checkCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, operands } = parseArguments('check', args, CHECK_USAGE.options);
  const context = project(options, io);
  const lock = await projectLock(context.dir, io);
  const trust = await readTrustPolicy(context.dir);
  const { names, refused } = lockedNames(lock, operands, 'check', io);
  const fetcher = new SourceFetcher();
  let checks: SkillCheck[];
  try {
    checks = await Promise.all(names.map((name) => checkLockedSkill(name, lock.skills[name], { projectDir: context.dir, parent: context.to, fetcher, trust })));
  } finally {
    await fetcher.dispose();
  }
  const needsAttention =
    refused ||
    checks.some((check) => (check.installed !== 'unchanged' && check.installed !== 'kept') || (check.source !== 'current' && check.source !== 'pinned') || check.signature?.kind === 'refused');
  if (options.has('json')) {
    io.stdout(`${JSON.stringify({ skills: checks.map((check) => checkJson(check, io)) })}\n`);
  } else if (checks.length > 0) {
    const rows = checks.map((check) => [check.name, check.installed, check.source, entryOrigin(check.entry), checkDetails(check)]);
    io.stdout(formatTable([['NAME', 'INSTALLED', 'SOURCE', 'ORIGIN', 'DETAILS'], ...rows], io.columns));
  } else if (!refused) {
    io.stdout(`No skills in ${LOCK_FILE_NAME}.\n`);
  }
  return needsAttention ? ExitCode.failure : ExitCode.ok;
}

/** What to look at first (why the source could not be compared, a newer commit), then the signature. */
function checkDetails(check: SkillCheck): string {
  const source = check.problem ?? (check.source === 'outdated' && check.latestCommit ? `newer: ${check.latestCommit.slice(0, 7)}` : undefined);
  const signature = check.signature?.kind === 'refused' ? `signature: ${check.signature.problem}` : check.signature?.kind === 'signed' ? describeSignatureState(check.signature) : undefined;
  return [source, signature].filter((part) => part !== undefined).join('; ');
}

function checkJson(check: SkillCheck, io: CliIo): CheckedSkillJson {
  return {
    name: check.name,
    installed: check.installed,
    source: check.source,
    origin: entryOrigin(check.entry),
    path: check.folder === undefined ? undefined : displayPath(check.folder, io),
    latestCommit: check.latestCommit,
    problem: check.problem,
    signature: check.signature && signatureJson(check.signature),
  };
}

function signatureJson(state: SignatureState): NonNullable<CheckedSkillJson['signature']> {
  switch (state.kind) {
    case 'signed':
      return { state: state.kind, signer: state.signer, key: state.key, tag: state.tag };
    case 'refused':
      return { state: state.kind, problem: state.problem };
    default:
      return { state: state.kind };
  }
}

export async function removeCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, operands } = parseArguments('remove', args, REMOVE_USAGE.options);
  if (operands.length === 0) {
    throw new UsageError('remove: name at least one installed skill.');
  }
  const context = project(options, io);
  const lock = await projectLock(context.dir, io);
  const { names, refused } = lockedNames(lock, operands, 'remove', io);
  let failed = refused;
  for (const name of names) {
    failed = !(await forSkill(name, io, () => removeSkill(name, lock, context))) || failed;
  }
  return failed ? ExitCode.failure : ExitCode.ok;
}

/** Removes one installed skill and its lock entry; false (with the reason on stderr) when it was kept. */
async function removeSkill(name: string, lock: SkillsLock, context: Project): Promise<boolean> {
  const { io } = context;
  const folder = await findInstalled(context.dir, name, context.to);
  const work = folder === undefined ? undefined : describeLocalWork(await folderDrift(lock.skills[name], folder));
  if (work !== undefined && !(await confirmed(`${name} ${work}: delete it anyway?`, context))) {
    io.stderr(`${PROGRAM}: ${name}: not removed: it ${work} (pass --yes to delete it).\n`);
    return false;
  }
  await removeAndUnlock(name, folder, lock, context.dir);
  io.stdout(`Removed ${name}${folder ? ` (${displayPath(folder, io)})` : ''}\n`);
  return true;
}

/**
 * The named skills (all of the lock's when none is named); an unknown name is an input error. A
 * key that is no skill name is told and left out (`refused`): it could name any folder.
 */
export function lockedNames(lock: SkillsLock, names: readonly string[], command: string, io: CliIo): { names: string[]; refused: boolean } {
  const unknown = names.filter((name) => !Object.hasOwn(lock.skills, name));
  if (unknown.length > 0) {
    throw new InputError(
      `${command}: ${unknown.map((name) => `"${name}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in ${LOCK_FILE_NAME} (installed: ${Object.keys(lock.skills).join(', ') || 'none'}).`,
    );
  }
  const wanted = names.length > 0 ? [...new Set(names)] : Object.keys(lock.skills).sort();
  const usable = wanted.filter((name) => {
    const problem = skillNameProblem(name);
    if (problem !== undefined) {
      io.stderr(`${PROGRAM}: ${LOCK_FILE_NAME}: the entry ${problem}; nothing was done with it.\n`);
    }
    return problem === undefined;
  });
  return { names: usable, refused: usable.length < wanted.length };
}

/** Runs one skill's step; a problem with its input is told naming the skill, and the step counts as failed. */
export async function forSkill(name: string, io: CliIo, step: () => Promise<boolean>): Promise<boolean> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof InputProblem)) {
      throw error;
    }
    io.stderr(`${PROGRAM}: ${name}: ${error.message}\n`);
    return false;
  }
}

/**
 * Audits a skill before it is written; a high finding is printed and installs only when confirmed
 * on the terminal, or with --yes (which says what it let through).
 */
export async function passesAudit(name: string, folder: string, context: Project): Promise<boolean> {
  const { io } = context;
  const findings = (await auditSkillFolder(folder)).findings;
  if (auditVerdict(findings) !== 'high') {
    return true;
  }
  for (const found of findings.filter((candidate) => candidate.severity === 'high')) {
    const where = found.position ? `:${found.position.line + 1}:${found.position.column + 1}` : '';
    io.stderr(`${PROGRAM}: ${name}/${found.file}${where}: high: ${found.message} [${found.code}]\n`);
  }
  if (await confirmed(`${name}: the audit found ${auditSummary(findings)}: install it anyway?`, context)) {
    return true;
  }
  io.stderr(`${PROGRAM}: ${name}: not installed: the audit found ${auditSummary(findings)} (see "${PROGRAM} audit"; pass --yes to install it anyway).\n`);
  return false;
}

export async function confirmed(question: string, context: Project): Promise<boolean> {
  if (context.yes) {
    return true;
  }
  if (!context.io.ask) {
    return false;
  }
  return /^y(es)?$/i.test((await context.io.ask(`${question} [y/N] `)).trim());
}

export function reportSkipped(name: string, installed: InstallResult, io: CliIo): void {
  const skipped = describeSkipped(installed);
  if (skipped !== undefined) {
    io.stderr(`${PROGRAM}: ${name}: ${skipped}\n`);
  }
}

/** `, signed by alice@example.com` after an origin, when a signature was verified. */
export function signedBy(signature: { signer: string } | undefined): string {
  return signature === undefined ? '' : `, signed by ${signature.signer}`;
}

/** The project's lock; what it holds twice is warned about on stderr. */
export function projectLock(projectDir: string, io: CliIo): Promise<SkillsLock> {
  return readLock(projectDir, (message) => io.stderr(`${PROGRAM}: warning: ${message}\n`));
}
