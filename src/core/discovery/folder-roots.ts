// Skill roots for an editor window, where each workspace folder may configure its own locations
// (the setting is resource-scoped). Folder order is precedence order, then user, env, built-in;
// within a folder, its own locations come first, then its sub-projects' (nearest first).

import * as path from 'node:path';
import { buildSkillRoots, workspaceRoots, type RootInputs } from './roots';
import type { SkillRoot } from '../model/types';

export interface FolderWithLocations {
  name: string;
  path: string;
  /** This folder's `agentSkills.locations`. */
  locations: readonly string[];
  /** Sub-projects holding some of these locations (see findNestedLocations), nearest first. */
  packages?: readonly string[];
}

export type SharedRootInputs = Omit<RootInputs, 'workspaceFolders' | 'locations'>;

/** Like buildSkillRoots, but each folder brings its own locations; a folder reached twice keeps its first place. */
export function buildFolderSkillRoots(folders: readonly FolderWithLocations[], shared: SharedRootInputs): SkillRoot[] {
  const perFolder = folders.flatMap((folder) => [
    ...workspaceRoots(folder, folder.locations, shared.workspaceTrusted),
    ...(folder.packages ?? []).flatMap((subproject) => workspaceRoots(folder, folder.locations, shared.workspaceTrusted, subproject)),
  ]);
  const rest = buildSkillRoots({ ...shared, workspaceFolders: [] });
  const roots: SkillRoot[] = [];
  for (const root of [...perFolder, ...rest]) {
    if (!roots.some((known) => path.relative(known.path, root.path) === '')) {
      roots.push(root);
    }
  }
  return roots;
}
