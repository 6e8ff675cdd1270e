import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harnessAvailable, pressKeys, screenshot, typeText, waitFor, waitForViewText } from '../../util';
import { diagnosticSummary, diagnosticsOf, setWorkspaceSetting, skillNamed, skillsApi, treeGroups, treeItem, userSkillsFolder, waitForSkills, workspaceSkillsFolder } from '../../editor-helpers';

/** The line Show Catalog puts above a catalog: its size counted here, the budget, and what it holds. */
function sizeLine(catalog: string, budget: string, holds: string): string {
  const count = (value: number): string => value.toLocaleString('en-US');
  return `Skill catalog: ${count(catalog.length)} characters (~${count(Math.ceil(catalog.length / 4))} tokens) of a ${budget}-character budget; ${holds}.`;
}

describe('Skills commands', () => {
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  describe('Create Skill', () => {
    after(async () => {
      fs.rmSync(path.join(workspaceSkillsFolder(), 'release-notes'), { recursive: true, force: true });
      for (const name of ['my-habits', 'notes', 'kept-name']) {
        fs.rmSync(path.join(userSkillsFolder(), name), { recursive: true, force: true });
      }
      const api = await skillsApi();
      await waitForSkills(api, (skills) => !skills.some((skill) => skill.source.kind === 'user' && ['notes', 'kept-name'].includes(skill.name)), 'the user skills made here did not go');
    });

    it('scaffolds a valid skill in the chosen location, lists it and opens it', async () => {
      const api = await skillsApi();
      const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { name: 'release-notes', location: 'editor' });
      const file = path.join(workspaceSkillsFolder(), 'release-notes', 'SKILL.md');
      assert.equal(uri?.fsPath, file);
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file);
      assert.match(fs.readFileSync(file, 'utf8'), /^---\nname: release-notes\ndescription: "/);
      // The open editor is validated in full, body included: a scaffold has nothing to report but
      // its placeholder description, which is selected, ready to be typed over.
      await waitFor(() => diagnosticsOf(file).length > 0, { message: 'no diagnostic on the new skill' });
      assert.deepEqual(
        diagnosticSummary(file).map(([code, severity, line]) => [code, severity, line]),
        [['placeholder-description', 'Warning', 2]],
      );
      const selection = vscode.window.activeTextEditor?.selection;
      assert.equal(vscode.window.activeTextEditor?.document.getText(selection), 'Describe what this skill does and when to use it; the model picks skills by this text.');
      assert.equal(skillNamed(api, 'release-notes')?.status, 'available');
      assert.equal(treeItem(api, 'Available', 'release-notes')?.description, 'draft: write its description');
      // Until its description is written, the model is not offered the skill.
      const catalogText = async (): Promise<string> => (await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog')).getText();
      assert.doesNotMatch(await catalogText(), /release-notes|Describe what this skill does/);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Drafts the release notes.'));
      await waitForSkills(api, () => treeItem(api, 'Available', 'release-notes')?.description === 'Drafts the release notes.', 'the edited description did not show');
      assert.match(await catalogText(), /\nrelease-notes: Drafts the release notes\.\n/);
    });

    it('creates in the user folder when asked', async () => {
      const api = await skillsApi();
      const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { name: 'my-habits', location: 'User', open: false });
      assert.equal(uri?.fsPath, path.join(userSkillsFolder(), 'my-habits', 'SKILL.md'));
      assert.equal(skillNamed(api, 'my-habits')?.source.kind, 'user');
    });

    const nameInput = { selector: '.quick-input-box input', within: '.quick-input-widget' };

    it('checks the name against every location as it is typed, and creates where it is free', async function () {
      if (!harnessAvailable()) {
        this.skip();
      }
      // pdf-tools is a folder in the workspace's location and in the user's: refused as it is typed.
      const refused = vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { open: false });
      await typeText('pdf-tools', nameInput);
      await waitForViewText('css:.quick-input-widget', 'A folder named "pdf-tools" already exists in every location (editor, User). Choose another name.');
      await pressKeys('Enter');
      await pressKeys('Escape');
      assert.equal(await refused, undefined);
      // notes is a folder in the workspace's location only: a warning says so, and User is where it goes.
      const created = vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { open: false });
      await typeText('notes', nameInput);
      await waitForViewText('css:.quick-input-widget', 'A folder named "notes" already exists in editor; the new skill can go to User.');
      await pressKeys('Enter');
      assert.equal((await created)?.fsPath, path.join(userSkillsFolder(), 'notes', 'SKILL.md'));
    });

    it('asks for the name again, as typed, when creating fails', async function () {
      if (!harnessAvailable()) {
        this.skip();
      }
      const api = await skillsApi();
      // A location whose folder is a file: creating there fails.
      fs.writeFileSync(path.join(workspaceSkillsFolder(), '..', '..', 'not-a-folder'), 'a file\n');
      await setWorkspaceSetting(api, 'locations', ['.agent/skills', 'not-a-folder']);
      try {
        const creation = vscode.commands.executeCommand<vscode.Uri | undefined>('agentSkills.createSkill', { open: false });
        // The name box stays on screen until its Enter is handled, so each step waits for the next
        // box to show before typing: keys sent earlier would land in the box being replaced.
        const locationPicker = async (): Promise<void> => {
          await waitForViewText('css:.quick-input-widget', 'editor · not-a-folder');
        };
        await typeText('kept-name', nameInput);
        await pressKeys('Enter');
        await locationPicker();
        await typeText('not-a-folder', nameInput);
        await pressKeys('Enter');
        // The name box is back with "kept-name" in it: Enter takes it as it is.
        await waitForViewText('css:.quick-input-widget', 'Skill name');
        await pressKeys('Enter');
        await locationPicker();
        await typeText('User', nameInput);
        await pressKeys('Enter');
        assert.equal((await creation)?.fsPath, path.join(userSkillsFolder(), 'kept-name', 'SKILL.md'));
      } finally {
        await setWorkspaceSetting(api, 'locations', undefined);
        fs.rmSync(path.join(workspaceSkillsFolder(), '..', '..', 'not-a-folder'), { force: true });
      }
    });

    it('never overwrites an existing folder, and refuses names that break the rules', async () => {
      const before = fs.readFileSync(path.join(workspaceSkillsFolder(), 'notes', 'SKILL.md'), 'utf8');
      assert.equal(await vscode.commands.executeCommand('agentSkills.createSkill', { name: 'notes', location: 'editor' }), undefined);
      assert.equal(fs.readFileSync(path.join(workspaceSkillsFolder(), 'notes', 'SKILL.md'), 'utf8'), before);
      assert.equal(await vscode.commands.executeCommand('agentSkills.createSkill', { name: 'Bad Name', location: 'editor' }), undefined);
      assert.ok(!fs.existsSync(path.join(workspaceSkillsFolder(), 'Bad Name')));
    });
  });

  describe('Show Log', () => {
    it('shows the discovery line in the Agent Skills output channel', async function () {
      if (!harnessAvailable()) {
        this.skip();
      }
      await skillsApi();
      await vscode.commands.executeCommand('agentSkills.showLog');
      // Refresh ends with the discovery line, so it is in view however long the log has grown.
      await vscode.commands.executeCommand('agentSkills.refresh');
      // The channel is backed by the server's native logger: without it the panel stays empty.
      // The editor renders spaces as no-break spaces, which `\s` matches. The fixture's 9 skills: the
      // workspace's 5 (Create Skill's were removed), the user's 2 and the 2 built-in ones, in those 3 locations.
      await waitForViewText('panel', /Refreshing\sall\sskills\.[\s\S]*Discovered\s9\sskills\sin\s3\slocations/);
      await vscode.commands.executeCommand('workbench.action.closePanel');
    });
  });

  describe('Show Catalog', () => {
    it('opens exactly what the model is given, under a line with its size', async () => {
      await skillsApi();
      const document = await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog');
      const [header, blank, ...rest] = document.getText().trimEnd().split('\n');
      const catalog = rest.join('\n');
      // Every usable skill is described within the default budget: all lines between the header line and the closing tag.
      assert.equal(header, sizeLine(catalog, '16,000', `${rest.length - 3} skills described`));
      assert.equal(blank, '');
      assert.match(catalog, /^<available_skills>\n/);
      assert.match(catalog, /\npdf-tools: Extract text and tables from PDF files\. Use when the user mentions a PDF\.\n/);
      assert.doesNotMatch(catalog, /shadowed by the workspace/); // The user's pdf-tools is shadowed.
      assert.equal(document.languageId, 'markdown');
    });
  });

  describe('activation from the view and the API', () => {
    after(() => vscode.commands.executeCommand('agentSkills.deactivateAll'));

    it('returns the activation text through the API and lists the skill as Active', async () => {
      const api = await skillsApi();
      const text = await api.activateSkill('pdf-tools', 'report.pdf');
      assert.match(text, /^<skill name="pdf-tools" dir="[^"]+pdf-tools">\n# PDF tools\n\nExtract the text of report\.pdf page by page/);
      await waitForSkills(api, () => skillNamed(api, 'pdf-tools', 'workspace')?.status === 'active', 'pdf-tools is not active');
      assert.deepEqual(treeGroups(api).slice(0, 2), ['Active', 'Available']);
      assert.equal(treeItem(api, 'Active', 'pdf-tools')?.description, 'Extract text and tables from PDF files. Use when the user mentions a PDF.');
    });

    it('returns exactly what the activation tool gives the model', async () => {
      const api = await skillsApi();
      const result = await vscode.lm.invokeTool('skills_activate', { input: { name: 'notes', arguments: 'weekly sync' }, toolInvocationToken: undefined });
      const toolText = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      assert.equal(await api.activateSkill('notes', 'weekly sync'), toolText);
      await vscode.commands.executeCommand('agentSkills.deactivate', 'notes');
    });

    it('rejects an unknown name with close matches', async () => {
      const api = await skillsApi();
      await assert.rejects(api.activateSkill('pdf-tool'), /No skill named "pdf-tool"\. Did you mean: pdf-tools/);
    });

    it('activates and deactivates from the item menus', async () => {
      const api = await skillsApi();
      assert.equal(await vscode.commands.executeCommand('agentSkills.activate', treeItem(api, 'Available', 'notes')), true);
      await waitForSkills(api, () => treeItem(api, 'Active', 'notes'), 'notes is not in Active');
      const active = treeItem(api, 'Active', 'notes');
      assert.equal(active?.contextValue, 'skill active draftable');
      if (harnessAvailable()) {
        await waitForViewText('skills', 'Active');
        await screenshot('tree-active');
      }
      await vscode.commands.executeCommand('agentSkills.deactivate', active);
      await waitForSkills(api, () => skillNamed(api, 'notes')?.status === 'available', 'notes is still active');
    });

    it('deactivates everything at once', async () => {
      const api = await skillsApi();
      await vscode.commands.executeCommand('agentSkills.activate', 'notes');
      await vscode.commands.executeCommand('agentSkills.deactivateAll');
      await waitForSkills(api, (skills) => !skills.some((skill) => skill.status === 'active'), 'a skill is still active');
      assert.ok(!treeGroups(api).includes('Active'));
    });
  });

  describe('item actions', () => {
    it('copies the name and reveals the skill in the Explorer', async () => {
      const api = await skillsApi();
      const item = treeItem(api, 'Available', 'notes');
      await vscode.commands.executeCommand('agentSkills.copyName', item);
      assert.equal(await vscode.env.clipboard.readText(), 'notes');
      // The same command given the skill's folder, its SKILL.md, or its name names the same skill.
      const skillFile = skillNamed(api, 'notes')!.path;
      for (const argument of [path.dirname(skillFile), vscode.Uri.file(skillFile), vscode.Uri.file(path.dirname(skillFile)), 'notes']) {
        await vscode.env.clipboard.writeText('');
        await vscode.commands.executeCommand('agentSkills.copyName', argument);
        assert.equal(await vscode.env.clipboard.readText(), 'notes', String(argument));
      }
      await vscode.commands.executeCommand('agentSkills.reveal', item);
      if (harnessAvailable()) {
        await waitForViewText('sidebar', 'SKILL.md');
        await vscode.commands.executeCommand('workbench.view.extension.agentSkills');
      }
    });

    it('re-reads every skill on Refresh, matching what is on disk', async () => {
      const api = await skillsApi();
      await vscode.commands.executeCommand('agentSkills.refresh');
      const listed = api
        .listSkills()
        .filter((skill) => skill.source.kind === 'workspace')
        .map((skill) => path.basename(path.dirname(skill.path)))
        .sort();
      const onDisk = fs
        .readdirSync(workspaceSkillsFolder())
        .filter((folder) => fs.existsSync(path.join(workspaceSkillsFolder(), folder, 'SKILL.md')))
        .sort();
      assert.deepEqual(listed, onDisk);
    });
  });

  describe('the allowlist', () => {
    afterEach(async () => setWorkspaceSetting(await skillsApi(), 'allowlist', undefined));

    it('filters skills live and lets the view allow one, keeping the other entries', async () => {
      const api = await skillsApi();
      await setWorkspaceSetting(api, 'allowlist', ['pdf-*', 'journal']);
      await waitForSkills(api, () => skillNamed(api, 'notes')?.status === 'not-allowed', 'notes is not filtered out');
      assert.equal(skillNamed(api, 'pdf-tools', 'workspace')?.status, 'available');
      const notAllowed = treeItem(api, 'Not allowed', 'notes');
      assert.equal(notAllowed?.contextValue, 'skill allowable');
      if (harnessAvailable()) {
        await waitForViewText('skills', 'Not allowed');
        await screenshot('tree-not-allowed');
      }

      await vscode.commands.executeCommand('agentSkills.allow', notAllowed);
      await waitForSkills(api, () => skillNamed(api, 'notes')?.status === 'available', 'notes was not allowed');
      assert.deepEqual(vscode.workspace.getConfiguration('agentSkills').inspect('allowlist')?.workspaceValue, ['pdf-*', 'journal', 'notes']);
      const allowed = treeItem(api, 'Available', 'notes');
      assert.equal(allowed?.contextValue, 'skill activatable allowlisted draftable');

      await vscode.commands.executeCommand('agentSkills.removeFromAllowlist', allowed);
      await waitForSkills(api, () => skillNamed(api, 'notes')?.status === 'not-allowed', 'notes is still allowed');
      assert.deepEqual(vscode.workspace.getConfiguration('agentSkills').inspect('allowlist')?.workspaceValue, ['pdf-*', 'journal']);
    });
  });

  describe('settings, applied live', () => {
    afterEach(async () => {
      const api = await skillsApi();
      for (const key of ['builtinSkills', 'userSkills', 'locations', 'enabled', 'catalog.budgetChars']) {
        await setWorkspaceSetting(api, key, undefined);
      }
    });

    it('drops built-in and user skills when they are turned off', async () => {
      const api = await skillsApi();
      await setWorkspaceSetting(api, 'builtinSkills', false);
      await setWorkspaceSetting(api, 'userSkills', false);
      await waitForSkills(api, (skills) => !skills.some((skill) => skill.source.kind === 'builtin' || skill.source.kind === 'user'), 'built-in or user skills remain');
      assert.ok(!treeGroups(api).includes('Shadowed'));
    });

    it('adds a location as soon as it is configured', async () => {
      const api = await skillsApi();
      await setWorkspaceSetting(api, 'locations', ['.agent/skills', '.claude/skills']);
      await waitForSkills(api, () => skillNamed(api, 'claude-helper'), 'the .claude/skills skill did not appear');
      assert.equal(skillNamed(api, 'claude-helper')?.source.label, 'editor · .claude/skills');
    });

    it('renders the catalog within a smaller budget and says so above the view', async () => {
      const api = await skillsApi();
      await setWorkspaceSetting(api, 'catalog.budgetChars', 500);
      const document = await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog');
      const [header, , ...catalog] = document.getText().trimEnd().split('\n');
      const namesOnly =
        catalog
          .find((line) => line.startsWith('More skills'))
          ?.replace(/^[^:]*: /, '')
          .split(', ') ?? [];
      const described = catalog.length - 3 - (namesOnly.length > 0 ? 1 : 0);
      assert.ok(namesOnly.length > 0 && described > 0, catalog.join('\n'));
      assert.equal(header, sizeLine(catalog.join('\n'), '500', `${described} skill${described === 1 ? '' : 's'} described, ${namesOnly.length} by name only`));
      assert.ok(catalog.join('\n').length <= 500);
      if (harnessAvailable()) {
        await waitForViewText('skills', `The catalog budget fits ${described} of ${described + namesOnly.length} skills with their descriptions`);
        await screenshot('tree-catalog-overflow');
      }
    });

    it('lists nothing while turned off', async () => {
      const api = await skillsApi();
      await setWorkspaceSetting(api, 'enabled', false);
      await waitForSkills(api, (skills) => skills.length === 0, 'skills are still listed');
      assert.deepEqual(api.testing.tree.topLevel, []);
      if (harnessAvailable()) {
        // Not "No skills found… Create Skill": the view says why it is empty and how to turn skills on.
        const text = await waitForViewText('skills', /Skills are turned off[\s\S]*Turn Skills On/);
        assert.doesNotMatch(text, /No skills found/);
      }
      await setWorkspaceSetting(api, 'enabled', true);
      await waitForSkills(api, (skills) => skills.length > 0, 'skills did not come back');
    });
  });
});
