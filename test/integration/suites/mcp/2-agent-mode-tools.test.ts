// agentSkills.agentMode "tools": agent mode gets the extension's referenceable tools (activate_skill,
// find_skills, read_skill_resource, attachable as #activateSkill…) instead of the MCP server, so
// it still sees each capability once; @skills honours a tool attached with #.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describeRequests, productApi, toolResults, useChatView } from '../../chat-helpers';
import { mcpTool } from '../../mcp-helpers';
import { openChat, scriptedModel, waitFor } from '../../util';

const twins = ['activate_skill', 'find_skills', 'read_skill_resource'] as const;

/** What the model is first asked when the user writes `#findSkills`: a required call of it when VS Code resolved the reference. */
async function firstRequestWithFindAttached(): Promise<{ toolMode: string; tools: string[] }> {
  const control = await scriptedModel();
  control.queueAnswers({ toolCalls: [{ name: 'skills_find', input: { query: 'meeting notes' } }] }, { text: 'Found plain-notes.' });
  const turn = await openChat('@skills #findSkills which skill writes meeting notes?', { newSession: true });
  assert.equal(turn.modelRequests.length, 2, describeRequests(turn.modelRequests));
  assert.match(toolResults(turn.modelRequests[1])[0], /- plain-notes: Write meeting notes/);
  const [first] = turn.modelRequests;
  return { toolMode: first.toolMode, tools: first.tools.map((tool) => tool.name) };
}

describe('agent mode with the extension tools (agentSkills.agentMode: tools)', () => {
  useChatView();

  it('by default offers no # reference: agent mode gets the MCP server instead', async () => {
    const first = await firstRequestWithFindAttached();
    assert.equal(first.toolMode, 'auto', 'VS Code resolved #findSkills although its tool is only for agentMode "tools"');
  });

  it('with agentMode "tools", withdraws the MCP server', async () => {
    await vscode.workspace.getConfiguration('agentSkills').update('agentMode', 'tools', vscode.ConfigurationTarget.Workspace);
    const api = await productApi();
    await waitFor(() => api.testing.mcpServerDefinition() === undefined, { message: 'the MCP server definition stayed' });
    await waitFor(() => twins.every((name) => mcpTool(name) === undefined), { timeoutMs: 20000, message: "the MCP server's tools stayed" });
  });

  after(async () => {
    await vscode.workspace.getConfiguration('agentSkills').update('agentMode', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('answers under the names agent mode sees, pointing at its own tools', async () => {
    const result = await vscode.lm.invokeTool(
      'activate_skill',
      { input: { name: 'pdf-report', arguments: 'q3.csv "Q3 sales"' }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /^<skill name="pdf-report" dir="[^"]+pdf-report">/);
    assert.match(text, /read one with read_skill_resource/);
    assert.doesNotMatch(text, /skills_readResource/);
  });

  it('makes the model call a tool the user attached with #', async () => {
    assert.deepEqual(await firstRequestWithFindAttached(), { toolMode: 'required', tools: ['skills_find'] });
  });
});
