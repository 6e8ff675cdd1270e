// Skills: Improve Description…: the scripted model picks skills by the words they share with the
// query and proposes descriptions from the missed train queries; the tuning raises the fixture's
// test score, shows the scores per round, and the pick is applied as one undoable edit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { setWorkspaceSetting, workspaceSkillsFolder } from '../../editor-helpers';
import { click, harnessAvailable, notificationsText, pressKeys, readViewText, scriptedModel, screenshot, waitFor, waitForViewText, type RecordedRequest, type ScriptedAnswer } from '../../util';
import { outline, triggerTests } from '../../trigger-helpers';
import { isTuneRequest, pickSkill, proposeDescription, TUNE_FIXTURE, tuneFixtureTriggers } from '../../word-overlap-model';

const TUNE_REPORT_URI = 'agent-skills-tune:/Improve%20Description.md';

function wordOverlapAnswer(request: RecordedRequest): ScriptedAnswer {
  const instructions = request.messages[0]?.text ?? '';
  if (isTuneRequest(instructions)) {
    return { text: proposeDescription(instructions) };
  }
  const skill = pickSkill(instructions, request.messages[request.messages.length - 1]?.text ?? '');
  return skill ? { toolCalls: [{ name: 'skills_activate', input: { name: skill } }] } : { text: 'I can answer that directly.' };
}

