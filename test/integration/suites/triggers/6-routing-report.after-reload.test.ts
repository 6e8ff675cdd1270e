// Skills: Show Routing Report after Developer: Reload Window: the last run's report is drawn as it
// was before the reload (runs only under the browser harness, which reloads the window between
// the suite's other files and this one).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { firstWorkspaceFolder } from '../../editor-helpers';
import { SUMMARY_BEFORE_RELOAD } from '../../trigger-helpers';
import { readViewText, screenshot, waitForViewText } from '../../util';

describe('routing report after a reload', () => {
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('shows the last run as it did before the window reloaded', async () => {
    const before = fs.readFileSync(path.join(firstWorkspaceFolder(), SUMMARY_BEFORE_RELOAD), 'utf8');
    await productApi();
    const page = await vscode.commands.executeCommand<string>('agentSkills.showRoutingReport');
    assert.doesNotMatch(page, /No trigger-test run has reached a model/);
    assert.equal(await waitForViewText('webview:.summary', before.slice(0, before.indexOf(' UTC: '))), before);
    assert.match(await readViewText('webview:table'), /daily-journal\s+3\s+100%\s+100% \(3 of 3\)/);
    await screenshot('routing-report-after-reload');
  });
});
