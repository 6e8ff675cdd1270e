// Show Usage counts what agent mode's MCP server activated: VS Code starts the server from the
// extension's definition, which names a file in the workspace's storage; a tool call through
// vscode.lm.invokeTool reaches the server, which records it there, and Show Usage shows it as the
// MCP server's, the open preview following new calls; Clear Usage forgets them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { clearUsage, productApi } from '../../chat-helpers';
import { invokeText, startedMcpTools } from '../../mcp-helpers';
import { harnessAvailable, screenshot, waitFor, waitForViewText } from '../../util';

/** Show Usage's text once `expected` matches it: the server writes its record after answering. */
function usageShowing(expected: RegExp): Promise<string> {
  return waitFor(
    async () => {
      const text = await vscode.commands.executeCommand<string>('agentSkills.showUsage');
      return expected.test(text) ? text : undefined;
    },
    { timeoutMs: 20000, intervalMs: 500, message: `Show Usage never matched ${expected}` },
  );
}

describe('usage by the MCP server in VS Code', () => {
  before(function () {
    if (!harnessAvailable()) {
      this.skip(); // VS Code starts MCP servers for chat requests, which need the workbench.
    }
  });
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('counts activate_skill calls through the server VS Code started, as the MCP server’s, with their cost', async () => {
    const usageLog = (await productApi()).testing.mcpServerDefinition()?.env.AGENT_SKILLS_USAGE_LOG;
    assert.ok(typeof usageLog === 'string' && usageLog.includes('workspaceStorage'), `the server is given a file in the workspace's storage: ${usageLog}`);
    assert.equal(await clearUsage(), true);
    const activate = (await startedMcpTools()).get('activate_skill')!;
    const notes = await invokeText(activate, { name: 'plain-notes' });
    assert.match(notes, /^<skill name="plain-notes"/);
    await invokeText(activate, { name: 'plain-notes' });
    assert.match(await invokeText(activate, { name: 'pdf-report' }), /^<skill name="pdf-report"/);
    assert.match(await invokeText(activate, { name: 'no-such-skill' }), /No skill named "no-such-skill"/);

    const text = await usageShowing(/\| `pdf-report` \|/);
    const chars = (notes.length * 2).toLocaleString('en-US');
    const average = notes.length.toLocaleString('en-US');
    assert.match(text, new RegExp(`\\n\\| \`plain-notes\` \\| 2 \\| MCP server \\(agent mode\\) 2 \\| [^|]* UTC \\(today\\) \\| ${chars} · ${average} \\|`));
    assert.match(text, /\n\| `pdf-report` \| 1 \| MCP server \(agent mode\) 1 \|/);
    assert.doesNotMatch(text, /no-such-skill/);

    // The preview as users see it, following a new call without being shown again.
    await waitForViewText('webview:table', /plain-notes\s+2\s+MCP server \(agent mode\) 2/);
    await invokeText(activate, { name: 'plain-notes' });
    await waitForViewText('webview:table', /plain-notes\s+3\s+MCP server \(agent mode\) 3/, 20000);
    await screenshot('usage-mcp');
  });

  it('forgets the MCP server’s activations too when usage is cleared', async () => {
    const usageLog = (await productApi()).testing.mcpServerDefinition()!.env.AGENT_SKILLS_USAGE_LOG as string;
    // A line the server wrote that may not be counted yet.
    await fs.appendFile(usageLog, `{"skill":"pdf-report","via":"tool","chars":10,"at":"${new Date().toISOString()}"}\n`);
    assert.equal(await clearUsage(), true);
    const text = await vscode.commands.executeCommand<string>('agentSkills.showUsage');
    assert.match(text, /No skill has been activated in this workspace yet/);
    await assert.rejects(fs.stat(usageLog), /ENOENT/, 'nothing left to count later');
  });
});
