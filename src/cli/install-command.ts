// `agent-skills install [--frozen] [--to DIR] [--yes]`: installs every skill skills-lock.json lists,
// as `npm ci` installs a package lock. A skill already installed as locked is left alone; a missing
// one is fetched at the commit the lock pins, its signature verified as skills-trust.json requires,
// audited, and copied only when the copy hashes to the lock's computedHash; a folder edited since
// install (or holding a file more or less) is replaced only once confirmed. The lock is never
// written, and a skill folder the lock does not name is left as it is and named.
// With --frozen nothing is written: exit 1 names each skill that is not as locked, and why.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_SKILL_LOCATIONS } from '../core/discovery/roots';
import { resolveInside } from '../core/sources/confine';
import { LOCK_FILE_NAME, lockFile } from '../core/sources/lock';
import { fetchLocked, installedSignature, lockedSkill, restoreLocked, unlockedSkillFolders, type LockedSkill, type RestoreContext } from '../core/sources/restore';
import { SourceFetcher } from '../core/sources/status';
import { readTrustPolicy } from '../core/sources/trust-policy';
import { errorMessage, InputProblem, unlessMissing } from '../core/util/errors';
import { relativeInside } from '../core/util/paths';
import { parseArguments } from './args';
import { INSTALL_USAGE } from './usage/install';
import { displayPath, ExitCode, InputError, plural, PROGRAM, UsageError, type CliIo } from './io';
import { confirmed, forSkill, lockedNames, passesAudit, projectLock, reportSkipped, signedBy, type Project } from './sources-command';

/** What installing one locked skill came to. */
type Outcome = 'as-locked' | 'installed';

export async function installCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, operands } = parseArguments('install', args, INSTALL_USAGE.options);
  if (operands.length > 0) {
    throw new UsageError(`install: takes no SOURCE or NAME; it installs every skill ${LOCK_FILE_NAME} lists (add SOURCE installs from a source).`);
  }
  const frozen = options.has('frozen');
  const projectDir = io.cwd;
  if ((await unlessMissing(fs.stat(lockFile(projectDir)))) === undefined) {
    throw new InputError(`${lockFile(projectDir)}: no such file; install restores the skills a lock lists (add SOURCE makes one).`);
  }
  const lock = await projectLock(projectDir, io);
  const to = options.get('to');
  const context: RestoreContext = {
    projectDir,
    parent: typeof to === 'string' ? await folderInProject(to, projectDir) : path.join(projectDir, DEFAULT_SKILL_LOCATIONS[0]),
    onlyParent: typeof to === 'string',
    fetcher: new SourceFetcher(),
    policy: await readTrustPolicy(projectDir),
  };
  const cli: Project = { dir: projectDir, installParent: context.parent, yes: options.has('yes'), io };
  const { names, refused } = lockedNames(lock, [], 'install', io);
  const outcomes = new Map<string, Outcome>();
  const folders: string[] = [context.parent];
  let failed = refused;
  try {
    for (const name of names) {
      const succeeded = await forSkill(name, io, async () => {
        const locked = await lockedSkill(name, lock.skills[name], context);
        folders.push(path.dirname(locked.folder));
        const outcome = await (frozen ? checkFrozen(locked, context, io) : installLocked(locked, context, cli));
        if (outcome !== undefined) {
          outcomes.set(name, outcome);
        }
        return outcome !== undefined;
      });
      failed = !succeeded || failed;
    }
  } finally {
    await context.fetcher.dispose();
  }
  const unlocked = await unlockedSkillFolders(folders, lock);
  if (unlocked.length > 0) {
    io.stdout(`Not in ${LOCK_FILE_NAME}, left as ${unlocked.length === 1 ? 'it is' : 'they are'}: ${unlocked.join(', ')}\n`);
  }
  io.stdout(`${summary(names.length, outcomes, frozen, failed)}\n`);
  return failed ? ExitCode.failure : ExitCode.ok;
}

/** `--to DIR`, relative to the project and inside it (symbolic links included). */
async function folderInProject(to: string, projectDir: string): Promise<string> {
  const relative = relativeInside(projectDir, path.resolve(projectDir, to));
  if (relative === undefined) {
    throw new InputError(`install: --to ${to} is outside the project (${projectDir}); skills are installed inside it.`);
  }
  return resolveInside(projectDir, relative, '--to', 'the project');
}

