// Skill folders kept where other tools look (`.agents/skills`, `.github/skills`, `.claude/skills`)
// but not in `agentSkills.locations`: the Skills view points them out instead of staying silent.

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { findSkillFile } from '../skill-file/load';

export const WELL_KNOWN_LOCATIONS: readonly string[] = ['.agents/skills', '.github/skills', '.claude/skills', '.agent/skills'];

/** The location as path.resolve would see it: `./x/`, `x//` and `x\\` are all `x`. */
function normalizeLocation(location: string): string {
  return path.posix.normalize(location.replace(/\\/g, '/')).replace(/\/$/, '');
}

/** Well-known locations of `folder` holding at least one skill while not being configured. */
export async function findUnconfiguredLocations(folder: string, configured: readonly string[]): Promise<string[]> {
  const known = new Set(configured.map(normalizeLocation));
  const candidates = WELL_KNOWN_LOCATIONS.filter((location) => !known.has(location));
  const found = await Promise.all(candidates.map(async (location) => ((await holdsSkill(path.join(folder, location))) ? location : undefined)));
  return found.filter((location): location is string => location !== undefined);
}

async function holdsSkill(root: string): Promise<boolean> {
  const entries = await fsp.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if ((entry.isDirectory() || entry.isSymbolicLink()) && (await findSkillFile(path.join(root, entry.name)))) {
      return true;
    }
  }
  return false;
}

/** The line above the Skills view naming them, or undefined when there are none. */
export function unconfiguredMessage(locations: readonly string[]): string | undefined {
  if (locations.length === 0) {
    return undefined;
  }
  const are = locations.length === 1 ? 'is' : 'are';
  return `Skills in ${locations.join(', ')} are not used: the folder${locations.length === 1 ? '' : 's'} ${are} not in agentSkills.locations. "Add Found Skill Folders" in the view's menu adds ${locations.length === 1 ? 'it' : 'them'}.`;
}
