import * as assert from 'node:assert/strict';
import { renderActivation } from '../../../../src/core/use/activation';
import { renderCatalog } from '../../../../src/core/use/catalog';
import { MAX_FIND_MATCHES } from '../../../../src/core/defaults';
import { MCP_TOOL_NAMES, TOOL_NAMES, type ToolNames } from '../../../../src/core/chat/tool-names';
import { SKILL_TOOL_DEFINITIONS, skillToolDefinitions, type ModelToolDefinition } from '../../../../src/core/chat/tool-definitions';
import {
  activationInvocationMessage,
  activationToolText,
  FORK_NOTE,
  findInvocationMessage,
  parseActivateInput,
  parseActivationHeader,
  parseFindInput,
  parseReadResourceInput,
  readResourceInvocationMessage,
  renderFindResult,
  unavailableToolText,
} from '../../../../src/core/chat/tool-texts';
import { fakeRecord } from '../../../fixtures/trees/tree';
import { fakeSnapshot } from '../../fake-snapshot';

function messageOf(parsed: { ok: true } | { ok: false; message: string }): string {
  return parsed.ok ? '' : parsed.message;
}

describe('tool inputs', () => {
  it('takes a skill name and optional arguments for activation', () => {
    assert.deepEqual(parseActivateInput({ name: ' pdf ', arguments: 'a.pdf "page 2"' }), { ok: true, input: { name: 'pdf', arguments: 'a.pdf "page 2"' } });
    assert.deepEqual(parseActivateInput({ name: 'pdf', arguments: '  ' }), { ok: true, input: { name: 'pdf' } });
    assert.deepEqual(parseActivateInput({ name: 'pdf', arguments: null }), { ok: true, input: { name: 'pdf' } });
  });

  it('explains what is wrong with an activation input', () => {
    assert.match(messageOf(parseActivateInput({ arguments: 'x' })), /skills_activate needs "name" as a non-empty string/);
    assert.match(messageOf(parseActivateInput('pdf')), /expects a JSON object/);
    assert.match(messageOf(parseActivateInput({ name: 'pdf', arguments: ['a'] })), /"arguments" as one string/);
  });

  it('refuses a find input without its required query, and treats an empty one as a request for the catalog', () => {
    assert.match(messageOf(parseFindInput({})), /skills_find needs "query" as a string/);
    assert.match(messageOf(parseFindInput({ query: null })), /needs "query"/);
    assert.deepEqual(parseFindInput({ query: '' }), { ok: true, input: { query: '' } });
    assert.deepEqual(parseFindInput({ query: ' pdf forms ' }), { ok: true, input: { query: 'pdf forms' } });
    assert.equal(parseFindInput({ query: 3 }).ok, false);
  });

  it('needs both the skill and the path to read a resource, and leaves the path to the resolver', () => {
    assert.deepEqual(parseReadResourceInput({ skill: 'pdf', path: '../secret' }), { ok: true, input: { skill: 'pdf', path: '../secret' } });
    assert.match(messageOf(parseReadResourceInput({ skill: 'pdf' })), /needs "path" relative to the skill folder/);
    assert.equal(parseReadResourceInput({ path: 'a.md' }).ok, false);
  });
});

