import * as assert from 'node:assert/strict';
import { describePrecisionRecall, precisionRecall, queryVerdict, type QueryVerdict, type RunOutcome } from '../../../../src/core/evals/verdict';

const hit: RunOutcome = { kind: 'completed', triggered: true, loaded: ['pdf'], firstLine: '' };
const none = (firstLine = ''): RunOutcome => ({ kind: 'completed', triggered: false, loaded: [], firstLine });
const other = (name: string): RunOutcome => ({ kind: 'completed', triggered: false, loaded: [name], firstLine: '' });

describe('queryVerdict', () => {
  it('passes a should-trigger query whose rate reaches the threshold, with the rate in words', () => {
    const verdict = queryVerdict('pdf', true, [hit, hit, none()], 0.5);
    assert.ok(verdict.kind === 'passed');
    assert.deepEqual([verdict.triggeredRuns, verdict.runs, verdict.rate], [2, 3, 2 / 3]);
    assert.equal(verdict.message, 'Triggered pdf in 2 of 3 runs (should trigger, threshold 50%).');
  });

  it('treats the threshold as reached when the rate equals it', () => {
    assert.equal(queryVerdict('pdf', true, [hit, none()], 0.5).kind, 'passed');
    assert.equal(queryVerdict('pdf', false, [hit, none()], 0.5).kind, 'failed');
  });

  it('fails a should-trigger query below the threshold: its rate, then what the other runs loaded', () => {
    const verdict = queryVerdict('pdf', true, [hit, other('docx'), none('I can do that directly.'), none()], 0.75);
    assert.equal(verdict.kind, 'failed');
    assert.equal(
      verdict.message,
      'Triggered pdf in 1 of 4 runs (should trigger, threshold 75%): 25% is under the threshold. The 3 other runs: 1 loaded docx, 2 loaded no skill. The model wrote: "I can do that directly."',
    );
  });

  it('says so when every run of a should-trigger query loaded nothing', () => {
    const verdict = queryVerdict('pdf', true, [none(), none('Here you go.'), none()], 0.5);
    assert.equal(verdict.message, 'Triggered pdf in 0 of 3 runs (should trigger, threshold 50%): 0% is under the threshold. All 3 runs loaded no skill. The model wrote: "Here you go."');
    assert.equal(
      queryVerdict('pdf', true, [hit, none(), none()], 0.5).message,
      'Triggered pdf in 1 of 3 runs (should trigger, threshold 50%): 33% is under the threshold. The 2 other runs loaded no skill.',
    );
    assert.equal(queryVerdict('pdf', true, [hit, other('docx')], 0.75).message, 'Triggered pdf in 1 of 2 runs (should trigger, threshold 75%): 50% is under the threshold. The other run loaded docx.');
  });

  it('passes a should-not query that stays below the threshold and fails one that reaches it', () => {
    assert.equal(queryVerdict('pdf', false, [none(), none(), hit], 0.5).kind, 'passed');
    const verdict = queryVerdict('pdf', false, [hit, { kind: 'completed', triggered: true, loaded: ['docx', 'pdf'], firstLine: '' }, none()], 0.5);
    assert.equal(verdict.kind, 'failed');
    // The skill under test is not named again as what happened instead: only what came with it.
    assert.equal(verdict.message, 'Triggered pdf in 2 of 3 runs (should not trigger, threshold 50%): 67% reaches the threshold. Also loaded: docx (1 run).');
    assert.equal(queryVerdict('pdf', false, [hit, hit, hit], 0.5).message, 'Triggered pdf in 3 of 3 runs (should not trigger, threshold 50%): 100% reaches the threshold.');
  });

  it('speaks of a single run in the singular', () => {
    assert.equal(queryVerdict('pdf', true, [hit], 0.5).message, 'Triggered pdf in 1 of 1 run (should trigger, threshold 50%).');
  });

  it('lists every other skill a should-trigger run loaded instead', () => {
    const verdict = queryVerdict('pdf', true, [{ kind: 'completed', triggered: false, loaded: ['docx', 'xlsx'], firstLine: '' }], 0.5);
    assert.equal(verdict.message, 'Triggered pdf in 0 of 1 run (should trigger, threshold 50%): 0% is under the threshold. The run loaded docx, xlsx.');
  });

  it('is errored when no run completed', () => {
    assert.deepEqual(queryVerdict('pdf', true, [], 0.5), { kind: 'errored', message: 'No run completed.' });
  });

  it("is errored with the model's message when a run failed", () => {
    assert.deepEqual(queryVerdict('pdf', true, [hit, { kind: 'errored', message: 'The model failed: rate limited' }, hit], 0.5), { kind: 'errored', message: 'The model failed: rate limited' });
  });
});

describe('precisionRecall', () => {
  const result = (shouldTrigger: boolean, kind: QueryVerdict['kind']): { shouldTrigger: boolean; verdict: QueryVerdict } => ({
    shouldTrigger,
    verdict: kind === 'errored' ? { kind, message: 'x' } : { kind, rate: 0, triggeredRuns: 0, runs: 1, message: '' },
  });

  it('counts triggered queries by expectation and verdict, leaving errored ones out', () => {
    // Triggered: 2 should (passed) + 1 should-not (failed). Should trigger: 2 passed + 1 failed.
    const scores = precisionRecall([result(true, 'passed'), result(true, 'passed'), result(true, 'failed'), result(false, 'failed'), result(false, 'passed'), result(true, 'errored')]);
    assert.deepEqual(scores, { precision: 2 / 3, recall: 2 / 3 });
    assert.equal(describePrecisionRecall(scores), 'precision 67% · recall 67%');
  });

  it('leaves a share undefined when nothing counts towards it', () => {
    assert.deepEqual(precisionRecall([result(false, 'passed')]), {});
    assert.equal(describePrecisionRecall({}), 'precision n/a · recall n/a');
    assert.deepEqual(precisionRecall([result(true, 'failed')]), { recall: 0 });
    assert.deepEqual(precisionRecall([result(false, 'failed')]), { precision: 0 });
  });
});
