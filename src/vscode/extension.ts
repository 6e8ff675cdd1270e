// Composition root: creates the skills host and wires the editor features to it. Every feature
// lives in its own module; this file only connects them and owns their disposal.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { createApi, type AgentSkillsApi } from './api';
import { registerChat } from './chat/register';
import { registerCommands } from './commands/commands';
import { deferredFeatures } from './deferred/loader';
import { serverLogFile, SkillsMcpServerProvider } from './mcp/server-definition';
import { SkillsHost, startFirstDiscovery } from './skills/skills-host';
import { SkillServersOnDemand } from './servers/server-loader';
import { createSkillsView, registerSkillsView, SkillsTreeProvider } from './view/tree';
import { UnconfiguredLocations } from './view/unconfigured-locations';
import { SkillWatcher } from './skills/watcher';

// Discovery starts, and the Skills view is registered, as this code loads: VS Code reads the
// extension's stored state before it calls activate(), a round trip to the window that is slow while
// the window starts, and neither needs that state. activate() hands both what they wait for: the host
// takes the discovery over, the view gets its provider.
const log = vscode.window.createOutputChannel('Agent Skills', { log: true });
/** The built-in skills (dist/ is beside skills/): the same folder for the early discovery and the host, which takes it over only then. */
const builtinDir = path.join(__dirname, '..', 'skills');
const firstDiscovery = startFirstDiscovery(log, { builtinDir });
const skillsView = registerSkillsView();

/**
 * The module of what the first rows do not need, which loads dist/extension-deferred.js. Required
 * here rather than in side-bundles.ts: those features use the other side bundles, so that module is
 * theirs to import.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loading on first use is the point
const deferredOnDemand = (): typeof import('./deferred/on-demand') => require('./deferred/on-demand') as typeof import('./deferred/on-demand');

export function activate(context: vscode.ExtensionContext): AgentSkillsApi {
  const serverCache = vscode.Uri.joinPath(context.globalStorageUri, 'skill-servers').fsPath;
  const servers = new SkillServersOnDemand(log, context.secrets, (SkillServers) => new SkillServers(log, serverCache, context.secrets, String(context.extension.packageJSON.version)));
  const host = new SkillsHost(log, { builtinDir, servers, firstDiscovery });
  const watcher = new SkillWatcher(host);
  const tree = new SkillsTreeProvider(host);
  const unconfigured = new UnconfiguredLocations(host);
  const mcpServer = new SkillsMcpServerProvider(host, context.extensionUri, serverLogFile(context));
  // What the rows do not need loads once they are shown, or on first use (src/vscode/deferred).
  const deferred = deferredFeatures(host, () => deferredOnDemand().registerDeferredFeatures(context, host, watcher, tree));
  context.subscriptions.push(host, servers, watcher, tree, unconfigured, mcpServer, deferred.standIns);
  context.subscriptions.push(createSkillsView(skillsView, host, tree, unconfigured), registerCommands(host, unconfigured), registerChat(context.extensionUri, deferred.features), log);
  return createApi(host, watcher, tree, mcpServer, deferred, context.subscriptions);
}

export function deactivate(): void {}
