import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';
import { firstWorkspaceFolder, skillNamed, skillsApi, skillText, treeOutline, waitForSkills, writeSkillOnDisk } from '../../editor-helpers';

describe('a monorepo workspace', () => {
  it("shows each sub-project's skills under its package, a clash as shadowed, and leaves git-ignored folders out", async () => {
    const api = await skillsApi();
    const repository = firstWorkspaceFolder();
    assert.deepEqual(treeOutline(api), [
      'Available — 3',
      '  monorepo — 1',
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
    assert.deepEqual(treeOutline(api).slice(0, 3), ['Available — 4', '  monorepo — 1', '    deploy — Deploy the whole repository. Use when asked to ship everything.']);
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
});
