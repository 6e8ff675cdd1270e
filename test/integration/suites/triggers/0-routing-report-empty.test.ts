// Skills: Show Routing Report before any trigger-test run: the page says how to get routing and
// offers the run. (First of the suite's files: later ones run trigger tests.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';

describe('routing report before any run', () => {
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('shows the empty state with a button that runs the trigger tests', async function () {
    await productApi();
    const page = await vscode.commands.executeCommand<string>('agentSkills.showRoutingReport');
    assert.match(page, /Run trigger tests to see routing/);
    if (!harnessAvailable()) {
      this.skip();
    }
    const shown = await waitForViewText('webview:body', 'Run trigger tests to see routing');
    assert.match(shown, /No trigger-test run has reached a model in this window yet\./);
    assert.match(shown, /\nRun trigger tests$/);
    await screenshot('routing-report-empty');
  });
});
