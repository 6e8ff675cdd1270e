// The Testing view's items follow each skill's evals/triggers.json: source → skill → query, with
// ranges into the file, updated when the file changes; problems in the file show on the skill
// item, in the Problems panel and in Validate Skills.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { diagnosticSummary, userSkillsFolder, workspaceSkillsFolder } from '../../editor-helpers';
import { productApi } from '../../chat-helpers';
import { findItem, lineOf, outline, triggerTests } from '../../trigger-helpers';
import { waitFor } from '../../util';

describe('trigger test items', () => {
  const pdfTests = (): string => path.join(workspaceSkillsFolder(), 'pdf-forms', 'evals', 'triggers.json');

  it('lists each skill with trigger tests under its source, one item per query, ranged on its entry', async () => {
    const controller = await triggerTests();
    await controller.settled();
    const file = pdfTests();
    const queries = (JSON.parse(fs.readFileSync(file, 'utf8')) as { query: string; should_trigger: boolean }[]).map(
      (entry) => `    ${entry.query} — ${entry.should_trigger ? 'should trigger' : 'should not trigger'} @${lineOf(file, entry.query)}`,
    );
    assert.deepEqual(outline(controller), [
      'triggers',
      '  pdf-forms @1',
      ...queries,
      'User',
      '  daily-journal @1',
      `    log my day in the journal — should trigger @${lineOf(path.join(userSkillsFolder(), 'daily-journal', 'evals', 'triggers.json'), 'log my day')}`,
      `    what is the capital of France — should not trigger @${lineOf(path.join(userSkillsFolder(), 'daily-journal', 'evals', 'triggers.json'), 'capital of France')}`,
    ]);
    const item = findItem(controller, 'pdf-forms', 'turn this spreadsheet into a chart');
    assert.equal(item.uri?.fsPath, file);
    assert.equal(item.range?.start.character, 2);
    assert.equal(controller.controller.label, 'Agent Skills');
  });

  it('follows the file: a new query appears, a broken entry shows on the skill and in Problems, a fix clears it', async () => {
    const controller = await triggerTests();
    const api = await productApi();
    const file = path.join(workspaceSkillsFolder(), 'meeting-notes', 'evals', 'triggers.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '[\n  { "query": "take minutes of the standup", "should_trigger": true }\n]\n');
    await waitFor(
      async () => {
        await api.whenIdle();
        return outline(controller).includes('    take minutes of the standup — should trigger @2');
      },
      { message: () => `the new file is not listed:\n${outline(controller).join('\n')}` },
    );

    fs.writeFileSync(file, '[\n  { "query": "take minutes of the standup", "should_trigger": true },\n  { "query": "take minutes of the standup", "should_trigger": false }\n]\n');
    await waitFor(
      async () => {
        await api.whenIdle();
        return findItem(controller, 'meeting-notes').error !== undefined;
      },
      { message: 'the duplicate query is not reported on the skill item' },
    );
    assert.equal(
      findItem(controller, 'meeting-notes').error,
      `${path.join('meeting-notes', 'evals', 'triggers.json')}:3:14: Duplicate query "take minutes of the standup" (also on line 2); each query is tested once.`,
    );
    assert.deepEqual(diagnosticSummary(file), [['triggers-duplicate-query', 'Error', 2, 13, 2, 42]]);

    fs.writeFileSync(file, '[\n  { "query": "take minutes of the standup", "should_trigger": true },\n  { "query": "book a meeting room", "should_trigger": false }\n]\n');
    await waitFor(
      async () => {
        await api.whenIdle();
        return findItem(controller, 'meeting-notes').error === undefined && diagnosticSummary(file).length === 0;
      },
      { message: 'the fixed file still shows its error' },
    );
    assert.ok(outline(controller).includes('    book a meeting room — should not trigger @3'));
  });

  it('refuses a file over 1 MiB unread, on the skill item and in Problems, and reads it again once it is smaller', async () => {
    const controller = await triggerTests();
    const api = await productApi();
    const file = path.join(workspaceSkillsFolder(), 'meeting-notes', 'evals', 'triggers.json');
    const original = fs.readFileSync(file, 'utf8');
    const entry = '\n  { "query": "take minutes of the standup", "should_trigger": true },';
    const huge = `[${entry.repeat(Math.ceil((1024 * 1024) / entry.length))}\n  { "query": "book a meeting room", "should_trigger": false }\n]\n`;
    try {
      fs.writeFileSync(file, huge);
      await waitFor(
        async () => {
          await api.whenIdle();
          return findItem(controller, 'meeting-notes').error !== undefined;
        },
        { message: 'the over-size file is not reported on the skill item' },
      );
      assert.equal(
        findItem(controller, 'meeting-notes').error,
        `${path.join('meeting-notes', 'evals', 'triggers.json')}:1:1: ${file} is ${Buffer.byteLength(huge)} bytes, over the 1048576-byte (1 MiB) limit for trigger tests; it was not read. Keep it to the queries that test the skill.`,
      );
      assert.deepEqual(diagnosticSummary(file), [['triggers-too-large', 'Error', 0, 0, 0, 0]]);
    } finally {
      fs.writeFileSync(file, original);
    }
    await waitFor(
      async () => {
        await api.whenIdle();
        return findItem(controller, 'meeting-notes').error === undefined && diagnosticSummary(file).length === 0;
      },
      { message: 'the smaller file still shows the size error' },
    );
  });

  it('checks the file as you type and in Validate Skills', async () => {
    const api = await productApi();
    const file = pdfTests();
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), '  { "query": "", "should_trigger": true },\n'));
    await waitFor(() => diagnosticSummary(file).some(([code]) => code === 'triggers-empty-query'), { message: () => `no diagnostic for the empty query: ${JSON.stringify(diagnosticSummary(file))}` });
    // "summarise yesterday's meeting" is meeting-notes's query, filed under pdf-forms: the search ranks meeting-notes first.
    const misfiled = (line: number): [string, string, number, number, number, number] => ['overlap-query', 'Warning', line, 2, line, 70];
    assert.deepEqual(diagnosticSummary(file), [['triggers-empty-query', 'Error', 1, 13, 1, 15], misfiled(6)]);
    // Revert and close this file's editor, not another one that took focus meanwhile (a preview opened late).
    await waitFor(async () => (await vscode.window.showTextDocument(document)) === vscode.window.activeTextEditor && vscode.window.activeTextEditor.document === document, {
      message: 'the trigger file never became the active editor',
    });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(() => JSON.stringify(diagnosticSummary(file)) === JSON.stringify([misfiled(5)]), {
      message: () => `the reverted file still shows the typed error: ${JSON.stringify(diagnosticSummary(file))}`,
    });

    const broken = path.join(workspaceSkillsFolder(), 'sheets', 'evals', 'triggers.json');
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, '[ { "query": "chart it", "should_trigger": true } ');
    await api.whenIdle();
    const report = await vscode.commands.executeCommand<{ errors: number; message: string }>('agentSkills.validate');
    assert.equal(report?.errors, 1, report?.message);
    assert.deepEqual(diagnosticSummary(broken), [['triggers-json-syntax', 'Error', 0, 50, 0, 50]]);
    // The closed file's text VS Code still holds is not what Validate Skills checks: the disk is.
    assert.deepEqual(diagnosticSummary(file), [misfiled(5)]);
    fs.rmSync(path.dirname(broken), { recursive: true });
    await api.whenIdle();
  });
});
