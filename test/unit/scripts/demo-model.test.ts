// The demo model of `npm start`, fed with what the product really gives a model: the catalog and
// the activation text of the demo workspace's skills, so a format change in the core that would
// break the demo shows up here.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { activateSkill } from '../../../src/core/use/activation';
import { renderCatalog } from '../../../src/core/use/catalog';
import { findSkills } from '../../../src/core/use/find';
import { SkillRegistry } from '../../../src/core/discovery/registry';
import { forkResultText } from '../../../src/core/chat/conversation';
import { forkMessages } from '../../../src/core/chat/prompt';
import type { PromptMessage } from '../../../src/core/chat/conversation';
import { renderFindResult } from '../../../src/core/chat/tool-texts';
import { draftFromAnswer, draftPrompt } from '../../../src/core/evals/draft';
import { draftRefusal } from '../../../src/core/evals/draft-refusal';
import { triggerTestPrompt } from '../../../src/core/evals/request';
import { runTriggerJobs, type TriggerModel } from '../../../src/core/evals/run';
import { loadTriggerTests, TRIGGER_TESTS_PATH } from '../../../src/core/evals/trigger-file';
import { DEFAULT_RUNS, DEFAULT_THRESHOLD } from '../../../src/core/defaults';
import { activateToolName, bestMatch, catalogNames, findToolName, nextAnswer, userRequest, type ConversationMessage } from '../../../scripts/demo/model/src/conversation';

const demoSkillsFolder = path.join(__dirname, '..', '..', '..', 'scripts', 'demo', 'workspace-template', '.agent', 'skills');
const skillTools = [findToolName, activateToolName, 'skills_readResource'];

/** What the demo model's extension reads of the messages the editor sends (see its readMessage). */
function asConversation(messages: readonly PromptMessage[]): ConversationMessage[] {
  return messages.map((message) => ({
    role: message.role,
    texts: message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])),
    calls: message.parts.flatMap((part) => (part.kind === 'toolCall' ? [{ callId: part.callId, name: part.name }] : [])),
    results: message.parts.flatMap((part) => (part.kind === 'toolResult' ? [{ callId: part.callId, text: part.text }] : [])),
  }));
}

function user(...texts: string[]): ConversationMessage {
  return { role: 'user', texts, calls: [], results: [] };
}

function toolRound(callId: string, name: string, resultText: string): ConversationMessage[] {
  return [
    { role: 'assistant', texts: [], calls: [{ callId, name }], results: [] },
    { role: 'user', texts: [], calls: [], results: [{ callId, text: resultText }] },
  ];
}

