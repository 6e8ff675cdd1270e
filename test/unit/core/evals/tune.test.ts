import * as assert from 'node:assert/strict';
import type { PromptMessage } from '../../../../src/core/chat/conversation';
import { measureDescription } from '../../../../src/core/evals/measure';
import type { ModelAnswer } from '../../../../src/core/evals/run';
import { parseTriggerTests, type TriggerQuery } from '../../../../src/core/evals/trigger-file';
import {
  descriptionEdit,
  descriptionFromAnswer,
  pickBest,
  plannedTuneRequests,
  proposalPrompt,
  splitQueries,
  tuneDescription,
  tuneRefusal,
  type TuneOptions,
  type TuneResult,
  type TuneRound,
} from '../../../../src/core/evals/tune';
import { fakeRecord } from '../../../fixtures/trees/tree';
import { pickSkill, proposeDescription, TUNE_FIXTURE } from '../../../integration/word-overlap-model';

const textOf = (message: PromptMessage): string => message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');

/** Loads the skill whose catalog line shares the most words with the query. */
async function wordOverlapSend(messages: readonly PromptMessage[]): Promise<ModelAnswer> {
  const skill = pickSkill(textOf(messages[0]), textOf(messages[messages.length - 1]));
  return skill ? { text: '', calls: [{ callId: 'c1', name: 'skills_activate', input: { name: skill } }] } : { text: 'No skill fits.', calls: [] };
}

const TUNE_SKILLS = [fakeRecord(TUNE_FIXTURE.name, TUNE_FIXTURE.description), ...Object.entries(TUNE_FIXTURE.neighbours).map(([name, description]) => fakeRecord(name, description))];

const queries = (entries: [string, boolean][]): TriggerQuery[] =>
  parseTriggerTests(JSON.stringify(entries.map(([query, should]) => ({ query, should_trigger: should }))), '/skills/release-notes/evals/triggers.json').tests!.queries;

const RELEASE_QUERIES = queries(TUNE_FIXTURE.queries);

/** Tuning the fixture's skill against the word-overlap model, with `overrides`. */
function tuneFixture(overrides: Partial<TuneOptions> & { runs?: number }): Promise<TuneResult | undefined> {
  const { runs = 1, ...options } = overrides;
  return tuneDescription({
    skill: { name: TUNE_FIXTURE.name, description: TUNE_FIXTURE.description },
    otherSkills: [],
    queries: RELEASE_QUERIES,
    rounds: 5,
    seed: 1,
    measure: (description, measured) =>
      measureDescription(TUNE_SKILLS, TUNE_FIXTURE.name, description, measured, wordOverlapSend, { runs, threshold: 0.5, concurrency: 2, token: { isCancellationRequested: false } }),
    propose: async (messages) => proposeDescription(textOf(messages[0])),
    check: () => undefined,
    ...options,
  });
}

