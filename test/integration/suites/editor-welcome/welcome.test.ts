import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';
import { firstWorkspaceFolder, skillNamed, skillsApi, treeItem } from '../../editor-helpers';
import * as vscode from 'vscode';

describe('the Skills view without skills', () => {
  it('explains what a skill is, offers Create Skill and points at the unconfigured .github/skills', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const api = await skillsApi();
    assert.deepEqual(api.listSkills(), []);
    const text = await waitForViewText('skills', /No skills found[\s\S]*Create Skill[\s\S]*not configured/);
    assert.match(text, /A skill is a folder with a SKILL\.md file/);
    await screenshot('tree-welcome');
  });

  it('replaces the welcome with the tree once a skill is created', async () => {
    const api = await skillsApi();
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { name: 'first-skill', location: 'editor-empty', open: false });
    assert.equal(uri?.fsPath, path.join(firstWorkspaceFolder(), '.agent', 'skills', 'first-skill', 'SKILL.md'));
    assert.equal(skillNamed(api, 'first-skill')?.status, 'available');
    assert.ok(treeItem(api, 'Available', 'first-skill'));
    if (harnessAvailable()) {
      await waitForViewText('skills', 'first-skill');
    }
  });
});
