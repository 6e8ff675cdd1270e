// What the Skills view's first rows do not need: skills installed from sources, diagnostics, quick fixes and field hovers, the
// hosts' budgets, trigger tests, usage, Validate Skills, Create Skill, Show Catalog, and what answers chat and the language-model
// tools. Bundled apart (dist/extension-deferred.js) and loaded right after the view was handed its
// first rows, or by the first use of one of these features if that comes first (src/vscode/deferred.ts).

import * as vscode from 'vscode';
import { CatalogDocument } from '../commands/catalog-document';
import { skillsChatHandler, skillsFollowups } from '../chat/participant';
import { skillTools } from '../chat/tools';
import { validate, type ValidateOptions } from '../commands/commands';
import { createSkill, type CreateSkillArgs } from '../commands/create-skill';
import { SkillDiagnostics } from '../diagnostics/diagnostics';
import { registerFieldHovers } from '../diagnostics/field-hovers';
import { COMMANDS } from '../shared/manifest';
import { registerQuickFixes } from '../diagnostics/quick-fixes';
import { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost } from '../skills/skills-host';
import { registerSources, type Sources } from '../sources/register';
import { registerTargets } from '../targets/register';
import { registerTriggerTests } from '../testing/register';
import { TriggerTestFiles } from '../testing/trigger-test-files';
import type { TriggerTestController } from '../testing/trigger-tests';
import { registerUsage, type SkillUsage } from '../usage/skill-usage';
import type { SkillsTreeProvider } from '../view/tree';
import type { SkillWatcher } from '../skills/watcher';

export interface DeferredFeatures {
  readonly diagnostics: SkillDiagnostics;
  readonly triggerTests: TriggerTestController;
  readonly usage: SkillUsage;
  /** Skills installed from a source: their tracker and their diagnostics (drift, audit). */
  readonly sources: Pick<Sources, 'installed' | 'diagnostics'>;
  /** What answers the @skills participant and the language-model tools (by name), which chat/register.ts registers at activation. */
  readonly chat: {
    readonly handler: vscode.ChatRequestHandler;
    readonly followups: vscode.ChatFollowupProvider;
    readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
  };
}

/** Registers the features and their commands (DEFERRED_COMMANDS), released with the extension (`context`); the view (`tree`) marks installed skills from then on. */
export function registerDeferredFeatures(context: vscode.ExtensionContext, host: SkillsHost, watcher: SkillWatcher, tree: SkillsTreeProvider): DeferredFeatures {
  const sources = registerSources(host, context.workspaceState);
  tree.showInstalled(sources.installed, sources.diagnostics);
  const triggerTestFiles = new TriggerTestFiles(host, watcher);
  const previews = new ReportPreviews();
  const hosts = registerTargets(host, previews);
  const diagnostics = new SkillDiagnostics(host, triggerTestFiles, hosts.findings, sources.diagnostics);
  const catalog = new CatalogDocument(host);
  context.subscriptions.push(
    sources.disposable,
    triggerTestFiles,
    previews,
    hosts.disposable,
    diagnostics,
    catalog,
    registerQuickFixes(),
    registerFieldHovers(),
    vscode.commands.registerCommand(COMMANDS.validate, (options?: ValidateOptions) => validate(diagnostics, options)),
    vscode.commands.registerCommand(COMMANDS.showCatalog, () => catalog.show()),
    vscode.commands.registerCommand(COMMANDS.createSkill, (args?: CreateSkillArgs) => createSkill(host, args)),
  );
  const usage = registerUsage(context, host, previews);
  const triggerTests = registerTriggerTests(context, host, triggerTestFiles, previews);
  return { diagnostics, triggerTests, usage, sources, chat: { handler: skillsChatHandler(host), followups: skillsFollowups, tools: skillTools(host) } };
}
