// Skills: Show Usage and Clear Usage: activations by the model through the tools and by /use are
// counted in the workspace's storage, shown per skill in a preview, and cleared after confirming.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clearUsage, invokeSkillTool, productApi, useChatView } from '../../chat-helpers';
import { openTabLabels, showTab, skillText, workspaceSkillsFolder, writeSkillOnDisk } from '../../editor-helpers';
import { harnessAvailable, openChat, pressKeys, readViewText, screenshot, scriptedModel, waitFor, waitForViewText } from '../../util';

describe('skill usage', () => {
  useChatView();
  before(function () {
    if (!harnessAvailable()) {
      this.skip(); // Clear Usage's question is answered in the workbench.
    }
  });
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('counts activations by the model and by /use, with their cost, and points out skills not used', async () => {
    // Earlier tests activated skills: start from nothing.
    assert.equal(await clearUsage(), true);
    const control = await scriptedModel();
    control.queueAnswers({ toolCalls: [{ name: 'skills_activate', input: { name: 'pdf-report' } }] }, { text: 'The report follows the pdf-report skill.' });
    await openChat('@skills build the Q3 report', { newSession: true });
    control.queueAnswers({ text: 'Release notes for 2.0 written.' });
    await openChat('@skills /use release-notes 2.0', { newSession: true });
    // Another participant's model calls the same tool.
    const toolText = await invokeSkillTool('skills_activate', { name: 'pdf-report' });
    await (await productApi()).whenIdle();

    const text = await vscode.commands.executeCommand<string>('agentSkills.showUsage');
    const chars = toolText.length.toLocaleString('en-US');
    const tokens = Math.ceil(toolText.length / 4).toLocaleString('en-US');
    assert.match(text, new RegExp(`\\n\\| \`pdf-report\` \\| 2 \\| model 2 \\| [^|]* UTC \\(today\\) \\| ${(toolText.length * 2).toLocaleString('en-US')} · ${chars} \\| [\\d,]+ · ${tokens} \\|\\n`));
    assert.match(text, /\n\| `release-notes` \| 1 \| \/use 1 \| [^|]* UTC \(today\) \| [\d,]+ · [\d,]+ \|/);
    assert.match(text, /## Not activated lately\n\nAvailable now, but not activated on any of the 1 day of use recorded[^\n]*\n\n(- `[a-z-]+`\n)*- `plain-notes`\n/);
    assert.doesNotMatch(text.split('## Not activated lately')[1], /- `(pdf-report|release-notes)`\n/);

    // A skill created after these activations had no chance to be used: left out, and said so.
    writeSkillOnDisk(workspaceSkillsFolder(), 'fresh-notes', skillText('fresh-notes', 'Takes fresh notes.'));
    try {
      await waitFor(async () => {
        const api = await productApi();
        await api.whenIdle();
        return api.listSkills().some((skill) => skill.name === 'fresh-notes' && skill.status === 'available');
      });
      const withNew = await vscode.commands.executeCommand<string>('agentSkills.showUsage');
      assert.match(withNew, /\n- `plain-notes`\n/);
      assert.doesNotMatch(withNew, /\n- `fresh-notes`\n/);
      assert.match(withNew, /\n\nNot counted, as they were installed or created since those days began: `fresh-notes`\.\n/);
    } finally {
      fs.rmSync(path.join(workspaceSkillsFolder(), 'fresh-notes'), { recursive: true, force: true });
      await (await productApi()).whenIdle();
    }

    // The preview as users see it.
    const shown = await waitForViewText('webview:table', 'release-notes');
    assert.match(shown, /pdf-report\s+2\s+model 2/);
    assert.match(shown, /release-notes\s+1\s+\/use 1/);
    await screenshot('usage');
  });

  it('keeps its own tab when Create Skill opens a new SKILL.md', async () => {
    await vscode.commands.executeCommand('agentSkills.showUsage');
    await waitForViewText('webview:body', 'usage in this workspace');
    const created = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { name: 'usage-neighbour', location: workspaceSkillsFolder() });
    try {
      assert.ok(created);
      const labels = await waitFor(() => {
        const open = openTabLabels();
        return open.includes('SKILL.md') && open;
      });
      assert.ok(labels.includes('[Preview] Skill Usage.md'), `the usage tab is gone: ${labels.join(', ')}`);
      await showTab('Skill Usage.md');
      assert.match(await waitForViewText('webview:body', 'pdf-report'), /usage in this workspace/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(path.join(workspaceSkillsFolder(), 'usage-neighbour'), { recursive: true, force: true });
      await (await productApi()).whenIdle();
    }
  });

  it('clears the record after asking, and the open preview follows', async () => {
    await vscode.commands.executeCommand('agentSkills.showUsage');
    await waitForViewText('webview:table', 'pdf-report');
    // Enter takes the focused choice, Cancel, and Escape dismisses: nothing changes either way.
    const question = "Clear this workspace's record of skill activations?";
    for (const key of ['Enter', 'Escape']) {
      const cancelled = vscode.commands.executeCommand<boolean>('agentSkills.clearUsage');
      await waitForViewText('css:.quick-input-widget', question);
      // Keys go to the question once its list is drawn with the safe choice focused.
      await waitForViewText('css:.quick-input-widget .monaco-list-row.focused', 'Cancel');
      await pressKeys(key);
      assert.equal(await cancelled, false, key);
      // The next question is not this one while it is still hiding.
      await waitFor(async () => !(await readViewText('css:.quick-input-widget').catch(() => '')).includes(question), { message: 'the question stayed open' });
    }
    assert.match(await vscode.commands.executeCommand<string>('agentSkills.showUsage'), /\| `pdf-report` \| 2 \|/);

    assert.equal(await clearUsage(), true);
    await waitForViewText('webview:body', 'No skill has been activated in this workspace yet');
    const text = await vscode.commands.executeCommand<string>('agentSkills.showUsage');
    assert.doesNotMatch(text, /\| `pdf-report` \|/);
  });
});
