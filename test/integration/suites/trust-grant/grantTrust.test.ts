// Granting Workspace Trust from the workbench UI, as a user does, brings the workspace's skills in
// at once: no reload, the same extension host. The tests run in order and share the window.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeSkillTool } from '../../chat-helpers';
import { skillNamed, skillsApi, treeOutline, waitForDrawnRows, waitForSkills } from '../../editor-helpers';
import { click, harnessAvailable, readViewText, runFromCommandPalette, screenshot, waitFor, waitForViewText } from '../../util';

const WORKSPACE_SKILL = 'team-checklist';
const USER_SKILL = 'daily-standup';
const WORKSPACE_DESCRIPTION = "Walk through the team's pre-merge checklist. Use before merging a pull request.";
const USER_DESCRIPTION = "Draft a short stand-up update from yesterday's work. Use when asked for a stand-up.";
/** Only in the workspace skill's SKILL.md, so it shows whether that file was read. */
const WORKSPACE_BODY = /CHECKLIST-BODY: confirm the tests pass/;
/** Set on the extension host's global object before trust is granted; a reload would lose it. */
const HOST_MARKER = Symbol.for('agentSkills.test.trustGrant.hostMarker');

type MarkedGlobal = typeof globalThis & { [HOST_MARKER]?: string };

describe('Granting Workspace Trust without a reload', () => {
  before(function () {
    // Trust can only be granted through the workbench UI, which needs the browser harness.
    if (!harnessAvailable()) {
      this.skip();
    }
  });

  it('starts in Restricted Mode with the workspace skill listed as untrusted', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await skillsApi();
    assert.equal(skillNamed(api, WORKSPACE_SKILL, 'workspace')?.status, 'untrusted');
    assert.equal(skillNamed(api, USER_SKILL, 'user')?.status, 'available');
    await assert.rejects(api.activateSkill(WORKSPACE_SKILL), /comes from a workspace that is not trusted/);
    await vscode.commands.executeCommand('agentSkills.skills.focus');
    await waitForViewText('skills', new RegExp(`Untrusted[\\s\\S]*${WORKSPACE_SKILL}[\\s\\S]*\\(untrusted\\)`));
    // The user's skill is the only one available: directly under Available, which names its source.
    await waitForDrawnRows([
      [1, 'Available', '1 · User'],
      [2, USER_SKILL, USER_DESCRIPTION],
      [1, 'Untrusted', '1'],
      [2, 'Trust this workspace to use its skills', ''],
      [2, WORKSPACE_SKILL, 'trust-grant (untrusted)'],
    ]);
    await screenshot('before-trust');
  });

  it('brings the workspace skill in once the user trusts the folder in the trust editor', async () => {
    (globalThis as MarkedGlobal)[HOST_MARKER] = 'set before trust was granted';
    const api = await skillsApi();

    await runFromCommandPalette('Workspaces: Manage Workspace Trust');
    await click({ role: 'button', name: 'Trust', exact: true, within: '.workspace-trust-editor' });
    await waitFor(() => vscode.workspace.isTrusted, { message: 'the workspace did not become trusted after clicking Trust' });

    await waitForSkills(
      api,
      (skills) => skills.some((skill) => skill.name === WORKSPACE_SKILL && skill.source.kind === 'workspace' && skill.status === 'available'),
      `${WORKSPACE_SKILL} did not become available after trust was granted`,
    );
    assert.equal((globalThis as MarkedGlobal)[HOST_MARKER], 'set before trust was granted', 'the extension host was restarted');
    assert.equal(skillNamed(api, WORKSPACE_SKILL, 'workspace')?.status, 'available');
    assert.equal(skillNamed(api, USER_SKILL, 'user')?.status, 'available');
    const outline = treeOutline(api);
    assert.ok(outline[0]?.startsWith('Available'), outline.join('\n'));
    assert.doesNotMatch(outline.join('\n'), /Untrusted|Restricted Mode/);
  });

  it('shows the workspace skill under Available in the Skills view', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('agentSkills.skills.focus');
    const text = await waitForViewText('skills', new RegExp(`^(?![\\s\\S]*Untrusted)[\\s\\S]*Available[\\s\\S]*${WORKSPACE_SKILL}`));
    assert.doesNotMatch(text, /\(untrusted\)|Restricted Mode/);
    // Two sources now: each has its row under Available again.
    await waitForDrawnRows([
      [1, 'Available', '2'],
      [2, 'trust-grant', '1'],
      [3, WORKSPACE_SKILL, WORKSPACE_DESCRIPTION],
      [2, 'User', '1'],
      [3, USER_SKILL, USER_DESCRIPTION],
    ]);
    await waitFor(async () => !/Restricted Mode/.test(await readViewText('window')), { message: 'the window still says Restricted Mode' });
    await screenshot('after-trust');
  });

  it('gives the model the workspace skill through skills_activate', async () => {
    const text = await invokeSkillTool('skills_activate', { name: WORKSPACE_SKILL });
    assert.match(text, WORKSPACE_BODY);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });
});
