import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';
import { skillNamed, skillsApi, treeOutline, waitForSkills } from '../../editor-helpers';

function folderPath(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.name === name);
  assert.ok(folder, `no workspace folder ${name}`);
  return folder.uri.fsPath;
}

describe('a multi-root window', () => {
  it('lets the earlier folder win a name both folders use, and groups Available by folder and location', async () => {
    const api = await skillsApi();
    const winner = path.join(folderPath('team-a'), '.agent', 'skills', 'shared', 'SKILL.md');
    assert.equal(skillNamed(api, 'shared')?.path, winner);
    const loser = api.listSkills().find((skill) => skill.name === 'shared' && skill.status === 'shadowed');
    assert.equal(loser?.shadowedBy, winner);
    assert.equal(loser?.path, path.join(folderPath('team-b'), '.agent', 'skills', 'shared', 'SKILL.md'));
    assert.deepEqual(treeOutline(api), [
      'Available — 4',
      '  team-a — 2',
      '    alpha — Team A only.',
      "    shared — Team A's shared conventions.",
      '  team-b · .agent/skills — 1',
      '    beta — Team B only.',
      '  team-b · tools/skills — 1',
      '    gamma — Team B keeps this one under tools/skills.',
      'Shadowed — 1',
      // The winner's source; its path is in the tooltip.
      '  shared — shadowed by team-a',
    ]);
    if (harnessAvailable()) {
      await waitForViewText('skills', 'team-b · tools/skills');
      await screenshot('tree-multi-root');
    }
  });

  it('forgets the skills of a removed folder and finds them again when it is added back', async () => {
    const api = await skillsApi();
    const teamB = vscode.Uri.file(folderPath('team-b'));
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 1));
    await waitForSkills(api, () => !skillNamed(api, 'beta') && !skillNamed(api, 'gamma'), 'team-b skills are still listed');
    assert.equal(api.listSkills().filter((skill) => skill.name === 'shared').length, 1);
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 0, { uri: teamB }));
    await waitForSkills(api, () => skillNamed(api, 'beta') && skillNamed(api, 'gamma'), 'team-b skills did not come back');
  });
});
