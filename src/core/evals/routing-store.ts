// The last trigger-test run's routing as the workspace keeps it, so the routing report still shows
// it after a reload (VS Code keeps the Testing view's results across one too). Read back with every
// field checked: anything malformed is dropped, never trusted.

import type { QueryCounts, RoutingRunInfo } from './routing-page';
import { routingReport, type RoutedQuery } from './routing';

export interface StoredRouting {
  version: 1;
  model: string;
  endedAt: number;
  queries: QueryCounts;
  /** Per query, the skills each completed run loaded: all the report is made from. */
  routed: { skill: string; query: string; shouldTrigger: boolean; loaded: string[][] }[];
}

export function storedRouting(run: Omit<RoutingRunInfo, 'report'>, routed: readonly RoutedQuery[]): StoredRouting {
  return {
    version: 1,
    model: run.model,
    endedAt: run.endedAt,
    queries: run.queries,
    routed: routed.map(({ skill, query, shouldTrigger, outcomes }) => ({
      skill,
      query,
      shouldTrigger,
      loaded: outcomes.flatMap((outcome) => (outcome.kind === 'completed' ? [outcome.loaded] : [])),
    })),
  };
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The stored run with its report made again, or undefined when `stored` is not one. */
export function readStoredRouting(stored: unknown): RoutingRunInfo | undefined {
  const { version, model, endedAt, queries, routed } = Object(stored) as Record<string, unknown>;
  const counts = Object(queries) as Record<string, unknown>;
  if (version !== 1 || typeof model !== 'string' || !isCount(endedAt) || !Array.isArray(routed) || !['passed', 'failed', 'errored', 'skipped'].every((key) => isCount(counts[key]))) {
    return undefined;
  }
  const rebuilt: RoutedQuery[] = [];
  for (const entry of routed as unknown[]) {
    const { skill, query, shouldTrigger, loaded } = Object(entry) as Record<string, unknown>;
    if (typeof skill !== 'string' || typeof query !== 'string' || typeof shouldTrigger !== 'boolean' || !Array.isArray(loaded) || !loaded.every(isStrings)) {
      return undefined;
    }
    rebuilt.push({ skill, query, shouldTrigger, outcomes: loaded.map((names) => ({ kind: 'completed', triggered: names.includes(skill), loaded: names, firstLine: '' })) });
  }
  return { report: routingReport(rebuilt), model, endedAt, queries: counts as unknown as QueryCounts };
}
