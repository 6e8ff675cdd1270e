// The .vsix users install (`npm run package`), installed into the VS Code server with
// `--install-extension`: proves the package holds everything the extension needs at run time.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSkillsApi } from '../../../../src/vscode/api';
import { activateProduct, harnessAvailable, productExtensionId, waitFor, waitForViewText } from '../../util';

const toolNames = ['skills_activate', 'skills_find', 'skills_readResource'];
const builtinSkillNames = ['reviewing-skills', 'writing-skills'];

interface ContributedPromptFile {
  readonly uri: { readonly path: string };
  readonly type: string;
  readonly extensionId: string;
}

/** VS Code's own list of the prompt files and skills extensions contribute (its `chatSkills` support). */
async function contributedSkillFiles(): Promise<string[]> {
  const files = (await vscode.commands.executeCommand<ContributedPromptFile[]>('_listExtensionPromptFiles')) ?? [];
  return files
    .filter((file) => file.type === 'skill' && file.extensionId.toLowerCase() === productExtensionId)
    .map((file) => path.basename(path.dirname(file.uri.path)))
    .sort();
}

describe('the packaged extension, installed from its .vsix', () => {
  it('is the installed copy, holding the bundle and no sources', () => {
    const extension = vscode.extensions.getExtension(productExtensionId);
    assert.ok(extension, `${productExtensionId} is not installed`);
    const folder = extension.extensionPath;
    assert.match(path.basename(folder), /^agentskills\.agent-skills-\d+\.\d+\.\d+$/, folder);
    assert.ok(fs.existsSync(path.join(folder, 'dist', 'extension.js')));
    for (const unwanted of ['src', 'node_modules', 'test', 'tsconfig.json', path.join('dist', 'extension.js.map'), path.join('dist', 'cli.js.map')]) {
      assert.ok(!fs.existsSync(path.join(folder, unwanted)), `the package should not hold ${unwanted}`);
    }
  });

  it('holds the command line its MCP server definition runs', async () => {
    const extension = await activateProduct<AgentSkillsApi>();
    const definition = extension.exports.testing.mcpServerDefinition();
    assert.ok(definition, 'the MCP server is offered');
    assert.equal(definition.args[0], path.join(extension.extensionPath, 'dist', 'cli.js'));
    assert.ok(fs.existsSync(definition.args[0]), 'dist/cli.js is in the package');
  });

  it('holds the commands its command line loads on first use (dist/cli-rare-commands.js)', () => {
    const folder = vscode.extensions.getExtension(productExtensionId)!.extensionPath;
    const audit = spawnSync(process.execPath, [path.join(folder, 'dist', 'cli.js'), 'audit', '--json', path.join(folder, 'skills', 'writing-skills')], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      timeout: 30_000,
    });
    assert.equal(audit.status, 0, audit.stderr);
    assert.deepEqual(
      (JSON.parse(audit.stdout) as { skills: Array<{ verdict: string }> }).skills.map(({ verdict }) => verdict),
      ['clean'],
    );
  });

  it('holds the code of its mcp command, which its command line loads when that command runs (dist/cli-mcp-command.js)', () => {
    const folder = vscode.extensions.getExtension(productExtensionId)!.extensionPath;
    // Refused by the command's own option checks, past its loading: the usage error of dist/cli.js.
    const refused = spawnSync(process.execPath, [path.join(folder, 'dist', 'cli.js'), 'mcp', '--http', '0.0.0.0:1'], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      timeout: 30_000,
    });
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /^agent-skills: mcp: --http 0\.0\.0\.0:1 would serve skills beyond this machine without a token\./);
  });

  it('ships the README without the screenshots of the repository, which the package leaves out', () => {
    const folder = vscode.extensions.getExtension(productExtensionId)!.extensionPath;
    // vsce stores the README as readme.md.
    const readme = fs.readFileSync(path.join(folder, 'readme.md'), 'utf8');
    assert.match(readme, /^## Two commands$/m);
    assert.doesNotMatch(readme, /docs\/images\//);
    assert.ok(!fs.existsSync(path.join(folder, 'docs')), 'the package should not hold docs/');
  });

  it('loads the features bundled apart on first use, from the side bundles it ships', async () => {
    const folder = (await activateProduct()).extensionPath;
    for (const bundle of ['extension-deferred.js', 'extension-sources.js', 'extension-trigger-tools.js', 'extension-servers.js']) {
      assert.ok(fs.existsSync(path.join(folder, 'dist', bundle)), `the package should hold dist/${bundle}`);
    }
    // Each command's code is in a side bundle: it answers only if the bundle loads and finds what it
    // shares with dist/extension.js, and with dist/extension-deferred.js (the Routing Report reads the
    // Testing view's controller there, Check for Updates the installed skills' tracker).
    const page = await vscode.commands.executeCommand<string>('agentSkills.showRoutingReport');
    assert.match(page, /Run trigger tests to see routing/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.deepEqual(await vscode.commands.executeCommand('agentSkills.checkForUpdates'), []);
    assert.equal(await vscode.commands.executeCommand('agentSkills.setServerToken'), undefined);
  });

  it('activates', async () => {
    const extension = await activateProduct();
    assert.equal(extension.isActive, true);
  });

  it('registers its language-model tools, which answer', async () => {
    await activateProduct();
    await waitFor(() => toolNames.every((name) => vscode.lm.tools.some((tool) => tool.name === name)), {
      message: () => `registered tools: ${vscode.lm.tools.map((tool) => tool.name).join(', ')}`,
    });
    const result = await vscode.lm.invokeTool('skills_find', { input: { query: 'write a new skill' }, toolInvocationToken: undefined });
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /writing-skills/);
  });

  it('finds its built-in skills through the public API', async () => {
    const api = (await activateProduct<AgentSkillsApi>()).exports;
    await api.whenIdle();
    const builtin = api.listSkills().filter((skill) => skill.source.kind === 'builtin');
    assert.deepEqual(builtin.map((skill) => skill.name).sort(), builtinSkillNames);
    assert.ok(
      builtin.every((skill) => skill.status === 'available'),
      JSON.stringify(builtin, undefined, 2),
    );
    const text = await api.activateSkill('writing-skills');
    assert.match(text, /<skill name="writing-skills"/);
    assert.match(text, /references\/specification\.md/);
  });

  it('shows the Skills view with the workspace and built-in skills', async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await activateProduct();
    await waitForViewText('skills', 'greeting');
    await waitForViewText('skills', 'writing-skills');
  });

  it('contributes its built-in skills to VS Code chat, switched off by agentSkills.builtinSkills', async () => {
    await activateProduct();
    assert.deepEqual(await waitFor(async () => (await contributedSkillFiles()).length > 0 && contributedSkillFiles(), { message: 'VS Code lists no skill of the extension' }), builtinSkillNames);
    const settings = vscode.workspace.getConfiguration('agentSkills');
    await settings.update('builtinSkills', false, vscode.ConfigurationTarget.Global);
    try {
      await waitFor(async () => (await contributedSkillFiles()).length === 0, { message: 'the built-in skills stayed listed with agentSkills.builtinSkills off' });
    } finally {
      await settings.update('builtinSkills', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
