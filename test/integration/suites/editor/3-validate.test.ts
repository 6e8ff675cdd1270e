import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { click, harnessAvailable, pressKeys, screenshot, waitFor, waitForViewText } from '../../util';
import { diagnosticSummary, diagnosticsOf, skillNamed, skillsApi, waitForSkills, workspaceSkillsFolder } from '../../editor-helpers';

interface ValidationReport {
  checked: number;
  errors: number;
  warnings: number;
  message: string;
}

const skillFile = (folder: string) => path.join(workspaceSkillsFolder(), folder, 'SKILL.md');

/** VS Code's own diagnostic on a shown SKILL.md whose message matches, once it is there. */
async function vscodeOwnDiagnostic(file: string, message: RegExp): Promise<vscode.Diagnostic> {
  return waitFor(() => vscode.languages.getDiagnostics(vscode.Uri.file(file)).find((diagnostic) => diagnostic.source !== 'Agent Skills' && message.test(diagnostic.message)), {
    message: `VS Code's own skills validation reported nothing matching ${String(message)} on ${file}`,
  });
}

const VSCODE_NAME_MISMATCH = /should match the folder name/;

/** The product's quick fixes VS Code offers on the first diagnostic with `code` (or at `range`), by title. */
async function quickFixes(file: string, code: string, range?: vscode.Range): Promise<Map<string, vscode.CodeAction>> {
  const at = range ?? diagnosticsOf(file).find((candidate) => candidate.code === code)?.range;
  assert.ok(at, `no ${code} diagnostic on ${file}`);
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', vscode.Uri.file(file), at, vscode.CodeActionKind.QuickFix.value);
  // VS Code's chat adds its own "Fix" and "Explain" actions (commands) to any diagnostic; ours are edits.
  const ours = actions.filter((action) => action.edit !== undefined);
  return new Map(ours.map((action) => [action.title, action]));
}

async function applyAndSave(action: vscode.CodeAction | undefined, file: string): Promise<void> {
  assert.ok(action?.edit, 'the quick fix has no edit');
  assert.ok(await vscode.workspace.applyEdit(action.edit));
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === file);
  await document?.save();
}

