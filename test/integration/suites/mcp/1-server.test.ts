// The product's MCP server inside VS Code: started by the editor from the extension's definition,
// its tools in vscode.lm.tools with the catalog, answering through vscode.lm.invokeTool, and
// following the allowlist live.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { productApi, shownCatalog } from '../../chat-helpers';
import { instructionsOf, invokeText, nameEnum, startedMcpTools } from '../../mcp-helpers';
import { harnessAvailable, productExtensionId, waitFor } from '../../util';

/** The catalog's skill lines, without the header that names the tools to call. */
function skillLines(catalog: string): string[] {
  const block = catalog.slice(catalog.indexOf('<available_skills>'), catalog.indexOf('</available_skills>'));
  return block.split('\n').slice(2);
}

describe('the MCP server in VS Code', () => {
  before(function () {
    if (!harnessAvailable()) {
      this.skip(); // VS Code starts MCP servers for chat requests, which need the workbench.
    }
  });

  it('is started by VS Code and adds its three tools, carrying the catalog', async () => {
    const tools = await startedMcpTools();
    const activate = tools.get('activate_skill')!;
    assert.match(activate.description, /pdf-report: Build a PDF report from a CSV file/);
    assert.deepEqual([...(nameEnum(activate) ?? [])].sort(), [
      'audit-fork',
      'fork-fallback',
      'fork-mini',
      'home-helper',
      'internal-helper',
      'pdf-report',
      'plain-notes',
      'reviewing-skills',
      'writing-skills',
    ]);
    const instructions = instructionsOf(activate);
    assert.match(instructions, /call activate_skill with its exact name/);
    assert.deepEqual(skillLines(instructions), skillLines(await shownCatalog()), 'the same catalog as Show Catalog and @skills');
  });

  it('returns the skill body from vscode.lm.invokeTool', async () => {
    const activate = (await startedMcpTools()).get('activate_skill')!;
    const text = await invokeText(activate, { name: 'pdf-report', arguments: 'q3.csv "Q3 sales"' });
    assert.match(text, /^<skill name="pdf-report" dir="[^"]+pdf-report">/);
    assert.match(text, /Build the report from q3\.csv with the title "Q3 sales"\./);
    assert.match(text, /read one with read_skill_resource/);
    assert.doesNotMatch(text, /evals|triggers\.json/, "the skill's trigger tests are for its authors");
    const readResource = (await startedMcpTools()).get('read_skill_resource')!;
    assert.match(await invokeText(readResource, { skill: 'pdf-report', path: 'references/guide.md' }), /GUIDE-MARKER/);
    const tests = await invokeText(readResource, { skill: 'pdf-report', path: 'evals/triggers.json' });
    assert.match(tests, /"evals\/triggers\.json" is in the skill's evals\/ folder, which holds its tests for the skill's authors/);
    assert.doesNotMatch(tests, /TRIGGER-QUERY-MARKER/);
  });

  it('leaves agent mode to the MCP tools: the contributed tools serve @skills but are not offered there', async () => {
    const manifest = vscode.extensions.getExtension(productExtensionId)!.packageJSON as {
      contributes: { languageModelTools: { name: string; canBeReferencedInPrompt?: boolean }[]; mcpServerDefinitionProviders: { id: string }[] };
    };
    assert.deepEqual(
      manifest.contributes.mcpServerDefinitionProviders.map((provider) => provider.id),
      ['agentSkills.mcpServer'],
    );
    // The referenceable twins (#activateSkill…) are for agentMode "tools" (see 2-agent-mode-tools).
    for (const tool of manifest.contributes.languageModelTools.filter((contributed) => !contributed.canBeReferencedInPrompt)) {
      assert.ok(
        vscode.lm.tools.some((registered) => registered.name === tool.name),
        `${tool.name} is still registered for @skills`,
      );
    }
  });

  it('withdraws the server when skills are turned off', async () => {
    const api = await productApi();
    const settings = vscode.workspace.getConfiguration('agentSkills');
    const before = api.testing.mcpServerDefinition();
    assert.ok(before && before.args.some((arg) => arg.endsWith('.agent/skills')));
    await settings.update('enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(() => api.testing.mcpServerDefinition() === undefined, { message: 'the definition stayed while skills were off' });
      await waitFor(() => !vscode.lm.tools.some((tool) => tool.tags.includes('mcp') && tool.name.includes('agent-skills')), { timeoutMs: 20000, message: "the server's tools stayed" });
    } finally {
      await settings.update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => api.testing.mcpServerDefinition()?.version === before.version, { message: 'the same definition came back' });
  });

  it('narrows the tool enum when the allowlist changes', async () => {
    const settings = vscode.workspace.getConfiguration('agentSkills');
    await settings.update('allowlist', ['pdf-*', 'plain-*'], vscode.ConfigurationTarget.Workspace);
    try {
      const tools = await startedMcpTools((found) => JSON.stringify([...(nameEnum(found.get('activate_skill')!) ?? [])].sort()) === JSON.stringify(['pdf-report', 'plain-notes']));
      const activate = tools.get('activate_skill')!;
      assert.doesNotMatch(activate.description, /audit-fork/);
      assert.match(await invokeText(activate, { name: 'audit-fork' }), /not allowed/);
    } finally {
      await settings.update('allowlist', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
