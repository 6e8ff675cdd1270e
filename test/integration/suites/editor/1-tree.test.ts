import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { click, type DrawnTreeRow, harnessAvailable, hover, readTreeRows, readViewText, rightClick, screenshot, waitFor, waitForViewText } from '../../util';
import { skillNamed, skillsApi, treeGroups, treeItem, treeOutline, userSkillsFolder, waitForDrawnRows, waitForSkills, workspaceSkillsFolder } from '../../editor-helpers';

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
    // What is wrong in a few words: a narrow view shows about a dozen characters after the name.
    assert.equal(outline[outline.indexOf('Problems — 1') + 1], '  broken-yaml — YAML error, line 3');
    assert.deepEqual(outline.slice(outline.indexOf('Shadowed — 1') + 1), ['  pdf-tools — shadowed by editor']);
  });

  it('gives each item what its menus need: Activate for available skills, nothing to allow while the allowlist is empty', async () => {
    const api = await skillsApi();
    const notes = treeItem(api, 'Available', 'notes');
    assert.equal(notes?.contextValue, 'skill activatable draftable');
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

describe('the Skills view as VS Code draws it', () => {
  const skillsView = '[id="workbench.view.extension.agentSkills"]';
  /** The drawn row of a skill, found by its label at the nesting level of skills under a source. */
  const skillRow = (name: string, level: number): string => `${skillsView} .monaco-list-row[aria-level="${level}"]:has(.monaco-icon-label[aria-label="${name}"])`;

  before(function () {
    if (!harnessAvailable()) {
      this.skip();
    }
  });

  it('draws the rows with their labels, descriptions, order and nesting', async () => {
    const api = await skillsApi();
    await vscode.commands.executeCommand('agentSkills.skills.focus');
    const described = (name: string) => skillNamed(api, name)?.description ?? '';
    const expected = [
      [1, 'Available', '7'],
      [2, 'editor', '4'],
      [3, 'extra-fields', 'A skill with fields the specification does not know.'],
      [3, 'mismatched-name', 'A skill whose name does not match its folder.'],
      [3, 'notes', 'Write meeting notes in the team format, with decisions and owners.'],
      [3, 'pdf-tools', 'Extract text and tables from PDF files. Use when the user mentions a PDF.'],
      [2, 'User', '1'],
      [3, 'journal', "Keep a daily work journal in the user's home folder."],
      [2, 'Built-in', '2'],
      [3, 'reviewing-skills', described('reviewing-skills')],
      [3, 'writing-skills', described('writing-skills')],
      [1, 'Problems', '1'],
      [2, 'broken-yaml', 'YAML error, line 3'],
      [1, 'Shadowed', '1'],
      [2, 'pdf-tools', 'shadowed by editor'],
    ] as const;
    const drawn = await waitForDrawnRows(expected);
    assert.ok(
      drawn.filter((row) => row.level < 3 && row.label !== 'broken-yaml' && row.label !== 'pdf-tools').every((row) => row.expanded === true),
      'every group is drawn expanded',
    );
  });

  it('shows what a skill is when its row is hovered: description, status, source and file', async () => {
    await hover({ selector: skillRow('pdf-tools', 3) });
    const shown = await waitForViewText('css:.workbench-hover', 'Extract text and tables from PDF files. Use when the user mentions a PDF.');
    for (const expected of ['pdf-tools', 'Available', `editor: ${path.join(workspaceSkillsFolder(), 'pdf-tools', 'SKILL.md')}`]) {
      assert.ok(shown.includes(expected), `the hover lacks "${expected}":\n${shown}`);
    }
    await screenshot('tree-hover');
    await vscode.commands.executeCommand('agentSkills.skills.focus');
  });

  it('draws a description edited on disk in its row, the other rows as they were', async () => {
    const file = path.join(workspaceSkillsFolder(), 'notes', 'SKILL.md');
    const original = fs.readFileSync(file, 'utf8');
    const [before, after] = ['Write meeting notes in the team format, with decisions and owners.', 'Write meeting notes, edited on disk.'];
    const rowsBefore = await readTreeRows('skills');
    const withDescription = (description: string) => rowsBefore.map((row) => (row.label === 'notes' ? { ...row, description } : row));
    assert.deepEqual(rowsBefore, withDescription(before));
    const drawsExactly = async (expected: DrawnTreeRow[]) => {
      let drawn: DrawnTreeRow[] = [];
      await waitFor(async () => JSON.stringify((drawn = await readTreeRows('skills'))) === JSON.stringify(expected), {
        message: () => `the Skills view drew:\n${JSON.stringify(drawn, undefined, 1)}`,
      });
    };
    try {
      fs.writeFileSync(file, original.replace(before, after));
      await drawsExactly(withDescription(after));
    } finally {
      fs.writeFileSync(file, original);
    }
    await drawsExactly(rowsBefore);
  });

  it('opens the SKILL.md when a skill row is clicked', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await click({ selector: skillRow('notes', 3) });
    const expected = path.join(workspaceSkillsFolder(), 'notes', 'SKILL.md');
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === expected, {
      message: () => `the click opened ${vscode.window.activeTextEditor?.document.uri.fsPath ?? 'nothing'}, not ${expected}`,
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers the menu items the skill allows on right-click, and runs the one chosen', async () => {
    const api = await skillsApi();
    await rightClick({ selector: skillRow('notes', 3) });
    const menu = await waitFor(async () => (await readViewText('css:.context-view .monaco-menu').catch(() => '')) || undefined, { message: 'no context menu opened' });
    const items = menu
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    // Available and not active: Activate, not Deactivate; nothing to allow while the allowlist is empty.
    assert.ok(items.includes('Activate'), menu);
    assert.ok(!items.includes('Deactivate'), menu);
    assert.ok(!items.some((item) => item.startsWith('Allow')), menu);
    assert.ok(items.includes('Copy Name'), menu);
    await click({ role: 'menuitem', name: 'Activate', exact: true, within: '.context-view' });
    await waitForSkills(api, (skills) => skills.some((skill) => skill.name === 'notes' && skill.status === 'active'), 'Activate from the context menu did not activate notes');
  });

  it('draws the activated skill in an Active group, and deactivates it through its inline action', async () => {
    const api = await skillsApi();
    const rows = await waitFor(
      async () => {
        const drawn = await readTreeRows('skills');
        return drawn[0]?.label === 'Active' && drawn;
      },
      { message: 'the Skills view did not draw an Active group' },
    );
    assert.deepEqual(
      rows.slice(0, 3).map((row) => [row.level, row.label, row.description]),
      [
        [1, 'Active', '1'],
        [2, 'notes', 'Write meeting notes in the team format, with decisions and owners.'],
        [1, 'Available', '6'],
      ],
    );
    // A row shows its inline actions once selected (or hovered), as for a user.
    await click({ selector: skillRow('notes', 2) });
    await click({ role: 'button', name: 'Deactivate', exact: true, within: skillRow('notes', 2) });
    await waitForSkills(api, (skills) => skills.some((skill) => skill.name === 'notes' && skill.status === 'available'), 'the inline Deactivate did not deactivate notes');
    await waitFor(async () => (await readTreeRows('skills'))[0]?.label === 'Available', { message: 'the Active group stayed drawn' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
