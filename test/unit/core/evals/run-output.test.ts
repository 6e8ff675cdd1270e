import * as assert from 'node:assert/strict';
import { OUTPUT_WIDTH, outputLines, queryOutputBlock } from '../../../../src/core/evals/run-output';
import type { RunOutcome } from '../../../../src/core/evals/verdict';

describe('the output of a trigger-test run', () => {
  const outcomes: RunOutcome[] = [
    { kind: 'completed', triggered: true, loaded: ['release-notes'], firstLine: '' },
    { kind: 'completed', triggered: false, loaded: [], firstLine: 'I can answer that directly.' },
    { kind: 'errored', message: 'rate limited (429)' },
  ];

  it('is one block per query: the skill, the query, the verdict, then the runs, and a blank line', () => {
    const block = queryOutputBlock('release-notes', 'explain what semantic versioning means', false, { kind: 'failed', rate: 1 / 3, triggeredRuns: 1, runs: 3, message: 'm' }, outcomes);
    assert.deepEqual(block, [
      'release-notes:',
      '“explain what',
      '  semantic',
      '  versioning',
      '  means”',
      'failed: should',
      '  not trigger',
      'run 1: loaded',
      '  release-notes',
      'run 2: loaded no',
      '  skill; wrote',
      '  “I can answer',
      '  that',
      '  directly.”',
      'run 3: model',
      '  error: rate',
      '  limited (429)',
      '',
    ]);
  });

  it('says once what consecutive runs did alike', () => {
    const loaded = (...skills: string[]): RunOutcome => ({ kind: 'completed', triggered: skills.includes('pdf'), loaded: skills, firstLine: '' });
    const block = queryOutputBlock('pdf', 'fill the form', true, { kind: 'failed', rate: 2 / 3, triggeredRuns: 2, runs: 4, message: 'm' }, [loaded('pdf'), loaded('pdf'), loaded(), loaded('pdf')]);
    assert.deepEqual(block.slice(4), ['runs 1–2: loaded', '  pdf', 'run 3: loaded no', '  skill', 'run 4: loaded', '  pdf', '']);
  });

  it('never has a line longer than a narrow panel holds, and breaks a word only after a hyphen', () => {
    const query = 'please draft the release notes and the CHANGELOG.md entry for version 2.0 of bookmarks-api';
    const lines = [
      ...queryOutputBlock('a-skill-with-a-rather-long-name', query, true, { kind: 'passed', rate: 1, triggeredRuns: 3, runs: 3, message: 'm' }, outcomes),
      ...outputLines('Trigger tests on Demo model (scripted) (demo-model): 19 queries, 57 runs, 4 at a time.'),
    ];
    for (const line of lines) {
      assert.ok(line.length <= OUTPUT_WIDTH, `${line.length} columns: ${line}`);
    }
    assert.deepEqual(lines.slice(0, 3), ['a-skill-with-', '  a-rather-long-', '  name:']);
    // Read back as the terminal shows it: a line ending in a hyphen continues the word.
    const text = lines
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .reduce((read, line) => (read === '' ? line : read.endsWith('-') ? read + line : `${read} ${line}`), '');
    assert.equal(
      text,
      `a-skill-with-a-rather-long-name: “${query}” passed: should trigger run 1: loaded release-notes run 2: loaded no skill; wrote “I can answer that directly.” run 3: model error: rate limited (429) Trigger tests on Demo model (scripted) (demo-model): 19 queries, 57 runs, 4 at a time.`,
    );
  });

  it('breaks at spaces within the width, indenting the lines after the first; folds white space, and keeps an empty text as one empty line', () => {
    assert.deepEqual(outputLines('one two three four five six'), ['one two three', '  four five six']);
    assert.deepEqual(outputLines('  a\n\n b  '), ['a b']);
    assert.deepEqual(outputLines(''), ['']);
  });

  it('cuts a word without hyphens only where it cannot fit a line', () => {
    assert.deepEqual(outputLines('see abcdefghijklmnopqrstuvwxyz'), ['see', '  abcdefghijklmn', '  opqrstuvwxyz']);
  });
});
