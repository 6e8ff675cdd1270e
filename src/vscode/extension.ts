// Composition root: each area of the editor glue (a folder with a register.ts) is registered in
// the order of what it needs from the others. Each register() adds its disposables to the
// context's subscriptions and hands back what the areas after it use.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { createApi, type AgentSkillsApi } from './api';
import { register as registerChat } from './chat/register';
import { register as registerCommands } from './commands/register';
import { register as registerDiagnostics } from './diagnostics/register';
import { register as registerMcp } from './mcp/register';
import { register as registerServers } from './servers/register';
import { register as registerSkills, startFirstDiscovery } from './skills/register';
import { register as registerSources } from './sources/register';
import { register as registerTargets } from './targets/register';
import { register as registerTriggerTests } from './testing/register';
import { register as registerUsage } from './usage/register';
import { createEarlySkillsView, register as registerView } from './view/register';

// Discovery starts, and the Skills view is registered, as this code loads: VS Code reads the
// extension's stored state before it calls activate(), a round trip to the window that is slow while
// the window starts, and neither needs that state. activate() hands both what they wait for: the host
// takes the discovery over, the view gets its provider.
const log = vscode.window.createOutputChannel('Agent Skills', { log: true });
/** The built-in skills (dist/ is beside skills/): the same folder for the early discovery and the host, which takes it over only then. */
const builtinDir = path.join(__dirname, '..', 'skills');
const firstDiscovery = startFirstDiscovery(log, { builtinDir });
const earlySkillsView = createEarlySkillsView();

export function activate(context: vscode.ExtensionContext): AgentSkillsApi {
  const { servers } = registerServers(context, { log });
  const { host, watcher } = registerSkills(context, { log, builtinDir, servers, firstDiscovery });
  const sources = registerSources(context, { host });
  const { tree, unconfigured, previews } = registerView(context, { host, sources, early: earlySkillsView });
  const { findings } = registerTargets(context, { host, previews });
  const triggerTests = registerTriggerTests(context, { host, watcher, previews });
  const { diagnostics } = registerDiagnostics(context, { host, triggerTestFiles: triggerTests.files, targetFindings: findings, sourceDiagnostics: sources.diagnostics });
  registerCommands(context, { host, diagnostics, unconfigured });
  const { usage } = registerUsage(context, { host, previews });
  registerChat(context, { host });
  const { mcpServer } = registerMcp(context, { host, usageLog: usage.serverLog });
  // Released last, so what the areas log while they are released is still written.
  context.subscriptions.push(log);
  return createApi({ host, watcher, diagnostics, tree, mcpServer, triggerTests: triggerTests.controller, sources, usage }, context.subscriptions);
}

export function deactivate(): void {}
