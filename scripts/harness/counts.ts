// Test totals, as the suites report them and `npm test` adds them up.
import * as fs from 'node:fs';

export interface SuiteCounts {
  passed: number;
  failed: number;
  pending: number;
}

export function noCounts(): SuiteCounts {
  return { passed: 0, failed: 0, pending: 0 };
}

/** The totals a run left in `countsFile`, or undefined when it never got that far. */
export function readSuiteCounts(countsFile: string): SuiteCounts | undefined {
  return fs.existsSync(countsFile) ? (JSON.parse(fs.readFileSync(countsFile, 'utf8')) as SuiteCounts) : undefined;
}

export function addCounts(total: SuiteCounts, counts: SuiteCounts): void {
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.pending += counts.pending;
}

/** A run that did not finish counts as failed even if no test reported a failure. */
export function withAtLeastOneFailure(counts: SuiteCounts | undefined): SuiteCounts {
  const known = counts ?? noCounts();
  return { ...known, failed: Math.max(known.failed, 1) };
}
