import * as assert from 'node:assert/strict';
import { routingReport, type RoutedQuery } from '../../../../src/core/evals/routing';
import { readStoredRouting, storedRouting } from '../../../../src/core/evals/routing-store';
import type { RunOutcome } from '../../../../src/core/evals/verdict';

const ran = (...loaded: string[]): RunOutcome => ({ kind: 'completed', triggered: false, loaded, firstLine: '' });

describe('stored routing', () => {
  const routed: RoutedQuery[] = [
    { skill: 'pdf', query: 'fill the form', shouldTrigger: true, outcomes: [ran('pdf'), ran('docx'), { kind: 'errored', message: 'HTTP 500' }] },
    { skill: 'docx', query: 'open a pdf', shouldTrigger: false, outcomes: [ran('docx')] },
  ];
  const run = { model: 'Scripted Model', endedAt: 1_795_000_000_000, queries: { passed: 0, failed: 2, errored: 0, skipped: 1 } };

  it('reads back the run it stored, its report made again the same, through JSON as the workspace state keeps it', () => {
    const stored = JSON.parse(JSON.stringify(storedRouting(run, routed))) as unknown;
    assert.deepEqual(readStoredRouting(stored), { ...run, report: routingReport(routed) });
  });

  it('drops a stored value that is not one, whatever is wrong with it', () => {
    const good = storedRouting(run, routed);
    for (const bad of [
      undefined,
      null,
      'text',
      { ...good, version: 2 },
      { ...good, model: 3 },
      { ...good, endedAt: -1 },
      { ...good, queries: { ...good.queries, failed: 1.5 } },
      { ...good, queries: undefined },
      { ...good, routed: 'x' },
      { ...good, routed: [{ ...good.routed[0], shouldTrigger: 'yes' }] },
      { ...good, routed: [{ ...good.routed[0], loaded: [['pdf', 4]] }] },
      { ...good, routed: [null] },
    ]) {
      assert.equal(readStoredRouting(bad), undefined, JSON.stringify(bad));
    }
  });
});
