import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, pressKeys, screenshot, waitFor, waitForViewText } from '../../util';
import { diagnosticsOf, firstWorkspaceFolder, openTabLabels, setWorkspaceSetting, showTab, skillsApi, waitForSkills, workspaceSkillsFolder, writeSkillOnDisk } from '../../editor-helpers';

const forked = () => path.join(workspaceSkillsFolder(), 'forked', 'SKILL.md');
const shared = () => path.join(firstWorkspaceFolder(), '.agents', 'skills', 'shared', 'SKILL.md');
const agentFolder = () => workspaceSkillsFolder();
const agentsFolder = () => path.join(firstWorkspaceFolder(), '.agents', 'skills');

/** `host: message` of the product's per-host warnings on a file or folder, once `expected` is among them. */
async function hostWarnings(file: string, expected: string): Promise<string[]> {
  return waitFor(
    () => {
      const warnings = diagnosticsOf(file)
        .filter((diagnostic) => String(diagnostic.code).startsWith('host-'))
        .map((diagnostic) => `${vscode.DiagnosticSeverity[diagnostic.severity]} ${String(diagnostic.code)}: ${diagnostic.message}`);
      return warnings.includes(expected) && warnings;
    },
    { message: () => `no "${expected}" on ${file}; it has ${JSON.stringify(diagnosticsOf(file).map((diagnostic) => diagnostic.message))}` },
  );
}

const hostShownOn = (file: string): vscode.Diagnostic[] => diagnosticsOf(file).filter((diagnostic) => String(diagnostic.code).startsWith('host-'));

