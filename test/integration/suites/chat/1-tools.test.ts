// The three language-model tools as any chat client sees them: listed in vscode.lm.tools and
// answering through vscode.lm.invokeTool, outside the @skills participant.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeSkillTool, productApi, shownCatalog, skillToolNames } from '../../chat-helpers';
import { harnessAvailable, productExtensionId, readTreeRows, waitFor } from '../../util';

const skillsFolder = (): string => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.agent', 'skills');

describe('the language-model tools', () => {
  before(async () => {
    await productApi();
  });

  it('are listed in vscode.lm.tools with descriptions and input schemas', async () => {
    const tools = await waitFor(() => {
      const ours = vscode.lm.tools.filter((tool) => (skillToolNames as readonly string[]).includes(tool.name));
      return ours.length === skillToolNames.length && ours;
    });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual((byName.get('skills_activate')?.inputSchema as { required: string[] }).required, ['name']);
    assert.deepEqual((byName.get('skills_readResource')?.inputSchema as { required: string[] }).required, ['skill', 'path']);
    // What the model reads is the modelDescription the manifest contributes, word for word.
    const contributed = (vscode.extensions.getExtension(productExtensionId)?.packageJSON as { contributes: { languageModelTools: { name: string; modelDescription: string }[] } }).contributes
      .languageModelTools;
    assert.deepEqual(tools.map((tool) => [tool.name, tool.description]).sort(), skillToolNames.map((name) => [name, contributed.find((tool) => tool.name === name)?.modelDescription]).sort());
  });

  describe('skills_activate', () => {
    it('returns the body with arguments substituted, the folder and the resource files, and marks the skill active', async () => {
      const text = await invokeSkillTool('skills_activate', { name: 'pdf-report', arguments: 'sales.csv "Q3 sales"' });
      assert.match(text, /^<skill name="pdf-report" dir="[^"]+pdf-report">/);
      assert.match(text, /Build the report from sales\.csv with the title "Q3 sales"\./);
      assert.match(text, /All arguments as given: sales\.csv "Q3 sales"/);
      assert.match(text, /Resource files \(paths relative to the skill folder; read one with skills_readResource\):\n- assets\/logo\.png\n- references\/guide\.md\n- scripts\/render\.py/);
      assert.doesNotMatch(text, /GUIDE-MARKER/, 'resource contents are not included');
      assert.doesNotMatch(text, /evals|triggers\.json/, "the skill's trigger tests are for its authors");
      const api = await productApi();
      await waitFor(() => api.listSkills().find((skill) => skill.name === 'pdf-report')?.status === 'active', { message: 'pdf-report did not become active' });
    });

    it('shows the activated skill in the Active group of the Skills view', async function () {
      const api = await productApi();
      const active = api.testing.tree.topLevel.find((group) => group.label === 'Active');
      assert.ok(active && active.kind === 'group' && active.children.some((item) => item.label === 'pdf-report'), 'pdf-report is in the Active group');
      if (!harnessAvailable()) {
        this.skip();
      }
      const rows = await waitFor(
        async () => {
          const drawn = await readTreeRows('skills');
          return drawn[0]?.label === 'Active' && drawn;
        },
        { message: 'the Skills view drew no Active group' },
      );
      const description = /^description: (.+)$/m.exec(fs.readFileSync(path.join(skillsFolder(), 'pdf-report', 'SKILL.md'), 'utf8'))?.[1];
      assert.deepEqual(
        rows.slice(0, 2).map((row) => [row.level, row.label, row.description]),
        [
          [1, 'Active', '1'],
          [2, 'pdf-report', description],
        ],
      );
    });

    it('appends the arguments to a body without placeholders', async () => {
      const text = await invokeSkillTool('skills_activate', { name: 'plain-notes', arguments: 'standup 12 May' });
      assert.match(text, /Open questions\.\n\n+ARGUMENTS: standup 12 May\n<\/skill>$/);
    });

    it('refuses an unknown skill, naming close matches and the available skills', async () => {
      const text = await invokeSkillTool('skills_activate', { name: 'pdf-reprot' });
      assert.match(text, /^No skill named "pdf-reprot"\. Did you mean: pdf-report\?/);
      assert.match(text, /Available skills: [^\n]*plain-notes/);
      assert.doesNotMatch(text, /Available skills: [^\n]*release-notes/, 'skills hidden from the model are not offered to it');
    });

    it('refuses a skill that only the user may start', async () => {
      const text = await invokeSkillTool('skills_activate', { name: 'release-notes' });
      assert.equal(text, 'Skill "release-notes" can only be started by the user (/use release-notes); it sets disable-model-invocation.');
      assert.doesNotMatch(text, /RELEASE-NOTES-BODY/);
    });

    it('refuses an invalid skill and says why', async () => {
      const text = await invokeSkillTool('skills_activate', { name: 'broken-yaml' });
      assert.match(text, /^Skill "broken-yaml" is invalid/);
    });

    it('adds a note to a skill meant to run in isolation, for callers that cannot isolate it', async () => {
      const text = await invokeSkillTool('skills_activate', { name: 'audit-fork', arguments: 'src' });
      assert.match(text, /AUDIT-BODY: scan the folder src for secrets/);
      assert.match(text, /context: fork/);
    });
  });

  describe('skills_find', () => {
    it('ranks matches with their descriptions', async () => {
      const text = await invokeSkillTool('skills_find', { query: 'pdf report from csv' });
      const lines = text.split('\n');
      assert.match(lines[0], /skills? match "pdf report from csv"/);
      assert.equal(lines[1], '- pdf-report: Build a PDF report from a CSV file, with a title page and charts. Use for PDF reports.');
    });

    it('returns the catalog, exactly as Show Catalog shows it, for an empty query', async () => {
      const text = await invokeSkillTool('skills_find', { query: '' });
      // Built from the fixture: the workspace's skills the model may call, by name (release-notes
      // disables model invocation, broken-yaml is invalid), then the user's, then the built-in ones.
      const line = (file: string): string => {
        const content = fs.readFileSync(file, 'utf8');
        return `${/^name: (.+)$/m.exec(content)?.[1]}: ${/^description: (.+)$/m.exec(content)?.[1]}`;
      };
      const builtin = path.join(vscode.extensions.getExtension(productExtensionId)!.extensionPath, 'skills');
      const expected = [
        '<available_skills>',
        'Skills: call skills_activate with a name below to load its instructions before a task it covers.',
        ...['audit-fork', 'fork-fallback', 'fork-mini', 'internal-helper', 'pdf-report', 'plain-notes'].map((name) => line(path.join(skillsFolder(), name, 'SKILL.md'))),
        line(path.join(os.homedir(), '.agent', 'skills', 'home-helper', 'SKILL.md')),
        ...['reviewing-skills', 'writing-skills'].map((name) => line(path.join(builtin, name, 'SKILL.md'))),
        '</available_skills>',
      ].join('\n');
      assert.equal(text, expected);
      assert.equal(await shownCatalog(), expected);
    });

    it('says when nothing matches', async () => {
      assert.match(await invokeSkillTool('skills_find', { query: 'kubernetes helm' }), /^No skill matches "kubernetes helm"\./);
    });
  });

  describe('skills_readResource', () => {
    it('returns the text of a file inside the skill folder', async () => {
      assert.match(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references/guide.md' }), /GUIDE-MARKER: margins of 2 cm/);
      assert.match(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references\\guide.md' }), /GUIDE-MARKER/);
    });

    it('describes a binary file instead of dumping it', async () => {
      assert.equal(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'assets/logo.png' }), 'assets/logo.png is a binary file (PNG image, 72 bytes); its content is not shown.');
    });

    it("refuses the skill's trigger tests (evals/), saying why", async () => {
      for (const path of ['evals/triggers.json', 'evals', './Evals/triggers.json']) {
        const text = await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path });
        assert.match(text, /is in the skill's [Ee]vals\/ folder, which holds its tests for the skill's authors; it is not given to the model\./, path);
        assert.doesNotMatch(text, /TRIGGER-QUERY-MARKER/, path);
      }
    });

    it('rejects paths that leave the skill folder', async () => {
      assert.match(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: '../plain-notes/SKILL.md' }), /leads outside the skill folder/);
      assert.match(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: '/etc/passwd' }), /is absolute/);
      assert.match(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references/../../../README.md' }), /leads outside the skill folder/);
    });

    it('rejects a link that leads outside the skill folder', async () => {
      const link = path.join(skillsFolder(), 'pdf-report', 'references', 'escape.md');
      fs.symlinkSync(path.join(skillsFolder(), '..', '..', 'README.md'), link);
      try {
        assert.match(await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references/escape.md' }), /is a link that leads outside the skill folder/);
      } finally {
        fs.unlinkSync(link);
      }
    });

    it('caps the size of what it returns', async () => {
      const large = path.join(skillsFolder(), 'pdf-report', 'references', 'large.md');
      fs.writeFileSync(large, 'line of text\n'.repeat(40_000));
      try {
        const text = await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references/large.md' });
        assert.ok(text.length < 300_000, `${text.length} characters returned`);
        assert.match(text, /\[Truncated: showing the first 256\.0 KiB of 507\.8 KiB\.\]$/);
      } finally {
        fs.unlinkSync(large);
      }
    });

    it('names the files there are when the path does not exist', async () => {
      assert.match(
        await invokeSkillTool('skills_readResource', { skill: 'pdf-report', path: 'references/gide.md' }),
        /No file "references\/gide\.md" in the skill folder\. Did you mean: references\/guide\.md\?/,
      );
    });
  });
});
