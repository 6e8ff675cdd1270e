// Grouping folders as users see them: where a skill lies inside its location
// (`shipping/land-it`), and skills of one location that carry the same name, which only grouping
// folders make likely (`ops/deploy` and `shipping/deploy` both match their folder's name), or one
// skill server lists at different paths.

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
  const problems = servedNameClashProblems(skills);
  const shadowed = skills.filter((record) => record.status === 'shadowed');
  if (shadowed.length === 0) {
    return problems;
  }
  const byFile = new Map(skills.map((record) => [record.file, record]));
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

/**
 * A problem for each set of skills one server lists under the same frontmatter name at different
 * paths (`acme/billing/refunds`, `acme/support/refunds`): each stays usable under its own name
 * (`team/acme/billing/refunds`), and the user hears of the clash, which names the server.
 */
function servedNameClashProblems(skills: readonly SkillRecord[]): DiscoveryProblem[] {
  const byServerAndName = new Map<string, SkillRecord[]>();
  for (const record of skills) {
    if (record.root.kind === 'server' && record.metadata) {
      const key = `${record.root.path}\n${record.metadata.name}`;
      byServerAndName.set(key, [...(byServerAndName.get(key) ?? []), record]);
    }
  }
  const problems: DiscoveryProblem[] = [];
  for (const records of byServerAndName.values()) {
    if (records.length > 1) {
      const server = records[0].root.server ?? records[0].root.label;
      const names = records.map((record) => record.name);
      problems.push({
        code: 'served-duplicate-name',
        severity: 'warning',
        message: `Skill server "${server}" lists ${records.length} skills named "${records[0].metadata!.name}": ${names.slice(0, -1).join(', ')} and ${names.at(-1)!}. Each is available under its own name.`,
        path: records[0].file,
        server,
      });
    }
  }
  return problems;
}
