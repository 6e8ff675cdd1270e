// The view area's types other areas name: the Skills view's provider, the unconfigured locations
// and the report previews.

import type { ReportPreviews } from '../shared/report-preview';
import type { SkillsTreeProvider } from './tree';
import type { UnconfiguredLocations } from './unconfigured-locations';

export type { SkillsTreeProvider } from './tree';
export type { UnconfiguredLocations } from './unconfigured-locations';

/** What register() hands the other areas. */
export interface View {
  tree: SkillsTreeProvider;
  unconfigured: UnconfiguredLocations;
  previews: ReportPreviews;
}
