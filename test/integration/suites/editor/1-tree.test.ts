import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, screenshot, waitForViewText } from '../../util';
import { skillNamed, skillsApi, treeGroups, treeItem, treeOutline, userSkillsFolder, workspaceSkillsFolder } from '../../editor-helpers';

describe('the Skills view after start-up', () => {
  it('groups the skills: Available by source, then Problems and Shadowed; empty groups hidden', async () => {
    const api = await skillsApi();
    assert.deepEqual(treeGroups(api), ['Available', 'Problems', 'Shadowed']);
    const outline = treeOutline(api);
    const available = outline.slice(
      outline.indexOf('Available — 7') + 1,
      outline.findIndex((line) => line.startsWith('Problems')),
    );
    assert.deepEqual(available, [
      '  editor — 4',
      '    extra-fields — A skill with fields the specification does not know.',
      '    mismatched-name — A skill whose name does not match its folder.',
      '    notes — Write meeting notes in the team format, with decisions and owners.',
      '    pdf-tools — Extract text and tables from PDF files. Use when the user mentions a PDF.',
      '  User — 1',
      "    journal — Keep a daily work journal in the user's home folder.",
      '  Built-in — 2',
      `    reviewing-skills — ${skillNamed(api, 'reviewing-skills')?.description}`,
      `    writing-skills — ${skillNamed(api, 'writing-skills')?.description}`,
    ]);
    assert.match(outline[outline.indexOf('Problems — 1') + 1], /^ {2}broken-yaml — Invalid YAML in the frontmatter \(line 3, column \d+\)/);
    assert.deepEqual(outline.slice(outline.indexOf('Shadowed — 1') + 1), [`  pdf-tools — shadowed by ${path.join(workspaceSkillsFolder(), 'pdf-tools', 'SKILL.md')}`]);
  });

  it('gives each item what its menus need: Activate for available skills, nothing to allow while the allowlist is empty', async () => {
    const api = await skillsApi();
    const notes = treeItem(api, 'Available', 'notes');
    assert.equal(notes?.contextValue, 'skill activatable');
    const shadowed = treeItem(api, 'Shadowed', 'pdf-tools');
    assert.equal(shadowed?.contextValue, 'skill');
    assert.equal(shadowed?.record.file, path.join(userSkillsFolder(), 'pdf-tools', 'SKILL.md'));
  });

  it('reports statuses, sources and diagnostics through the public API', async () => {
    const api = await skillsApi();
    const byName = (name: string, kind?: 'workspace' | 'user') => skillNamed(api, name, kind);
    assert.equal(byName('pdf-tools', 'workspace')?.status, 'available');
    assert.equal(byName('pdf-tools', 'user')?.status, 'shadowed');
    assert.equal(byName('pdf-tools', 'user')?.shadowedBy, path.join(workspaceSkillsFolder(), 'pdf-tools', 'SKILL.md'));
    assert.equal(byName('broken-yaml')?.status, 'invalid');
    assert.deepEqual(
      byName('broken-yaml')?.diagnostics.map((diagnostic) => diagnostic.code),
      ['yaml-syntax'],
    );
    assert.deepEqual(
      byName('mismatched-name')?.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]),
      [['name-mismatch', 'warning']],
    );
    assert.equal(byName('journal')?.source.label, 'User');
    assert.equal(byName('writing-skills')?.source.kind, 'builtin');
  });

  it('shows the same to the user in the Skills view', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await skillsApi();
    const expected = ['Available', 'editor', 'pdf-tools', 'User', 'journal', 'Built-in', 'Problems', 'broken-yaml', 'Shadowed'];
    // The view redraws asynchronously after each update: read it until every row is there.
    await waitForViewText('skills', new RegExp(expected.map((label) => `(?=[\\s\\S]*${label})`).join('')));
    await screenshot('tree-start');
  });

  it('opens the SKILL.md when an item is clicked', async () => {
    const api = await skillsApi();
    await vscode.commands.executeCommand('agentSkills.openSkill', treeItem(api, 'Available', 'notes'));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, path.join(workspaceSkillsFolder(), 'notes', 'SKILL.md'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a skill under Problems at its first error', async () => {
    const api = await skillsApi();
    await vscode.commands.executeCommand('agentSkills.openSkill', treeItem(api, 'Problems', 'broken-yaml'));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, path.join(workspaceSkillsFolder(), 'broken-yaml', 'SKILL.md'));
    // Where Validate puts the YAML error (line 3, zero-based 2), not at 1:1.
    assert.deepEqual([editor?.selection.start.line, editor?.selection.start.character], [2, 24]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
