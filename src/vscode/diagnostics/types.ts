// The diagnostics area's types other areas name: the diagnostics and a validation's report.

import type { SkillDiagnostics } from './diagnostics';

export type { SkillDiagnostics, ValidationReport } from './diagnostics';

/** What register() hands the other areas. */
export interface Diagnostics {
  diagnostics: SkillDiagnostics;
}
