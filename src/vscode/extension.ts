// Composition root: creates the skills host and wires the editor features to it. Every feature
// lives in its own module; this file only connects them and owns their disposal.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { createApi, type AgentSkillsApi } from './api';
import { registerChat } from './chat/register';
import { CatalogDocument } from './commands/catalog-document';
import { registerCommands } from './commands/commands';
import { SkillDiagnostics } from './diagnostics/diagnostics';
import { registerFieldHovers } from './diagnostics/field-hovers';
import { registerTargets } from './targets/register';
import { SkillsMcpServerProvider } from './mcp/server-definition';
import { registerQuickFixes } from './diagnostics/quick-fixes';
import { ReportPreviews } from './shared/report-preview';
import { SkillsHost, startFirstDiscovery } from './skills/skills-host';
import { registerSources } from './sources/register';
import { SkillServersOnDemand } from './servers/server-loader';
import { createSkillsView, registerSkillsView, SkillsTreeProvider } from './view/tree';
import { registerTriggerTests } from './testing/register';
import { TriggerTestFiles } from './testing/trigger-test-files';
import { UnconfiguredLocations } from './view/unconfigured-locations';
import { registerUsage } from './usage/skill-usage';
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

export function activate(context: vscode.ExtensionContext): AgentSkillsApi {
  const serverCache = vscode.Uri.joinPath(context.globalStorageUri, 'skill-servers').fsPath;
  const servers = new SkillServersOnDemand(log, context.secrets, (SkillServers) => new SkillServers(log, serverCache, context.secrets, String(context.extension.packageJSON.version)));
  const host = new SkillsHost(log, { builtinDir, servers, firstDiscovery });
  const watcher = new SkillWatcher(host);
  const sources = registerSources(host, context.workspaceState);
  const tree = new SkillsTreeProvider(host, sources.installed, sources.diagnostics);
  const triggerTestFiles = new TriggerTestFiles(host, watcher);
  const previews = new ReportPreviews();
  const hosts = registerTargets(host, previews);
  const diagnostics = new SkillDiagnostics(host, triggerTestFiles, hosts.findings, sources.diagnostics);
  const catalog = new CatalogDocument(host);
  const unconfigured = new UnconfiguredLocations(host);
  context.subscriptions.push(host, servers, watcher, sources.disposable, triggerTestFiles, tree, previews, hosts.disposable, diagnostics, catalog, unconfigured);
  context.subscriptions.push(createSkillsView(skillsView, host, tree, unconfigured), registerCommands(host, diagnostics, catalog, unconfigured), registerQuickFixes(), registerFieldHovers(), log);
  const usage = registerUsage(context, host, previews);
  registerChat(context, host);
  const mcpServer = new SkillsMcpServerProvider(host, context.extensionUri, usage.serverLog);
  context.subscriptions.push(mcpServer);
  const triggerTests = registerTriggerTests(context, host, triggerTestFiles, previews);
  return createApi(host, watcher, diagnostics, tree, mcpServer, triggerTests, sources, usage, context.subscriptions);
}

export function deactivate(): void {}
