// The MCP server of a window in Restricted Mode. VS Code does not start an extension's MCP server
// in an untrusted workspace; the definition it would start must still hold no workspace root, so
// the server it describes is run here as VS Code would run it and asked what it offers.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { productApi } from '../../chat-helpers';

/** Names and text that appear only in the workspace's skills. */
const workspaceText = /pdf-report|plain-notes|audit-fork|release-notes|Build a PDF report|GUIDE-MARKER|Decisions, Owners|AUDIT-BODY/;

function resultText(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

describe('the MCP server in Restricted Mode', () => {
  let client: Client;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const definition = (await productApi()).testing.mcpServerDefinition();
    assert.ok(definition, "the server is offered for the user's own skills");
    const workspaceFolder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.ok(!definition.args.some((arg) => arg.startsWith(workspaceFolder)), `no workspace root: ${definition.args.join(' ')}`);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...process.env, ...definition.env })) {
      if (typeof value === 'string' || typeof value === 'number') {
        env[key] = String(value);
      }
    }
    client = new Client({ name: 'restricted-mode-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: definition.command, args: definition.args, env }));
  });

  after(async () => {
    await client?.close();
  });

  it("offers the user's skills and nothing of the workspace", async () => {
    assert.doesNotMatch(client.getInstructions() ?? '', workspaceText);
    assert.match(client.getInstructions() ?? '', /home-helper: /);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      assert.doesNotMatch(`${tool.description} ${JSON.stringify(tool.inputSchema)}`, workspaceText, tool.name);
    }
    assert.match(resultText(await client.callTool({ name: 'activate_skill', arguments: { name: 'home-helper', arguments: '"fix: typo"' } })), /HOME-HELPER-BODY/);
  });

  it('answers for workspace skills without their text', async () => {
    const refused = await client.callTool({ name: 'activate_skill', arguments: { name: 'pdf-report' } });
    assert.equal(refused.isError, true);
    assert.doesNotMatch(resultText(refused).replace(/No skill named "pdf-report"/, ''), workspaceText);
    assert.doesNotMatch(resultText(await client.callTool({ name: 'read_skill_resource', arguments: { skill: 'pdf-report', path: 'references/guide.md' } })), /GUIDE-MARKER/);
    assert.doesNotMatch(resultText(await client.callTool({ name: 'find_skills', arguments: { query: 'pdf report' } })), workspaceText);
    const { resources } = await client.listResources();
    assert.doesNotMatch(JSON.stringify(resources), workspaceText);
  });
});
