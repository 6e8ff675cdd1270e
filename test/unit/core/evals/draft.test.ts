import * as assert from 'node:assert/strict';
import { draftFromAnswer, draftPrompt, formatTriggerTests } from '../../../../src/core/evals/draft';
import { parseTriggerTests } from '../../../../src/core/evals/trigger-file';

const FILE = '/skills/pdf/evals/triggers.json';

describe('draftPrompt', () => {
  it('names the skill, its description and the other skills, and asks for both kinds of queries as JSON', () => {
    const [message] = draftPrompt({ name: 'pdf', description: 'Fills PDF forms.' }, [
      { name: 'pdf', description: 'Fills PDF forms.' },
      { name: 'docx', description: 'Edits Word files.' },
    ]);
    const text = message.parts[0].kind === 'text' ? message.parts[0].text : '';
    assert.match(text, /The skill: pdf\nIts description: Fills PDF forms\./);
    assert.match(text, /Other installed skills:\n- docx: Edits Word files\.\n\n/);
    assert.match(text, /8 to 10 requests that should load the skill/);
    assert.match(text, /8 to 10 near misses that should not load it/);
    assert.match(text, /"should_trigger"/);
  });
});

describe('draftFromAnswer', () => {
  it('takes the JSON array out of a fenced answer and writes one entry a line', () => {
    const answer = 'Here you go:\n```json\n[{"query":"fill the W-9","should_trigger":true},{"query":"write a poem","should_trigger":false}]\n```';
    const draft = draftFromAnswer(answer, FILE);
    assert.ok(draft.ok);
    assert.equal(draft.text, '[\n  { "query": "fill the W-9", "should_trigger": true },\n  { "query": "write a poem", "should_trigger": false }\n]\n');
    assert.deepEqual(parseTriggerTests(draft.text, FILE).diagnostics, []);
  });

  it('drops entries the file would reject and keeps the rest', () => {
    const draft = draftFromAnswer('[{"query":"a","should_trigger":true},{"query":"A","should_trigger":true},{"query":"","should_trigger":false}]', FILE);
    assert.ok(draft.ok);
    assert.deepEqual(draft.queries, [{ query: 'a', shouldTrigger: true }]);
  });

  it('says why an answer is not usable', () => {
    assert.deepEqual(draftFromAnswer('I cannot help with that.', FILE), { ok: false, message: 'The model did not answer with a JSON array of queries.' });
    const broken = draftFromAnswer('[{"query": "a", }]', FILE);
    assert.ok(!broken.ok);
    assert.match(broken.message, /^The model's answer is not usable as trigger tests: triggers\.json is not valid JSON/);
  });

  it('escapes quotes and backslashes in queries', () => {
    const text = formatTriggerTests([{ query: 'say "hi" \\ bye', shouldTrigger: true }]);
    assert.deepEqual(
      parseTriggerTests(text, FILE).tests?.queries.map((query) => query.query),
      ['say "hi" \\ bye'],
    );
  });
});
