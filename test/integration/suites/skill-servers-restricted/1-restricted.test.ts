// Restricted Mode: a skill server named in the workspace's settings runs a command the workspace
// chose, so it is not started, and the view says so; the user's own servers keep working.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillsApi } from '../../editor-helpers';
import { servedSkillsFolder, setUserServers, stdioServer, waitForOutline } from '../../server-helpers';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';

const startedMarker = path.join(os.tmpdir(), 'agent-skills-repo-server-started');

describe('skill servers in Restricted Mode', function () {
  this.timeout(60000);

  after(() => setUserServers(undefined));

  it("does not start the workspace's server and says why; a server in the user's settings still serves", async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await skillsApi();
    const mine = servedSkillsFolder({ 'my-notes': ['Notes from my own skill server.', 'Write them down.'] });
    await setUserServers([stdioServer('mine', mine)]);
    // The server's skill is the only one available: it sits under Available, which names the server.
    await waitForOutline(api, [
      'Available — 1 · Skill server · mine',
      '  mine/my-notes — Notes from my own skill server.',
      /^ {2}repo — Skill server "repo" is named in this workspace's settings, so it is not started in Restricted Mode\. Trust the workspace to use it\.$/,
    ]);
    assert.match(await api.activateSkill('mine/my-notes'), /server="mine" uri="skill:\/\/my-notes\/SKILL\.md">\nWrite them down\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
    assert.equal(fs.existsSync(startedMarker), false, 'the workspace server must not have been started');
    if (harnessAvailable()) {
      await waitForViewText('skills', /Available[\s\S]*Skill server · mine[\s\S]*mine\/my-notes[\s\S]*repo[\s\S]*Skill server "repo" is named in this workspace's settings/);
      await screenshot('view');
    }
  });
});