describe('activationInvocationMessage', () => {
  const snapshot = fakeSnapshot([
    fakeRecord('pdf', 'PDFs.'),
    fakeRecord('deploy', 'Deploys.', { disableModelInvocation: true }),
    fakeRecord('repo-skill', 'From the repo.', { status: 'untrusted' }),
    fakeRecord('blocked', 'Blocked.', { status: 'not-allowed' }),
    fakeRecord('broken', 'Broken.', { status: 'invalid' }),
    fakeRecord('off', 'Off.', { status: 'disabled' }),
    fakeRecord('twin', 'Twin.', { status: 'shadowed', shadowedBy: '/skills/twin/SKILL.md' }),
  ]);

  it('says which skill loads', () => {
    assert.equal(activationInvocationMessage(snapshot, 'pdf'), 'Loading skill pdf…');
    assert.equal(activationInvocationMessage(snapshot, 'PDF'), 'Loading skill pdf…');
  });

  it('says why a skill will not load', () => {
    assert.equal(activationInvocationMessage(snapshot, 'deploy'), 'Not loading skill deploy: only the user can start it (/use)');
    assert.equal(activationInvocationMessage(snapshot, 'repo-skill'), 'Not loading skill repo-skill: the workspace is not trusted');
    assert.equal(activationInvocationMessage(snapshot, 'blocked'), 'Not loading skill blocked: it is not in agentSkills.allowlist');
    assert.equal(activationInvocationMessage(snapshot, 'broken'), 'Not loading skill broken: its SKILL.md has errors');
    assert.equal(activationInvocationMessage(snapshot, 'off'), 'Not loading skill off: skills are turned off');
    assert.equal(activationInvocationMessage(snapshot, 'twin'), 'Not loading skill twin: another skill of that name wins');
    assert.equal(activationInvocationMessage(snapshot, 'nope'), 'Looking for skill nope (no skill has that name)…');
  });
});

describe('activation tool text', () => {
  const listing = { files: ['references/guide.md'], total: 1, complete: true };

  it('is the core activation, with a note for skills meant to run in isolation', () => {
    const record = fakeRecord('pdf', 'PDFs.');
    const text = renderActivation(record, 'Body.', listing);
    assert.equal(activationToolText({ ok: true, record, text, resources: listing, lastValid: false }), text);
    const fork = fakeRecord('audit', 'Audits.', { metadata: { name: 'audit', description: 'Audits.', userInvocable: true, disableModelInvocation: false, context: 'fork' } });
    assert.equal(activationToolText({ ok: true, record: fork, text: 'T', resources: listing, lastValid: false }), `T\n\n${FORK_NOTE}`);
    assert.match(FORK_NOTE, /\(context: fork\)/);
  });

  it('is the explanation when the skill was refused', () => {
    assert.equal(activationToolText({ ok: false, reason: 'unknown', message: 'No skill named "x".' }), 'No skill named "x".');
  });

  it('names the loaded skill and folder in a header that parses back, escaping included', () => {
    const record = fakeRecord('pdf', 'PDFs.', { dir: '/skills/a "b" & <c>' });
    assert.deepEqual(parseActivationHeader(renderActivation(record, 'Body.', listing)), { name: 'pdf', dir: '/skills/a "b" & <c>' });
    assert.equal(parseActivationHeader('No skill named "pdf".'), undefined);
    assert.equal(parseActivationHeader('text before <skill name="pdf" dir="/x">'), undefined);
  });

  it("parses the header of a skill server's skill, which names its server and URI rather than a folder", () => {
    const record = fakeRecord('team/db-seed', 'Seeds.', {
      dir: '/cache/team-1/db-seed',
      uri: 'skill://db-seed/SKILL.md',
      root: { path: '/cache/team-1', kind: 'server', label: 'team', server: 'team' },
    });
    const text = renderActivation(record, 'Seed it.', listing);
    assert.match(text, /^<skill name="team\/db-seed" server="team" uri="skill:\/\/db-seed\/SKILL\.md">\n/);
    assert.deepEqual(parseActivationHeader(text), { name: 'team/db-seed', server: 'team', uri: 'skill://db-seed/SKILL.md' });
  });
});

