import * as assert from 'node:assert/strict';
import { draftFromAnswer, draftPrompt, formatTriggerTests } from '../../../../src/core/evals/draft';
import { draftRefusal } from '../../../../src/core/evals/draft-refusal';
import { parseTriggerTests } from '../../../../src/core/evals/trigger-file';
import { NEW_SKILL_DESCRIPTION } from '../../../../src/core/skill-file/schema';
import { fakeRecord } from '../../../fixtures/trees/tree';

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

  it('is one user message: the task, the skill, the other skills one a line, then what to write and how', () => {
    const messages = draftPrompt({ name: 'pdf', description: 'Fills PDF forms.' }, [
      { name: 'docx', description: 'Edits Word files.' },
      { name: 'xlsx', description: 'Edits spreadsheets.' },
    ]);
    assert.deepEqual(messages, [
      {
        role: 'user',
        parts: [
          {
            kind: 'text',
            text: [
              "You write trigger tests for an Agent Skill: user requests that check whether a chat model, seeing only the skill's name and description among other skills, loads it exactly when it should.",
              '',
              'The skill: pdf',
              'Its description: Fills PDF forms.',
              '',
              'Other installed skills:',
              '- docx: Edits Word files.',
              '- xlsx: Edits spreadsheets.',
              '',
              'Write 8 to 10 requests that should load the skill: varied phrasing and length, realistic detail, most of them not naming the skill or its exact keywords.',
              'Write 8 to 10 near misses that should not load it: adjacent tasks, requests sharing its keywords but needing something else, and tasks another installed skill covers.',
              '',
              'Answer with only a JSON array, no prose: [{ "query": "…", "should_trigger": true }, …]',
            ].join('\n'),
          },
        ],
      },
    ]);
  });

  it('says so when the skill is the only one installed', () => {
    const [message] = draftPrompt({ name: 'pdf', description: 'Fills PDF forms.' }, [{ name: 'pdf', description: 'Fills PDF forms.' }]);
    const text = message.parts[0].kind === 'text' ? message.parts[0].text : '';
    assert.match(text, /Its description: Fills PDF forms\.\n\nNo other skills are installed\.\n\nWrite 8 to 10/);
    assert.doesNotMatch(text, /Other installed skills/);
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

  it('takes a closing bracket before the first opening one for no array at all', () => {
    assert.deepEqual(draftFromAnswer('] is not how a list starts [', FILE), { ok: false, message: 'The model did not answer with a JSON array of queries.' });
  });

  it('names the first error of an unusable array, or says it held no queries', () => {
    assert.deepEqual(draftFromAnswer('Nothing fits: []', FILE), { ok: false, message: "The model's answer is not usable as trigger tests: it held no queries" });
    assert.deepEqual(draftFromAnswer('[{ "note": 1, "query": "", "should_trigger": true }]', FILE), {
      ok: false,
      message: 'The model\'s answer is not usable as trigger tests: "query" is empty: write what a user would ask.',
    });
  });

  it('escapes quotes and backslashes in queries', () => {
    const text = formatTriggerTests([{ query: 'say "hi" \\ bye', shouldTrigger: true }]);
    assert.deepEqual(
      parseTriggerTests(text, FILE).tests?.queries.map((query) => query.query),
      ['say "hi" \\ bye'],
    );
  });
});

describe('draftRefusal', () => {
  it('accepts a usable skill of the user that the model is offered', () => {
    assert.equal(draftRefusal(fakeRecord('pdf', 'x')), undefined);
    assert.equal(draftRefusal(fakeRecord('pdf', 'x', { status: 'active', root: { path: '/home/.agent/skills', kind: 'user', label: 'User' } })), undefined);
  });

  it('says why for a skill no run could load, a draft, one only /use runs, and a built-in', () => {
    assert.equal(draftRefusal(fakeRecord('pdf', 'x', { status: 'invalid', metadata: undefined })), 'pdf cannot be used (invalid), so no trigger test could load it.');
    assert.equal(draftRefusal(fakeRecord('pdf', 'x', { status: 'shadowed' })), 'pdf cannot be used (shadowed), so no trigger test could load it.');
    assert.equal(
      draftRefusal(fakeRecord('pdf', 'x', { disableModelInvocation: true })),
      'pdf is hidden from the model (disable-model-invocation: true): only /use runs it, so no query can trigger it.',
    );
    assert.equal(draftRefusal(fakeRecord('pdf', NEW_SKILL_DESCRIPTION)), 'pdf still has the placeholder description of a new skill, so the model is not offered it: write its description first.');
    assert.equal(
      draftRefusal(fakeRecord('pdf', 'x', { root: { path: '/ext/skills', kind: 'builtin', label: 'Built-in' } })),
      'pdf is a built-in skill: its folder belongs to the extension, so it takes no trigger tests of yours.',
    );
  });
});
