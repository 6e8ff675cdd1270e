// "Skills: Show Routing Report": the last trigger-test run's routing as a webview panel, drawn by
// the core's page renderer; when a run ends the new report is posted to the open page, which draws
// it in place. The page asks for two things: run the trigger tests, and show a query's item in the
// Testing view.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { parseRoutingPageMessage, renderRoutingPage, renderRoutingReport, type RoutingPageUpdate } from '../../core/evals/routing-page';
import { Disposable } from '../shared/disposable';
import { ROUTING_REPORT_VIEW_TYPE } from '../shared/manifest';
import type { TriggerTestController } from './trigger-tests';

export class RoutingReport extends Disposable {
  private panel: { view: vscode.WebviewPanel; nonce: string; pageReport: string } | undefined;

  constructor(private readonly controller: TriggerTestController) {
    super();
    this.register(controller.onDidReportRouting(() => this.sendReport()));
    this.register({ dispose: () => this.panel?.view.dispose() });
  }

  /** Opens the report (or brings it to the front as it is, up to date) and returns its page. */
  show(): string {
    const nonce = this.panel?.nonce ?? randomBytes(16).toString('base64');
    const page = renderRoutingPage({ nonce, run: this.controller.lastRoutingRun });
    if (this.panel) {
      this.panel.view.reveal();
    } else {
      const view = vscode.window.createWebviewPanel(ROUTING_REPORT_VIEW_TYPE, 'Routing Report', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
      // The page is given once: later reports are posted to it, so it never reloads under the user's pointer.
      view.webview.html = page;
      this.panel = { view, nonce, pageReport: this.report() };
      view.onDidDispose(() => (this.panel = undefined));
      view.webview.onDidReceiveMessage((message: unknown) => this.answer(message));
    }
    return page;
  }

  private report(): string {
    return renderRoutingReport(this.controller.lastRoutingRun);
  }

  /**
   * Posts the current report to the page. A hidden page gets no message: VS Code reloads it from
   * its first HTML when shown, and it then says it is ready, which sends the report again.
   */
  private sendReport(): void {
    const update: RoutingPageUpdate = { type: 'showReport', body: this.report() };
    void this.panel?.view.webview.postMessage(update);
  }

  private async answer(raw: unknown): Promise<void> {
    const message = parseRoutingPageMessage(raw);
    if (message?.type === 'ready') {
      // Reloaded (or slow to load while a run ended): draw what is current if the page's HTML is behind.
      if (this.panel && this.report() !== this.panel.pageReport) {
        this.sendReport();
      }
    } else if (message?.type === 'runTriggerTests') {
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
