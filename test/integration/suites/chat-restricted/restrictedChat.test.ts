// Chat in Restricted Mode: nothing from the workspace's skills reaches a tool result or a prompt;
// the user's own skills keep working, and @skills says why the others are missing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describeRequests, instructionsOf, invokeSkillTool, productApi, toolResults } from '../../chat-helpers';
import { harnessAvailable, openChat, scriptedModel } from '../../util';

/** Text that appears only inside the workspace's SKILL.md files. */
const workspaceText = /Build a PDF report|Write the release notes|AUDIT-BODY|RELEASE-NOTES-BODY|GUIDE-MARKER|Decisions, Owners/;

describe('chat in Restricted Mode', () => {
  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await productApi();
  });
  beforeEach(async () => (await scriptedModel()).reset());

  it('refuses to load a workspace skill, saying why', async () => {
    const text = await invokeSkillTool('skills_activate', { name: 'pdf-report' });
    assert.equal(text, 'Skill "pdf-report" comes from a workspace that is not trusted; trust the workspace to use its skills.');
  });

  it("refuses to read a workspace skill's files", async () => {
    const text = await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references/guide.md' });
    assert.match(text, /not trusted/);
    assert.doesNotMatch(text, workspaceText);
  });

  it("still loads the user's own skills", async () => {
    assert.match(await invokeSkillTool('skills_activate', { name: 'home-helper', arguments: '"fix: typo"' }), /HOME-HELPER-BODY: tidy the commit message "fix: typo"\./);
  });

  it('finds only usable skills and counts the withheld ones', async () => {
    const catalog = await invokeSkillTool('skills_find', { query: '' });
    assert.match(catalog, /home-helper: A personal helper skill/);
    assert.doesNotMatch(catalog, workspaceText);
    // The chat fixture's .agent/skills holds 8 skill folders, broken-yaml included.
    assert.match(catalog, /\n8 skills of this workspace are not available because the workspace is not trusted\.$/);
    assert.doesNotMatch(await invokeSkillTool('skills_find', { query: 'pdf report' }), workspaceText);
  });

  it('@skills tells the user once and gives the model nothing from the workspace', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'pdf-report' } }] }, { text: 'Only your personal skills are available.' });
    const turn = await openChat('@skills build a pdf report', { newSession: true });
    assert.equal(turn.modelRequests.length, 2, describeRequests(turn.modelRequests));
    const everything = turn.modelRequests.flatMap((request) => request.messages.map((message) => message.text)).join('\n');
    assert.doesNotMatch(everything, workspaceText);
    assert.match(instructionsOf(turn.modelRequests[0]), /skills of this workspace are not available because the workspace is not trusted/);
    assert.match(toolResults(turn.modelRequests[1])[0], /not trusted/);
    assert.match(turn.chatText, /skills of this workspace are not available because the workspace is not trusted\. User and built-in skills still work\./);
    // The refusal names the skill once: its reason already starts with it; it is shown once.
    assert.equal(turn.chatText.split('Skill "pdf-report" comes from a workspace that is not trusted; trust the workspace to use its skills.').length - 1, 1, turn.chatText);
    assert.doesNotMatch(turn.chatText, /was not loaded: Skill "pdf-report"/);

    control.queueAnswers({ text: 'Second answer.' });
    const next = await openChat('@skills and now?');
    assert.equal(next.chatText.match(/User and built-in skills still work/g)?.length, 1, 'the notice is shown once per conversation');
  });

  it('/list hides the workspace skills and says why', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const turn = await openChat('@skills /list', { newSession: true });
    assert.match(turn.chatText, /home-helper/);
    assert.doesNotMatch(turn.chatText, /pdf-report|release-notes/);
    assert.match(turn.chatText, /skills of this workspace are not available because the workspace is not trusted/);
  });
});