describe('Skills: Improve Description…', () => {
  const dir = (): string => path.join(workspaceSkillsFolder(), TUNE_FIXTURE.name);
  const file = (): string => path.join(dir(), 'SKILL.md');
  const original = `---\nname: ${TUNE_FIXTURE.name}\ndescription: ${TUNE_FIXTURE.description}\n---\n\nList the merged pull requests since the last tag and group them.\n`;

  before(async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    fs.mkdirSync(path.join(dir(), 'evals'), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'evals', 'triggers.json'), `{ "runs": 1, "queries": ${tuneFixtureTriggers()} }\n`);
    fs.writeFileSync(file(), original);
    const api = await productApi();
    await waitFor(
      async () => {
        await api.whenIdle();
        return api.listSkills().some((skill) => skill.name === TUNE_FIXTURE.name && skill.status === 'available');
      },
      { message: `${TUNE_FIXTURE.name} did not become usable`, timeoutMs: 15000 },
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir(), { recursive: true, force: true });
    (await scriptedModel()).reset();
  });

  it('asks before sending more requests than confirmAbove, and sends none when declined', async () => {
    const model = await scriptedModel();
    model.reset();
    model.setDefaultAnswer(wordOverlapAnswer);
    const running = vscode.commands.executeCommand('agentSkills.improveDescription', TUNE_FIXTURE.name);
    // 10 queries, 1 run each, the current description and 5 proposals: 60 measurements and 5 proposals.
    await waitForViewText('css:.quick-input-widget', 'Run 65 model requests?');
    await pressKeys('Escape');
    assert.equal(await running, 'cancelled');
    assert.equal(model.requests().length, 0);
  });

  it('raises the test score, shows the scores per round, and applies the pick as one undoable edit', async () => {
    const model = await scriptedModel();
    model.reset();
    model.setDefaultAnswer(wordOverlapAnswer);
    const api = await productApi();
    await setWorkspaceSetting(api, 'triggerTests.confirmAbove', 1000);
    try {
      const running = vscode.commands.executeCommand('agentSkills.improveDescription', TUNE_FIXTURE.name);
      await waitForViewText('css:.quick-input-widget', /test score 50% → 100%/, 60000);
      const report = vscode.workspace.textDocuments.find((document) => document.uri.toString() === TUNE_REPORT_URI)?.getText() ?? '';
      assert.match(report, /\| current \| 3\/6 \(50%\) \| 2\/4 \(50%\) \|/);
      assert.match(report, /\| \*\*1 \(picked\)\*\* \| 6\/6 \(100%\) \| 4\/4 \(100%\) \|/);
      assert.match(report, /```diff\n- description: Writes release notes from merged pull requests\.\n\+ description: Writes release notes from merged pull requests\. Also for: shipped/);
      // The safe choice is the focused one: Enter alone keeps the description.
      assert.match(await readViewText('css:.quick-input-widget .monaco-list-row.focused'), /^Keep the current description/);
      await screenshot('improve-description');

      // The model never saw a test query: only train failures reach a proposal.
      const proposals = model.requests().filter((request) => isTuneRequest(request.messages[0]?.text ?? ''));
      assert.equal(proposals.length, 1);
      assert.equal(proposals[0].tools.length, 0);
      for (const query of ['draft release notes for 2.4', 'announce what shipped this sprint', 'pivot of signups by region', 'chart the monthly costs']) {
        assert.ok(!proposals[0].messages[0].text.includes(query), `test query "${query}" was shown to the model`);
      }

      await click({ role: 'option', name: 'Apply the proposed description', within: '.quick-input-widget' });
      assert.equal(await running, 'applied');
      const applied = fs.readFileSync(file(), 'utf8');
      assert.match(applied, /^description: "Writes release notes from merged pull requests\. Also for: shipped, [^"]+\."$/m);
      assert.equal(applied.replace(/^description: .*$/m, ''), original.replace(/^description: .*$/m, ''));
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.fsPath, file());

      // As a user would: focus the editor and undo once.
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await pressKeys('Control+z');
      await waitFor(() => editor.document.getText() === original, { message: () => `one undo did not bring the old description back:\n${editor.document.getText()}` });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await setWorkspaceSetting(api, 'triggerTests.confirmAbove', undefined);
    }
  });

  it("keeps the current description when the proposals are the model's chatter or only tie it on the test queries", async () => {
    // The test before saved its applied pick (its undo was not saved): the skill starts again from the original.
    fs.writeFileSync(file(), original);
    const api = await productApi();
    await waitFor(
      async () => {
        await api.whenIdle();
        return api.listSkills().some((skill) => skill.name === TUNE_FIXTURE.name && skill.description === TUNE_FIXTURE.description);
      },
      { message: `${TUNE_FIXTURE.name} did not take its original description again`, timeoutMs: 15000 },
    );
    const model = await scriptedModel();
    model.reset();
    // Round 2 proposes a shorter description with the same words, which scores the same; every other round is a chat model's blurb.
    const blurb = '**Demo model (scripted)**: a scripted stand-in for a chat model. Ask `@skills` for a task.';
    let proposals = 0;
    model.setDefaultAnswer((request) => {
      if (!isTuneRequest(request.messages[0]?.text ?? '')) {
        return wordOverlapAnswer(request);
      }
      proposals++;
      return { text: proposals === 2 ? '<description>Release notes from merged pull requests.</description>' : blurb };
    });
    await setWorkspaceSetting(api, 'triggerTests.confirmAbove', 1000);
    try {
      assert.equal(await vscode.commands.executeCommand('agentSkills.improveDescription', TUNE_FIXTURE.name), 'unchanged');
      assert.equal(proposals, 5);
      assert.equal(fs.readFileSync(file(), 'utf8'), original);
      assert.match(await notificationsText(), /No proposal did better than release-notes's current description on the test queries; it stays as it is\./);
      // The open report takes the new text a moment after the command ends.
      const report = await waitFor(() => vscode.workspace.textDocuments.find((document) => document.uri.toString() === TUNE_REPORT_URI && /current \(picked\)/.test(document.getText()))?.getText(), {
        message: 'the report never showed this tuning',
      });
      // The tie was measured but not picked; the chatter never was.
      assert.match(report, /\| \*\*current \(picked\)\*\* \| 3\/6 \(50%\) \| 2\/4 \(50%\) \|/);
      assert.match(report, /\| 2 \| 3\/6 \(50%\) \| 2\/4 \(50%\) \| 40 \| Release notes from merged pull requests\. \|/);
      assert.equal(report.match(/proposal was refused \(it reads as the model's reply, not as a description of the skill\): \*\*Demo model/g)?.length, 4);
      assert.doesNotMatch(report, /Proposed change/);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    } finally {
      await setWorkspaceSetting(api, 'triggerTests.confirmAbove', undefined);
    }
  });

  it('offers only skills with trigger tests to pick from, and names those without', async () => {
    // sheets without a file; meeting-notes with one query of each kind, too few to split.
    fs.rmSync(path.join(workspaceSkillsFolder(), 'sheets', 'evals'), { recursive: true, force: true });
    const meetingTests = path.join(workspaceSkillsFolder(), 'meeting-notes', 'evals', 'triggers.json');
    fs.mkdirSync(path.dirname(meetingTests), { recursive: true });
    fs.writeFileSync(meetingTests, '[\n  { "query": "take minutes of the standup", "should_trigger": true },\n  { "query": "book a meeting room", "should_trigger": false }\n]\n');
    const controller = await triggerTests();
    await waitFor(
      async () => {
        await (await productApi()).whenIdle();
        const items = outline(controller).join('\n');
        return items.includes('book a meeting room') && !/^ {2}sheets\b/m.test(items);
      },
      { message: () => `the Testing view did not follow the files:\n${outline(controller).join('\n')}` },
    );
    const running = vscode.commands.executeCommand('agentSkills.improveDescription');
    const list = await waitForViewText('css:.quick-input-widget', /Without trigger tests: sheets\./);
    assert.match(list, /Too few queries to split: meeting-notes and daily-journal\./);
    const rows = await readViewText('css:.quick-input-widget .quick-input-list');
    assert.match(rows, /pdf-forms/);
    assert.match(rows, /release-notes/);
    assert.doesNotMatch(rows, /meeting-notes|sheets|daily-journal/);
    await screenshot('improve-description-pick');
    await pressKeys('Escape');
    assert.equal(await running, 'cancelled');
  });
});