describe('description tuning', () => {
  it('splits each kind of query about 60/40, the same way for the same seed, with both kinds on each side', () => {
    const split = splitQueries(RELEASE_QUERIES, 1);
    assert.deepEqual(
      [
        split.train.filter((query) => query.shouldTrigger).length,
        split.train.filter((query) => !query.shouldTrigger).length,
        split.test.filter((query) => query.shouldTrigger).length,
        split.test.filter((query) => !query.shouldTrigger).length,
      ],
      [4, 2, 2, 2],
    );
    assert.deepEqual(splitQueries(RELEASE_QUERIES, 1), split);
    assert.equal(new Set([...split.train, ...split.test]).size, RELEASE_QUERIES.length);
    const others = [2, 3, 4, 5, 6].map((seed) =>
      splitQueries(RELEASE_QUERIES, seed)
        .test.map((query) => query.query)
        .join('|'),
    );
    assert.ok(
      others.some((test) => test !== split.test.map((query) => query.query).join('|')),
      'another seed gives another split',
    );
    // In file order on each side.
    assert.deepEqual(
      split.train,
      [...split.train].sort((a, b) => RELEASE_QUERIES.indexOf(a) - RELEASE_QUERIES.indexOf(b)),
    );
  });

  it('keeps one query of a kind on each side when the kind has only two', () => {
    const split = splitQueries(
      queries([
        ['a one', true],
        ['b two', true],
        ['c three', false],
        ['d four', false],
      ]),
      9,
    );
    assert.deepEqual([split.train.length, split.test.length], [2, 2]);
    assert.ok(split.test.some((query) => query.shouldTrigger) && split.test.some((query) => !query.shouldTrigger));
  });

  it('refuses a file without two queries of each kind, saying what it has', () => {
    assert.equal(
      tuneRefusal(
        'x',
        queries([
          ['a one', true],
          ['b two', true],
          ['c three', false],
        ]),
      ),
      'x needs at least 2 queries that should trigger and 2 that should not in its trigger tests (it has 2 and 1), so both the train and the test half hold each kind.',
    );
    assert.equal(
      tuneRefusal(
        'x',
        queries([
          ['a one', true],
          ['b two', true],
          ['c three', false],
          ['d four', false],
        ]),
      ),
      undefined,
    );
  });

  it('counts the requests it may send: every query each round and the current description, plus a proposal a round', () => {
    assert.equal(plannedTuneRequests(10, 3, 5), 6 * 10 * 3 + 5);
  });

  it('improves the test score of a seeded fixture, never showing the model a test query, and picks by test score', async () => {
    const proposals: string[] = [];
    const result = await tuneFixture({
      runs: 2,
      otherSkills: TUNE_SKILLS.slice(1).map((record) => ({ name: record.name, description: record.metadata!.description })),
      propose: async (messages) => {
        proposals.push(textOf(messages[0]));
        return proposeDescription(textOf(messages[0]));
      },
    });
    assert.ok(result);
    const [current, ...rest] = result.rounds;
    assert.ok(rest.length >= 1);
    assert.ok(result.best.round >= 1, `a proposal wins: ${JSON.stringify(result.rounds)}`);
    assert.ok(result.best.test.passed > current.test.passed, `the test score rises: ${current.test.passed} → ${result.best.test.passed}`);
    assert.match(result.best.description, /^Writes release notes from merged pull requests\. Also for: .*shipped/);
    for (const query of result.split.test) {
      assert.ok(!proposals.some((text) => text.includes(query.query)), `the model saw the test query "${query.query}"`);
    }
    assert.ok(proposals[0].includes('Requests that should have loaded the skill but did not:'));
  });

  it('stops when every train query passes, and keeps the current description when nothing beats it', async () => {
    let proposed = 0;
    const result = await tuneDescription({
      skill: { name: 'release-notes', description: 'release notes shipped' },
      otherSkills: [],
      queries: queries([
        ['release notes', true],
        ['shipped notes', true],
        ['hello world', false],
        ['good morning', false],
      ]),
      rounds: 5,
      seed: 3,
      measure: (description, measured) =>
        measureDescription([fakeRecord('release-notes', 'x')], 'release-notes', description, measured, wordOverlapSend, {
          runs: 1,
          threshold: 0.5,
          concurrency: 1,
          token: { isCancellationRequested: false },
        }),
      propose: async () => {
        proposed++;
        return '<description>anything</description>';
      },
      check: () => undefined,
    });
    assert.equal(proposed, 0);
    assert.deepEqual(
      result?.rounds.map((round) => round.round),
      [0],
    );
    assert.equal(result?.best.round, 0);
  });

  it('records a proposal the validator refuses, tells the model next round, and measures only valid ones', async () => {
    const answers = ['<description>bad <b>angle</b></description>', '<description>Writes release notes of what shipped.</description>'];
    const prompts: string[] = [];
    const result = await tuneFixture({
      rounds: 2,
      propose: async (messages) => {
        prompts.push(textOf(messages[0]));
        return answers.shift();
      },
      check: (description) => (description.includes('<') ? 'no angle brackets' : undefined),
    });
    assert.deepEqual(result?.rejected, [{ round: 1, description: 'bad <b>angle</b>', reason: 'no angle brackets' }]);
    assert.deepEqual(
      result?.rounds.map((round) => round.round),
      [0, 2],
    );
    assert.match(prompts[1], /- \(refused: no angle brackets\) bad <b>angle<\/b>/);
  });

  it('stops when cancelled', async () => {
    const result = await tuneFixture({ measure: async () => undefined, propose: async () => 'never' });
    assert.equal(result, undefined);
  });

  it('picks the best test score, then the shorter description, then the earlier round', () => {
    const round = (index: number, description: string, testPassed: number): TuneRound => ({ round: index, description, train: { passed: 0, judged: 4 }, test: { passed: testPassed, judged: 4 } });
    assert.equal(pickBest([round(0, 'aaaa', 2), round(1, 'bbbbbb', 3), round(2, 'ccc', 3)]).round, 2);
    assert.equal(pickBest([round(0, 'aaaa', 3), round(1, 'bbbb', 3)]).round, 0);
    assert.equal(pickBest([round(0, 'aa', 3), round(1, 'b', 2)]).round, 0);
  });

  it('reads the description from the answer: inside the tags, unquoted, on one line', () => {
    assert.equal(descriptionFromAnswer('Sure!\n<description>\n  "Writes notes.\n  Use when asked."\n</description>'), 'Writes notes. Use when asked.');
    assert.equal(descriptionFromAnswer('Plain answer'), 'Plain answer');
    assert.equal(descriptionFromAnswer('<description>  </description>'), undefined);
  });

  it('asks with the missed and the wrongly loaded train queries, and the attempts so far', () => {
    const [missed, wrong] = queries([
      ['what shipped', true],
      ['minutes please', false],
    ]);
    const text = textOf(
      proposalPrompt(
        { name: 'release-notes', description: 'Old.' },
        [{ name: 'sheets', description: 'Charts.' }],
        [missed, wrong],
        [
          { round: 0, description: 'Old.', train: { passed: 1, judged: 3 }, test: { passed: 0, judged: 2 } },
          { round: 1, description: 'Newer.', train: { passed: 2, judged: 3 }, test: { passed: 1, judged: 2 } },
        ],
      )[0],
    );
    assert.match(text, /Its description now: Old\.\n/);
    assert.match(text, /Other installed skills:\n- sheets: Charts\./);
    assert.match(text, /Requests that should have loaded the skill but did not:\n- what shipped\n/);
    assert.match(text, /Requests that loaded the skill but should not have:\n- minutes please\n/);
    assert.match(text, /Descriptions tried so far:\n- \(1 of 3 passed\) Old\.\n- \(2 of 3 passed\) Newer\./);
    assert.doesNotMatch(text, /test/i);
  });

  it('edits only the description, quoted as YAML needs, and refuses what the validator rejects', () => {
    const file = '/skills/release-notes/SKILL.md';
    const text = '---\nname: release-notes\ndescription: Old one.\nlicense: MIT\n---\n\n# Notes\n';
    const edit = descriptionEdit(text, file, 'New: with a colon, and "quotes".');
    assert.ok(edit.ok);
    assert.equal(edit.text, '---\nname: release-notes\ndescription: "New: with a colon, and \\"quotes\\"."\nlicense: MIT\n---\n\n# Notes\n');
    const tooLong = descriptionEdit(text, file, 'x '.repeat(600));
    assert.ok(!tooLong.ok);
    assert.match(tooLong.reason, /1024/);
    assert.deepEqual(descriptionEdit('---\nname: release-notes\n---\n', file, 'x'), { ok: false, reason: `${file} has no description field to replace` });
  });
});
