// Trigger tests' one entry point for the composition root: the test controller, Skills: Draft
// Trigger Tests… (with its code lens on a SKILL.md without tests), Skills: Improve Description… and
// Skills: Show Routing Report, all released with the extension.

import * as vscode from 'vscode';
import { findRecord, type SkillReference } from '../commands';
import { COMMANDS } from '../manifest';
import type { SkillsHost } from '../skills-host';
import { AddTriggerTestsLens } from './add-trigger-tests-lens';
import { draftTriggerTests } from './draft-trigger-tests';
import { improveDescription, TuneReportDocument } from './improve-description';
import { RoutingReport } from './routing-report';
import type { TriggerTestFiles } from './trigger-test-files';
import { TriggerTestController } from './trigger-tests';

export function registerTriggerTests(context: vscode.ExtensionContext, host: SkillsHost, files: TriggerTestFiles): { controller: TriggerTestController; routingReport: RoutingReport } {
  const controller = new TriggerTestController(host, files, context.workspaceState);
  const tuneReport = new TuneReportDocument();
  const routingReport = new RoutingReport(controller);
  context.subscriptions.push(
    controller,
    tuneReport,
    routingReport,
    new AddTriggerTestsLens(host, files),
    vscode.commands.registerCommand(COMMANDS.showRoutingReport, () => routingReport.show()),
    vscode.commands.registerCommand(COMMANDS.draftTriggerTests, (reference?: SkillReference) =>
      draftTriggerTests(host, context.workspaceState, reference === undefined ? undefined : findRecord(host, reference)),
    ),
    vscode.commands.registerCommand(COMMANDS.improveDescription, (reference?: SkillReference) =>
      improveDescription(host, context.workspaceState, tuneReport, reference === undefined ? undefined : findRecord(host, reference)),
    ),
  );
  return { controller, routingReport };
}
