// Turns PATH and ROOT arguments into folders the core can read, refusing unusable ones up front
// with a one-line reason that names the path.

import type { Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode, errorMessage } from '../core/util/errors';
import { findSkillFile, SKILL_FILE_NAME } from '../core/skill-file/load';
import { discoverSkills, type DiscoveryResult } from '../core/discovery/discover';
import { projectRoots, type ProjectRoots } from '../core/discovery/project';
import type { SkillRoot } from '../core/model/types';
import type { ParsedArguments } from './args';
import { InputError, type CliIo } from './io';

export type ValidationTarget = { kind: 'skill'; dir: string } | { kind: 'skills-folder'; root: SkillRoot };

/** Folders given on the command line are roots like AGENT_SKILLS_PATH entries, labelled as typed. */
export async function rootsFromArguments(args: readonly string[], io: CliIo): Promise<SkillRoot[]> {
  return Promise.all(args.map(async (arg) => rootFromArgument(arg, await existingFolder(arg, io))));
}

/**
 * Roots of a server that keeps running: a folder that does not exist yet is a root all the same,
 * served once it appears (a new user has no ~/.agent/skills); anything else unusable is refused.
 * `missing` lists those arguments, to be said on stderr.
 */
export async function watchedRootsFromArguments(args: readonly string[], io: CliIo): Promise<{ roots: SkillRoot[]; missing: string[] }> {
  const missing: string[] = [];
  const roots = await Promise.all(
    args.map(async (arg) => {
      const resolved = path.resolve(io.cwd, arg);
      const exists = await fs.stat(resolved).then(
        () => true,
        (error: unknown) => errorCode(error) !== 'ENOENT',
      );
      if (!exists) {
        missing.push(arg);
        return rootFromArgument(arg, resolved);
      }
      return rootFromArgument(arg, await existingFolder(arg, io));
    }),
  );
  return { roots, missing };
}

/**
 * The roots of `--project DIR`, discovered as the editor discovers a workspace folder; with
 * `defaultToCurrent`, a command line naming no folder at all means `--project .`.
 */
export async function projectFromArguments(parsed: ParsedArguments, io: CliIo, defaultToCurrent = false): Promise<ProjectRoots> {
  const option = parsed.options.get('project');
  const folder = typeof option === 'string' ? option : defaultToCurrent && parsed.operands.length === 0 ? '.' : undefined;
  if (folder === undefined) {
    return { roots: [], problems: [] };
  }
  return projectRoots(await existingFolder(folder, io));
}

/**
 * Discovers the project's roots (first, see projectFromArguments) and then the ROOT operands; the
 * project's problems lead. `projectFolder`: the project's, absolute, when there is one.
 */
export async function discoverFromArguments(parsed: ParsedArguments, rootOperands: readonly string[], io: CliIo, defaultToCurrent = false): Promise<DiscoveryResult & { projectFolder?: string }> {
  const project = await projectFromArguments(parsed, io, defaultToCurrent);
  const discovery = await discoverSkills([...project.roots, ...(await rootsFromArguments(rootOperands, io))], { blockingReads: true });
  discovery.problems.unshift(...project.problems);
  return { ...discovery, projectFolder: project.folder };
}

/** A skill folder (holding a SKILL.md, any case), its SKILL.md itself, or a folder of skill folders. */
export async function validationTarget(arg: string, io: CliIo): Promise<ValidationTarget> {
  const resolved = path.resolve(io.cwd, arg);
  const stat = await statInput(arg, resolved);
  if (stat.isFile()) {
    if (path.basename(resolved).toLowerCase() !== SKILL_FILE_NAME.toLowerCase()) {
      throw new InputError(`${arg}: not a skill folder, a folder of skills or a ${SKILL_FILE_NAME} file.`);
    }
    return { kind: 'skill', dir: path.dirname(resolved) };
  }
  if (!stat.isDirectory()) {
    throw new InputError(`${arg}: not a folder.`);
  }
  return (await findSkillFile(resolved)) ? { kind: 'skill', dir: resolved } : { kind: 'skills-folder', root: rootFromArgument(arg, resolved) };
}

function rootFromArgument(arg: string, folder: string): SkillRoot {
  return { path: folder, kind: 'env', label: arg };
}

async function existingFolder(arg: string, io: CliIo): Promise<string> {
  const resolved = path.resolve(io.cwd, arg);
  if (!(await statInput(arg, resolved)).isDirectory()) {
    throw new InputError(`${arg}: not a folder.`);
  }
  return resolved;
}

async function statInput(arg: string, resolved: string): Promise<Stats> {
  try {
    return await fs.stat(resolved);
  } catch (error) {
    throw new InputError(`${arg}: ${describeFileError(error)}.`);
  }
}

function describeFileError(error: unknown): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'ELOOP':
      return 'the path is a symbolic link loop';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return errorMessage(error);
  }
}
