import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';
import { skillNamed, skillsApi, skillText, treeItem, treeOutline, userSkillsFolder, waitForSkills, workspaceSkillsFolder, writeSkillOnDisk } from '../../editor-helpers';

describe('live updates from disk', () => {
  const folder = () => path.join(workspaceSkillsFolder(), 'live-skill');

  after(() => fs.rmSync(folder(), { recursive: true, force: true }));

  it('shows a skill created on disk', async () => {
    const api = await skillsApi();
    writeSkillOnDisk(workspaceSkillsFolder(), 'live-skill', skillText('live-skill', 'First version.'));
    await waitForSkills(api, () => treeItem(api, 'Available', 'live-skill'), 'the new skill did not appear');
    assert.equal(skillNamed(api, 'live-skill')?.description, 'First version.');
  });

  it('shows an edited description', async () => {
    const api = await skillsApi();
    fs.writeFileSync(path.join(folder(), 'SKILL.md'), skillText('live-skill', 'Second version.'));
    await waitForSkills(api, () => skillNamed(api, 'live-skill')?.description === 'Second version.', 'the edit was not picked up');
    assert.equal(treeItem(api, 'Available', 'live-skill')?.description, 'Second version.');
  });

  it('keeps serving the last valid version of a broken skill, shown as stale with the error', async function () {
    const api = await skillsApi();
    fs.writeFileSync(path.join(folder(), 'SKILL.md'), '---\nname: live-skill\ndescription: Broken: now\n---\nBody.\n');
    await waitForSkills(api, () => skillNamed(api, 'live-skill')?.stale, 'the skill was not marked stale');
    const skill = skillNamed(api, 'live-skill')!;
    assert.equal(skill.status, 'available');
    assert.equal(skill.description, 'Second version.');
    assert.deepEqual(
      skill.diagnostics.map((diagnostic) => diagnostic.code),
      ['yaml-syntax'],
    );
    // Short enough to read whole in a narrow Skills view; the tooltip has the message.
    assert.equal(treeItem(api, 'Available', 'live-skill')?.description, 'stale: YAML error, line 3');
    assert.match(treeItem(api, 'Available', 'live-skill')?.tooltip ?? '', /Invalid YAML in the frontmatter/);
    // Its last valid SKILL.md, not the broken file's body.
    const activated = await api.activateSkill('live-skill');
    assert.match(activated, /<skill name="live-skill"[^>]*>\n# live-skill\n\nInstructions for live-skill\.\n/);
    assert.doesNotMatch(activated, /Body\./);
    if (harnessAvailable()) {
      await waitForViewText('skills', 'stale: YAML error, line 3');
      await screenshot('tree-stale');
    }
  });

  it('drops the stale mark once the file is fixed', async () => {
    const api = await skillsApi();
    fs.writeFileSync(path.join(folder(), 'SKILL.md'), skillText('live-skill', 'Third version.'));
    await waitForSkills(api, () => skillNamed(api, 'live-skill')?.description === 'Third version.', 'the fix was not picked up');
    assert.equal(skillNamed(api, 'live-skill')?.stale, false);
    assert.deepEqual(skillNamed(api, 'live-skill')?.diagnostics, []);
  });

  it('follows a renamed folder, warning that the name no longer matches it', async () => {
    const api = await skillsApi();
    const renamed = path.join(workspaceSkillsFolder(), 'live-renamed');
    fs.renameSync(folder(), renamed);
    await waitForSkills(api, () => skillNamed(api, 'live-skill')?.path === path.join(renamed, 'SKILL.md'), 'the rename was not picked up');
    assert.deepEqual(
      skillNamed(api, 'live-skill')?.diagnostics.map((diagnostic) => diagnostic.code),
      ['name-mismatch'],
    );
    fs.renameSync(renamed, folder());
    await waitForSkills(api, () => skillNamed(api, 'live-skill')?.path === path.join(folder(), 'SKILL.md'), 'the rename back was not picked up');
  });

  it('removes a deleted skill', async () => {
    const api = await skillsApi();
    fs.rmSync(folder(), { recursive: true });
    await waitForSkills(api, () => !skillNamed(api, 'live-skill'), 'the deleted skill is still listed');
    assert.equal(treeItem(api, 'Available', 'live-skill'), undefined);
  });

  it('watches the user folder outside the workspace too', async () => {
    const api = await skillsApi();
    const file = writeSkillOnDisk(userSkillsFolder(), 'user-live', skillText('user-live', 'Made in the home folder.'));
    try {
      await waitForSkills(api, () => skillNamed(api, 'user-live', 'user'), 'the user skill did not appear', 15000);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
    await waitForSkills(api, () => !skillNamed(api, 'user-live'), 'the deleted user skill is still listed', 15000);
  });

  it('coalesces a burst of changes (a git checkout) into a few updates', async () => {
    const api = await skillsApi();
    const names = Array.from({ length: 40 }, (_, index) => `burst-${index}`);
    let updates = 0;
    const subscription = api.onDidChangeSkills(() => updates++);
    try {
      for (const name of names) {
        writeSkillOnDisk(workspaceSkillsFolder(), name, skillText(name, `Burst skill ${name}.`));
      }
      await waitForSkills(api, (skills) => names.every((name) => skills.some((skill) => skill.name === name)), 'not every burst skill appeared');
      assert.ok(updates <= 10, `${names.length} new skills took ${updates} updates`);
    } finally {
      subscription.dispose();
      for (const name of names) {
        fs.rmSync(path.join(workspaceSkillsFolder(), name), { recursive: true, force: true });
      }
    }
    await waitForSkills(api, (skills) => !skills.some((skill) => skill.name.startsWith('burst-')), 'the burst skills were not all removed');
    assert.ok(!treeOutline(api).some((line) => line.includes('burst-')), 'the view model still lists burst skills');
    if (harnessAvailable()) {
      await waitForViewText('skills', /^(?![\s\S]*burst-)[\s\S]*Available/);
    }
  });
});
