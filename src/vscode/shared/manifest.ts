// Every id the extension shares with package.json: commands, views, context keys, the chat
// participant, settings and language-model tools. A unit test checks this module against the
// manifest, so a rename on one side alone fails the build.

import { MCP_TOOL_NAMES, TOOL_NAMES } from '../../core/chat/tool-names';
import { DEFAULT_SKILL_LOCATIONS } from '../../core/discovery/roots';
import { DEFAULT_CONCURRENCY, DEFAULT_RUNS, DEFAULT_THRESHOLD } from '../../core/evals/verdict';
import { DEFAULT_CATALOG_BUDGET_CHARS, DEFAULT_CATALOG_BUDGET_PERCENT } from '../../core/use/catalog';

export const COMMANDS = {
  validate: 'agentSkills.validate',
  createSkill: 'agentSkills.createSkill',
  refresh: 'agentSkills.refresh',
  addFoundLocations: 'agentSkills.addFoundLocations',
  showCatalog: 'agentSkills.showCatalog',
  showBudget: 'agentSkills.showBudget',
  addToTargetFolder: 'agentSkills.addToTargetFolder',
  deactivateAll: 'agentSkills.deactivateAll',
  showLog: 'agentSkills.showLog',
  openSkill: 'agentSkills.openSkill',
  activate: 'agentSkills.activate',
  deactivate: 'agentSkills.deactivate',
  allow: 'agentSkills.allow',
  removeFromAllowlist: 'agentSkills.removeFromAllowlist',
  reveal: 'agentSkills.reveal',
  copyName: 'agentSkills.copyName',
  manageTrust: 'agentSkills.manageTrust',
  draftTriggerTests: 'agentSkills.draftTriggerTests',
  improveDescription: 'agentSkills.improveDescription',
  addFromGit: 'agentSkills.addFromGit',
  checkForUpdates: 'agentSkills.checkForUpdates',
  installLocked: 'agentSkills.installLocked',
  updateSkill: 'agentSkills.updateSkill',
  keepEdits: 'agentSkills.keepEdits',
  removeSkill: 'agentSkills.removeSkill',
  showRoutingReport: 'agentSkills.showRoutingReport',
  showUsage: 'agentSkills.showUsage',
  clearUsage: 'agentSkills.clearUsage',
  setServerToken: 'agentSkills.setServerToken',
  reconnectServer: 'agentSkills.reconnectServer',
} as const;

/** The routing report's webview panels (no manifest entry: the report is not restored after a reload). */
export const ROUTING_REPORT_VIEW_TYPE = 'agentSkills.routingReport';

export const VIEW_CONTAINER_ID = 'agentSkills';
export const SKILLS_VIEW_ID = 'agentSkills.skills';

/** Context keys set for `when` clauses of the manifest. */
export const CONTEXT_KEYS = {
  ready: 'agentSkills.ready',
  skillCount: 'agentSkills.skillCount',
  unconfiguredLocations: 'agentSkills.unconfiguredLocations',
  turnedOff: 'agentSkills.turnedOff',
} as const;

export const PARTICIPANT_ID = 'agentSkills.chat';

/** The `agentSkills.*` settings, by key below the section. */
export const SETTINGS_SECTION = 'agentSkills';
export const SETTINGS = {
  enabled: 'enabled',
  allowlist: 'allowlist',
  locations: 'locations',
  nestedLocations: 'nestedLocations',
  targets: 'targets',
  userSkills: 'userSkills',
  builtinSkills: 'builtinSkills',
  servers: 'servers',
  agentMode: 'agentMode',
  catalogBudgetPercent: 'catalog.budgetPercent',
  catalogBudgetChars: 'catalog.budgetChars',
  triggerTestsRuns: 'triggerTests.runs',
  triggerTestsThreshold: 'triggerTests.threshold',
  triggerTestsModel: 'triggerTests.model',
  triggerTestsConfirmAbove: 'triggerTests.confirmAbove',
  triggerTestsConcurrency: 'triggerTests.concurrency',
} as const;

/** Each setting's default, as package.json declares it (a unit test holds the two equal): what the code falls back to. */
export const SETTING_DEFAULTS = {
  enabled: true,
  allowlist: [],
  locations: DEFAULT_SKILL_LOCATIONS,
  nestedLocations: true,
  targets: null,
  userSkills: true,
  builtinSkills: true,
  servers: [],
  agentMode: 'mcpServer',
  catalogBudgetPercent: DEFAULT_CATALOG_BUDGET_PERCENT,
  catalogBudgetChars: DEFAULT_CATALOG_BUDGET_CHARS,
  triggerTestsRuns: DEFAULT_RUNS,
  triggerTestsThreshold: DEFAULT_THRESHOLD,
  triggerTestsModel: '',
  triggerTestsConfirmAbove: 60,
  triggerTestsConcurrency: DEFAULT_CONCURRENCY,
} as const satisfies Record<keyof typeof SETTINGS, unknown>;

/** The language-model tools for @skills and other extensions; the core's texts for the model name them too. */
export const TOOLS = TOOL_NAMES;
/** Their referenceable twins (#activateSkill…), offered to agent mode when `agentMode` is `tools`, named as the MCP server names its tools. */
export const AGENT_MODE_TOOLS = MCP_TOOL_NAMES;

/** The `mcpServerDefinitionProviders` id contributed in package.json. */
export const MCP_SERVER_PROVIDER_ID = 'agentSkills.mcpServer';
