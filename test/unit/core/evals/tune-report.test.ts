import * as assert from 'node:assert/strict';
import { parseTriggerTests } from '../../../../src/core/evals/trigger-file';
import type { TuneResult, TuneRound } from '../../../../src/core/evals/tune';
import { isImprovement, renderTuneReport } from '../../../../src/core/evals/tune-report';

const [shipped, announce, notes, minutes, pivot] = parseTriggerTests(
  JSON.stringify([
    { query: 'what shipped', should_trigger: true },
    { query: 'announce the release', should_trigger: true },
    { query: 'draft release notes', should_trigger: true },
    { query: 'minutes of the meeting', should_trigger: false },
    { query: 'pivot of signups', should_trigger: false },
  ]),
  '/skills/release-notes/evals/triggers.json',
).tests!.queries;

const split = { train: [shipped, announce, minutes], test: [notes, pivot] };

const round = (index: number, description: string, train: [number, number], test: [number, number]): TuneRound => ({
  round: index,
  description,
  train: { passed: train[0], judged: train[1] },
  test: { passed: test[0], judged: test[1] },
});

/** Checks the report of `result` on gpt-test: its title, settings and table head for the split above, then `rest`. */
function assertReport(result: TuneResult, runs: number, seed: number, rest: string[]): void {
  assert.equal(
    renderTuneReport('release-notes', result, { model: 'gpt-test', runs, seed }),
    [
      '# Improve Description: release-notes',
      '',
      `On gpt-test, ${runs === 1 ? '1 run' : `${runs} runs`} per query. Train queries: 3 (2 should trigger, 1 should not); test queries: 2 (1 should trigger, 1 should not) (split with seed ${seed}). The model saw only the train queries that failed; only a proposal that beats the current description on the test queries is picked (the best, ties to the shorter).`,
      '',
      '| Round | Train | Test | Characters | Description |',
      '| --- | --- | --- | ---: | --- |',
      ...rest,
    ].join('\n'),
  );
}

describe('description tuning report', () => {
  it('shows the split, every round with the pick in bold, and the change as a diff', () => {
    const current = round(0, 'Writes release notes.', [1, 3], [1, 2]);
    const proposal = round(1, 'Writes release notes and says what shipped.', [3, 3], [2, 2]);
    const result: TuneResult = { split, rounds: [current, proposal], rejected: [], best: proposal };
    assert.ok(isImprovement(result));
    assertReport(result, 3, 7, [
      '| current | 1/3 (33%) | 1/2 (50%) | 21 | Writes release notes. |',
      '| **1 (picked)** | 3/3 (100%) | 2/2 (100%) | 43 | Writes release notes and says what shipped. |',
      '',
      '## Proposed change (test 1/2 (50%) → 2/2 (100%))',
      '',
      '```diff',
      '- description: Writes release notes.',
      '+ description: Writes release notes and says what shipped.',
      '```',
      '',
    ]);
  });

  it('says to keep the current description when it is the pick, after the refused proposals, with n/a for a half without verdicts', () => {
    const current = round(0, 'Writes release notes.', [1, 3], [0, 0]);
    const result: TuneResult = {
      split,
      rounds: [current, round(2, 'Release | notes\nfor   all.', [0, 3], [0, 2])],
      rejected: [{ round: 1, description: 'Notes <b>\nbold</b> | more', reason: 'the description\nholds | angle brackets' }],
      best: current,
    };
    assert.ok(!isImprovement(result));
    assertReport(result, 1, 1, [
      '| **current (picked)** | 1/3 (33%) | n/a | 21 | Writes release notes. |',
      '| 2 | 0/3 (0%) | 0/2 (0%) | 26 | Release \\| notes for all. |',
      '',
      "Round 1's proposal was refused (the description holds \\| angle brackets): Notes <b> bold</b> \\| more",
      '',
      'No proposal scored better on the test queries than the current description: keep it.',
      '',
    ]);
  });
});
