import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, screenshot, waitFor, waitForViewText } from '../../util';
import { diagnosticsOf, skillNamed, skillsApi, treeOutline, userSkillsFolder, waitForSkills, workspaceSkillsFolder, writeSkillOnDisk } from '../../editor-helpers';

/** Words that only occur inside the workspace's SKILL.md files. */
const WORKSPACE_TEXT = /Extract text and tables|Extract the text of|meeting notes|the YAML breaks|does not match its folder|specification does not know/;

describe('Restricted Mode', () => {
  it('runs untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('lists workspace skills by folder name only, and keeps user and built-in skills working', async () => {
    const api = await skillsApi();
    const workspaceSkills = api.listSkills().filter((skill) => skill.source.kind === 'workspace');
    assert.deepEqual(
      workspaceSkills.map((skill) => [skill.name, skill.status, skill.description, skill.diagnostics.length]),
      [
        ['broken-yaml', 'untrusted', undefined, 0],
        ['extra-fields', 'untrusted', undefined, 0],
        ['mismatch', 'untrusted', undefined, 0],
        ['notes', 'untrusted', undefined, 0],
        ['pdf-tools', 'untrusted', undefined, 0],
      ],
    );
    assert.doesNotMatch(JSON.stringify(api.listSkills()), WORKSPACE_TEXT);
    // The user's pdf-tools is not shadowed by a skill nobody may read.
    assert.equal(skillNamed(api, 'pdf-tools', 'user')?.status, 'available');
    assert.equal(skillNamed(api, 'journal')?.status, 'available');
  });

  it('says why in the view and offers to manage trust', async () => {
    const api = await skillsApi();
    const outline = treeOutline(api);
    // The user's skills are the only ones available: they sit under Available, which names their source.
    assert.deepEqual(outline.slice(0, 3), [
      'Available — 2 · User',
      "  journal — Keep a daily work journal in the user's home folder.",
      "  pdf-tools — The user's own PDF skill, shadowed by the workspace's.",
    ]);
    const untrusted = outline.slice(outline.indexOf('Untrusted — 5') + 1);
    assert.deepEqual(untrusted, [
      '  Trust this workspace to use its skills',
      '  broken-yaml — editor (untrusted)',
      '  extra-fields — editor (untrusted)',
      '  mismatch — editor (untrusted)',
      '  notes — editor (untrusted)',
      '  pdf-tools — editor (untrusted)',
    ]);
    assert.doesNotMatch(outline.join('\n'), WORKSPACE_TEXT);
    if (harnessAvailable()) {
      // Focusing the view makes the workbench lay its rows out before they are read.
      await vscode.commands.executeCommand('agentSkills.skills.focus');
      const expected = [
        'Restricted Mode: 5 workspace skills are listed by name only',
        'Available',
        '2 · User',
        'journal',
        'Untrusted',
        'Trust this workspace to use its skills',
        'broken-yaml',
        'pdf-tools',
      ];
      // The view redraws asynchronously after each update: read it until every row is there.
      await waitForViewText('skills', new RegExp(expected.map((label) => `(?=[\\s\\S]*${label})`).join('')));
      await screenshot('tree-restricted');
    }
  });

  it('refuses to activate a workspace skill and gives the user copy instead', async () => {
    const api = await skillsApi();
    await assert.rejects(api.activateSkill('notes'), /comes from a workspace that is not trusted/);
    const text = await api.activateSkill('pdf-tools');
    assert.match(text, /User version\./);
    assert.doesNotMatch(text, WORKSPACE_TEXT);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });

  it('keeps workspace skills out of the catalog', async () => {
    await skillsApi();
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog');
    assert.match(document.getText(), /journal: Keep a daily work journal/);
    assert.doesNotMatch(document.getText(), WORKSPACE_TEXT);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('does not read workspace skills to validate them, not even open ones', async () => {
    const api = await skillsApi();
    const report = await vscode.commands.executeCommand<{ checked: number; skippedUntrusted: number; message: string }>('agentSkills.validate');
    assert.equal(report.skippedUntrusted, 5);
    assert.equal(report.checked, 2); // The user's skills (built-in ones are turned off in this suite).
    const file = path.join(workspaceSkillsFolder(), 'broken-yaml', 'SKILL.md');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    // The positive signal: a broken user skill opened after it gets its diagnostic, so the open
    // workspace file has been seen by then.
    const userFile = writeSkillOnDisk(
      userSkillsFolder(),
      'user-extra',
      '---\nname: user-extra\ndescription: A user skill with a field the specification does not define.\ncolour: blue\n---\n\nBody.\n',
    );
    await vscode.window.showTextDocument(vscode.Uri.file(userFile));
    await waitFor(() => diagnosticsOf(userFile).some((diagnostic) => diagnostic.code === 'unknown-field'), {
      message: () => `no diagnostic on the broken user skill: ${JSON.stringify(diagnosticsOf(userFile).map((diagnostic) => diagnostic.message))}`,
    });
    assert.deepEqual(diagnosticsOf(file), []);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.dirname(userFile), { recursive: true });
    await waitForSkills(api, (skills) => !skills.some((skill) => skill.name === 'user-extra'), 'the removed user skill stayed');
  });

  it('offers no Create Skill location in the untrusted workspace', async () => {
    const api = await skillsApi();
    assert.equal(await vscode.commands.executeCommand('agentSkills.createSkill', { name: 'blocked', location: 'editor', open: false }), undefined);
    // The positive signal: the same command does create in the user's folder, and the view gets it.
    const created = await vscode.commands.executeCommand<vscode.Uri>('agentSkills.createSkill', { name: 'allowed-here', location: 'User', open: false });
    assert.equal(created?.fsPath, path.join(userSkillsFolder(), 'allowed-here', 'SKILL.md'));
    await waitForSkills(api, (skills) => skills.some((skill) => skill.name === 'allowed-here' && skill.status === 'available'), 'the skill created in the user folder did not appear');
    assert.equal(skillNamed(api, 'blocked'), undefined);
    assert.equal(fs.existsSync(path.join(workspaceSkillsFolder(), 'blocked')), false);
    assert.equal(fs.existsSync(path.join(userSkillsFolder(), 'blocked')), false);
    fs.rmSync(path.dirname(created.fsPath), { recursive: true });
  });
});
