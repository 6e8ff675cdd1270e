// @skills free-form requests, end to end: what the scripted model is given (catalog, tools,
// history), how a tool call loads a skill into the next request, and what the chat view shows.
import * as assert from 'node:assert/strict';
import { describeRequests, instructionsOf, lastUserText, productApi, shownCatalog, skillToolNames, toolResults, useChatView } from '../../chat-helpers';
import { openChat, readViewText, screenshot, scriptedModel, waitFor } from '../../util';

describe('@skills free-form requests', () => {
  useChatView();

  it('gives the model the catalog and the skill tools, loads the skill it calls, and cites the SKILL.md', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'pdf-report', arguments: 'q3.csv "Q3 sales"' } }] }, { text: 'The Q3 report follows the pdf-report skill.' });
    const turn = await openChat('@skills build the Q3 pdf report from q3.csv', { newSession: true });
    assert.equal(turn.result?.errorDetails, undefined, turn.result?.errorDetails?.message);
    assert.equal(turn.modelRequests.length, 2, describeRequests(turn.modelRequests));
    const [first, second] = turn.modelRequests;

    assert.ok(instructionsOf(first).includes(await shownCatalog()), `the instructions carry the catalog:\n${instructionsOf(first)}`);
    assert.equal(first.messages[0].role, 'user');
    assert.deepEqual(first.tools.map((tool) => tool.name).sort(), [...skillToolNames].sort());
    assert.equal(lastUserText(first), 'build the Q3 pdf report from q3.csv');

    const [activation] = toolResults(second);
    assert.match(activation, /^<skill name="pdf-report"/);
    assert.match(activation, /Build the report from q3\.csv with the title "Q3 sales"\./);

    assert.match(turn.chatText, /The Q3 report follows the pdf-report skill\./);
    // The reference sits in the collapsed steps; the answer names the skill with a link to its SKILL.md.
    assert.match(turn.chatText, /Using skill pdf-report SKILL\.md\s+The Q3 report follows/, turn.chatText);
    const api = await productApi();
    assert.equal(api.listSkills().find((skill) => skill.name === 'pdf-report')?.status, 'active');
    await screenshot('chat-skill-used');
  });

  it('keeps a loaded skill in context on the next turn instead of loading it again', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'pdf-report', arguments: 'q3.csv "Q3 sales"' } }] }, { text: 'Added the charts.' });
    const turn = await openChat('@skills now add the charts');
    assert.equal(turn.modelRequests.length, 2, describeRequests(turn.modelRequests));
    const [first, second] = turn.modelRequests;
    assert.match(instructionsOf(first), /Already loaded in this conversation \(their instructions are above; do not load them again\): pdf-report\./);
    // The earlier turn is replayed: request, the skill's tool call and result, the answer.
    assert.ok(
      toolResults(first).some((text) => text.includes('Build the report from q3.csv')),
      describeRequests([first]),
    );
    assert.ok(first.messages.some((message) => message.role === 'assistant' && message.text.includes('The Q3 report follows the pdf-report skill.')));
    assert.match(toolResults(second).at(-1) ?? '', /^Skill "pdf-report" is already loaded in this conversation/);
    assert.match(turn.chatText, /Added the charts\./);
  });

  it('shows a refused skill in one line and suggests /use for it', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'release-notes' } }] }, { text: 'I cannot start that skill myself.' });
    const turn = await openChat('@skills write the release notes for 2.0', { newSession: true });
    assert.equal(turn.result?.errorDetails, undefined);
    assert.match(toolResults(turn.modelRequests[1]).at(-1) ?? '', /can only be started by the user \(\/use release-notes\)/);
    // The reason names the skill already: said once, not "Skill x was not loaded: Skill x …".
    assert.match(turn.chatText, /Skill "release-notes" can only be started by the user/);
    assert.doesNotMatch(turn.chatText, /was not loaded: Skill "release-notes"/);
    await waitFor(async () => (await readViewText('chat')).includes('Use skill release-notes'), { message: 'no follow-up suggesting /use release-notes' });
  });

  it('says a refusal met on the way after the answer, where the steps folded away would hide it', async () => {
    const control = await scriptedModel();
    control.queueAnswers(
      { toolCalls: [{ name: 'skills_activate', input: { name: 'pdf-rpt' } }] },
      { toolCalls: [{ name: 'skills_activate', input: { name: 'pdf-report' } }] },
      { text: 'The report follows the pdf-report skill.' },
    );
    const turn = await openChat('@skills build the pdf report', { newSession: true });
    assert.equal(turn.modelRequests.length, 3, describeRequests(turn.modelRequests));
    // Visible (the folded steps are not part of the view's text), and after the answer.
    const answer = turn.chatText.indexOf('The report follows the pdf-report skill.');
    const refusal = turn.chatText.indexOf('Skill "pdf-rpt" was not loaded: No skill named "pdf-rpt". Did you mean: pdf-report?');
    assert.ok(answer >= 0 && refusal > answer, turn.chatText);
    await screenshot('chat-refusal-after-answer');
  });

  it('lets other participants use the tools the same way', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'plain-notes', arguments: 'retro' } }] }, { text: 'Relayed notes.' });
    const turn = await openChat('@relay take notes of the retro', { newSession: true });
    assert.equal(turn.modelRequests.length, 2, describeRequests(turn.modelRequests));
    assert.match(toolResults(turn.modelRequests[1])[0], /Decisions, Owners, Open questions\.\n\n+ARGUMENTS: retro/);
  });
});