describe('Targets: other tools that read skills', () => {
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('checks vscode and the hosts whose own folder the project has by default, and warns once per folder a host does not read, named by host', async () => {
    await skillsApi();
    // The project has .claude/skills, Claude Code's own, and .agents/skills, which VS Code's chat reads
    // as much as Copilot CLI, Codex, Gemini CLI and OpenCode do: only Claude Code is checked besides
    // VS Code, which gets these skills through the extension.
    const twoSkills = 'Warning host-folder: Claude Code reads `.claude/skills`, not `.agent/skills`: the 2 skills there are invisible to it.';
    assert.deepEqual(await hostWarnings(agentFolder(), twoSkills), [twoSkills]);
    const oneSkill = 'Warning host-folder: Claude Code reads `.claude/skills`, not `.agents/skills`: the skill there (shared) is invisible to it.';
    assert.deepEqual(await hostWarnings(agentsFolder(), oneSkill), [oneSkill]);
    // A fact about the folder, not about each skill in it.
    for (const file of [forked(), shared()]) {
      assert.deepEqual(
        hostShownOn(file).filter((diagnostic) => diagnostic.code === 'host-folder'),
        [],
      );
    }
  });

  it("counts the per-host warnings in Validate Skills' summary, as the Problems panel shows them", async () => {
    await skillsApi();
    await hostWarnings(agentFolder(), 'Warning host-folder: Claude Code reads `.claude/skills`, not `.agent/skills`: the 2 skills there are invisible to it.');
    const report = await vscode.commands.executeCommand<{ warnings: number; errors: number; message: string; problems: { file: string; message: string }[] }>('agentSkills.validate', {
      notify: false,
    });
    const shownFiles = [
      forked(),
      shared(),
      path.join(workspaceSkillsFolder(), 'plain', 'SKILL.md'),
      path.join(firstWorkspaceFolder(), '.claude', 'skills', 'claude-only', 'SKILL.md'),
      agentFolder(),
      agentsFolder(),
    ];
    const shown = shownFiles.flatMap((file) => diagnosticsOf(file));
    const hostShown = shown.filter((diagnostic) => String(diagnostic.code).startsWith('host-'));
    assert.equal(hostShown.filter((diagnostic) => diagnostic.code === 'host-folder').length, 2, 'one per folder');
    assert.equal(report.warnings, shown.filter((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Warning).length);
    assert.equal(report.errors, 0);
    assert.match(report.message, new RegExp(`: 0 errors, ${report.warnings} warnings\\.$`));
    for (const diagnostic of hostShown) {
      assert.equal(report.problems.filter((problem) => problem.message === diagnostic.message).length, 1, `the report gives "${diagnostic.message}" once`);
    }
  });

  it('follows agentSkills.targets, and warns where a host list cuts a skill', async () => {
    const api = await skillsApi();
    await setWorkspaceSetting(api, 'targets', ['codex']);
    await hostWarnings(agentFolder(), 'Warning host-folder: Codex reads `.agents/skills`, not `.agent/skills`: the 2 skills there are invisible to it.');
    await hostWarnings(shared(), 'Warning host-ignores-field: Codex ignores `context: fork`.');
    // On the field's line.
    const ignored = diagnosticsOf(shared()).find((diagnostic) => diagnostic.message === 'Codex ignores `context: fork`.');
    assert.equal(ignored?.range.start.line, 3);
    assert.equal(hostShownOn(forked()).length, 0, 'Codex sees no skill of .agent/skills: nothing more to say about each');

    // Forty more skills with long descriptions: Codex's 2 % of 200,000 tokens no longer holds them in full.
    const folder = path.join(firstWorkspaceFolder(), '.agents', 'skills');
    for (let index = 0; index < 40; index++) {
      writeSkillOnDisk(folder, `bulk-${index}`, `---\nname: bulk-${index}\ndescription: ${'Handles one bulk task when asked. '.repeat(25).trim()}\n---\nBody.\n`);
    }
    await waitForSkills(api, (skills) => skills.filter((skill) => skill.name.startsWith('bulk-')).length === 40, 'the bulk skills are listed');
    await hostWarnings(path.join(folder, 'bulk-0', 'SKILL.md'), "Warning host-budget: With this project's 43 skills, Codex lists this one with a shortened description at a 200,000-token context.");

    await setWorkspaceSetting(api, 'targets', []);
    await waitFor(() => hostShownOn(shared()).length === 0 && hostShownOn(agentFolder()).length === 0, { message: 'targets [] checks no host' });
    for (let index = 0; index < 40; index++) {
      fs.rmSync(path.join(folder, `bulk-${index}`), { recursive: true, force: true });
    }
    await setWorkspaceSetting(api, 'targets', undefined);
    await waitForSkills(api, (skills) => !skills.some((skill) => skill.name.startsWith('bulk-')), 'the bulk skills are gone');
  });

  it("shows the budget warning of another skill when one skill's saved description pushes it past Codex's list budget, and takes it back", async () => {
    const api = await skillsApi();
    await setWorkspaceSetting(api, 'targets', ['codex']);
    const folder = path.join(firstWorkspaceFolder(), '.agents', 'skills');
    const write = (name: string, descriptionLength: number): string =>
      writeSkillOnDisk(folder, name, `---\nname: ${name}\ndescription: ${'Handles a task. '.repeat(100).slice(0, descriptionLength - 1)}.\n---\nBody.\n`);
    const codexUsed = async (): Promise<number> => {
      const text = await vscode.commands.executeCommand<string>('agentSkills.showBudget', { contextTokens: 200_000 });
      return Number(/Codex at a 200,000-token context: budget 16,000 characters, ([\d,]+) used/.exec(text)![1].replace(/,/g, ''));
    };
    const edited = write('budget-edited', 100);
    // The longest description of the project: when the list no longer holds every description in full, Codex shortens it first.
    const longest = write('budget-longest', 1000);
    const fillers: string[] = [];
    try {
      await waitForSkills(api, (skills) => skills.some((skill) => skill.name === 'budget-longest') && skills.some((skill) => skill.name === 'budget-edited'), 'the two skills are listed');
      // Fill the list close to its budget with skills of shorter descriptions (an entry costs its name, 3 and its description).
      let room = 16_000 - (await codexUsed()) - 50;
      for (let name = 'budget-filler-00'; room >= name.length + 3 + 1; name = `budget-filler-${String(fillers.length).padStart(2, '0')}`) {
        const length = Math.min(600, room - name.length - 3);
        fillers.push(write(name, length));
        room -= name.length + 3 + length;
      }
      await waitForSkills(api, (skills) => skills.filter((skill) => skill.name.startsWith('budget-filler-')).length === fillers.length, 'the fillers are listed');
      const free = 16_000 - (await codexUsed());
      assert.ok(free >= 50 && free < 75, `${free} characters free`);
      assert.deepEqual(hostShownOn(longest), [], 'everything listed in full');

      // 50 characters more than there is room for, in one skill: every description is cut to 950, so the longest one, not the edited one, is shortened.
      write('budget-edited', 100 + free + 50);
      const shortened = await waitFor(
        () => {
          const messages = hostShownOn(longest).map((diagnostic) => diagnostic.message);
          return messages.length > 0 && messages;
        },
        { message: () => `no budget warning on ${longest}; it has ${JSON.stringify(diagnosticsOf(longest).map((diagnostic) => diagnostic.message))}` },
      );
      assert.equal(shortened.length, 1);
      assert.match(shortened[0], /^With this project's \d+ skills, Codex lists this one with a shortened description at a 200,000-token context\.$/);
      assert.deepEqual(hostShownOn(edited), [], 'the edited skill keeps its description in full');

      write('budget-edited', 100);
      await waitFor(() => hostShownOn(longest).length === 0, { message: () => `the shortened warning stays: ${JSON.stringify(hostShownOn(longest).map((diagnostic) => diagnostic.message))}` });
    } finally {
      for (const file of [edited, longest, ...fillers]) {
        fs.rmSync(path.dirname(file), { recursive: true, force: true });
      }
      await setWorkspaceSetting(api, 'targets', undefined);
      await waitForSkills(api, (skills) => !skills.some((skill) => skill.name.startsWith('budget-')), 'the budget skills are gone');
    }
  });

  it('offers to link or copy a skill into the host folder, and does only what is chosen', async () => {
    const api = await skillsApi();
    await setWorkspaceSetting(api, 'targets', ['claude-code']);
    await vscode.window.showTextDocument(vscode.Uri.file(forked()));
    await hostWarnings(agentFolder(), 'Warning host-folder: Claude Code reads `.claude/skills`, not `.agent/skills`: the 2 skills there are invisible to it.');
    const hostFixes = async (): Promise<vscode.CodeAction[]> =>
      (
        await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', vscode.Uri.file(forked()), new vscode.Range(1, 0, 1, 4), vscode.CodeActionKind.QuickFix.value)
      ).filter((action) => action.command?.command === 'agentSkills.addToTargetFolder');
    // The findings follow the setting change asynchronously: ask again as the light bulb would.
    const ours = await waitFor(
      async () => {
        const fixes = await hostFixes();
        return fixes.length > 0 && fixes;
      },
      { message: 'no link or copy fix offered' },
    );
    assert.deepEqual(
      ours.map((action) => action.title),
      ['Link this skill into `.claude/skills` for Claude Code', 'Copy this skill into `.claude/skills` for Claude Code'],
    );
    const target = path.join(firstWorkspaceFolder(), '.claude', 'skills', 'forked');
    assert.equal(fs.existsSync(target), false, 'nothing is done before the user chooses');
    const link = ours[0].command!;
    assert.equal(await vscode.commands.executeCommand(link.command, ...(link.arguments ?? [])), true);
    assert.ok(fs.lstatSync(target).isSymbolicLink());
    assert.equal(fs.readFileSync(path.join(target, 'SKILL.md'), 'utf8'), fs.readFileSync(forked(), 'utf8'));
    // Never over what is there now.
    assert.equal(await vscode.commands.executeCommand(link.command, ...(link.arguments ?? [])), false);
    assert.equal((await hostFixes()).length, 0);
    fs.rmSync(target);
    await setWorkspaceSetting(api, 'targets', undefined);
  });

  it('Show Budget previews, per target, what each host lists and what each skill costs', async () => {
    const api = await skillsApi();
    await setWorkspaceSetting(api, 'targets', ['claude-code', 'codex', 'vscode']);
    const text = await vscode.commands.executeCommand<string>('agentSkills.showBudget', { contextTokens: 32_000 });
    assert.match(text, /^# Skills: budget per target\n/);
    assert.match(text, /## Claude Code\n\nClaude Code at a 32,000-token context: budget 1,280 characters, \d+ used; 3 in full\./);
    assert.match(text, /\| `forked` \| in full \| 75 \|/);
    assert.match(text, /## Codex\n/);
    assert.match(text, /## VS Code\n\nVS Code at a 32,000-token context documents no budget/);
    const preview = await waitFor(() => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => /Skill Budget/.test(tab.label)), { message: 'no preview tab' });
    assert.match(preview.label, /Preview/);
    if (harnessAvailable()) {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      await screenshot('show-budget');
    }
    await setWorkspaceSetting(api, 'targets', undefined);
  });

  it('Show Budget focuses the current context size, says which hosts to add, and keeps its tab when Show Catalog opens', async function () {
    if (!harnessAvailable()) {
      this.skip(); // The picker and the tabs are read in the workbench.
    }
    const api = await skillsApi();
    // Hosts that document no budget: VS Code and Cursor.
    await setWorkspaceSetting(api, 'targets', ['vscode', 'cursor']);
    try {
      await vscode.commands.executeCommand<string>('agentSkills.showBudget', { contextTokens: 400_000 });
      const running = vscode.commands.executeCommand<string>('agentSkills.showBudget');
      assert.match(await waitForViewText('css:.quick-input-widget .monaco-list-row.focused', '400,000 tokens'), /^400,000 tokens\s*current$/);
      // Enter keeps the current size.
      await pressKeys('Enter');
      const text = await running;
      assert.match(text, /## VS Code\n\nVS Code at a 400,000-token context/);
      assert.match(
        text,
        /None of these targets documents a budget for its list of skills, so this report cannot show what a budget cuts\. Add a target that documents one to `agentSkills\.targets` to see it: Claude Code \(`claude-code`\) or Codex \(`codex`\)\./,
      );

      await vscode.commands.executeCommand('agentSkills.showCatalog');
      const labels = await waitFor(() => {
        const open = openTabLabels();
        return open.includes('Skill Catalog.md') && open;
      });
      assert.ok(labels.includes('[Preview] Skill Budget.md'), `the budget's tab is gone: ${labels.join(', ')}`);
      // Each tab still shows its own document.
      await showTab('Skill Budget.md');
      assert.match(await waitForViewText('webview:body', 'None of these targets documents a budget'), /VS Code at a 400,000-token context/);
      await screenshot('show-budget-beside-catalog');
      await showTab('Skill Catalog.md');
      await waitForViewText('editor', '<available_skills>');
    } finally {
      await setWorkspaceSetting(api, 'targets', undefined);
    }
  });
});
