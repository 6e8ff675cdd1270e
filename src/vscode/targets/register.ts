// The targets area's one entry: the active targets, their warnings' source, Show Budget and the
// folder fixes.

import * as vscode from 'vscode';
import { COMMANDS } from '../shared/manifest';
import type { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost } from '../skills/types';
import { BudgetDocument, type ShowBudgetArgs } from './budget-document';
import { registerTargetFolderFixes } from './target-folder-fix';
import { TargetFindings } from './target-findings';
import { ActiveTargets } from './active-targets';
import type { Targets } from './types';

export function register(context: vscode.ExtensionContext, { host, previews }: { host: SkillsHost; previews: ReportPreviews }): Targets {
  const targets = new ActiveTargets(host);
  const findings = new TargetFindings(host, targets);
  const budget = new BudgetDocument(host, targets, previews);
  context.subscriptions.push(
    targets,
    budget,
    registerTargetFolderFixes(findings),
    vscode.commands.registerCommand(COMMANDS.showBudget, (args?: ShowBudgetArgs) => budget.show(args)),
  );
  return { findings };
}
