// Skills: Show Routing Report after runs over several skills: the matrix in the webview, the worst
// confusion opening its queries, the page following a new run (started from its own button), a
// query shown in the Testing view, and the page at a sidebar's width.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { findItem, runItems, SUMMARY_BEFORE_RELOAD, triggerTests, TRIGGER_RULES } from '../../trigger-helpers';
import { firstWorkspaceFolder } from '../../editor-helpers';
import { click, harnessAvailable, readViewText, screenshot, scriptedModel, waitForViewText } from '../../util';

describe('routing report', () => {
  before(async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await productApi();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
  });

  it('draws expected × loaded with rates, and a confusion opens the queries behind it', async () => {
    const model = await scriptedModel();
    model.reset();
    // A model that sends journal queries to pdf-forms.
    model.answerByRules({ ...TRIGGER_RULES, rules: [{ keywords: ['journal', 'w-9'], activate: 'pdf-forms' }] });
    const controller = await triggerTests();
    await runItems(controller, [findItem(controller, 'pdf-forms', 'fill in the W-9 PDF form for me'), findItem(controller, 'daily-journal')]);

    const page = await vscode.commands.executeCommand<string>('agentSkills.showRoutingReport');
    assert.match(page, /daily-journal → pdf-forms: 3 runs of 3 \(100%\)/);
    const table = await waitForViewText('webview:table', 'daily-journal');
    // Worst first: daily-journal (0%) above pdf-forms (100%); columns in the rows' order.
    assert.match(table.replace(/\s+/g, ' '), /daily-journal pdf-forms routed right daily-journal 3 100% 0% \(0 of 3\) pdf-forms 3 100% 100% \(3 of 3\)$/);
    const summary = await readViewText('webview:.summary');
    assert.match(summary, /Scripted Model, ended .* UTC: 2 of 3 queries passed, 1 failed\. Runs of queries that should trigger: 3 runs of 6 loaded the expected skill \(50%\) over 2 skills\./);

    await click({ role: 'button', name: 'daily-journal → pdf-forms', inWebview: true });
    const detail = await waitForViewText('webview:.detail', 'log my day in the journal');
    assert.match(detail, /^daily-journal: 3 runs of 3 loaded pdf-forms \(100%\)/);
    await screenshot('routing-report');
    // Shown again while open, the page stays as it is (a page loaded anew would have no cell selected).
    await vscode.commands.executeCommand('agentSkills.showRoutingReport');
    for (let check = 0; check < 10; check++) {
      assert.match(await readViewText('webview:.detail'), /log my day in the journal/);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // The matrix cell opens the same queries; the diagonal cell its own.
    await click({ selector: 'button[title="pdf-forms: 3 runs of 3 loaded it (100%)"]', inWebview: true });
    await waitForViewText('webview:.detail', 'fill in the W-9 PDF form for me');
  });

  it('follows a run started from its own button, and shows a query in the Testing view', async () => {
    const model = await scriptedModel();
    model.reset();
    model.answerByRules(TRIGGER_RULES);
    await vscode.commands.executeCommand('agentSkills.showRoutingReport');
    const controller = await triggerTests();
    const resultsBefore = new Map(controller.lastResults);
    await click({ role: 'button', name: 'Run again', exact: true, inWebview: true }, 30000);
    // Every query of both skills ran, journal queries now loading daily-journal: drawn in the open page.
    const table = await waitForViewText('webview:table', /daily-journal\s+3\s+100%\s+100% \(3 of 3\)/, 60000);
    assert.match(table, /pdf-forms\s+\d+\s+\d+%/);
    // The headline counts the queries as the Testing view marks them (a false trigger fails there too).
    const marked = [...controller.lastResults].filter(([id, result]) => resultsBefore.get(id) !== result).map(([, result]) => result.verdict.kind);
    const count = (kind: string): number => marked.filter((verdict) => verdict === kind).length;
    assert.ok(count('failed') > 0, `the run has failures: ${marked.join(', ')}`);
    const headline = `${count('passed')} of ${marked.length} queries passed, ${count('failed')} failed${count('errored') > 0 ? `, ${count('errored')} errored` : ''}.`;
    const summary = await waitForViewText('webview:.summary', headline);
    assert.doesNotMatch(await readViewText('webview:#report'), /None: every run of a should-trigger query loaded its skill/);
    // Kept for the test after the reload (6-routing-report.after-reload.test.ts).
    fs.writeFileSync(path.join(firstWorkspaceFolder(), SUMMARY_BEFORE_RELOAD), summary);
    // Hidden behind an editor, the page is dropped; VS Code loads it again from its first HTML when
    // shown, and the page gets the current report.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(firstWorkspaceFolder(), 'README.md')), { viewColumn: vscode.ViewColumn.Active });
    await vscode.commands.executeCommand('agentSkills.showRoutingReport');
    await waitForViewText('webview:table', /daily-journal\s+3\s+100%\s+100% \(3 of 3\)/, 30000);
    assert.ok(model.requests().some((request) => request.messages.some((message) => message.text.includes('log my day in the journal'))));

    await vscode.commands.executeCommand('testing.collapseAll');
    assert.doesNotMatch(await readViewText('sidebar'), /log my day in the journal/);
    await click({ selector: 'button[title="daily-journal: 3 runs of 3 loaded it (100%)"]', inWebview: true });
    await click({ selector: 'button[data-query="log my day in the journal"]', inWebview: true });
    await waitForViewText('sidebar', 'log my day in the journal');
  });

  it('reads at a narrow width', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    // The window is 1,400 px wide: a file in 1,050 px of editor beside 300 px of report.
    await vscode.commands.executeCommand('vscode.setEditorLayout', { orientation: 0, groups: [{ size: 0.78 }, { size: 0.22 }] });
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(firstWorkspaceFolder(), 'README.md')), { viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('workbench.action.focusSecondEditorGroup');
    await vscode.commands.executeCommand('agentSkills.showRoutingReport');
    await waitForViewText('webview:table', 'pdf-forms', 30000);
    await click({ role: 'button', name: 'pdf-forms → no skill', inWebview: true }, 20000);
    await waitForViewText('webview:.detail', 'summarise yesterday');
    await screenshot('routing-report-narrow');
  });

  it('takes the colours of dark and high-contrast themes', async () => {
    const workbench = vscode.workspace.getConfiguration('workbench');
    try {
      for (const [theme, kind] of [
        ['Default Dark Modern', 'vscode-dark'],
        ['Default High Contrast', 'vscode-high-contrast'],
      ]) {
        await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        // Found once the page wears the theme's class: the diagonal cell of the last row, daily-journal.
        await click({ selector: `body.${kind} tbody tr:last-child td.right button`, inWebview: true });
        await waitForViewText('webview:.detail', 'log my day in the journal');
        await screenshot(`routing-report-${kind}`);
      }
    } finally {
      await workbench.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
