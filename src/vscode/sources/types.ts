// The sources area's types other areas name: the installed skills and their diagnostics.

import type { InstalledSkills } from './installed-skills';
import type { SourceDiagnostics } from './source-diagnostics';

export type { InstalledSkills } from './installed-skills';
export type { SourceDiagnostics } from './source-diagnostics';

/** What register() hands the other areas. */
export interface Sources {
  installed: InstalledSkills;
  diagnostics: SourceDiagnostics;
}
