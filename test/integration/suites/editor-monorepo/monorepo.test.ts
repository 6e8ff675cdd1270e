import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';
import { firstWorkspaceFolder, skillNamed, skillsApi, skillText, treeOutline, waitForSkills, writeSkillOnDisk } from '../../editor-helpers';

describe('a monorepo workspace', () => {
  it("shows each sub-project's skills under its package, grouped skills under their folder, a clash as shadowed, and leaves git-ignored folders out", async () => {
    const api = await skillsApi();
    const repository = firstWorkspaceFolder();
    assert.deepEqual(treeOutline(api), [
      'Available — 4',
      '  monorepo — 2',
      '    shipping — 1',
      '      land-it — Land a reviewed change on main. Use when a pull request is approved and ready to merge.',
      '    deploy — Deploy the whole repository. Use when asked to ship everything.',
      '  packages/api — 1',
      "    api-docs — Write reference docs for the API's endpoints.",
      '  packages/web — 1',
      "    web-lint — Lint the web app's TypeScript and CSS. Use before committing web changes.",
      'Shadowed — 1',
      // The location nearer the workspace folder wins the name.
      '  deploy — shadowed by monorepo',
    ]);
    const shadowed = api.listSkills().find((skill) => skill.name === 'deploy' && skill.status === 'shadowed');
    assert.equal(shadowed?.path, path.join(repository, 'packages', 'web', '.agent', 'skills', 'deploy', 'SKILL.md'));
    assert.equal(shadowed?.shadowedBy, path.join(repository, '.agent', 'skills', 'deploy', 'SKILL.md'));
    assert.equal(skillNamed(api, 'generated-copy'), undefined);
    if (harnessAvailable()) {
      await waitForViewText('skills', 'packages/web');
      await screenshot('tree-monorepo');
    }
  });

  it('says in the catalog which package a skill belongs to', async () => {
    await skillsApi();
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog');
    const text = document.getText();
    assert.match(text, /\nweb-lint: Lint the web app's TypeScript and CSS\. Use before committing web changes\. \(in packages\/web\)\n/);
    assert.match(text, /\ndeploy: Deploy the whole repository\. Use when asked to ship everything\.\n/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('picks up a skill location created in a new package at run time, and drops it when the package goes', async () => {
    const api = await skillsApi();
    const billing = path.join(firstWorkspaceFolder(), 'packages', 'billing');
    writeSkillOnDisk(path.join(billing, '.agent', 'skills'), 'invoice', skillText('invoice', 'Draft an invoice from the billing records.'));
    const found = await waitForSkills(api, (skills) => skills.find((skill) => skill.name === 'invoice'), 'the new package skill did not appear');
    assert.equal(found.status, 'available');
    assert.deepEqual(treeOutline(api).slice(0, 2), ['Available — 5', '  monorepo — 2']);
    assert.ok(treeOutline(api).includes('  packages/billing — 1'), treeOutline(api).join('\n'));
    // A second skill in the new location arrives through that location's own watcher.
    writeSkillOnDisk(path.join(billing, '.agent', 'skills'), 'refund', skillText('refund', 'Refund a payment.'));
    await waitForSkills(api, () => skillNamed(api, 'refund'), 'a second skill in the new location did not appear');
    if (harnessAvailable()) {
      await waitForViewText('skills', 'packages/billing');
      await screenshot('tree-monorepo-new-package');
    }
    fs.rmSync(billing, { recursive: true, force: true });
    await waitForSkills(api, () => !skillNamed(api, 'invoice') && !skillNamed(api, 'refund'), 'the removed package skills are still listed');
  });

  it('finds a skill in a grouping folder created at run time, one added to an existing group, and drops them with their group', async () => {
    const api = await skillsApi();
    const skills = path.join(firstWorkspaceFolder(), '.agent', 'skills');
    // Written at once, as a checkout or `mkdir -p` does: the watcher may report only the top folder.
    writeSkillOnDisk(path.join(skills, 'ops', 'infra'), 'rollback', skillText('rollback', 'Roll a deployment back to the last good release.'));
    const rollback = await waitForSkills(api, (listed) => listed.find((skill) => skill.name === 'rollback'), 'the skill in a new grouping folder did not appear');
    assert.equal(rollback.status, 'available');
    assert.equal(rollback.path, path.join(skills, 'ops', 'infra', 'rollback', 'SKILL.md'));
    writeSkillOnDisk(path.join(skills, 'shipping'), 'hotfix', skillText('hotfix', 'Ship an urgent fix outside the release train.'));
    await waitForSkills(api, () => skillNamed(api, 'hotfix'), 'a skill added to an existing grouping folder did not appear');
    const outline = treeOutline(api);
    assert.deepEqual(outline.slice(0, 8), [
      'Available — 6',
      '  monorepo — 4',
      '    ops/infra — 1',
      '      rollback — Roll a deployment back to the last good release.',
      '    shipping — 2',
      '      hotfix — Ship an urgent fix outside the release train.',
      '      land-it — Land a reviewed change on main. Use when a pull request is approved and ready to merge.',
      '    deploy — Deploy the whole repository. Use when asked to ship everything.',
    ]);
    if (harnessAvailable()) {
      await waitForViewText('skills', 'ops/infra');
      await screenshot('tree-grouping-folders');
    }
    fs.rmSync(path.join(skills, 'ops'), { recursive: true, force: true });
    fs.rmSync(path.join(skills, 'shipping', 'hotfix'), { recursive: true, force: true });
    await waitForSkills(api, () => !skillNamed(api, 'rollback') && !skillNamed(api, 'hotfix'), 'the deleted grouped skills are still listed');
    assert.ok(skillNamed(api, 'land-it'), 'the grouped skill that stayed went away');
  });
});
