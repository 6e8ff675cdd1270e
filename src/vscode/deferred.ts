// What the Skills view's first rows do not need: skills installed from sources, diagnostics (with
// quick fixes and field hovers), the hosts' budgets, trigger tests, usage, Validate Skills, Create
// Skill, Show Catalog, and what answers chat and the language-model tools. Bundled apart
// (dist/extension-deferred.js) and loaded right after the view was handed its first rows, or by the
// first use of one of these features if that comes first (shared/deferred-loader.ts). A second
// composition root: it registers the areas extension.ts leaves to it.

import * as vscode from 'vscode';
import { skillsChatHandler, skillsFollowups } from './chat/participant';
import type { ChatAnswers } from './chat/types';
import { skillTools } from './chat/tools';
import { CatalogDocument } from './commands/catalog-document';
import { validate, type ValidateOptions } from './commands/commands';
import { createSkill, type CreateSkillArgs } from './commands/create-skill';
import { register as registerDiagnostics } from './diagnostics/register';
import type { SkillDiagnostics } from './diagnostics/types';
import { COMMANDS } from './shared/manifest';
import type { ReportPreviews } from './shared/report-preview';
import type { SkillsHost, SkillWatcher } from './skills/types';
import { register as registerSources } from './sources/register';
import type { Sources } from './sources/types';
import { register as registerTargets } from './targets/register';
import { register as registerTriggerTests } from './testing/register';
import type { TriggerTestController } from './testing/types';
import { register as registerUsage } from './usage/register';
import type { SkillUsage } from './usage/types';
import type { SkillsTreeProvider } from './view/types';

export interface DeferredFeatures {
  readonly diagnostics: SkillDiagnostics;
  readonly triggerTests: TriggerTestController;
  readonly usage: SkillUsage;
  /** Skills installed from a source: their tracker and their diagnostics (drift, audit). */
  readonly sources: Sources;
  /** What answers the @skills participant and the language-model tools, which chat/register.ts registers at activation. */
  readonly chat: ChatAnswers;
}

export interface DeferredDeps {
  host: SkillsHost;
  watcher: SkillWatcher;
  /** The Skills view, which marks installed skills from then on. */
  tree: SkillsTreeProvider;
  previews: ReportPreviews;
}

/** Registers the features and their commands (DEFERRED_COMMANDS), released with the extension (`context`). */
export function registerDeferredFeatures(context: vscode.ExtensionContext, { host, watcher, tree, previews }: DeferredDeps): DeferredFeatures {
  const sources = registerSources(context, { host });
  tree.showInstalled(sources.installed, sources.diagnostics);
  const { findings } = registerTargets(context, { host, previews });
  const triggerTests = registerTriggerTests(context, { host, watcher, previews });
  const { diagnostics } = registerDiagnostics(context, { host, triggerTestFiles: triggerTests.files, targetFindings: findings, sourceDiagnostics: sources.diagnostics });
  const catalog = new CatalogDocument(host);
  context.subscriptions.push(
    catalog,
    vscode.commands.registerCommand(COMMANDS.validate, (options?: ValidateOptions) => validate(diagnostics, options)),
    vscode.commands.registerCommand(COMMANDS.showCatalog, () => catalog.show()),
    vscode.commands.registerCommand(COMMANDS.createSkill, (args?: CreateSkillArgs) => createSkill(host, args)),
  );
  const { usage } = registerUsage(context, { host, previews });
  return { diagnostics, triggerTests: triggerTests.controller, usage, sources, chat: { handler: skillsChatHandler(host), followups: skillsFollowups, tools: skillTools(host) } };
}
