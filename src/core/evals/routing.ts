// Routing across a set of skills: for each query that should trigger a skill, which skill the
// model actually loaded in each run (or none). The diagonal is the skill itself; everything else is
// a confusion (another skill took the query) or a miss (nothing was loaded).

import type { RunOutcome } from './verdict';

/** The column of runs that loaded no skill. */
export const NO_SKILL = '(none)';

export interface RoutedQuery {
  /** The skill whose trigger file holds the query. */
  skill: string;
  query: string;
  shouldTrigger: boolean;
  outcomes: readonly RunOutcome[];
}

export interface RoutingCell {
  /** The skill the query should trigger. */
  expected: string;
  /** The skill a run loaded, or NO_SKILL. */
  loaded: string;
  runs: number;
  /** The queries behind the cell, with the runs each contributed. */
  queries: { query: string; runs: number }[];
}

export interface RoutingRow {
  expected: string;
  /** Completed runs of the skill's should-trigger queries. */
  runs: number;
  /** Share of those runs that loaded the expected skill. */
  rate: number;
}

export interface FalseTrigger {
  skill: string;
  query: string;
  runs: number;
}

export interface RoutingReport {
  rows: RoutingRow[];
  /** Every skill that loaded at least one run, then NO_SKILL when some run loaded nothing. */
  columns: string[];
  cells: RoutingCell[];
  /** Off-diagonal cells, the most runs first: where the set routes wrong. */
  confusions: RoutingCell[];
  /** Should-not-trigger queries that loaded their own skill. */
  falseTriggers: FalseTrigger[];
}

/** Where one run went: the expected skill when it was loaded at all, else the first skill loaded. */
export function routedTo(outcome: Extract<RunOutcome, { kind: 'completed' }>, expected: string): string {
  return outcome.loaded.includes(expected) ? expected : (outcome.loaded[0] ?? NO_SKILL);
}

export function routingReport(queries: readonly RoutedQuery[]): RoutingReport {
  const cells = new Map<string, RoutingCell>();
  const rows = new Map<string, { runs: number; hits: number }>();
  const falseTriggers: FalseTrigger[] = [];
  for (const { skill, query, shouldTrigger, outcomes } of queries) {
    const completed = outcomes.filter((outcome) => outcome.kind === 'completed');
    if (!shouldTrigger) {
      const runs = completed.filter((outcome) => outcome.loaded.includes(skill)).length;
      if (runs > 0) {
        falseTriggers.push({ skill, query, runs });
      }
      continue;
    }
    const row = rows.get(skill) ?? { runs: 0, hits: 0 };
    rows.set(skill, row);
    for (const outcome of completed) {
      const loaded = routedTo(outcome, skill);
      row.runs++;
      row.hits += loaded === skill ? 1 : 0;
      const key = `${skill}\u0000${loaded}`;
      const cell = cells.get(key) ?? { expected: skill, loaded, runs: 0, queries: [] };
      cells.set(key, cell);
      cell.runs++;
      const entry = cell.queries.find((candidate) => candidate.query === query);
      if (entry) {
        entry.runs++;
      } else {
        cell.queries.push({ query, runs: 1 });
      }
    }
  }
  const allCells = [...cells.values()];
  const loadedNames = [...new Set(allCells.map((cell) => cell.loaded).filter((name) => name !== NO_SKILL))].sort();
  return {
    rows: [...rows].map(([expected, { runs, hits }]) => ({ expected, runs, rate: runs === 0 ? 0 : hits / runs })),
    columns: allCells.some((cell) => cell.loaded === NO_SKILL) ? [...loadedNames, NO_SKILL] : loadedNames,
    cells: allCells,
    confusions: allCells.filter((cell) => cell.loaded !== cell.expected).sort((a, b) => b.runs - a.runs || a.expected.localeCompare(b.expected) || a.loaded.localeCompare(b.loaded)),
    falseTriggers,
  };
}

/** For the skill that took queries meant for others: the confusions where it was loaded. */
export function queriesTakenBy(report: RoutingReport, skill: string): RoutingCell[] {
  return report.confusions.filter((cell) => cell.loaded === skill);
}

/** The note on the skill that took a cell's runs: "took 2 runs of pdf-report's queries ("…", "…")". */
export function describeTaken(cell: RoutingCell): string {
  return `took ${cell.runs} run${cell.runs === 1 ? '' : 's'} of ${cell.expected}'s queries (${cell.queries.map((entry) => `"${entry.query}"`).join(', ')})`;
}
