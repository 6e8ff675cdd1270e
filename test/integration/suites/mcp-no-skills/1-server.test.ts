// The MCP server of a window with no skills folder anywhere (neither the workspace's .agent/skills
// nor ~/.agent/skills): it starts with the built-in skills, and serves the workspace's folder once
// the user makes it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { invokeText, nameEnum, startedMcpTools } from '../../mcp-helpers';
import { harnessAvailable } from '../../util';

describe('the MCP server without any skills folder', () => {
  before(function () {
    if (!harnessAvailable()) {
      this.skip(); // VS Code starts MCP servers for chat requests, which need the workbench.
    }
  });

  it('starts and serves the built-in skills', async () => {
    const workspaceSkills = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.agent', 'skills');
    await assert.rejects(fs.stat(workspaceSkills), /ENOENT/);
    await assert.rejects(fs.stat(path.join(os.homedir(), '.agent')), /ENOENT/);
    assert.ok((await productApi()).testing.mcpServerDefinition()?.args.includes(workspaceSkills));
    const tools = await startedMcpTools();
    assert.deepEqual([...(nameEnum(tools.get('activate_skill')!) ?? [])].sort(), ['reviewing-skills', 'writing-skills']);
  });

  it('serves the workspace’s .agent/skills once it is created', async () => {
    const skillDir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.agent', 'skills', 'first-skill');
    await fs.mkdir(skillDir, { recursive: true });
    await fs.writeFile(path.join(skillDir, 'SKILL.md'), '---\nname: first-skill\ndescription: The workspace’s first skill.\n---\nFIRST-SKILL-BODY\n');
    const tools = await startedMcpTools((found) => nameEnum(found.get('activate_skill')!)?.includes('first-skill') === true, 30000);
    assert.match(await invokeText(tools.get('activate_skill')!, { name: 'first-skill' }), /FIRST-SKILL-BODY/);
  });
});
