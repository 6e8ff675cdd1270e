// With agentSkills.enabled off, @skills says so and the tools leave vscode.lm.tools. Runs last:
// it changes a setting (and restores it).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeSkillTool, productApi, skillToolNames } from '../../chat-helpers';
import { harnessAvailable, openChat, scriptedModel, waitFor } from '../../util';

describe('skills turned off', () => {
  const configuration = () => vscode.workspace.getConfiguration('agentSkills');

  before(async () => {
    await productApi();
    await configuration().update('enabled', false, vscode.ConfigurationTarget.Workspace);
    await (await productApi()).whenIdle();
  });
  after(async () => {
    await configuration().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('answers tool calls with the reason instead of skill text', async () => {
    const outcome = await invokeSkillTool('skills_activate', { name: 'pdf-report' }).catch((error: unknown) => `threw: ${String(error)}`);
    console.log(`PROBE turned-off tool: ${outcome}`);
    assert.doesNotMatch(outcome, /Build the report/);
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
    await configuration().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => vscode.lm.tools.filter((tool) => (skillToolNames as readonly string[]).includes(tool.name)).length === skillToolNames.length, {
      message: 'the tools did not come back',
    });
  });
});
