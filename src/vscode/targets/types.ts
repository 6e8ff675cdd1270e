// The targets area's types other areas name: the findings about the active targets.

import type { TargetFindings } from './target-findings';

export type { TargetFindings } from './target-findings';

/** What register() hands the other areas. */
export interface Targets {
  findings: TargetFindings;
}
