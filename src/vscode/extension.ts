// Composition root: each area of the editor glue (a folder with a register.ts) is registered in
// the order of what it needs from the others. Each register() adds its disposables to the
// context's subscriptions and hands back what the areas after it use.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { createApi, type AgentSkillsApi } from './api';
import { register as registerChat } from './chat/register';
import { register as registerCommands } from './commands/register';
import { deferredFeatures } from './shared/deferred-loader';
import { register as registerMcp } from './mcp/register';
import { serverLogFile } from './shared/usage-log-file';
import { register as registerServers } from './servers/register';
import { register as registerSkills, startFirstDiscovery } from './skills/register';
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

/**
 * The module of what the first rows do not need, which loads dist/extension-deferred.js. Required
 * here rather than in side-bundles.ts: those features use the other side bundles, so that module is
 * theirs to import.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loading on first use is the point
const deferredOnDemand = (): typeof import('./deferred') => require('./deferred') as typeof import('./deferred');

export function activate(context: vscode.ExtensionContext): AgentSkillsApi {
  const { servers } = registerServers(context, { log });
  const { host, watcher } = registerSkills(context, { log, builtinDir, servers, firstDiscovery });
  const { tree, unconfigured, previews } = registerView(context, { host, early: earlySkillsView });
  const { mcpServer } = registerMcp(context, { host, usageLog: serverLogFile(context) });
  // What the rows do not need (sources, targets, trigger tests, diagnostics, usage, what answers chat)
  // loads once they are shown, or on first use (src/vscode/deferred.ts).
  const deferred = deferredFeatures(host, () => deferredOnDemand().registerDeferredFeatures(context, { host, watcher, tree, previews }));
  context.subscriptions.push(deferred.standIns);
  registerCommands(context, { host, unconfigured });
  registerChat(context, { answers: () => deferred.features().chat });
  // Released last, so what the areas log while they are released is still written.
  context.subscriptions.push(log);
  return createApi({ host, watcher, tree, mcpServer, deferred }, context.subscriptions);
}

export function deactivate(): void {}
