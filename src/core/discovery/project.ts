// A project folder discovered as the editor discovers a workspace folder, for the command line:
// the locations its `.vscode/settings.json` configures (JSONC, as VS Code reads it), the locations
// of its sub-projects when `agentSkills.nestedLocations` is on, and grouping folders inside each.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { DiscoveryProblem, SkillRoot } from '../model/types';
import { errorCode, errorMessage } from '../util/errors';
import { buildFolderSkillRoots } from './folder-roots';
import { findNestedLocations, nestedLocationsTruncatedMessage } from './nested-locations';
import { DEFAULT_SKILL_LOCATIONS } from './roots';
import { TARGET_IDS, targetIdsSetting } from '../targets/profiles';

export const PROJECT_SETTINGS_FILE = path.join('.vscode', 'settings.json');
const LOCATIONS_KEY = 'agentSkills.locations';
const NESTED_KEY = 'agentSkills.nestedLocations';
const TARGETS_KEY = 'agentSkills.targets';

export interface ProjectSettings {
  locations: string[];
  nestedLocations: boolean;
  /** `agentSkills.targets`, read as the editor reads it; absent when unset. */
  targets?: string[];
  /** A settings file that cannot be read or holds a value of the wrong type: the defaults apply. */
  problems: DiscoveryProblem[];
}

export interface ProjectRoots {
  roots: SkillRoot[];
  problems: DiscoveryProblem[];
  /** The project folder, absolute; absent when no project was asked for. */
  folder?: string;
  /** The host ids its settings target (`agentSkills.targets`); absent when unset. */
  targets?: string[];
}

/** The skill settings of `.vscode/settings.json` in `folder`; defaults where it says nothing. */
export async function readProjectSettings(folder: string): Promise<ProjectSettings> {
  const file = path.join(folder, PROJECT_SETTINGS_FILE);
  const settings: ProjectSettings = { locations: [...DEFAULT_SKILL_LOCATIONS], nestedLocations: true, problems: [] };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') {
      settings.problems.push(settingsProblem(file, `Cannot read ${file}: ${errorMessage(error)}; the default skill locations are used.`));
    }
    return settings;
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof value !== 'object' || value === null || Array.isArray(value)) {
    const reason = errors.length > 0 ? `${printParseErrorCode(errors[0].error)} at ${position(text, errors[0].offset)}` : 'it does not hold an object';
    settings.problems.push(settingsProblem(file, `${file} is not valid JSON (${reason}); the default skill locations are used.`));
    return settings;
  }
  const values = value as Record<string, unknown>;
  const locations = values[LOCATIONS_KEY];
  if (Array.isArray(locations) && locations.every((entry) => typeof entry === 'string')) {
    settings.locations = locations.filter((entry) => entry.trim() !== '');
  } else if (locations !== undefined) {
    settings.problems.push(settingsProblem(file, `${LOCATIONS_KEY} in ${file} must be a list of folder paths; the default ${DEFAULT_SKILL_LOCATIONS.join(', ')} is used.`));
  }
  const targets = values[TARGETS_KEY];
  const targetIds = targetIdsSetting(targets);
  if (targetIds !== undefined) {
    settings.targets = targetIds;
  }
  if (targets !== undefined && (!Array.isArray(targets) || targetIds?.length !== targets.length)) {
    settings.problems.push(settingsProblem(file, `${TARGETS_KEY} in ${file} must be a list of host ids (${TARGET_IDS.join(', ')}); ${targetIds ? 'its other entries are' : 'it is'} ignored.`));
  }
  const nested = values[NESTED_KEY];
  if (typeof nested === 'boolean') {
    settings.nestedLocations = nested;
  } else if (nested !== undefined) {
    settings.problems.push(settingsProblem(file, `${NESTED_KEY} in ${file} must be true or false; it is taken as true.`));
  }
  return settings;
}

/** The roots of a project folder, in the precedence the editor gives them: its own locations, then its sub-projects'. */
export async function projectRoots(folder: string): Promise<ProjectRoots> {
  const settings = await readProjectSettings(folder);
  const problems = [...settings.problems];
  let packages: string[] = [];
  if (settings.nestedLocations) {
    const nested = await findNestedLocations(folder, settings.locations);
    packages = nested.packages;
    if (nested.truncated) {
      problems.push({
        code: 'nested-locations-truncated',
        severity: 'warning',
        message: nestedLocationsTruncatedMessage(folder),
        path: folder,
      });
    }
  }
  const roots = buildFolderSkillRoots([{ name: path.basename(folder), path: folder, locations: settings.locations, packages }], { workspaceTrusted: true });
  return settings.targets === undefined ? { roots, problems, folder } : { roots, problems, folder, targets: settings.targets };
}

function settingsProblem(file: string, message: string): DiscoveryProblem {
  return { code: 'project-settings', severity: 'warning', message, path: file };
}

/** "line L, column C", counted from 1 as editors show them. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}
