// The usage area's types other areas name: the workspace's record of activations.

import type { SkillUsage } from './skill-usage';

export type { SkillUsage } from './skill-usage';

/** What register() hands the other areas. */
export interface Usage {
  usage: SkillUsage;
}
