// The MCP server for a user who has no ~/.agent/skills, as most users have none: VS Code passes
// that root all the same, and the server must start, serve the workspace's skills, and pick the
// folder up when the user creates it, without being restarted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { productApi } from '../../chat-helpers';
import { invokeText, nameEnum, startedMcpTools } from '../../mcp-helpers';
import { harnessAvailable } from '../../util';

const userSkills = path.join(os.homedir(), '.agent', 'skills');

describe('the MCP server for a user without ~/.agent/skills', () => {
  before(function () {
    if (!harnessAvailable()) {
      this.skip(); // VS Code starts MCP servers for chat requests, which need the workbench.
    }
  });

  it('starts and serves the workspace’s skills though the user folder does not exist', async () => {
    await assert.rejects(fs.stat(path.join(os.homedir(), '.agent')), /ENOENT/, 'the fixture home has no skills folder');
    const definition = (await productApi()).testing.mcpServerDefinition();
    assert.ok(definition?.args.includes(userSkills), `the user root is passed: ${definition?.args.join(' ')}`);
    const tools = await startedMcpTools();
    const names = nameEnum(tools.get('activate_skill')!) ?? [];
    assert.ok(names.includes('pdf-report') && names.includes('writing-skills'), names.join(', '));
    assert.match(await invokeText(tools.get('activate_skill')!, { name: 'plain-notes' }), /^<skill name="plain-notes"/);
  });

  it('serves ~/.agent/skills once it is created while the server runs', async () => {
    const api = await productApi();
    const version = api.testing.mcpServerDefinition()?.version;
    await fs.mkdir(path.join(userSkills, 'late-skill'), { recursive: true });
    await fs.writeFile(path.join(userSkills, 'late-skill', 'SKILL.md'), '---\nname: late-skill\ndescription: Made after the server started.\n---\nLATE-SKILL-BODY\n');
    const tools = await startedMcpTools((found) => nameEnum(found.get('activate_skill')!)?.includes('late-skill') === true, 30000);
    assert.match(await invokeText(tools.get('activate_skill')!, { name: 'late-skill' }), /LATE-SKILL-BODY/);
    assert.equal(api.testing.mcpServerDefinition()?.version, version, 'the same server picked it up, without a restart');
  });
});
