// The integration suites `npm run test:integration` runs, in this order. Each suite's tests live
// in test/integration/suites/<name>/*.test.ts; its fixtures in test/workspaces/.
import type { IntegrationSuite } from '../../scripts/harness/suite-folders';

export const integrationSuites: readonly IntegrationSuite[] = [
  {
    name: 'smoke',
    workspaces: ['basic'],
    trusted: true,
    home: 'home-with-skills',
  },
  {
    name: 'untrusted',
    workspaces: ['basic', 'second-folder'],
    trusted: false,
  },
  {
    name: 'packaged',
    workspaces: ['basic'],
    trusted: true,
    installVsix: true,
  },
  // The editor: Skills view, live reload, Validate Skills, quick fixes, commands, settings, trust.
  {
    name: 'editor',
    workspaces: ['editor'],
    trusted: true,
    home: 'editor-home',
    // Its .claude/skills would make Claude Code a default target; the targets suite checks that.
    settings: { 'agentSkills.targets': [] },
  },
  // Targets (other tools that read skills): per-target warnings, their quick fixes and Show Budget.
  {
    name: 'targets',
    workspaces: ['targets'],
    trusted: true,
    settings: { 'agentSkills.builtinSkills': false, 'agentSkills.locations': ['.agent/skills', '.agents/skills'] },
  },
  {
    name: 'editor-multiroot',
    workspaces: ['team-a', 'team-b'],
    trusted: true,
    settings: { 'agentSkills.builtinSkills': false },
  },
  {
    name: 'editor-restricted',
    workspaces: ['editor'],
    trusted: false,
    home: 'editor-home',
    // Only the user's skills beside the workspace's, so the view's rows are few and all asserted.
    settings: { 'agentSkills.builtinSkills': false },
  },
  // A monorepo: sub-projects' skill locations under their package, a clash, one appearing live.
  {
    name: 'editor-monorepo',
    workspaces: ['monorepo'],
    trusted: true,
    settings: { 'agentSkills.builtinSkills': false },
  },
  {
    name: 'editor-welcome',
    workspaces: ['editor-empty'],
    trusted: true,
    settings: { 'agentSkills.builtinSkills': false },
  },
  // Restricted Mode, then trust granted through the workbench UI: workspace skills come in live.
  {
    name: 'trust-grant',
    workspaces: ['trust-grant'],
    trusted: false,
    home: 'trust-grant-home',
    settings: { 'agentSkills.builtinSkills': false },
  },
  // Skills from git and from sites: Add Skills from Git, origins in the tree, Check for Updates,
  // Update, drift, audit. Clones, sites and modal confirmations take more than the default 240 s on
  // a loaded machine.
  {
    name: 'sources',
    workspaces: ['sources'],
    trusted: true,
    settings: { 'agentSkills.builtinSkills': false, 'agentSkills.targets': [] },
    timeoutSeconds: 360,
  },
  // Chat: the language-model tools and the @skills participant.
  {
    name: 'chat',
    workspaces: ['chat'],
    trusted: true,
    home: 'chat-home',
    // Some fifty requests through the chat view, each drawn and read, on a busy machine.
    timeoutSeconds: 360,
  },
  {
    name: 'chat-restricted',
    workspaces: ['chat'],
    trusted: false,
    home: 'chat-home',
  },
  // The MCP server as VS Code runs it: tools in vscode.lm.tools, the catalog, the allowlist, trust.
  {
    name: 'mcp',
    workspaces: ['chat'],
    trusted: true,
    home: 'chat-home',
  },
  // A new user: no home skills folder at all (the fixture home is empty), then one made while the
  // server runs; and a window with no skills folder of its own either.
  {
    name: 'mcp-new-user',
    workspaces: ['chat'],
    trusted: true,
  },
  {
    name: 'mcp-no-skills',
    workspaces: ['editor-empty'],
    trusted: true,
  },
  {
    name: 'mcp-restricted',
    workspaces: ['chat'],
    trusted: false,
    home: 'chat-home',
  },
  // Skill servers: this product's own `agent-skills mcp` (stdio, HTTP, and two HTTP replicas
  // behind nginx) and a stand-in that alters what it serves, as sources of skills in the tree,
  // activation and the cache.
  {
    name: 'skill-servers',
    workspaces: ['skill-servers'],
    trusted: true,
    settings: { 'agentSkills.builtinSkills': false },
  },
  {
    name: 'skill-servers-restricted',
    workspaces: ['skill-servers'],
    trusted: false,
    settings: {
      'agentSkills.builtinSkills': false,
      // Never started in Restricted Mode: if it were, it would leave this marker file behind.
      'agentSkills.servers': [{ name: 'repo', command: 'node', args: ['-e', "require('fs').writeFileSync(require('os').tmpdir() + '/agent-skills-repo-server-started', '')"] }],
    },
  },
  // Trigger tests in the Testing view, run against the scripted model deciding by rule.
  {
    name: 'triggers',
    workspaces: ['triggers'],
    trusted: true,
    home: 'triggers-home',
    settings: { 'agentSkills.builtinSkills': false, 'agentSkills.triggerTests.model': 'scripted' },
    // Its runs, the routing report's webview and the window's reload before its last file take
    // longer than most suites on a busy machine.
    timeoutSeconds: 480,
  },
  {
    name: 'triggers-restricted',
    workspaces: ['triggers'],
    trusted: false,
    home: 'triggers-home',
    settings: { 'agentSkills.builtinSkills': false, 'agentSkills.triggerTests.model': 'scripted' },
  },
];
