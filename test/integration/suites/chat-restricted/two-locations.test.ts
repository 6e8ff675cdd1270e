// Restricted Mode with two configured locations: the user's own `agentSkills.locations` (a
// workspace cannot set it while untrusted) adds `.claude/skills`; the skills of both locations
// stay out of every tool result and of the catalog, not only those of the first location.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeSkillTool, productApi } from '../../chat-helpers';
import { productExtensionId, waitFor } from '../../util';

const LOCATIONS = ['.agent/skills', '.claude/skills'];
/** Words only in the skills of the two workspace locations (the chat fixture's and the one written below). */
const workspaceText = /Build a PDF report|Write the release notes|AUDIT-BODY|RELEASE-NOTES-BODY|GUIDE-MARKER|Decisions, Owners|CLAUDE-ONLY/;

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite opens a workspace folder');
  return folder.uri.fsPath;
}

/** The folders holding a SKILL.md directly under a location of the workspace. */
function skillFoldersIn(location: string): string[] {
  const dir = path.join(workspaceFolder(), location);
  return fs.readdirSync(dir).filter((name) => fs.existsSync(path.join(dir, name, 'SKILL.md')));
}

/** `name: description` of a SKILL.md whose front matter holds both on one line each. */
function catalogLine(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  const name = /^name: (.+)$/m.exec(text)?.[1];
  const description = /^description: (.+)$/m.exec(text)?.[1];
  assert.ok(name && description, `${file} has a one-line name and description`);
  return `${name}: ${description}`;
}

describe('chat in Restricted Mode with two locations', () => {
  const configuration = () => vscode.workspace.getConfiguration('agentSkills');

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await productApi();
    fs.mkdirSync(path.join(workspaceFolder(), '.claude', 'skills', 'claude-only'), { recursive: true });
    fs.writeFileSync(
      path.join(workspaceFolder(), '.claude', 'skills', 'claude-only', 'SKILL.md'),
      '---\nname: claude-only\ndescription: CLAUDE-ONLY-DESCRIPTION of a skill in the second location.\n---\n\nCLAUDE-ONLY-BODY.\n',
    );
    await configuration().update('locations', LOCATIONS, vscode.ConfigurationTarget.Global);
    // The positive signal: the second location's skill is known (by name only) before asserting absences.
    await waitFor(() => api.listSkills().some((skill) => skill.name === 'claude-only'), { message: 'the .claude/skills location was not read' });
    await api.whenIdle();
  });
  after(async () => {
    await configuration().update('locations', undefined, vscode.ConfigurationTarget.Global);
  });

  it('lists the skills of both locations as untrusted, by name only', async () => {
    const api = await productApi();
    const workspaceSkills = api.listSkills().filter((skill) => skill.source.kind === 'workspace');
    const expected = [...skillFoldersIn('.agent/skills'), ...skillFoldersIn('.claude/skills')].sort();
    assert.deepEqual(workspaceSkills.map((skill) => skill.name).sort(), expected);
    assert.deepEqual(
      workspaceSkills.filter((skill) => skill.status !== 'untrusted' || skill.description !== undefined).map((skill) => skill.name),
      [],
    );
  });

  it('gives the model exactly the user and built-in catalog, and counts both locations as withheld', async () => {
    const home = path.join(process.env.HOME ?? '', '.agent', 'skills', 'home-helper', 'SKILL.md');
    const builtin = vscode.extensions.getExtension(productExtensionId)?.extensionPath;
    assert.ok(builtin);
    const withheld = skillFoldersIn('.agent/skills').length + skillFoldersIn('.claude/skills').length;
    const expected = [
      '<available_skills>',
      'Skills: call skills_activate with a name below to load its instructions before a task it covers.',
      catalogLine(home),
      catalogLine(path.join(builtin, 'skills', 'reviewing-skills', 'SKILL.md')),
      catalogLine(path.join(builtin, 'skills', 'writing-skills', 'SKILL.md')),
      '</available_skills>',
      `${withheld} skills of this workspace are not available because the workspace is not trusted.`,
    ].join('\n');
    assert.equal(await invokeSkillTool('skills_find', { query: '' }), expected);
  });

  it('refuses the second location skill by name, and finds nothing of it by its words', async () => {
    assert.equal(await invokeSkillTool('skills_activate', { name: 'claude-only' }), 'Skill "claude-only" comes from a workspace that is not trusted; trust the workspace to use its skills.');
    assert.doesNotMatch(await invokeSkillTool('skills_find', { query: 'claude only description second location' }), workspaceText);
    assert.doesNotMatch(await invokeSkillTool('skills_readResource', { skill: 'claude-only', path: 'SKILL.md' }), workspaceText);
  });

  it('keeps both locations out of Show Catalog', async () => {
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog');
    const text = document.getText();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.match(text, /home-helper: A personal helper skill from the home folder/);
    assert.doesNotMatch(text, workspaceText);
  });
});
