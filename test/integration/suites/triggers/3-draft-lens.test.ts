// "Add trigger tests…" above a SKILL.md without evals/triggers.json: where it shows, what clicking
// it does (with a model, and without one), and that it goes once the file exists.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { productApi } from '../../chat-helpers';
import { setWorkspaceSetting, workspaceSkillsFolder } from '../../editor-helpers';
import { writeSkillsWithStatus } from '../../trigger-helpers';
import { click, harnessAvailable, scriptedModel, screenshot, waitFor, waitForViewText } from '../../util';

const skillFile = (name: string): string => path.join(workspaceSkillsFolder(), name, 'SKILL.md');
const triggerFile = (name: string): string => path.join(workspaceSkillsFolder(), name, 'evals', 'triggers.json');

/** The product's lenses on a file, as `title → command(arguments)`. */
async function lensesOn(file: string): Promise<string[]> {
  // The workbench asks the providers of an open document only.
  const document = await vscode.workspace.openTextDocument(file);
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? [];
  return lenses
    .filter((lens) => lens.command?.command.startsWith('agentSkills.'))
    .map(
      (lens) => `${lens.command!.title} → ${lens.command!.command}(${(lens.command!.arguments ?? []).map((argument) => (argument instanceof vscode.Uri ? argument.fsPath : String(argument))).join()})`,
    );
}

/** The file's JSON value, or undefined while it is missing or not yet whole. */
function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

async function waitForLenses(file: string, expected: readonly string[], what: string): Promise<void> {
  let last: string[] = [];
  await waitFor(
    async () => {
      await (await productApi()).whenIdle();
      last = await lensesOn(file);
      return JSON.stringify(last) === JSON.stringify(expected);
    },
    { message: () => `${what}: lenses on ${path.basename(path.dirname(file))} are ${JSON.stringify(last)}` },
  );
}

describe('Add trigger tests… code lens', () => {
  const addLens = (name: string): string => `Add trigger tests… → agentSkills.draftTriggerTests(${skillFile(name)})`;

  // Earlier tests of the suite leave meeting-notes a file that later ones may use: set aside meanwhile.
  let earlierFile: string | undefined;
  before(async () => {
    earlierFile = fs.existsSync(triggerFile('meeting-notes')) ? fs.readFileSync(triggerFile('meeting-notes'), 'utf8') : undefined;
    fs.rmSync(path.dirname(triggerFile('meeting-notes')), { recursive: true, force: true });
    await (await productApi()).whenIdle();
  });
  after(async () => {
    if (earlierFile !== undefined) {
      fs.mkdirSync(path.dirname(triggerFile('meeting-notes')), { recursive: true });
      fs.writeFileSync(triggerFile('meeting-notes'), earlierFile);
      await (await productApi()).whenIdle();
    }
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    fs.rmSync(path.dirname(triggerFile('meeting-notes')), { recursive: true, force: true });
    const api = await productApi();
    await setWorkspaceSetting(api, 'triggerTests.model', 'scripted');
    await api.whenIdle();
  });

  it('shows on a skill without trigger tests, drafts them when clicked, and goes once the file exists', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await waitForLenses(skillFile('meeting-notes'), [addLens('meeting-notes')], 'a skill without tests');
    // pdf-forms has its file already.
    await waitForLenses(skillFile('pdf-forms'), [], 'a skill with tests');

    const model = await scriptedModel();
    model.reset();
    const proposal = [
      { query: 'write up the minutes of this morning’s standup', should_trigger: true },
      { query: 'schedule a meeting with the design team', should_trigger: false },
    ];
    model.queueAnswers({ text: JSON.stringify(proposal) });
    await vscode.window.showTextDocument(vscode.Uri.file(skillFile('meeting-notes')));
    await waitForViewText('editor', 'Add trigger tests…');
    await screenshot('add-trigger-tests-lens');
    await click({ selector: '.codelens-decoration a', within: '.editor-instance' });

    // The file can be seen before its contents are written: wait for a whole JSON text.
    let written: unknown;
    await waitFor(() => (written = readJson(triggerFile('meeting-notes'))) !== undefined, { message: 'clicking the lens wrote no trigger file' });
    assert.deepEqual(written, proposal);
    assert.match(model.requests()[0].messages[0].text, /The skill: meeting-notes\n/);
    await waitForLenses(skillFile('meeting-notes'), [], 'once the file exists');

    // Deleted again: the lens is back.
    fs.rmSync(path.dirname(triggerFile('meeting-notes')), { recursive: true, force: true });
    await waitForLenses(skillFile('meeting-notes'), [addLens('meeting-notes')], 'after the file was deleted');
  });

  it('without a usable model, starts an empty file to fill in and never replaces one', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    const api = await productApi();
    const model = await scriptedModel();
    model.reset();
    await setWorkspaceSetting(api, 'triggerTests.model', 'no-such-model');
    assert.equal(await vscode.commands.executeCommand('agentSkills.draftTriggerTests', vscode.Uri.file(skillFile('meeting-notes'))), 'started');
    assert.equal(fs.readFileSync(triggerFile('meeting-notes'), 'utf8'), '[]\n');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, triggerFile('meeting-notes'));
    await vscode.commands.executeCommand('notifications.showList');
    await waitForViewText('notifications', 'Started an empty evals/triggers.json for meeting-notes');
    await waitForLenses(skillFile('meeting-notes'), [], 'once the empty file exists');

    // A file of the user's is never replaced for lack of a model: asked to replace it, the command fails and keeps it.
    fs.writeFileSync(triggerFile('meeting-notes'), '[{ "query": "minutes please", "should_trigger": true }]\n');
    const drafting = vscode.commands.executeCommand('agentSkills.draftTriggerTests', 'meeting-notes');
    await click({ role: 'option', name: 'Replace it with a new draft', within: '.quick-input-widget' });
    assert.equal(await drafting, 'failed');
    assert.equal(fs.readFileSync(triggerFile('meeting-notes'), 'utf8'), '[{ "query": "minutes please", "should_trigger": true }]\n');
    assert.equal(model.requests().length, 0);
  });

  it('is not offered where drafting makes no sense: a /use-only skill, an invalid one', async () => {
    const api = await productApi();
    const folder = workspaceSkillsFolder();
    const useOnly = 'description: Tags a release. Run it with /use.\ndisable-model-invocation: true\n';
    try {
      await writeSkillsWithStatus({ 'tag-release': useOnly, unfinished: '' }, ['tag-release:available', 'unfinished:invalid']);
      assert.deepEqual(await lensesOn(skillFile('tag-release')), []);
      assert.deepEqual(await lensesOn(skillFile('unfinished')), []);
      // The same folder made draftable: the lens follows the edit.
      await writeSkillsWithStatus({ 'tag-release': 'description: Tags a release when the user asks to cut or tag a version.\n' }, ['tag-release:available']);
      await waitForLenses(skillFile('tag-release'), [addLens('tag-release')], 'once the skill is offered to the model');
    } finally {
      fs.rmSync(path.join(folder, 'tag-release'), { recursive: true, force: true });
      fs.rmSync(path.join(folder, 'unfinished'), { recursive: true, force: true });
      await api.whenIdle();
    }
  });
});
