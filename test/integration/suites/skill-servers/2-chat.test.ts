// A skill server's skill in @skills, as the user sees it: the model is offered it under its
// server's name, loads it with that name, the chat says which skill shaped the answer, and /use
// starts it by that name.
import * as assert from 'node:assert/strict';
import { describeRequests, instructionsOf, invokeSkillTool, toolResults, useChatView } from '../../chat-helpers';
import { skillsApi } from '../../editor-helpers';
import { servedSkillsFolder, setUserServers, stdioServer, waitForOutline } from '../../server-helpers';
import { openChat, screenshot, scriptedModel } from '../../util';

describe("a skill server's skill in @skills", function () {
  this.timeout(120000);
  useChatView();
  const root = servedSkillsFolder({ 'db-seed': ['Seed the local database with the team fixtures.', 'Run the seed script, then check the row counts.'] });

  before(async () => {
    await setUserServers([stdioServer('team', root)]);
    await waitForOutline(await skillsApi(), ['    team/db-seed — Seed the local database with the team fixtures.']);
  });

  after(() => setUserServers(undefined));

  it('is offered to the model as team/db-seed, loads under that name, and the chat says it is used, not that it was not loaded', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'team/db-seed' } }] }, { text: 'Seeded the database.' });
    const turn = await openChat('@skills seed the local database', { newSession: true });
    assert.equal(turn.result?.errorDetails, undefined, turn.result?.errorDetails?.message);
    assert.equal(turn.modelRequests.length, 2, describeRequests(turn.modelRequests));
    assert.match(instructionsOf(turn.modelRequests[0]), /\nteam\/db-seed: Seed the local database with the team fixtures\.\n/);
    assert.match(toolResults(turn.modelRequests[1])[0], /^<skill name="team\/db-seed" server="team" uri="skill:\/\/db-seed\/SKILL\.md">\nRun the seed script, then check the row counts\.\n/);
    assert.doesNotMatch(turn.chatText, /was not loaded/);
    assert.match(turn.chatText, /Using skill team\/db-seed SKILL\.md\s+Seeded the database\./, turn.chatText);
    await screenshot('chat-served-skill');
  });

  it('starts with /use under its server name, and the name alone suggests it', async () => {
    const control = await scriptedModel();
    control.queueAnswers({ text: 'Seeding now.' });
    const used = await openChat('@skills /use team/db-seed', { newSession: true });
    assert.match(used.modelRequests[0]?.messages.map((message) => message.text).join('\n') ?? '', /Run the seed script, then check the row counts\./, describeRequests(used.modelRequests));
    assert.match(used.chatText, /Using skill team\/db-seed/);
    const unknown = await openChat('@skills /use db-seed', { newSession: true });
    assert.match(unknown.chatText, /No skill named "db-seed"\. Did you mean: team\/db-seed\?/);
    assert.match(await invokeSkillTool('skills_activate', { name: 'db-seed' }), /Did you mean: team\/db-seed\?/);
  });
});
