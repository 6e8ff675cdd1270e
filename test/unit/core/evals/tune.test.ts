import * as assert from 'node:assert/strict';
import type { PromptMessage } from '../../../../src/core/chat/conversation';
import { measureDescription } from '../../../../src/core/evals/measure';
import type { ModelAnswer } from '../../../../src/core/evals/run';
import type { QueryVerdict } from '../../../../src/core/evals/verdict';
import { parseTriggerTests, type TriggerQuery } from '../../../../src/core/evals/trigger-file';
import {
  descriptionEdit,
  descriptionFromAnswer,
  notADescription,
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
import { DEFAULT_CATALOG_BUDGET_CHARS } from '../../../../src/core/use/catalog';
import { InputProblem } from '../../../../src/core/util/errors';
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

/** Four queries of each kind: two of each go to train. */
const EIGHT = queries([
  ['alpha one', true],
  ['alpha two', true],
  ['alpha three', true],
  ['alpha four', true],
  ['beta one', false],
  ['beta two', false],
  ['beta three', false],
  ['beta four', false],
]);

const verdictOf = (kind: QueryVerdict['kind']): QueryVerdict =>
  kind === 'errored' ? { kind, message: 'HTTP 500' } : { kind, rate: kind === 'passed' ? 1 : 0, triggeredRuns: kind === 'passed' ? 1 : 0, runs: 1, message: kind };

/**
 * A tuning of EIGHT whose measurements come from `judge` (a query's verdict under a description)
 * and whose model answers `answers` in turn (undefined: cancelled); with what the model was asked
 * and the progress reported.
 */
async function scriptedTune(judge: (description: string, query: TriggerQuery) => QueryVerdict['kind'], answers: (string | undefined)[], overrides: Partial<TuneOptions> = {}) {
  const prompts: string[] = [];
  const progress: string[] = [];
  const result = await tuneDescription({
    skill: { name: 'notes', description: 'Old.' },
    otherSkills: [],
    queries: EIGHT,
    rounds: 5,
    seed: 1,
    measure: async (description, measured) => measured.map((query) => ({ query, verdict: verdictOf(judge(description, query)) })),
    propose: async (messages) => {
      prompts.push(textOf(messages[0]));
      return answers.shift();
    },
    check: () => undefined,
    onProgress: ({ round, rounds, message }) => progress.push(`${round}/${rounds} ${message}`),
    ...overrides,
  });
  return { result, prompts, progress };
}

/** The lines of a proposal request under `heading`, up to the next blank line. */
const listUnder = (prompt: string, heading: string): string[] => {
  const lines = prompt.split('\n');
  const start = lines.indexOf(heading);
  return start < 0 ? [] : lines.slice(start + 1, lines.indexOf('', start));
};

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
      measureDescription(TUNE_SKILLS, TUNE_FIXTURE.name, description, measured, wordOverlapSend, {
        budgetChars: DEFAULT_CATALOG_BUDGET_CHARS,
        runs,
        threshold: 0.5,
        concurrency: 2,
        token: { isCancellationRequested: false },
      }),
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
          budgetChars: DEFAULT_CATALOG_BUDGET_CHARS,
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
    const answers = ['<description>Fills a < b form</description>', '<description>Writes release notes of what shipped.</description>'];
    const prompts: string[] = [];
    const result = await tuneFixture({
      rounds: 2,
      propose: async (messages) => {
        prompts.push(textOf(messages[0]));
        return answers.shift();
      },
      check: (description) => (description.includes('<') ? 'no angle brackets' : undefined),
    });
    assert.deepEqual(result?.rejected, [{ round: 1, description: 'Fills a < b form', reason: 'no angle brackets' }]);
    assert.deepEqual(
      result?.rounds.map((round) => round.round),
      [0, 2],
    );
    assert.match(prompts[1], /- \(refused: no angle brackets\) Fills a < b form/);
  });

  it('stops when cancelled', async () => {
    const result = await tuneFixture({ measure: async () => undefined, propose: async () => 'never' });
    assert.equal(result, undefined);
  });

  it('picks the best test score, then the shorter description, then the earlier round', () => {
    const round = (index: number, description: string, testPassed: number): TuneRound => ({ round: index, description, train: { passed: 0, judged: 4 }, test: { passed: testPassed, judged: 4 } });
    assert.equal(pickBest([round(0, 'aaaa', 2), round(1, 'bbbbbb', 3), round(2, 'ccc', 3)]).round, 2);
    assert.equal(pickBest([round(0, 'aaaa', 2), round(1, 'bbb', 3), round(2, 'ccc', 3)]).round, 1);
    assert.equal(pickBest([round(0, 'aaaa', 3), round(1, 'bbbb', 3)]).round, 0);
    assert.equal(pickBest([round(0, 'aa', 3), round(1, 'b', 2)]).round, 0);
  });

  it('never picks a proposal that only ties the current description on test, however much shorter it is', () => {
    const round = (index: number, description: string, testPassed: number): TuneRound => ({ round: index, description, train: { passed: 1, judged: 4 }, test: { passed: testPassed, judged: 4 } });
    const current = round(0, 'Writes release notes from merged pull requests, grouped by kind of change.', 4);
    assert.equal(pickBest([current, round(1, 'Notes.', 4), round(2, 'Release notes.', 4)]), current);
    assert.equal(pickBest([round(0, 'Writes release notes.', 2), round(1, 'Shorter.', 2), round(2, 'A longer one that scores better.', 3)]).round, 2);
  });

  it('refuses what does not read as a description: chatter, markup, the name alone', () => {
    const refused = [
      ['**Demo model (scripted)**: a scripted stand-in for a chat model.', /reply/],
      ['Demo model (scripted): a scripted stand-in for a chat model.', /reply/],
      ['Assistant: writes release notes.', /reply/],
      ['GPT-4o: writes release notes.', /reply/],
      ['The language model: writes release notes.', /reply/],
      ['Sure! Writes release notes from merged pull requests.', /reply/],
      ["Here's a better one: writes release notes.", /reply/],
      ["I'd suggest: writes release notes.", /reply/],
      ['Improved description: writes release notes.', /reply/],
      ['Writes **release notes** from merged pull requests.', /markup/],
      ['# Release notes', /markup/],
      ['- Writes release notes', /markup/],
      ['Writes release notes, see [the guide](https://example.com).', /markup/],
      ['Writes <b>release notes</b>.', /markup/],
      ['release-notes', /name/],
      ['Release notes.', /name/],
      ['release notes skill', /name/],
    ] as const;
    for (const [description, reason] of refused) {
      assert.match(notADescription('release-notes', description) ?? '', reason, description);
    }
    for (const description of [
      'Writes release notes from merged pull requests. Use when the user asks what shipped.',
      'I/O helpers for streaming files. Use when reading large logs.',
      'Okta sign-in setup for the web app.',
      'Generates OpenAPI docs from the routes in src/server.js (use `npm run docs`).',
      'Trains the ranking model on the labelled set. Use when asked to retrain.',
      'Data model: draws entity diagrams from the schema files. Use when asked how tables relate.',
      'Pricing model: explains the plans and their limits.',
    ]) {
      assert.equal(notADescription('release-notes', description), undefined, description);
    }
  });

  it("keeps the current description when every proposal is the model's chatter, measuring none of them", async () => {
    let measured = 0;
    const blurb = '**Demo model (scripted)**: a scripted stand-in for a chat model. Ask `@skills` for a task.';
    const { result, prompts } = await scriptedTune(
      () => 'failed',
      Array.from({ length: 5 }, () => blurb),
      {
        measure: async (_, queries) => {
          measured++;
          return queries.map((query) => ({ query, verdict: verdictOf('failed') }));
        },
      },
    );
    assert.equal(prompts.length, 5);
    assert.equal(measured, 1);
    assert.equal(result?.best.round, 0);
    assert.deepEqual(
      result?.rejected.map((entry) => entry.reason),
      Array.from({ length: 5 }, () => "it reads as the model's reply, not as a description of the skill"),
    );
    assert.match(prompts[1], /- \(refused: it reads as the model's reply, not as a description of the skill\) \*\*Demo model/);
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

  it('refuses a file with too few queries that should trigger, too', () => {
    assert.match(
      tuneRefusal(
        'x',
        queries([
          ['a one', true],
          ['c three', false],
          ['d four', false],
          ['e five', false],
        ]),
      ) ?? '',
      /\(it has 1 and 3\)/,
    );
  });

  it('gives the same split for a seed in every release, each query in the test half for some seed', () => {
    const testHalf = (seed: number): string[] => splitQueries(RELEASE_QUERIES, seed).test.map((query) => query.query);
    assert.deepEqual(testHalf(1), ['draft release notes for 2.4', 'announce what shipped this sprint', 'pivot of signups by region', 'chart the monthly costs']);
    assert.deepEqual(testHalf(2), ['what shipped since the last tag', 'list what shipped to production today', 'pivot of signups by region', 'notes on the meeting with decisions']);
    const seen = new Set(Array.from({ length: 40 }, (_, seed) => testHalf(seed)).flat());
    assert.equal(seen.size, RELEASE_QUERIES.length);
    const split = splitQueries(RELEASE_QUERIES, 5);
    assert.deepEqual(
      split.test,
      [...split.test].sort((a, b) => RELEASE_QUERIES.indexOf(a) - RELEASE_QUERIES.indexOf(b)),
      'the test half in file order too',
    );
  });

  it('asks for one to five proposals, whatever number of rounds it is given', async () => {
    for (const [rounds, asked] of [
      [0, 1],
      [2, 2],
      [9, 5],
    ]) {
      const answers = Array.from({ length: 9 }, (_, index) => `<description>Try ${index}.</description>`);
      const { result, prompts } = await scriptedTune(() => 'failed', answers, { rounds });
      assert.equal(prompts.length, asked, `rounds: ${rounds}`);
      assert.equal(result?.rounds.length, asked + 1);
    }
  });

  it('reports each step of each round', async () => {
    const { progress } = await scriptedTune(() => 'failed', ['<description>One.</description>', '<description>Two.</description>'], { rounds: 2 });
    assert.deepEqual(progress, [
      '0/2 Measuring the current description',
      '1/2 Round 1: asking for a better description',
      '1/2 Round 1: measuring the proposal',
      '2/2 Round 2: asking for a better description',
      '2/2 Round 2: measuring the proposal',
    ]);
  });

  it('fails when no query of the current description got a verdict, and leaves errored queries out of the scores', async () => {
    await assert.rejects(
      scriptedTune(() => 'errored', []),
      (error: unknown) => error instanceof InputProblem && error.message === 'no query reached a verdict with the current description of notes (every request failed: HTTP 500).',
    );
    const { train } = splitQueries(EIGHT, 1);
    const { result, prompts } = await scriptedTune((_, query) => (query === train[0] ? 'errored' : 'failed'), ['<description>New.</description>'], { rounds: 1 });
    assert.deepEqual(result?.rounds[0].train, { passed: 0, judged: train.length - 1 });
    assert.equal(prompts.length, 1);
    assert.ok(!prompts[0].includes(train[0].query), 'an errored query is no failure to learn from');
  });

  it('shows the model exactly the train queries that failed, each under its kind', async () => {
    const { train } = splitQueries(EIGHT, 1);
    const passing = new Set([train[0]]);
    const { prompts } = await scriptedTune((_, query) => (passing.has(query) ? 'passed' : 'failed'), ['<description>New.</description>'], { rounds: 1 });
    const failed = train.filter((query) => !passing.has(query));
    assert.deepEqual(
      listUnder(prompts[0], 'Requests that should have loaded the skill but did not:'),
      failed.filter((query) => query.shouldTrigger).map((query) => `- ${query.query}`),
    );
    assert.deepEqual(
      listUnder(prompts[0], 'Requests that loaded the skill but should not have:'),
      failed.filter((query) => !query.shouldTrigger).map((query) => `- ${query.query}`),
    );
  });

  it('gives nothing when cancelled while the model proposes or while a proposal is measured', async () => {
    assert.equal((await scriptedTune(() => 'failed', [undefined])).result, undefined);
    let measured = 0;
    const cancelledLater = await scriptedTune(() => 'failed', ['<description>New.</description>'], {
      measure: async (_, queries) => (measured++ === 0 ? queries.map((query) => ({ query, verdict: verdictOf('failed') })) : undefined),
    });
    assert.equal(cancelledLater.result, undefined);
    assert.equal(measured, 2);
  });

  it('refuses an answer without a description, keeping its first 200 characters, and asks again', async () => {
    const empty = `\n  <description> </description>${'x'.repeat(300)}`;
    const { result, prompts } = await scriptedTune(() => 'failed', [empty, '<description>New.</description>'], { rounds: 2 });
    assert.deepEqual(result?.rejected, [{ round: 1, description: empty.trim().slice(0, 200), reason: 'the answer held no description' }]);
    assert.deepEqual(
      result?.rounds.map((round) => round.description),
      ['Old.', 'New.'],
    );
    assert.equal(prompts.length, 2);
  });

  it('builds each proposal on the best train score so far, a tie going to the newer description', async () => {
    const { train } = splitQueries(EIGHT, 1);
    const passingBy: Record<string, TriggerQuery[]> = { 'Better.': [train[0], train[1]], 'Worse.': [train[0]], 'Level.': [train[2], train[3]] };
    const { prompts } = await scriptedTune(
      (description, query) => ((passingBy[description] ?? []).includes(query) ? 'passed' : 'failed'),
      ['<description>Better.</description>', '<description>Worse.</description>', '<description>Level.</description>', '<description>Last.</description>'],
      { rounds: 4 },
    );
    assert.deepEqual(
      prompts.map((prompt) => /^Its description now: (.*)$/m.exec(prompt)?.[1]),
      ['Old.', 'Better.', 'Better.', 'Level.'],
    );
  });

  it('asks in full: the skill, the others, the failures and what was tried, then the rules of the answer', () => {
    const [missed, wrong] = queries([
      ['what shipped', true],
      ['minutes please', false],
    ]);
    const earlier: TuneRound[] = [
      { round: 0, description: 'Old.', train: { passed: 1, judged: 3 }, test: { passed: 0, judged: 2 } },
      { round: 1, description: 'Newer.', train: { passed: 2, judged: 3 }, test: { passed: 1, judged: 2 } },
    ];
    const messages = proposalPrompt({ name: 'release-notes', description: 'Newer.' }, [{ name: 'sheets', description: 'Charts.' }], [missed, wrong], earlier, [
      { round: 2, description: 'Bad <b>', reason: 'no angle brackets' },
    ]);
    assert.deepEqual(messages, [
      {
        role: 'user',
        parts: [
          {
            kind: 'text',
            text: [
              "You improve the description of an Agent Skill. A chat model sees only each skill's name and description and decides from them which skill to load for a request.",
              '',
              'The skill: release-notes',
              'Its description now: Newer.',
              '',
              'Other installed skills:',
              '- sheets: Charts.',
              '',
              'Requests that should have loaded the skill but did not:',
              '- what shipped',
              '',
              'Requests that loaded the skill but should not have:',
              '- minutes please',
              '',
              'Descriptions tried so far:',
              '- (1 of 3 passed) Old.',
              '- (2 of 3 passed) Newer.',
              '- (refused: no angle brackets) Bad <b>',
              '',
              'Write one better description: say what the skill does and when to use it, in the words users use, so it covers the missed requests and similar ones without claiming the others. Do not list the requests themselves. At most 1024 characters, no angle brackets.',
              '',
              'Answer with only the description inside <description></description>.',
            ].join('\n'),
          },
        ],
      },
    ]);
  });

  it('leaves out of the request what there is none of: other skills, a kind of failure, earlier attempts', () => {
    const [missed, alsoMissed] = queries([
      ['what shipped', true],
      ['tell customers', true],
    ]);
    const first: TuneRound = { round: 0, description: 'Old.', train: { passed: 0, judged: 4 }, test: { passed: 0, judged: 4 } };
    const text = textOf(proposalPrompt({ name: 'release-notes', description: 'Old.' }, [{ name: 'release-notes', description: 'Old.' }], [missed, alsoMissed], [first])[0]);
    assert.equal(
      text,
      [
        "You improve the description of an Agent Skill. A chat model sees only each skill's name and description and decides from them which skill to load for a request.",
        '',
        'The skill: release-notes',
        'Its description now: Old.',
        '',
        'No other skills are installed.',
        '',
        'Requests that should have loaded the skill but did not:',
        '- what shipped',
        '- tell customers',
        '',
        'Write one better description: say what the skill does and when to use it, in the words users use, so it covers the missed requests and similar ones without claiming the others. Do not list the requests themselves. At most 1024 characters, no angle brackets.',
        '',
        'Answer with only the description inside <description></description>.',
      ].join('\n'),
    );
  });

  it('asks only about wrongly loaded requests when none was missed', () => {
    const [wrong] = queries([['minutes please', false]]);
    const first: TuneRound = { round: 0, description: 'Old.', train: { passed: 0, judged: 4 }, test: { passed: 0, judged: 4 } };
    const text = textOf(proposalPrompt({ name: 'release-notes', description: 'Old.' }, [], [wrong], [first])[0]);
    assert.match(text, /\nNo other skills are installed\.\n\nRequests that loaded the skill but should not have:\n- minutes please\n\nWrite one better description/);
    assert.doesNotMatch(text, /should have loaded/);
  });

  it('counts a round whose test queries all errored as scoring nothing', () => {
    const round = (index: number, description: string, test: TuneRound['test']): TuneRound => ({ round: index, description, train: { passed: 0, judged: 4 }, test });
    assert.equal(pickBest([round(0, 'The current, longer one.', { passed: 0, judged: 0 }), round(1, 'Short.', { passed: 1, judged: 4 })]).round, 1);
    // Scoring nothing either, a proposal does not beat it.
    assert.equal(pickBest([round(0, 'The current, longer one.', { passed: 0, judged: 0 }), round(1, 'Short.', { passed: 0, judged: 4 })]).round, 0);
  });

  it('takes the first tagged description in any case, and keeps quotes that do not wrap the whole of it', () => {
    assert.equal(descriptionFromAnswer('<DESCRIPTION>Fills forms.</Description> or <description>Other.</description>'), 'Fills forms.');
    assert.equal(descriptionFromAnswer("'Fills PDF forms.'"), 'Fills PDF forms.');
    assert.equal(descriptionFromAnswer('"  Fills\n\n PDF   forms.  "'), 'Fills PDF forms.');
    assert.equal(descriptionFromAnswer('Use for "fill" requests'), 'Use for "fill" requests');
    assert.equal(descriptionFromAnswer('Fills forms, say "fill"'), 'Fills forms, say "fill"');
    assert.equal(descriptionFromAnswer('"fill" and "sign" requests'), '"fill" and "sign" requests');
    assert.equal(descriptionFromAnswer('"Fills forms.\''), '"Fills forms.\'');
  });

  it('writes a description into a file that has warnings, and refuses one the file would not read back', () => {
    const file = '/skills/release-notes/SKILL.md';
    const warned = '---\nname: release-notes\ndescription: Old one.\nowner: me\n---\n\n# Notes\n';
    const edit = descriptionEdit(warned, file, 'New one.');
    assert.ok(edit.ok);
    assert.equal(edit.text, '---\nname: release-notes\ndescription: "New one."\nowner: me\n---\n\n# Notes\n');
    assert.deepEqual(descriptionEdit(warned, file, 'Ends in a no-break space\u00a0'), { ok: false, reason: 'the file would not read back the same description' });
  });
});
