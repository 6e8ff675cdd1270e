// "Skills: Show Routing Report": the last trigger-test run's routing as a webview panel, drawn by
// the core's page renderer and redrawn when a run ends. The page asks for two things: run the
// trigger tests, and show a query's item in the Testing view.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { parseRoutingPageMessage, renderRoutingPage } from '../../core/evals/routing-page';
import { Disposable } from '../disposable';
import { ROUTING_REPORT_VIEW_TYPE } from '../manifest';
import type { TriggerTestController } from './trigger-tests';

export class RoutingReport extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The page last given to the panel, for the extension's tests. */
  lastHtml: string | undefined;

  constructor(private readonly controller: TriggerTestController) {
    super();
    this.register(controller.onDidReportRouting(() => this.render()));
    this.register({ dispose: () => this.panel?.dispose() });
  }

  /** Opens the report (or brings it to the front, up to date) and returns its page. */
  show(): string {
    if (this.panel) {
      this.panel.reveal();
    } else {
      this.panel = vscode.window.createWebviewPanel(ROUTING_REPORT_VIEW_TYPE, 'Routing Report', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.answer(message));
    }
    return this.render() ?? '';
  }

  private render(): string | undefined {
    if (!this.panel) {
      return undefined;
    }
    this.lastHtml = renderRoutingPage({ nonce: randomBytes(16).toString('base64'), run: this.controller.lastRoutingRun });
    this.panel.webview.html = this.lastHtml;
    return this.lastHtml;
  }

  private async answer(raw: unknown): Promise<void> {
    const message = parseRoutingPageMessage(raw);
    if (message?.type === 'runTriggerTests') {
      await vscode.commands.executeCommand('workbench.view.testing.focus');
      await this.controller.run(new vscode.TestRunRequest(), new vscode.CancellationTokenSource().token);
    } else if (message?.type === 'revealQuery') {
      const item = this.controller.queryItem(message.skill, message.query);
      if (item) {
        await vscode.commands.executeCommand('vscode.revealTestInExplorer', item);
      } else {
        void vscode.window.showInformationMessage(`The query "${message.query}" of ${message.skill} is no longer among the trigger tests.`);
      }
    }
  }
}
