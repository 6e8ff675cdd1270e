// Wires the per-host features: the targets, their warnings' source, Show Budget and the folder fixes.

import * as vscode from 'vscode';
import { COMMANDS } from '../manifest';
import type { ReportPreviews } from '../report-preview';
import type { SkillsHost } from '../skills-host';
import { BudgetDocument, type ShowBudgetArgs } from './budget-document';
import { registerHostFolderFixes } from './host-folder-fix';
import { HostFindings } from './host-findings';
import { HostTargets } from './host-targets';

export function registerHosts(host: SkillsHost, previews: ReportPreviews): { findings: HostFindings; disposable: vscode.Disposable } {
  const targets = new HostTargets(host);
  const findings = new HostFindings(host, targets);
  const budget = new BudgetDocument(host, targets, previews);
  const disposable = vscode.Disposable.from(
    targets,
    budget,
    registerHostFolderFixes(findings),
    vscode.commands.registerCommand(COMMANDS.showBudget, (args?: ShowBudgetArgs) => budget.show(args)),
  );
  return { findings, disposable };
}
