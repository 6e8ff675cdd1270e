// The trigger-tests area's one entry: the trigger-test files, the test controller, Skills: Draft
// Trigger Tests… (with its code lens on a SKILL.md without tests), Skills: Improve Description… and
// Skills: Show Routing Report, all released with the extension. The three commands load their code
// on first use.

import * as vscode from 'vscode';
import { once } from '../../core/util/async';
import type { SkillReference } from '../commands/types';
import { findRecord } from '../shared/skill-argument';
import { COMMANDS } from '../shared/manifest';
import { triggerToolsOnDemand } from '../side-bundles';
import type { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost, SkillWatcher } from '../skills/types';
import { AddTriggerTestsLens } from './add-trigger-tests-lens';
import type { RoutingReport, TuneReportDocument } from './on-demand';
import { TriggerTestFiles } from './trigger-test-files';
import { TriggerTestController } from './trigger-tests';
import type { TriggerTests } from './types';

export interface TriggerTestsDeps {
  host: SkillsHost;
  watcher: SkillWatcher;
  previews: ReportPreviews;
}

export function register(context: vscode.ExtensionContext, { host, watcher, previews }: TriggerTestsDeps): TriggerTests {
  const files = new TriggerTestFiles(host, watcher);
  const controller = new TriggerTestController(host, files, context.workspaceState);
  /** Made on first use, then kept and released with the extension. */
  const tuneReport = once((): TuneReportDocument => owned(new (triggerToolsOnDemand().TuneReportDocument)(previews)));
  const routingReport = once((): RoutingReport => owned(new (triggerToolsOnDemand().RoutingReport)(controller)));
  const owned = <T extends vscode.Disposable>(disposable: T): T => {
    context.subscriptions.push(disposable);
    return disposable;
  };
  context.subscriptions.push(
    files,
    controller,
    new AddTriggerTestsLens(host, files),
    vscode.commands.registerCommand(COMMANDS.showRoutingReport, () => routingReport().show()),
    vscode.commands.registerCommand(COMMANDS.draftTriggerTests, (reference?: SkillReference) =>
      triggerToolsOnDemand().draftTriggerTests(host, context.workspaceState, reference === undefined ? undefined : findRecord(host, reference)),
    ),
    vscode.commands.registerCommand(COMMANDS.improveDescription, (reference?: SkillReference) =>
      triggerToolsOnDemand().improveDescription(host, context.workspaceState, tuneReport(), files, reference === undefined ? undefined : findRecord(host, reference)),
    ),
  );
  return { files, controller };
}