/** Installs one locked skill unless it is already as locked; undefined (with the reason on stderr) when it was not. */
async function installLocked(locked: LockedSkill, context: RestoreContext, cli: Project): Promise<Outcome | undefined> {
  const { io } = cli;
  if (locked.state === 'as-locked') {
    return (await signatureAccepted(locked, context, io)) ? 'as-locked' : undefined;
  }
  const version = await fetchLocked(locked.name, locked.entry, context);
  if (!(await passesAudit(locked.name, version.skill.folder, cli))) {
    return undefined;
  }
  const where = displayPath(locked.folder, io);
  if (
    locked.state === 'different' &&
    !(await confirmed(`${locked.name}: ${where} differs from ${LOCK_FILE_NAME} (edited since install, or a file added or removed): replace it with the locked version?`, cli))
  ) {
    io.stderr(`${PROGRAM}: ${locked.name}: not installed: ${where} differs from ${LOCK_FILE_NAME}, and its edits are kept (pass --yes to replace it with the locked version).\n`);
    return undefined;
  }
  const installed = await restoreLocked(locked, version);
  io.stdout(`Installed ${locked.name} → ${displayPath(installed.folder, io)} (${version.origin}${signedBy(version.signature.kind === 'signed' ? version.signature : undefined)})\n`);
  reportSkipped(locked.name, installed, io);
  return 'installed';
}

/** Under --frozen: 'as-locked', or undefined having said what differs and whether the locked version could be installed. */
async function checkFrozen(locked: LockedSkill, context: RestoreContext, io: CliIo): Promise<Outcome | undefined> {
  if (locked.state === 'as-locked') {
    return (await signatureAccepted(locked, context, io)) ? 'as-locked' : undefined;
  }
  const where = displayPath(locked.folder, io);
  const state = locked.state === 'missing' ? `missing (${where})` : `${where} differs from ${LOCK_FILE_NAME} (edited since install, or a file added or removed)`;
  let restorable: string;
  try {
    restorable = `install would restore it from ${(await fetchLocked(locked.name, locked.entry, context)).origin}`;
  } catch (error) {
    if (!(error instanceof InputProblem)) {
      throw error;
    }
    restorable = `install cannot restore it: ${errorMessage(error)}`;
  }
  io.stderr(`${PROGRAM}: ${locked.name}: ${state}; ${restorable}\n`);
  return undefined;
}

/** An installed skill passes when the trust policy requires no signature of its source, or its pinned commit's verifies. */
async function signatureAccepted(locked: LockedSkill, context: RestoreContext, io: CliIo): Promise<boolean> {
  const signature = await installedSignature(locked.name, locked.entry, context);
  if (signature.kind === 'refused') {
    io.stderr(`${PROGRAM}: ${locked.name}: installed as locked, but ${signature.problem}; left as it is.\n`);
  }
  return signature.kind !== 'refused';
}

function summary(total: number, outcomes: ReadonlyMap<string, Outcome>, frozen: boolean, failed: boolean): string {
  const asLocked = [...outcomes.values()].filter((outcome) => outcome === 'as-locked').length;
  const installed = outcomes.size - asLocked;
  if (total === 0) {
    return `${LOCK_FILE_NAME} lists no skill to install.`;
  }
  if (!failed && asLocked === total) {
    return `${total === 1 ? 'The locked skill is' : `All ${total} locked skills are`} installed as ${LOCK_FILE_NAME} says${frozen ? '' : ': nothing to do'}.`;
  }
  if (frozen) {
    return `${total - asLocked} of ${plural(total, 'locked skill')} ${total - asLocked === 1 ? 'is' : 'are'} not as ${LOCK_FILE_NAME} says; nothing was written.`;
  }
  const notInstalled = total - outcomes.size;
  return [`Installed ${installed}`, `${asLocked} already as locked`, ...(notInstalled > 0 ? [`${notInstalled} not installed (see above)`] : [])].join(', ') + '.';
}
