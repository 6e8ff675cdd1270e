// The user's choices that shape discovery and the catalog, whoever reads them (editor settings or
// command-line flags).

export interface SkillSettings {
  enabled: boolean;
  allowlist: string[];
  locations: string[];
  /** Also the locations of sub-projects (monorepo packages). */
  nestedLocations: boolean;
  userSkills: boolean;
  builtinSkills: boolean;
  /** Where agent mode gets skills: the MCP server (its texts list the skills) or the extension's referenceable tools. */
  agentMode: 'mcpServer' | 'tools';
  catalogBudgetPercent: number;
  catalogBudgetChars: number;
}
