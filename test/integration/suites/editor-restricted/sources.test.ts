import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, notificationsText } from '../../util';
import { firstWorkspaceFolder, skillsApi, workspaceSkillsFolder } from '../../editor-helpers';

describe('Skills from git in Restricted Mode', () => {
  it('installs, checks and updates nothing, and says why', async () => {
    await skillsApi();
    const source = path.join(firstWorkspaceFolder(), '.agent', 'skills');
    assert.equal(await vscode.commands.executeCommand('agentSkills.addFromGit', { source, skills: ['notes'] }), undefined);
    assert.equal(await vscode.commands.executeCommand('agentSkills.checkForUpdates'), undefined);
    assert.ok(!fs.existsSync(path.join(firstWorkspaceFolder(), 'skills-lock.json')), 'no lock was written');
    assert.deepEqual(fs.readdirSync(workspaceSkillsFolder()).sort(), ['broken-yaml', 'extra-fields', 'mismatch', 'notes', 'pdf-tools']);
    if (harnessAvailable()) {
      const text = await notificationsText();
      await vscode.commands.executeCommand('notifications.clearAll');
      assert.match(text, /Restricted Mode: trust this workspace to install skills into it\./);
      assert.match(text, /Restricted Mode: trust this workspace to check its installed skills for updates\./);
    }
  });
});
