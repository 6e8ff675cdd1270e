// The user's choices that shape discovery and the catalog, whoever reads them (editor settings or
// command-line flags).

export interface SkillSettings {
  enabled: boolean;
  allowlist: string[];
  locations: string[];
  userSkills: boolean;
  builtinSkills: boolean;
  catalogBudgetPercent: number;
  catalogBudgetChars: number;
}