describe('renderFindResult', () => {
  const records = [
    fakeRecord('pdf-forms', 'Fill in PDF forms and flatten them.'),
    fakeRecord('pdf-report', 'Build a PDF report from data.'),
    fakeRecord('slides', 'Make slide decks.'),
    fakeRecord('deploy', 'Deploy PDF docs.', { disableModelInvocation: true }),
    fakeRecord('theirs', 'Untrusted PDF tool.', { status: 'untrusted' }),
  ];
  const snapshot = fakeSnapshot(records);

  it('returns the catalog for an empty query', () => {
    const catalog = renderCatalog(records);
    assert.equal(renderFindResult(snapshot, '', catalog), `${catalog.text}\n1 skill of this workspace is not available because the workspace is not trusted.`);
    assert.equal(renderFindResult(fakeSnapshot([]), '', renderCatalog([])), 'No skills are available.');
  });

  it('ranks the matches with descriptions, only skills the model may use', () => {
    const text = renderFindResult(snapshot, 'fill pdf form', renderCatalog(records));
    const lines = text.split('\n');
    assert.equal(lines[0], '2 skills match "fill pdf form", best first:');
    assert.equal(lines[1], '- pdf-forms: Fill in PDF forms and flatten them.');
    assert.equal(lines[2], '- pdf-report: Build a PDF report from data.');
    assert.equal(lines[3], 'Load one with skills_activate.');
    assert.doesNotMatch(text, /deploy|Untrusted PDF tool/);
  });

  it('shows the best matches and says how many more a narrower query reaches', () => {
    const many = Array.from({ length: 45 }, (_, index) => fakeRecord(`chart-${index}`, `Chart kind ${index}.`));
    const text = renderFindResult(fakeSnapshot(many), 'chart', renderCatalog(many));
    assert.match(text, new RegExp(`^45 skills match "chart"; the best ${MAX_FIND_MATCHES}, best first:`));
    assert.equal(text.split('\n').filter((line) => line.startsWith('- ')).length, MAX_FIND_MATCHES);
    assert.match(text, /…and 25 more; use more specific words to reach them\./);
  });

  it('shows a description as it is now, also after an edit of the same record', () => {
    const record = fakeRecord('pdf-merge', 'Merge PDF\n  files   into one.');
    const edited = fakeSnapshot([record]);
    assert.match(renderFindResult(edited, 'pdf merge', renderCatalog([record])), /^- pdf-merge: Merge PDF files into one\.$/m);
    record.metadata!.description = 'Merge <PDF> files.';
    assert.match(renderFindResult(edited, 'pdf merge', renderCatalog([record])), /^- pdf-merge: Merge &lt;PDF&gt; files\.$/m);
  });

  it('says so when nothing matches, and points to the catalog', () => {
    assert.match(
      renderFindResult(snapshot, 'kubernetes', renderCatalog(records)),
      /^No skill matches "kubernetes"\. Try other words, or call skills_find with an empty query for the catalog of 3 skills\./,
    );
  });
});

describe('the contributed tools', () => {
  it('are declared in package.json under the names the texts refer to, with the inputs the parsers read', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the manifest is JSON
    const manifest = require('../../../../package.json') as { contributes: { languageModelTools: { name: string; inputSchema: { properties: Record<string, unknown>; required: string[] } }[] } };
    const tools = new Map(manifest.contributes.languageModelTools.map((tool) => [tool.name, tool.inputSchema]));
    for (const name of Object.values(TOOL_NAMES)) {
      assert.ok(tools.has(name), name);
    }
    assert.deepEqual(Object.keys(tools.get(TOOL_NAMES.activate)!.properties), ['name', 'arguments']);
    assert.deepEqual(Object.keys(tools.get(TOOL_NAMES.find)!.properties), ['query']);
    assert.deepEqual(tools.get(TOOL_NAMES.readResource)!.required, ['skill', 'path']);
  });
});

