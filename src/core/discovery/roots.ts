// Builds the ordered list of skill roots from settings and environment. Pure: every input (home
// folder, environment value, trust) is passed in, so the editor, the CLI and tests agree.

import * as path from 'node:path';
import type { SkillRoot } from '../model/types';

export const DEFAULT_SKILL_LOCATIONS: readonly string[] = ['.agent/skills'];
export const USER_SKILLS_FOLDER = '.agent/skills';
export const SKILLS_PATH_ENV = 'AGENT_SKILLS_PATH';

export interface WorkspaceFolderInput {
  name: string;
  path: string;
}

export interface RootInputs {
  workspaceFolders: readonly WorkspaceFolderInput[];
  /** Folder-relative locations, in precedence order (`agentSkills.locations`). */
  locations?: readonly string[];
  /** Workspace Trust; when false, workspace roots are marked untrusted. */
  workspaceTrusted?: boolean;
  homeDir?: string;
  /** `agentSkills.userSkills` */
  userSkills?: boolean;
  /** The raw value of AGENT_SKILLS_PATH. */
  skillsPath?: string;
  builtinDir?: string;
  /** `agentSkills.builtinSkills` */
  builtinSkills?: boolean;
  /** Separator of `skillsPath`; defaults to the platform's. */
  pathDelimiter?: string;
  /** The roots of the skill servers' cached skills (`agentSkills.servers`), in the order configured. */
  serverRoots?: readonly SkillRoot[];
}

export interface SkillsPathEntries {
  paths: string[];
  /** Entries that are not absolute paths: there is no sensible folder to resolve them against. */
  ignored: string[];
}

function expandHome(entry: string, homeDir: string | undefined): string {
  if (homeDir && (entry === '~' || entry.startsWith('~/') || entry.startsWith('~\\'))) {
    return path.join(homeDir, entry.slice(1));
  }
  return entry;
}

export function parseSkillsPath(value: string | undefined, delimiter: string = path.delimiter, homeDir?: string): SkillsPathEntries {
  const entries: SkillsPathEntries = { paths: [], ignored: [] };
  for (const raw of (value ?? '').split(delimiter)) {
    const entry = expandHome(raw.trim(), homeDir);
    if (entry === '') {
      continue;
    }
    if (path.isAbsolute(entry)) {
      entries.paths.push(path.normalize(entry));
    } else {
      entries.ignored.push(raw.trim());
    }
  }
  return entries;
}

function samePath(a: string, b: string): boolean {
  return path.relative(a, b) === '';
}

/**
 * The roots of one workspace folder's locations, or of a sub-project's (`subproject`, relative to
 * the folder, `/`-separated): labelled by folder, then sub-project, then location when there are several.
 */
export function workspaceRoots(folder: WorkspaceFolderInput, locations: readonly string[], workspaceTrusted: boolean | undefined, subproject?: string): SkillRoot[] {
  const untrusted = workspaceTrusted === false;
  const used = locations.filter((location) => location.trim() !== '');
  const base = subproject === undefined ? folder.path : path.resolve(folder.path, subproject);
  return used.map((location) => {
    const place = [subproject, locations.length === 1 ? undefined : location].filter((part) => part !== undefined).join('/');
    const label = place === '' ? folder.name : `${folder.name} · ${place}`;
    return {
      path: path.resolve(base, location),
      kind: 'workspace',
      label,
      folder: folder.name,
      location,
      ...(subproject === undefined ? {} : { package: subproject }),
      ...(untrusted ? { untrusted } : {}),
    };
  });
}

export function buildSkillRoots(inputs: RootInputs): SkillRoot[] {
  const roots: SkillRoot[] = [];
  // The first occurrence of a folder keeps its (higher) precedence; later repeats are dropped.
  const add = (root: SkillRoot): void => {
    if (!roots.some((existing) => samePath(existing.path, root.path))) {
      roots.push(root);
    }
  };

  const locations = inputs.locations ?? DEFAULT_SKILL_LOCATIONS;
  for (const folder of inputs.workspaceFolders) {
    workspaceRoots(folder, locations, inputs.workspaceTrusted).forEach(add);
  }
  if (inputs.userSkills !== false && inputs.homeDir) {
    add({ path: path.join(inputs.homeDir, USER_SKILLS_FOLDER), kind: 'user', label: 'User' });
  }
  for (const entry of parseSkillsPath(inputs.skillsPath, inputs.pathDelimiter, inputs.homeDir).paths) {
    add({ path: entry, kind: 'env', label: SKILLS_PATH_ENV });
  }
  // After the user's own skills, before the extension's: a server never hides what the user wrote.
  for (const root of inputs.serverRoots ?? []) {
    add(root);
  }
  if (inputs.builtinSkills !== false && inputs.builtinDir) {
    add({ path: path.resolve(inputs.builtinDir), kind: 'builtin', label: 'Built-in' });
  }
  return roots;
}
