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
import { activateToolName, bestMatch, catalogNames, findToolName, nextAnswer, userRequest, type ConversationMessage } from '../../../scripts/demo/model/src/conversation';

const demoSkillsFolder = path.join(__dirname, '..', '..', '..', 'scripts', 'demo', 'workspace-template', '.agent', 'skills');
const skillTools = [findToolName, activateToolName, 'skills_readResource'];

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

  it('keeps the user’s words, without the blocks a participant wraps around them', () => {
    assert.equal(userRequest('<available_skills>\na: b\n</available_skills>\n  fix   the bug '), 'fix the bug');
  });
});