describe('the tool definitions', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the manifest is JSON
  const manifest = require('../../../../package.json') as { contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: object }[] } };
  const contributed = (names: ToolNames): ModelToolDefinition[] =>
    Object.values(names).map((name) => {
      const tool = manifest.contributes.languageModelTools.find((candidate) => candidate.name === name)!;
      return { name, description: tool.modelDescription, inputSchema: tool.inputSchema as ModelToolDefinition['inputSchema'] };
    });

  it("are package.json's tools for @skills, and what agent-skills eval sends: names, descriptions and input schemas", () => {
    assert.deepEqual(skillToolDefinitions(TOOL_NAMES, 'catalog'), contributed(TOOL_NAMES));
    assert.deepEqual(SKILL_TOOL_DEFINITIONS, contributed(TOOL_NAMES));
  });

  it("are package.json's referenceable twins for agent mode, which point to find for the names", () => {
    const twins = skillToolDefinitions(MCP_TOOL_NAMES, 'find');
    assert.deepEqual(twins, contributed(MCP_TOOL_NAMES));
    assert.match(twins[0].description, new RegExp(`by its exact name, as ${MCP_TOOL_NAMES.find} lists it\\.`));
    assert.match(twins[1].description, new RegExp(`Call it before a task .* then load the skill with ${MCP_TOOL_NAMES.activate}\\.`));
  });

  it('differ by where the names are listed only, each set naming its own tools', () => {
    const [catalog, find, below] = (['catalog', 'find', 'below'] as const).map((listing) => skillToolDefinitions(MCP_TOOL_NAMES, listing));
    assert.match(catalog[0].description, /as listed in <available_skills>\./);
    assert.match(below[0].description, new RegExp(`as listed below\\. .* Call ${MCP_TOOL_NAMES.find} to search every skill by topic\\.$`));
    for (const tools of [find, below]) {
      assert.deepEqual(
        tools.map((tool) => tool.inputSchema),
        catalog.map((tool) => tool.inputSchema),
      );
    }
    assert.equal(catalog[1].description, below[1].description);
    assert.equal(catalog[2].description, find[2].description);
    for (const tool of skillToolDefinitions(TOOL_NAMES, 'catalog')) {
      for (const other of Object.values(MCP_TOOL_NAMES)) {
        assert.ok(!tool.description.includes(other), `${tool.name} mentions ${other}`);
      }
    }
  });
});

describe('tool input messages in full', () => {
  it('refuses null, and says what each tool needs', () => {
    assert.equal(messageOf(parseActivateInput(null)), 'skills_activate expects a JSON object as input.');
    assert.equal(messageOf(parseFindInput({ query: 3 })), 'skills_find needs "query" as a string, e.g. {"query": "fill a pdf form"}; an empty query lists every skill.');
    assert.equal(messageOf(parseReadResourceInput({ path: 'a.md' })), 'skills_readResource needs "skill" as a non-empty string, e.g. {"skill": "pdf-report", "path": "references/guide.md"}.');
  });

  it('trims the skill name with or without arguments', () => {
    assert.deepEqual(parseActivateInput({ name: ' pdf ' }), { ok: true, input: { name: 'pdf' } });
    assert.deepEqual(parseReadResourceInput({ skill: ' pdf ', path: 'a.md' }), { ok: true, input: { skill: 'pdf', path: 'a.md' } });
  });
});

describe('progress lines and other tool texts', () => {
  it('says what the find and read tools are doing', () => {
    assert.equal(findInvocationMessage('  '), 'Listing skills…');
    assert.equal(findInvocationMessage(' pdf forms '), 'Searching skills for "pdf forms"…');
    assert.equal(readResourceInvocationMessage('pdf', 'references/guide.md'), 'Reading references/guide.md of skill pdf…');
  });

  it('names the tools @skills offers when another is called', () => {
    assert.equal(unavailableToolText('run_in_terminal'), 'The tool "run_in_terminal" is not available here; use skills_activate, skills_find, skills_readResource.');
  });
});

describe('renderFindResult counts', () => {
  const untrusted = fakeRecord('theirs', 'Untrusted PDF tool.', { status: 'untrusted' });

  it('treats a blank query as a request for the catalog, and says when no skill is available at all', () => {
    const snapshot = fakeSnapshot([untrusted]);
    const note = '1 skill of this workspace is not available because the workspace is not trusted.';
    assert.equal(renderFindResult(snapshot, '  ', renderCatalog([])), `No skills are available.\n${note}`);
    assert.equal(renderFindResult(snapshot, 'pdf', renderCatalog([])), `No skill matches "pdf". No skills are available.\n${note}`);
  });

  it('counts one skill in the singular', () => {
    const snapshot = fakeSnapshot([fakeRecord('pdf', 'Fill PDF forms.')]);
    assert.equal(renderFindResult(snapshot, 'slides', renderCatalog([])), 'No skill matches "slides". Try other words, or call skills_find with an empty query for the catalog of 1 skill.');
    assert.equal(renderFindResult(snapshot, 'pdf', renderCatalog([])), '1 skill match "pdf", best first:\n- pdf: Fill PDF forms.\nLoad one with skills_activate.');
  });
});
