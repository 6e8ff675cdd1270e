// A registry snapshot over records that are already known and never change: the command line's
// one-off evaluations (trigger tests at a git ref's descriptions) answer the tools from it.

import { isUsableStatus } from '../model/status';
import type { SkillRecord } from '../model/types';
import { modelVisibleSkills } from '../use/catalog';
import { SkillSearchIndex } from '../use/find';
import type { RegistrySnapshot } from './registry';

export function staticSnapshot(given: readonly SkillRecord[]): RegistrySnapshot {
  // Its own copy, so the records searched are the records listed whatever becomes of the caller's array.
  const skills = [...given];
  let index: SkillSearchIndex | undefined;
  // Indexed on the first search only, then kept: an evaluation searches many times.
  const searchIndex = (): SkillSearchIndex => {
    if (!index) {
      index = new SkillSearchIndex();
      index.sync(modelVisibleSkills(skills));
    }
    return index;
  };
  return {
    version: 1,
    skills,
    problems: [],
    activeNames: new Set(skills.filter((record) => record.status === 'active').map((record) => record.name)),
    usable: (name) => skills.find((record) => record.name === name && isUsableStatus(record.status)),
    byName: (name) => skills.filter((record) => record.name === name),
    findSkills: (query, options) => searchIndex().search(query, options),
    rankSkills: (query, limit) => searchIndex().rank(query, limit),
  };
}
