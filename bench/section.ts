// The contract between `npm run bench` and its sections, and the helpers every section uses to
// print its figures the same way.
//
// A section is a module in bench/sections/ exporting `run()`. It prints human-readable lines as it
// measures and resolves to the figures stored under its file name in bench-results.json.

export type BenchFigures = Record<string, number | string>;

export interface BenchSection {
  run(): Promise<BenchFigures>;
}

export type Verdict = 'PASS' | 'MISS';

export interface Goal {
  /** What is measured, as printed. */
  label: string;
  value: number;
  /** Printed after the value, e.g. "×", " ms", " B". */
  unit: string;
  /** The value aimed for: at most this when `better` is 'lower', at least this when 'higher'. */
  target: number;
  better: 'lower' | 'higher';
}

const LABEL_WIDTH = 58;

/** Prints one figure without a goal. */
export function printFigure(label: string, value: number, unit: string): void {
  console.log(`  ${label.padEnd(LABEL_WIDTH)} ${formatNumber(value)}${unit}`);
}

/** Prints one figure with its goal and verdict. A miss is reported, never thrown: the bench is a report. */
export function checkGoal(goal: Goal): Verdict {
  const met = goal.better === 'lower' ? goal.value <= goal.target : goal.value >= goal.target;
  const verdict: Verdict = met ? 'PASS' : 'MISS';
  const bound = `${goal.better === 'lower' ? '≤' : '≥'} ${formatNumber(goal.target)}${goal.unit}`;
  console.log(`  ${goal.label.padEnd(LABEL_WIDTH)} ${`${formatNumber(goal.value)}${goal.unit}`.padEnd(12)} goal ${bound.padEnd(12)} ${verdict}`);
  return verdict;
}

/** Three significant digits at most, with thousands separators for large values. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) {
    return String(value);
  }
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** Rounds a figure for the results file, where more digits would only be noise. */
export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
