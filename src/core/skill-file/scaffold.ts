// Creating a new skill: the name rules as the user types, and the SKILL.md it starts from.

import * as path from 'node:path';
import type { SkillRoot } from '../model/types';
import { NEW_SKILL_DESCRIPTION } from './schema';
import { validateFrontmatter } from './validate-frontmatter';

/**
 * Why `name` cannot name a new skill, or undefined when it can. Stricter than loading: warnings
 * (over-long, non-portable characters) also count, since a new skill should be valid everywhere.
 */
export function newSkillNameProblem(name: string): string | undefined {
  if (name.trim() === '') {
    return 'Enter a name: lowercase letters, digits and hyphens, e.g. "release-notes".';
  }
  if (name !== name.trim()) {
    return 'The name must not start or end with spaces.';
  }
  // With a valid description and the name as its own folder, every diagnostic is about the name.
  const { diagnostics } = validateFrontmatter({ name, description: 'placeholder' }, { file: 'SKILL.md', dirName: name, locations: new Map() });
  return diagnostics[0]?.message;
}

export interface NewSkillPlaces {
  /** The locations without a folder of that name, in their order: where the skill may go. */
  free: SkillRoot[];
  /** Why the name cannot be used anywhere (error), or where it cannot go (warning). */
  problem?: { severity: 'error' | 'warning'; message: string };
}

/**
 * Where a new skill called `name` may be created among `roots`: a folder of that name is never
 * touched, so a location that has one is out, and a name taken in every location is refused.
 */
export function newSkillPlaces(name: string, roots: readonly SkillRoot[], folderExists: (dir: string) => boolean): NewSkillPlaces {
  const taken = roots.filter((root) => folderExists(path.join(root.path, name)));
  const free = roots.filter((root) => !taken.includes(root));
  if (taken.length === 0) {
    return { free };
  }
  const where = taken.map((root) => root.label).join(', ');
  if (free.length === 0) {
    return { free, problem: { severity: 'error', message: `A folder named "${name}" already exists in ${taken.length === 1 ? where : `every location (${where})`}. Choose another name.` } };
  }
  return { free, problem: { severity: 'warning', message: `A folder named "${name}" already exists in ${where}; the new skill can go to ${free.map((root) => root.label).join(', ')}.` } };
}

/** Turns `release-notes` into `Release notes`, for the heading of a new skill. */
export function skillTitle(name: string): string {
  const words = name.split('-').filter((word) => word !== '');
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A valid SKILL.md for a new skill, ready to be filled in. */
export function scaffoldSkillText(name: string, description: string = NEW_SKILL_DESCRIPTION): string {
  return [
    '---',
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    '',
    `# ${skillTitle(name)}`,
    '',
    'Step-by-step instructions the model follows when it uses this skill.',
    '',
    '1. …',
    '',
    'Put longer material in files under `references/` and scripts under `scripts/`, and link them from here.',
    '',
  ].join('\n');
}
