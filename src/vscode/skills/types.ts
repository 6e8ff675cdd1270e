// The skills area's types other areas name: the host (the one registry and its roots) and the watcher.

import type { SkillsHost } from './skills-host';
import type { SkillWatcher } from './watcher';

export type { SkillServerRoots, SkillsHost } from './skills-host';
export type { SkillWatcher } from './watcher';

/** What register() hands the other areas. */
export interface Skills {
  host: SkillsHost;
  watcher: SkillWatcher;
}
