import * as assert from 'node:assert/strict';
import { OUTPUT_WIDTH, outputLines, queryOutputBlock } from '../../../../src/core/evals/run-output';
import type { RunOutcome } from '../../../../src/core/evals/verdict';

describe('the output of a trigger-test run', () => {
  const outcomes: RunOutcome[] = [
    { kind: 'completed', triggered: true, loaded: ['release-notes'], firstLine: '' },
    { kind: 'completed', triggered: false, loaded: [], firstLine: 'I can answer that directly.' },
    { kind: 'errored', message: 'rate limited (429)' },
  ];

  it('is one block per query: the skill and query, the verdict, then each run, and a blank line', () => {
    const block = queryOutputBlock('release-notes', 'explain what semantic versioning means', false, { kind: 'failed', rate: 1 / 3, triggeredRuns: 1, runs: 3, message: 'm' }, outcomes);
    assert.deepEqual(block, [
      'release-notes: “explain what',
      '    semantic versioning means”',
      'failed, should not trigger',
      '  run 1: loaded release-notes',
      '  run 2: loaded no skill; wrote “I',
      '      can answer that directly.”',
      '  run 3: model error: rate limited',
      '      (429)',
      '',
    ]);
  });

  it('never has a line longer than a narrow panel holds, nor a word cut in two', () => {
    const query = 'please draft the release notes and the CHANGELOG.md entry for version 2.0 of bookmarks-api';
    const lines = [
      ...queryOutputBlock('a-skill-with-a-rather-long-name', query, true, { kind: 'passed', rate: 1, triggeredRuns: 3, runs: 3, message: 'm' }, outcomes),
      ...outputLines('Trigger tests on Demo model (scripted) (demo-model): 19 queries, 57 runs, 4 at a time.'),
    ];
    for (const line of lines) {
      assert.ok(line.length <= OUTPUT_WIDTH, `${line.length} columns: ${line}`);
    }
    const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');
    assert.deepEqual(
      words(lines.join(' ')),
      words(
        `a-skill-with-a-rather-long-name: “${query}” passed, should trigger run 1: loaded release-notes run 2: loaded no skill; wrote “I can answer that directly.” run 3: model error: rate limited (429) Trigger tests on Demo model (scripted) (demo-model): 19 queries, 57 runs, 4 at a time.`,
      ),
    );
  });
});