describe('Validate Skills and diagnostics', () => {
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('validates every skill, publishes exact ranges and returns the summary', async () => {
    await skillsApi();
    const report = await vscode.commands.executeCommand<ValidationReport>('agentSkills.validate');
    assert.equal(report.checked, 9); // 5 workspace, 2 user, 2 built-in.
    assert.equal(report.errors, 1);
    assert.equal(report.warnings, 3);
    assert.equal(report.message, 'Checked 9 skills: 1 error, 3 warnings.');

    assert.deepEqual(diagnosticSummary(skillFile('broken-yaml')), [['yaml-syntax', 'Error', 2, 24, 2, 41]]);
    assert.deepEqual(diagnosticSummary(skillFile('mismatch')), [['name-mismatch', 'Warning', 1, 6, 1, 21]]);
    assert.deepEqual(diagnosticSummary(skillFile('extra-fields')), [
      ['unknown-field', 'Warning', 3, 0, 3, 6],
      ['unknown-field', 'Warning', 4, 0, 4, 7],
    ]);
    assert.deepEqual(diagnosticSummary(skillFile('notes')), []);
    const diagnostic = diagnosticsOf(skillFile('broken-yaml'))[0];
    assert.equal(diagnostic.source, 'Agent Skills');
    if (harnessAvailable()) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await waitForViewText('panel', 'Invalid YAML in the frontmatter');
      await screenshot('problems-after-validate');
    }
  });

  it('validates an open SKILL.md as it is typed, without saving', async () => {
    await skillsApi();
    const document = await vscode.workspace.openTextDocument(skillFile('notes'));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.replace(new vscode.Range(2, 0, 2, document.lineAt(2).text.length), 'description: ""'));
    await waitFor(() => diagnosticSummary(skillFile('notes')).some(([code]) => code === 'missing-description'), { message: 'no diagnostic for the unsaved edit' });
    assert.deepEqual(diagnosticSummary(skillFile('notes')), [['missing-description', 'Error', 2, 13, 2, 15]]);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => diagnosticSummary(skillFile('notes')).length === 0, { message: 'the reverted buffer still has diagnostics' });
  });

  it('quotes a description that broke the YAML, chosen from the lightbulb menu (Ctrl+.)', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const api = await skillsApi();
    await vscode.commands.executeCommand('agentSkills.validate');
    const file = skillFile('broken-yaml');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const diagnostic = await waitFor(() => diagnosticsOf(file).find((candidate) => candidate.code === 'yaml-syntax'), { message: 'no yaml-syntax diagnostic on the open file' });
    editor.selection = new vscode.Selection(diagnostic.range.start, diagnostic.range.start);
    // As a user: the keyboard shortcut opens the quick-fix menu at the cursor; the fix is picked from it.
    // On a busy machine the first press can come before the editor has focus, and the menu then
    // never opens; like a user, press again (a bounded number of times).
    const fix = { role: 'option', name: 'Quote the value of "description"', within: '.action-widget' } as const;
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
        await pressKeys('Control+.');
        try {
          await click(fix, 5000);
          return true;
        } catch {
          await pressKeys('Escape');
          return false;
        }
      },
      { timeoutMs: 20000, message: 'the quick-fix menu did not offer "Quote the value of "description""' },
    );
    await waitFor(() => editor.document.getText().includes('description: "Use it when: the YAML breaks"'), {
      message: () => `the menu's fix did not edit the document:\n${editor.document.getText()}`,
    });
    await editor.document.save();
    assert.match(fs.readFileSync(file, 'utf8'), /^description: "Use it when: the YAML breaks"$/m);
    await waitForSkills(api, () => skillNamed(api, 'broken-yaml')?.status === 'available', 'the fixed skill did not become available');
    assert.deepEqual(diagnosticSummary(file), []);
  });

  it("leaves the name/folder mismatch of a shown SKILL.md to VS Code's own check, so it is said once", async () => {
    await skillsApi();
    await vscode.commands.executeCommand('agentSkills.validate');
    assert.deepEqual(diagnosticSummary(skillFile('mismatch')), [['name-mismatch', 'Warning', 1, 6, 1, 21]]);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(skillFile('mismatch')));
    assert.equal(editor.document.languageId, 'skill');
    const own = await vscodeOwnDiagnostic(skillFile('mismatch'), VSCODE_NAME_MISMATCH);
    assert.equal(own.range.start.line, 1);
    await waitFor(() => diagnosticSummary(skillFile('mismatch')).length === 0, { message: 'the product still reports the mismatch beside VS Code' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Not shown, VS Code checks nothing, and the Problems panel needs the product's finding again.
    await waitFor(() => diagnosticSummary(skillFile('mismatch')).length === 1, { message: 'the mismatch did not come back once the file was closed' });
  });

  it('says on hover what Agent Skills does with allowed-tools, next to VS Code\'s "not supported" hint', async () => {
    await skillsApi();
    const folder = path.join(workspaceSkillsFolder(), 'tool-user');
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'SKILL.md');
    fs.writeFileSync(file, '---\nname: tool-user\ndescription: Uses tools.\nallowed-tools: Read Grep\n---\nBody.\n');
    try {
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', vscode.Uri.file(file), new vscode.Position(3, 3));
      const texts = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value)));
      assert.ok(
        texts.some((text) => /^Agent Skills: accepted and shown .* not enforced/.test(text)),
        texts.join('\n---\n'),
      );
      // The product itself has nothing to report on the field.
      assert.deepEqual(diagnosticSummary(file), []);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('sets the name to the folder name, or offers to rename the folder', async () => {
    const api = await skillsApi();
    await vscode.window.showTextDocument(vscode.Uri.file(skillFile('mismatch')));
    const own = await vscodeOwnDiagnostic(skillFile('mismatch'), VSCODE_NAME_MISMATCH);
    // The fixes stay offered on VS Code's diagnostic.
    const fixes = await quickFixes(skillFile('mismatch'), 'name-mismatch', own.range);
    assert.ok([...fixes.values()].every((fix) => fix.diagnostics?.[0] === undefined || fix.diagnostics[0].message === own.message));
    assert.deepEqual([...fixes.keys()].sort(), ['Rename the folder to "mismatched-name"', 'Set name to "mismatch" (the folder name)']);
    assert.equal(fixes.get('Set name to "mismatch" (the folder name)')?.isPreferred, true);
    await applyAndSave(fixes.get('Set name to "mismatch" (the folder name)'), skillFile('mismatch'));
    await waitForSkills(api, () => skillNamed(api, 'mismatch'), 'the renamed skill did not appear');
    assert.equal(skillNamed(api, 'mismatched-name'), undefined);
    assert.deepEqual(diagnosticSummary(skillFile('mismatch')), []);
  });

  it('renames the folder to match the name', async () => {
    const api = await skillsApi();
    const file = skillFile('extra-fields');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('name: extra-fields', 'name: fields-extra'));
    await waitForSkills(api, () => skillNamed(api, 'fields-extra'), 'the edited name was not picked up');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    const own = await vscodeOwnDiagnostic(file, VSCODE_NAME_MISMATCH);
    const fixes = await quickFixes(file, 'name-mismatch', own.range);
    const rename = fixes.get('Rename the folder to "fields-extra"');
    assert.ok(rename?.edit);
    assert.ok(await vscode.workspace.applyEdit(rename.edit));
    const moved = skillFile('fields-extra');
    await waitForSkills(api, () => skillNamed(api, 'fields-extra')?.path === moved, 'the renamed folder was not picked up');
    assert.ok(!fs.existsSync(file));
    assert.deepEqual(
      skillNamed(api, 'fields-extra')?.diagnostics.map((diagnostic) => diagnostic.code),
      ['unknown-field', 'unknown-field'],
    );
  });

  it('moves unknown fields under metadata', async () => {
    const api = await skillsApi();
    const file = skillFile('fields-extra');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    await waitFor(() => diagnosticsOf(file).some((diagnostic) => diagnostic.code === 'unknown-field'), { message: 'no unknown-field diagnostic' });
    const fixes = await quickFixes(file, 'unknown-field');
    await applyAndSave(fixes.get('Move all 2 unknown fields under metadata'), file);
    assert.match(fs.readFileSync(file, 'utf8'), /\nmetadata:\n {2}author: "Ann"\n {2}version: "2"\n---\n/);
    await waitForSkills(api, () => skillNamed(api, 'fields-extra')?.diagnostics.length === 0, 'the unknown-field warnings remained');
    assert.deepEqual(diagnosticSummary(file), []);
  });

  it('trims an over-long description', async () => {
    const api = await skillsApi();
    const folder = path.join(workspaceSkillsFolder(), 'wordy');
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'SKILL.md');
    fs.writeFileSync(file, `---\nname: wordy\ndescription: ${'very '.repeat(250)}long\n---\nBody.\n`);
    try {
      await waitForSkills(api, () => skillNamed(api, 'wordy')?.status === 'invalid', 'the over-long skill was not reported');
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      await waitFor(() => diagnosticsOf(file).some((diagnostic) => diagnostic.code === 'description-too-long'), { message: 'no description-too-long diagnostic' });
      const fixes = await quickFixes(file, 'description-too-long');
      await applyAndSave(fixes.get('Trim description to 1024 characters'), file);
      await waitForSkills(api, () => skillNamed(api, 'wordy')?.status === 'available', 'the trimmed skill did not become available');
      assert.ok(skillNamed(api, 'wordy')!.description!.length <= 1024);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
