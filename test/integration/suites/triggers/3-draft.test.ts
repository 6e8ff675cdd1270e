// Skills: Draft Trigger Tests…: the model's proposal becomes the file, and an existing file is
// replaced only when the user says so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { workspaceSkillsFolder } from '../../editor-helpers';
import { lineOf, outline, triggerTests } from '../../trigger-helpers';
import { click, harnessAvailable, pressKeys, scriptedModel, waitFor, waitForViewText } from '../../util';

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
});