describe('the demo model', () => {
  let registry: SkillRegistry;

  before(async () => {
    registry = new SkillRegistry();
    await registry.setRoots([{ path: demoSkillsFolder, kind: 'workspace', label: 'demo' }]);
  });

  after(() => registry.dispose());

  it('searches, loads the best match, then replies with its steps', async () => {
    const catalog = renderCatalog(registry.snapshot.skills).text;
    const prompt = 'write a commit message for the tags change';
    const conversation: ConversationMessage[] = [user(`Instructions.\n${catalog}`), user(prompt)];

    const search = nextAnswer(conversation, skillTools);
    assert.deepEqual(search, { toolCall: { name: findToolName, input: { query: prompt } } });

    const matches = findSkills(registry.snapshot.skills, prompt).map((match) => `${match.record.name}: ${match.record.metadata?.description}`);
    conversation.push(...toolRound('call-1', findToolName, matches.join('\n')));
    assert.deepEqual(nextAnswer(conversation, skillTools), { toolCall: { name: activateToolName, input: { name: 'commit-messages' } } });

    const activation = await activateSkill(registry.snapshot, 'commit-messages', { mode: 'model' });
    assert.ok(activation.ok);
    conversation.push(...toolRound('call-2', activateToolName, activation.text));
    const reply = nextAnswer(conversation, skillTools);
    assert.ok('text' in reply);
    assert.match(reply.text, /^Following \*\*commit-messages\*\* \(Commit messages\) for “write a commit message for the tags change”:/);
    assert.match(reply.text, /\n> If nothing is given above, run `git diff --staged`/);
    // Its first line asks for $ARGUMENTS, empty here: left out rather than shown cut off.
    assert.doesNotMatch(reply.text, /Write a commit message for:/);
    assert.match(reply.text, /It also covers: Format, Examples, Do not\./);
    assert.match(reply.text, /Demo model \(scripted\)/);
  });

  it('follows a skill given to it directly, as `/use` does', async () => {
    const activation = await activateSkill(registry.snapshot, 'release-notes', { mode: 'user' });
    assert.ok(activation.ok);
    const reply = nextAnswer([user('I am starting the skill "release-notes". Follow its instructions:', activation.text)], []);
    assert.ok('text' in reply);
    // The words around the skill are the participant's, so they are not quoted back as the request.
    assert.match(reply.text, /^Following \*\*release-notes\*\* \(Release notes\), I would:/);
    // Numbered steps are listed with their wrapped lines joined.
    assert.match(reply.text, /\n1\. From the repository root, run the collector in this skill's folder: `node/);
    assert.match(reply.text, /\n2\. If it reports/);
  });

  describe('a context: fork skill (api-docs)', () => {
    it('follows the skill in its isolated run, with the task as the request', async () => {
      const activation = await activateSkill(registry.snapshot, 'api-docs', { mode: 'model' });
      assert.ok(activation.ok);
      const isolated = forkMessages(activation.text, 'document the API endpoints').map((message) => user(...message.parts.map((part) => ('text' in part ? part.text : ''))));
      const reply = nextAnswer(isolated, ['skills_readResource']);
      assert.ok('text' in reply);
      assert.match(reply.text, /^Following \*\*api-docs\*\* \(API docs\), I would:\n\n1\. Read `src\/server\.js`/);
      assert.doesNotMatch(reply.text, /stand-in for a chat model/);
    });

    it('points at the isolated run instead of calling its report a failed load', () => {
      const report = forkResultText('api-docs', 'Following **api-docs**, I would: 1. Read the routes.');
      const reply = nextAnswer([user('document the API endpoints'), ...toolRound('call-1', activateToolName, report)], skillTools);
      assert.ok('text' in reply);
      assert.doesNotMatch(reply.text, /failed/);
      assert.match(reply.text, /\*\*api-docs\*\* ran in isolation; its answer is above/);
    });
  });

  it('passes on the error of a failed activation', () => {
    const conversation = [user('do something'), ...toolRound('call-1', activateToolName, 'No skill named "nope".')];
    const reply = nextAnswer(conversation, skillTools);
    assert.ok('text' in reply);
    assert.match(reply.text, /No skill named "nope"/);
  });

  it('introduces itself when it has no skill tools', () => {
    const reply = nextAnswer([user('hello')], []);
    assert.ok('text' in reply);
    assert.match(reply.text, /scripted stand-in/);
  });

  it('reads the names of the catalog, including those listed by name only', () => {
    const catalog = renderCatalog(registry.snapshot.skills, { maxChars: 600 });
    assert.ok(catalog.overflow.length > 0, 'the budget should push some skills to the names-only line');
    const names = catalogNames([user(catalog.text)]);
    assert.deepEqual(
      [...names].sort(),
      registry.snapshot.skills
        .filter((record) => catalog.included.includes(record.name) || catalog.overflow.includes(record.name))
        .map((record) => record.name)
        .sort(),
    );
  });

  it('picks the first skill a search result names, in any list format', () => {
    assert.equal(bestMatch('1. **release-notes** — drafts notes\n2. **commit-messages** — commits', new Set()), 'release-notes');
    assert.equal(bestMatch('Matches: commit-messages (0.9), release-notes (0.2)', new Set(['release-notes', 'commit-messages'])), 'commit-messages');
    assert.equal(bestMatch('No skill matches.', new Set()), undefined);
  });

  describe('Skills: Draft Trigger Tests…', () => {
    const draftable = () => registry.snapshot.skills.filter((record) => draftRefusal(record) === undefined);

    it('answers the request the extension builds with queries the extension accepts, for that skill', () => {
      assert.ok(draftable().length >= 3);
      for (const record of draftable()) {
        const others = registry.snapshot.skills.filter((other) => other !== record && other.metadata).map((other) => ({ name: other.name, description: other.metadata!.description }));
        const answer = nextAnswer(asConversation(draftPrompt({ name: record.name, description: record.metadata!.description }, others)), []);
        assert.ok('text' in answer, record.name);
        const draft = draftFromAnswer(answer.text, path.join(record.dir, TRIGGER_TESTS_PATH));
        assert.ok(draft.ok, `${record.name}: ${draft.ok ? '' : draft.message}`);
        const should = draft.queries.filter((query) => query.shouldTrigger);
        const shouldNot = draft.queries.filter((query) => !query.shouldTrigger);
        // As the request asks: 8 to 10 of each kind.
        assert.ok(should.length >= 8 && should.length <= 10, `${record.name}: ${should.length} should-trigger queries`);
        assert.ok(shouldNot.length >= 8 && shouldNot.length <= 10, `${record.name}: ${shouldNot.length} near misses`);
        // Most requests meant for the skill are ones the skill search ranks it first for.
        const rankedFirst = should.filter((query) => registry.snapshot.findSkills(query.query)[0]?.record.name === record.name);
        assert.ok(rankedFirst.length * 2 > should.length, `${record.name}: ${rankedFirst.map((query) => query.query).join(' | ')}`);
      }
    });

    it('derives the queries from the description and the other skills', () => {
      const record = registry.snapshot.usable('release-notes')!;
      const others = [{ name: 'commit-messages', description: registry.snapshot.usable('commit-messages')!.metadata!.description }];
      const answer = nextAnswer(asConversation(draftPrompt({ name: record.name, description: record.metadata!.description }, others)), []);
      assert.ok('text' in answer);
      const draft = draftFromAnswer(answer.text, 'triggers.json');
      assert.ok(draft.ok);
      const byQuery = new Map(draft.queries.map((query) => [query.query, query.shouldTrigger]));
      assert.equal(byQuery.get('draft release notes and the CHANGELOG.md entry for a new bookmarks-api version'), true);
      assert.equal(byQuery.get('I need a changelog entry'), true);
      assert.equal(byQuery.get("I'm preparing to tag a release"), true);
      assert.equal(byQuery.get('write git commit messages for bookmarks-api'), false);
      assert.equal(byQuery.get('what is the capital of Australia?'), false);
      // The same request gets the same draft.
      assert.deepEqual(nextAnswer(asConversation(draftPrompt({ name: record.name, description: record.metadata!.description }, others)), []), answer);
    });
  });

  it('passes the demo workspace’s trigger tests but for the near miss that shares release-notes’s words', async () => {
    const snapshot = registry.snapshot;
    const catalog = renderCatalog(snapshot.skills);
    const model: TriggerModel = {
      async send(messages) {
        const answer = nextAnswer(asConversation(messages), skillTools);
        return 'text' in answer ? { text: answer.text, calls: [] } : { text: '', calls: [{ callId: `call-${messages.length}`, ...answer.toolCall }] };
      },
      answerTool: async (call) => renderFindResult(snapshot, String((call.input as { query?: unknown }).query ?? ''), catalog),
    };
    const files = await Promise.all(snapshot.skills.map(async (record) => ({ skill: record.name, tests: (await loadTriggerTests(record.dir))?.tests })));
    const jobs = files.flatMap(({ skill, tests }) => (tests?.queries ?? []).map((query) => ({ skill, query, runs: DEFAULT_RUNS, threshold: DEFAULT_THRESHOLD })));
    assert.deepEqual([...new Set(jobs.map((job) => job.skill))].sort(), ['api-docs', 'commit-messages', 'release-notes']);
    // Within the run size that asks for confirmation by default (agentSkills.triggerTests.confirmAbove: 60).
    assert.ok(jobs.length * DEFAULT_RUNS <= 60, `${jobs.length} queries`);
    const summary = await runTriggerJobs(jobs, { prompt: (query) => triggerTestPrompt(catalog.text, 0, query), model, concurrency: 4, token: { isCancellationRequested: false } });
    const failed = jobs.filter((job) => summary.verdicts.get(job)?.kind !== 'passed').map((job) => `${job.skill}: ${job.query.query}`);
    assert.deepEqual(failed, ['release-notes: explain what semantic versioning means']);
  });

  it('keeps the user’s words, without the blocks a participant wraps around them', () => {
    assert.equal(userRequest('<available_skills>\na: b\n</available_skills>\n  fix   the bug '), 'fix the bug');
  });
});
