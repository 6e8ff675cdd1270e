// Skills: Improve Description…: the scripted model picks skills by the words they share with the
// query and proposes descriptions from the missed train queries; the tuning raises the fixture's
// test score, shows the scores per round, and the pick is applied as one undoable edit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { setWorkspaceSetting, workspaceSkillsFolder } from '../../editor-helpers';
import { harnessAvailable, pressKeys, scriptedModel, screenshot, waitFor, waitForViewText, type RecordedRequest, type ScriptedAnswer } from '../../util';
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
      await screenshot('improve-description');

      // The model never saw a test query: only train failures reach a proposal.
      const proposals = model.requests().filter((request) => isTuneRequest(request.messages[0]?.text ?? ''));
      assert.equal(proposals.length, 1);
      assert.equal(proposals[0].tools.length, 0);
      for (const query of ['draft release notes for 2.4', 'announce what shipped this sprint', 'pivot of signups by region', 'chart the monthly costs']) {
        assert.ok(!proposals[0].messages[0].text.includes(query), `test query "${query}" was shown to the model`);
      }

      await pressKeys('Enter');
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
});
