// The @skills slash commands: /list, /use and /validate.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeRequests, instructionsOf, invokeSkillTool, lastUserText, productApi, useChatView } from '../../chat-helpers';
import { diagnosticsOf, skillNamed, skillText, waitForSkills, workspaceSkillsFolder, writeSkillOnDisk } from '../../editor-helpers';
import { click, harnessAvailable, hover, notificationsText, openChat, pressKeys, readViewText, screenshot, scriptedModel, waitFor, waitForViewText } from '../../util';

describe('@skills commands', () => {
  useChatView();

  it('/list shows every skill with its status and source, without asking the model', async () => {
    const turn = await openChat('@skills /list', { newSession: true });
    assert.equal(turn.modelRequests.length, 0);
    // One line per skill: name · status · source: description.
    assert.match(turn.chatText, /^pdf-report · (available|active) · [^\n:]+: Build a PDF report from a CSV file/m);
    // Earlier tests may have activated a skill: it is then "active" rather than "available".
    assert.match(turn.chatText, /^release-notes · (available|active), \/use only · [^\n:]+: Write the release notes/m);
    assert.match(turn.chatText, /^audit-fork · (available|active), runs isolated · /m);
    assert.match(turn.chatText, /^broken-yaml · invalid · /m);
    assert.match(turn.chatText, /^home-helper · [^\n]* · User: /m);
    if (harnessAvailable()) {
      await screenshot('list');
    }
  });

  it('/use starts a skill hidden from the model, and the model follows it with the arguments', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ text: 'Release notes for 2.0 written.' });
    const turn = await openChat('@skills /use release-notes 2.0', { newSession: true });
    assert.equal(turn.result?.errorDetails, undefined, turn.result?.errorDetails?.message);
    assert.equal(turn.modelRequests.length, 1, describeRequests(turn.modelRequests));
    const [request] = turn.modelRequests;
    assert.match(instructionsOf(request), /<available_skills>/);
    assert.match(lastUserText(request), /^I am starting the skill "release-notes" with the arguments: 2\.0\. Follow its instructions:/);
    assert.match(lastUserText(request), /RELEASE-NOTES-BODY: write the release notes for version 2\.0 from CHANGELOG\.md\./);
    assert.match(turn.chatText, /Release notes for 2\.0 written\./);
  });

  it("/use gives the model the skill's files but not its trigger tests (evals/)", async () => {
    const control = await scriptedModel();
    control.queueAnswers({ text: 'Report built.' });
    const turn = await openChat('@skills /use pdf-report sales.csv Q3', { newSession: true });
    assert.equal(turn.modelRequests.length, 1, describeRequests(turn.modelRequests));
    const text = lastUserText(turn.modelRequests[0]);
    assert.match(text, /\n- references\/guide\.md\n/);
    assert.doesNotMatch(text, /evals|TRIGGER-QUERY-MARKER/);
  });

  it('/use refuses a skill only the model may start, in one line', async () => {
    const turn = await openChat('@skills /use internal-helper', { newSession: true });
    assert.equal(turn.modelRequests.length, 0);
    assert.match(turn.chatText, /Skill "internal-helper" sets user-invocable: false; only the model can use it\./);
    assert.doesNotMatch(turn.chatText, /was not loaded: Skill "internal-helper"/);
  });

  it('/use names close matches for an unknown skill, and explains itself without a name', async () => {
    const unknown = await openChat('@skills /use relase-notes', { newSession: true });
    assert.match(unknown.chatText, /Skill "relase-notes" was not loaded: No skill named "relase-notes"\. Did you mean: release-notes[,?]/);
    const usage = await openChat('@skills /use', { newSession: true });
    assert.match(usage.chatText, /Usage: \/use <skill> \[arguments\]\. Skills you can start: [^\n]*release-notes/);
    assert.equal(usage.modelRequests.length + unknown.modelRequests.length, 0);
  });

  it('/use suggests names that share a word or its abbreviation, as follow-ups, under no "Completed" steps', async () => {
    const turn = await openChat('@skills /use pdf-rpt', { newSession: true });
    assert.equal(turn.modelRequests.length, 0);
    assert.match(turn.chatText, /Skill "pdf-rpt" was not loaded: No skill named "pdf-rpt"\. Did you mean: pdf-report\?/);
    if (harnessAvailable()) {
      assert.doesNotMatch(turn.chatText, /Completed|Loading skill/);
      await waitFor(async () => (await readViewText('chat')).includes('Use skill pdf-report'), { message: 'no follow-up offering pdf-report' });
      await screenshot('use-unknown-skill');
    }
  });

  it("says in a skill's hover, in words, that only /use starts it", async () => {
    await vscode.commands.executeCommand('workbench.view.extension.agentSkills');
    await hover({ selector: '[id="workbench.view.extension.agentSkills"] .monaco-list-row:has(.monaco-icon-label[aria-label="release-notes"])' });
    const shown = await waitForViewText('css:.workbench-hover', 'Only you start it');
    assert.match(shown, /Only you start it, with @skills \/use release-notes: the model is not offered it \(disable-model-invocation: true\)\./);
    await screenshot('hover-use-only');
    await pressKeys('Escape');
  });

  it('/validate summarises the problems with links to the files', async () => {
    const turn = await openChat('@skills /validate', { newSession: true });
    assert.equal(turn.modelRequests.length, 0);
    assert.match(turn.chatText, /Checked \d+ skills: [1-9]\d* errors?, \d+ warnings?\./);
    assert.match(turn.chatText, /Error broken-yaml\/SKILL\.md:\d+/);
  });

  it('/validate prints its summary once: no notification repeats it', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const summary = /Checked \d+ skills: [1-9]\d* errors?/;
    // The command from the palette says it in a notification, and this probe sees it.
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('agentSkills.validate');
    await waitFor(async () => summary.test(await notificationsText()), { message: 'Validate Skills showed no notification' });
    await vscode.commands.executeCommand('notifications.clearAll');
    const turn = await openChat('@skills /validate', { newSession: true });
    assert.match(turn.chatText, summary);
    // The command shows its notification before it returns the report that the chat prints.
    assert.doesNotMatch(await notificationsText(), summary);
  });

  it('serves the last valid version of a skill whose edit broke its YAML, to the activate tool and to /use, and says so', async () => {
    const api = await productApi();
    const folder = path.join(workspaceSkillsFolder(), 'standup-notes');
    const file = writeSkillOnDisk(workspaceSkillsFolder(), 'standup-notes', skillText('standup-notes', 'Summarise a standup meeting.', 'LAST-VALID-BODY: summarise $ARGUMENTS.'));
    try {
      await waitForSkills(api, () => skillNamed(api, 'standup-notes')?.description === 'Summarise a standup meeting.', 'standup-notes did not appear');
      fs.writeFileSync(file, '---\nname: standup-notes\ndescription: [unclosed\n---\n\nBROKEN-BODY\n');
      await waitForSkills(api, () => skillNamed(api, 'standup-notes')?.stale, 'standup-notes was not marked stale');

      const toolText = await invokeSkillTool('skills_activate', { name: 'standup-notes', arguments: 'the Monday standup' });
      assert.match(toolText, /LAST-VALID-BODY: summarise the Monday standup\./);
      assert.doesNotMatch(toolText, /BROKEN-BODY/);

      const control = await scriptedModel();
      control.queueAnswers({ text: 'Standup summarised.' });
      const turn = await openChat('@skills /use standup-notes the Monday standup', { newSession: true });
      assert.equal(turn.modelRequests.length, 1, describeRequests(turn.modelRequests));
      assert.match(lastUserText(turn.modelRequests[0]), /LAST-VALID-BODY: summarise the Monday standup\./);
      assert.doesNotMatch(lastUserText(turn.modelRequests[0]), /BROKEN-BODY/);
      assert.match(turn.chatText, /The SKILL\.md of standup-notes has an error now \(line 3: Invalid YAML in the frontmatter \(line 3, column 23\)[^\n]*\); its last valid version was used\./);
      if (harnessAvailable()) {
        await screenshot('use-last-valid-version');
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('serves nothing of a skill broken since the editor started, and says why in the words of the tools', async () => {
    const file = path.join(workspaceSkillsFolder(), 'broken-yaml', 'SKILL.md');
    const toolText = await invokeSkillTool('skills_activate', { name: 'broken-yaml' });
    assert.match(toolText, /^Skill "broken-yaml" is invalid: Invalid YAML in the frontmatter \(line \d+, column \d+\)/);
    assert.ok(toolText.endsWith(`(${file}).`), toolText);
    const turn = await openChat('@skills /use broken-yaml', { newSession: true });
    assert.equal(turn.modelRequests.length, 0);
    if (harnessAvailable()) {
      const shown = turn.chatText.replace(/\s+/g, ' ');
      assert.ok(shown.includes(toolText.slice(0, toolText.indexOf(' (/'))), `${turn.chatText}\n---\n${toolText}`);
      assert.match(shown, /\(broken-yaml\/SKILL\.md\)\./);
      assert.doesNotMatch(turn.chatText, /Completed|Loading skill/);
      // The path is a link that opens the file where the problem is.
      await click({ role: 'link', name: 'broken-yaml/SKILL.md', within: '.interactive-session' });
      const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === file && vscode.window.activeTextEditor, { message: 'the link did not open the SKILL.md' });
      const problem = diagnosticsOf(file).find((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error);
      assert.equal(editor.selection.active.line, problem?.range.start.line);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
