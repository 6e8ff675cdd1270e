// With agentSkills.enabled off, @skills says so and the tools answer with the reason. Runs last:
// it changes a setting (and restores it). The tools' `when` clause hides them from chat, but
// `vscode.lm.tools` does not show that: VS Code 1.139 hands extensions every contributed tool,
// disabled ones included (getAllToolsIncludingDisabled), so the suite checks what a call gets.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeSkillTool, productApi, skillToolNames } from '../../chat-helpers';
import { harnessAvailable, openChat, scriptedModel, waitFor } from '../../util';

const TURNED_OFF = 'Skills are turned off (setting agentSkills.enabled). Turn them on to use @skills.';

/** The skill tools VS Code lists to extensions, in a fixed order. */
function listedSkillTools(): string[] {
  return vscode.lm.tools
    .map((tool) => tool.name)
    .filter((name) => (skillToolNames as readonly string[]).includes(name))
    .sort();
}

describe('skills turned off', () => {
  const configuration = () => vscode.workspace.getConfiguration('agentSkills');

  before(async () => {
    await productApi();
    // Working before, so the refusals below are a change this suite caused.
    assert.doesNotMatch(await invokeSkillTool('skills_find', { query: 'pdf' }), /turned off/);
    await configuration().update('enabled', false, vscode.ConfigurationTarget.Workspace);
    await (await productApi()).whenIdle();
  });
  after(async () => {
    await configuration().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('answers a tool call that still arrives with the reason instead of skill text', async () => {
    // VS Code still routes an explicit invokeTool to a tool hidden by its `when` clause.
    assert.equal(await invokeSkillTool('skills_activate', { name: 'pdf-report' }), TURNED_OFF);
    assert.equal(await invokeSkillTool('skills_find', { query: 'pdf' }), TURNED_OFF);
  });

  it('@skills says so in one line, without asking the model', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    (await scriptedModel()).reset();
    const turn = await openChat('@skills make a pdf report', { newSession: true });
    assert.equal(turn.modelRequests.length, 0);
    assert.match(turn.chatText, /Skills are turned off \(setting agentSkills\.enabled\)\. Turn them on to use @skills\./);
  });

  it('brings the tools back when turned on again', async () => {
    assert.equal(await invokeSkillTool('skills_find', { query: 'pdf' }), TURNED_OFF);
    await configuration().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor(async () => !(await invokeSkillTool('skills_find', { query: 'pdf' })).includes('turned off'), { message: 'the tools still answer that skills are turned off' });
    assert.deepEqual(listedSkillTools(), [...skillToolNames].sort());
    assert.match(await invokeSkillTool('skills_activate', { name: 'pdf-report' }), /Build the report/);
  });
});
