import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PromptMessage } from '../../../../src/core/chat/conversation';
import { TOOL_NAMES } from '../../../../src/core/chat/tool-names';
import { unavailableToolText, untrustedNote } from '../../../../src/core/chat/tool-texts';
import { answerToolFromSnapshot, measureDescription, withDescription } from '../../../../src/core/evals/measure';
import type { ModelAnswer } from '../../../../src/core/evals/run';
import { parseTriggerTests } from '../../../../src/core/evals/trigger-file';
import { DEFAULT_CATALOG_BUDGET_CHARS, renderCatalog } from '../../../../src/core/use/catalog';
import { fakeRecord } from '../../../fixtures/trees/tree';

const QUERIES = parseTriggerTests(
  JSON.stringify([
    { query: 'what shipped this week', should_trigger: true },
    { query: 'chart the costs', should_trigger: false },
  ]),
  '/skills/release-notes/evals/triggers.json',
).tests!.queries;

const SETTINGS = { budgetChars: DEFAULT_CATALOG_BUDGET_CHARS, runs: 1, threshold: 0.5, concurrency: 1, token: { isCancellationRequested: false } };

const toolResults = (messages: readonly PromptMessage[]): string[] => messages.flatMap((message) => message.parts.flatMap((part) => (part.kind === 'toolResult' ? [part.text] : [])));

describe('measuring a description outside the editor', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'measure-'));
    await fs.mkdir(path.join(dir, 'release-notes', 'references'), { recursive: true });
    await fs.writeFile(path.join(dir, 'release-notes', 'references', 'style.md'), 'Short sentences.\n');
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  const releaseNotes = (): ReturnType<typeof fakeRecord> => {
    const folder = path.join(dir, 'release-notes');
    return fakeRecord('release-notes', 'Writes release notes.', { dir: folder, realDir: folder, file: path.join(folder, 'SKILL.md') });
  };

  it("answers the model's searches and file reads from the measured skills, with the candidate description", async () => {
    const snapshot = withDescription([releaseNotes(), fakeRecord('sheets', 'Builds charts.')], 'release-notes', 'Says what shipped each week.');
    const catalog = renderCatalog(snapshot.skills);
    const answer = (name: string, input: object): Promise<string> => answerToolFromSnapshot(snapshot, catalog, { callId: 'c1', name, input });
    assert.match(await answer(TOOL_NAMES.find, { query: 'what shipped' }), /release-notes[^\n]*Says what shipped each week\./);
    assert.match(await answer(TOOL_NAMES.find, {}), /skills_find needs "query" as a string/);
    assert.equal(await answer(TOOL_NAMES.readResource, { skill: 'release-notes', path: 'references/style.md' }), 'Short sentences.\n');
    assert.match(await answer(TOOL_NAMES.readResource, { skill: 'release-notes' }), /skills_readResource needs "path" relative to the skill folder/);
    assert.match(await answer(TOOL_NAMES.readResource, { skill: 'nope', path: 'a.md' }), /nope/);
    assert.equal(await answer('run_terminal', { command: 'ls' }), unavailableToolText('run_terminal'));
  });

  it('lets the model search before it loads a skill, the search seeing the candidate description', async () => {
    // Searches for the query, then loads the first skill the search lists.
    const send = async (messages: readonly PromptMessage[]): Promise<ModelAnswer> => {
      const [result] = toolResults(messages);
      if (result === undefined) {
        const query = messages[messages.length - 1].parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
        return { text: '', calls: [{ callId: 's1', name: TOOL_NAMES.find, input: { query } }] };
      }
      const listed = /^- ([a-z-]+):/m.exec(result)?.[1];
      return { text: '', calls: listed ? [{ callId: 'a1', name: TOOL_NAMES.activate, input: { name: listed } }] : [] };
    };
    const skills = [releaseNotes(), fakeRecord('sheets', 'Builds charts and costs.')];
    const verdicts = async (description: string) => (await measureDescription(skills, 'release-notes', description, QUERIES, send, SETTINGS))?.map(({ query, verdict }) => [query.query, verdict.kind]);
    assert.deepEqual(await verdicts('Says what shipped each week.'), [
      ['what shipped this week', 'passed'],
      ['chart the costs', 'passed'],
    ]);
    assert.deepEqual(await verdicts('Writes release notes.'), [
      ['what shipped this week', 'failed'],
      ['chart the costs', 'passed'],
    ]);
  });

  it('renders the catalog within the budget it is given, as the editor does with its settings', async () => {
    const catalogs: string[] = [];
    const send = async (messages: readonly PromptMessage[]): Promise<ModelAnswer> => {
      catalogs.push(messages[0].parts.map((part) => (part.kind === 'text' ? part.text : '')).join(''));
      return { text: 'No skill fits.', calls: [] };
    };
    const skills = [...Array.from({ length: 30 }, (_, index) => fakeRecord(`other-${index}`, `Does other task number ${index} for the team.`)), fakeRecord('release-notes', 'Writes release notes.')];
    const described = 'release-notes: Says what shipped each week.';
    await measureDescription(skills, 'release-notes', 'Says what shipped each week.', QUERIES.slice(0, 1), send, SETTINGS);
    assert.ok(catalogs[0].includes(described), catalogs[0]);
    const budgetChars = renderCatalog(skills, { maxChars: 600 }).text.length + 20;
    await measureDescription(skills, 'release-notes', 'Says what shipped each week.', QUERIES.slice(0, 1), send, { ...SETTINGS, budgetChars });
    assert.ok(!catalogs[1].includes(described), catalogs[1]);
    assert.ok(catalogs[1].includes('release-notes'), 'past the budget, a skill is still named');
  });

  it('tells the model of the workspace skills held back as untrusted, as the Testing view does', async () => {
    const prompts: string[] = [];
    const send = async (messages: readonly PromptMessage[]): Promise<ModelAnswer> => {
      prompts.push(messages[0].parts.map((part) => (part.kind === 'text' ? part.text : '')).join(''));
      return { text: 'No skill fits.', calls: [] };
    };
    const heldBack = ['deploy', 'migrate'].map((name) => fakeRecord(name, `Runs ${name}.`, { status: 'untrusted' }));
    await measureDescription([releaseNotes(), ...heldBack], 'release-notes', 'Says what shipped each week.', QUERIES.slice(0, 1), send, SETTINGS);
    await measureDescription([releaseNotes()], 'release-notes', 'Says what shipped each week.', QUERIES.slice(0, 1), send, SETTINGS);
    assert.ok(prompts[0].includes(untrustedNote(2)), prompts[0]);
    assert.ok(!prompts[1].includes('not trusted'), prompts[1]);
  });

  it('gives nothing when cancelled, and no verdict for a query it did not run', async () => {
    const send = async (): Promise<ModelAnswer> => ({ text: 'No skill fits.', calls: [] });
    const skills = [fakeRecord('release-notes', 'Writes release notes.')];
    assert.equal(await measureDescription(skills, 'release-notes', 'New.', QUERIES, send, { ...SETTINGS, token: { isCancellationRequested: true } }), undefined);
    assert.deepEqual(await measureDescription(skills, 'release-notes', 'New.', QUERIES, send, { ...SETTINGS, runs: 0 }), []);
  });
});
