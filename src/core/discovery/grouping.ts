// Grouping folders as users see them: where a skill lies inside its location
// (`shipping/land-it`), and skills of one location that carry the same name, which only grouping
// folders make likely (`ops/deploy` and `shipping/deploy` both match their folder's name).

import * as path from 'node:path';
import type { DiscoveryProblem, SkillRecord } from '../model/types';
import { relativeInside } from '../util/paths';

/** The skill's folder relative to its location, `/`-separated: `pdf`, or `shipping/land-it` inside a grouping folder. */
export function pathInLocation(record: Pick<SkillRecord, 'dir' | 'root'>): string {
  const relative = relativeInside(record.root.path, record.dir);
  return relative === undefined || relative === '' ? path.basename(record.dir) : relative.split(path.sep).join('/');
}

/** The grouping folders a skill lies in (`shipping`, `tools/release`), or undefined directly in its location. */
export function groupingPath(record: Pick<SkillRecord, 'dir' | 'root'>): string | undefined {
  const inLocation = pathInLocation(record);
  const slash = inLocation.lastIndexOf('/');
  return slash < 0 ? undefined : inLocation.slice(0, slash);
}

/**
 * A problem on each skill shadowed by another of the same name in the same location (across
 * locations, shadowing is the precedence users chose): it names both folders and which one wins.
 * Its path is the shadowed SKILL.md, so Validate Skills shows it there.
 */
export function nameClashProblems(skills: readonly SkillRecord[]): DiscoveryProblem[] {
  const shadowed = skills.filter((record) => record.status === 'shadowed');
  if (shadowed.length === 0) {
    return [];
  }
  const byFile = new Map(skills.map((record) => [record.file, record]));
  const problems: DiscoveryProblem[] = [];
  for (const record of shadowed) {
    const winner = record.shadowedBy === undefined ? undefined : byFile.get(record.shadowedBy);
    if (winner && winner.root.path === record.root.path) {
      problems.push({
        code: 'duplicate-skill-name',
        severity: 'warning',
        message: `Two skills in ${record.root.path} are named "${record.name}": ${pathInLocation(winner)} is used and ${pathInLocation(record)} is shadowed. Give one of them another name.`,
        path: record.file,
      });
    }
  }
  return problems;
}
