// A registry snapshot over hand-made records, for tests of pure functions that take a snapshot.

import { isUsableStatus } from '../../src/core/model/status';
import type { RegistrySnapshot } from '../../src/core/discovery/registry';
import type { SkillRecord } from '../../src/core/model/types';
import { modelVisibleSkills } from '../../src/core/use/catalog';
import { findSkills } from '../../src/core/use/find';

export function fakeSnapshot(skills: readonly SkillRecord[]): RegistrySnapshot {
  return {
    version: 1,
    skills,
    problems: [],
    activeNames: new Set(skills.filter((record) => record.status === 'active').map((record) => record.name)),
    usable: (name) => skills.find((record) => record.name === name && isUsableStatus(record.status)),
    byName: (name) => skills.filter((record) => record.name === name),
    findSkills: (query, options) => findSkills(modelVisibleSkills(skills), query, options),
  };
}
