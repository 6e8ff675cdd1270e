// Skills: Draft Trigger Tests…: the model's proposal becomes the file, and an existing file is
// replaced only when the user says so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { workspaceSkillsFolder } from '../../editor-helpers';
import { lineOf, outline, triggerTests, writeSkillsWithStatus } from '../../trigger-helpers';
import { click, harnessAvailable, pressKeys, readViewText, rightClick, scriptedModel, waitFor, waitForViewText } from '../../util';

describe('Skills: Draft Trigger Tests…', () => {
  const file = (): string => path.join(workspaceSkillsFolder(), 'sheets', 'evals', 'triggers.json');
  const proposal = [
    { query: 'make a pivot table of sales.xlsx by region', should_trigger: true },
    { query: 'chart the monthly signups in this csv', should_trigger: true },
    { query: 'fill in my tax PDF form', should_trigger: false },
  ];

  beforeEach(async () => {
    (await scriptedModel()).reset();
    fs.rmSync(path.dirname(file()), { recursive: true, force: true });
    await (await productApi()).whenIdle();
  });

  it('asks the model about the skill and its neighbours, writes the proposal and lists it as tests', async () => {
    const model = await scriptedModel();
    model.queueAnswers({ text: ['Here are the queries:\n```json\n', JSON.stringify(proposal), '\n```'] });
    const outcome = await vscode.commands.executeCommand('agentSkills.draftTriggerTests', 'sheets');
    assert.equal(outcome, 'written');
    const [request] = model.requests();
    assert.match(request.messages[0].text, /The skill: sheets\nIts description: Builds charts and pivot tables/);
    assert.match(request.messages[0].text, /- pdf-forms: Fills in PDF forms/);
    const written = JSON.parse(fs.readFileSync(file(), 'utf8')) as unknown;
    assert.deepEqual(written, proposal);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file());
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    const controller = await triggerTests();
    await waitFor(
      async () => {
        await (await productApi()).whenIdle();
        return outline(controller).includes(`    chart the monthly signups in this csv — should trigger @${lineOf(file(), 'monthly signups')}`);
      },
      { message: () => `the drafted tests are not listed:\n${outline(controller).join('\n')}` },
    );
  });

  it('does not replace an existing file unless the user says so', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), '[{ "query": "hand-written", "should_trigger": true }]\n');
    const model = await scriptedModel();
    model.queueAnswers({ text: JSON.stringify(proposal) });
    const drafting = vscode.commands.executeCommand('agentSkills.draftTriggerTests', 'sheets');
    await waitForViewText('css:.quick-input-widget', 'sheets already has evals/triggers.json');
    await pressKeys('Escape');
    assert.equal(await drafting, 'kept');
    assert.equal(fs.readFileSync(file(), 'utf8'), '[{ "query": "hand-written", "should_trigger": true }]\n');
    assert.equal(model.requests().length, 0);

    const replacing = vscode.commands.executeCommand('agentSkills.draftTriggerTests', 'sheets');
    await click({ role: 'option', name: 'Replace it with a new draft', within: '.quick-input-widget' });
    assert.equal(await replacing, 'written');
    assert.deepEqual(JSON.parse(fs.readFileSync(file(), 'utf8')), proposal);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('is offered only for skills a run could load: not for one only /use runs, an invalid one or a built-in', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const api = await productApi();
    const folder = workspaceSkillsFolder();
    try {
      await writeSkillsWithStatus({ 'release-helper': 'description: Tags a release. Run it with /use.\ndisable-model-invocation: true\n', 'half-done': '' }, [
        'release-helper:available',
        'half-done:invalid',
      ]);
      await vscode.commands.executeCommand('workbench.view.extension.agentSkills');
      const menuOf = async (name: string): Promise<string[]> => {
        await rightClick({ selector: `[id="workbench.view.extension.agentSkills"] .monaco-list-row:has(.monaco-icon-label[aria-label="${name}"])` });
        const menu = await waitFor(async () => (await readViewText('css:.context-view .monaco-menu').catch(() => '')) || undefined, { message: 'no context menu opened' });
        await pressKeys('Escape');
        return menu.split('\n').map((line) => line.trim());
      };
      // Bottom row first: the tooltip of the row the mouse rests on opens below it and would cover the next row down.
      assert.ok(!(await menuOf('half-done')).includes('Draft Trigger Tests…'));
      assert.ok((await menuOf('sheets')).includes('Draft Trigger Tests…'));
      assert.ok(!(await menuOf('release-helper')).includes('Draft Trigger Tests…'));

      // From the palette: the pick lists only skills it makes sense for.
      const picking = vscode.commands.executeCommand('agentSkills.draftTriggerTests');
      const pick = await waitForViewText('css:.quick-input-widget', 'sheets');
      assert.doesNotMatch(pick, /release-helper|half-done/);
      await pressKeys('Escape');
      assert.equal(await picking, 'cancelled');
      // Named directly (a link, another extension): it says why and asks no model.
      assert.equal(await vscode.commands.executeCommand('agentSkills.draftTriggerTests', 'release-helper'), 'cancelled');
      await vscode.commands.executeCommand('notifications.showList');
      await waitForViewText('notifications', 'release-helper is hidden from the model (disable-model-invocation: true)');
      await vscode.commands.executeCommand('notifications.clearAll');
      assert.equal((await scriptedModel()).requests().length, 0);
    } finally {
      fs.rmSync(path.join(folder, 'release-helper'), { recursive: true, force: true });
      fs.rmSync(path.join(folder, 'half-done'), { recursive: true, force: true });
      await api.whenIdle();
    }
  });
});
