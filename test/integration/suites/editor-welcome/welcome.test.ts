import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessAvailable, readViewText, screenshot, waitFor, waitForViewText } from '../../util';
import {
  firstWorkspaceFolder,
  skillNamed,
  skillsApi,
  skillText,
  treeItem,
  treeOutline,
  userSkillsFolder,
  waitForDrawnRows,
  waitForSkills,
  writeSkillOnDisk,
  type DrawnRowText,
} from '../../editor-helpers';
import * as vscode from 'vscode';

describe('the Skills view without skills', () => {
  it('explains what a skill is, offers Create Skill and points at the unconfigured .github/skills', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const api = await skillsApi();
    assert.deepEqual(api.listSkills(), []);
    const text = await waitForViewText('skills', /No skills found[\s\S]*Create Skill[\s\S]*agentSkills\.locations does not include[\s\S]*Add Found Skill Folders/);
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

  it("draws a single source's skills directly under Available, which names the source, and the sources' rows while the user folder has a skill too", async () => {
    const api = await skillsApi();
    const draft = 'draft: write its description';
    const flat = ['Available — 1 · Workspace · editor-empty', `  first-skill — ${draft}`];
    const flatRows: DrawnRowText[] = [
      [1, 'Available', '1 · Workspace · editor-empty'],
      [2, 'first-skill', draft],
    ];
    assert.deepEqual(treeOutline(api), flat);
    if (harnessAvailable()) {
      await waitForDrawnRows(flatRows);
    }
    // The suite's home has no skills folder: the user makes one with a skill in it, then removes it.
    const folder = path.dirname(writeSkillOnDisk(userSkillsFolder(), 'my-own', skillText('my-own', 'A skill of my own.')));
    try {
      await waitForSkills(api, () => skillNamed(api, 'my-own'), "the user's new skill did not load", 30000);
      assert.deepEqual(treeOutline(api), ['Available — 2', '  editor-empty — 1', `    first-skill — ${draft}`, '  User — 1', '    my-own — A skill of my own.']);
      if (harnessAvailable()) {
        await waitForDrawnRows([
          [1, 'Available', '2'],
          [2, 'editor-empty', '1'],
          [3, 'first-skill', draft],
          [2, 'User', '1'],
          [3, 'my-own', 'A skill of my own.'],
        ]);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    await waitForSkills(api, () => !skillNamed(api, 'my-own'), "the user's removed skill stayed", 30000);
    assert.deepEqual(treeOutline(api), flat);
    if (harnessAvailable()) {
      await waitForDrawnRows(flatRows);
    }
  });

  it('names an unconfigured skill folder above the tree, also once the tree has skills, and adds it in one click', async function () {
    const api = await skillsApi();
    assert.ok(treeItem(api, 'Available', 'first-skill'), 'the tree has a skill of its own');
    if (harnessAvailable()) {
      await waitForViewText('skills', /Skills in \.github\/skills are not used/);
    }
    const added = await vscode.commands.executeCommand<string[]>('agentSkills.addFoundLocations');
    assert.deepEqual(added, ['.github/skills']);
    assert.deepEqual(vscode.workspace.getConfiguration('agentSkills', vscode.workspace.workspaceFolders![0]).get('locations'), ['.agent/skills', '.github/skills']);
    await waitForSkills(api, (skills) => skills.some((skill) => skill.name === 'helper'), 'the skill in .github/skills did not load');
    if (harnessAvailable()) {
      let text = '';
      await waitFor(async () => !/are not used/.test((text = await readViewText('skills'))), { message: () => `the view still says the folder is not used:\n${text}` });
    }
  });
});
