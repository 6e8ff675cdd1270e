// Wires the per-host features: the targets, their warnings' source, Show Budget and the folder fixes.

import * as vscode from 'vscode';
import { COMMANDS } from '../shared/manifest';
import type { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost } from '../skills/skills-host';
import { BudgetDocument, type ShowBudgetArgs } from './budget-document';
import { registerTargetFolderFixes } from './target-folder-fix';
import { TargetFindings } from './target-findings';
import { ActiveTargets } from './active-targets';

export function registerTargets(host: SkillsHost, previews: ReportPreviews): { findings: TargetFindings; disposable: vscode.Disposable } {
  const targets = new ActiveTargets(host);
  const findings = new TargetFindings(host, targets);
  const budget = new BudgetDocument(host, targets, previews);
  const disposable = vscode.Disposable.from(
    targets,
    budget,
    registerTargetFolderFixes(findings),
    vscode.commands.registerCommand(COMMANDS.showBudget, (args?: ShowBudgetArgs) => budget.show(args)),
  );
  return { findings, disposable };
}
