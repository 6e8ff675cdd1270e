// What a trigger test's runs add up to: the trigger rate, pass or fail against the threshold, the
// message the Testing view shows, and a skill's precision and recall over its queries.

/** One run of one query. */
export type RunOutcome =
  | {
      kind: 'completed';
      /** The model activated the skill under test. */
      triggered: boolean;
      /** Every skill the model asked to activate, in order. */
      loaded: string[];
      /** The first line of text the model wrote ('' when it wrote none). */
      firstLine: string;
    }
  | { kind: 'errored'; message: string };

export type QueryVerdict =
  | { kind: 'passed'; rate: number; triggeredRuns: number; runs: number; message: string }
  | { kind: 'failed'; rate: number; triggeredRuns: number; runs: number; message: string }
  | { kind: 'errored'; message: string };

/**
 * A query passes when its trigger rate reaches the threshold if it should trigger, and stays below
 * it if it should not. A model error in any run makes the query errored: its rate would be a guess.
 */
export function queryVerdict(skill: string, shouldTrigger: boolean, outcomes: readonly RunOutcome[], threshold: number): QueryVerdict {
  const failure = outcomes.find((outcome) => outcome.kind === 'errored');
  if (failure) {
    return { kind: 'errored', message: failure.message };
  }
  const completed = outcomes.filter((outcome) => outcome.kind === 'completed');
  if (completed.length === 0) {
    return { kind: 'errored', message: 'No run completed.' };
  }
  const triggeredRuns = completed.filter((outcome) => outcome.triggered).length;
  const rate = triggeredRuns / completed.length;
  const reached = rate >= threshold;
  const runsText = `${triggeredRuns} of ${pluralRuns(completed.length)}`;
  const passed = shouldTrigger === reached;
  const summary = `Triggered ${skill} in ${runsText} (${shouldTrigger ? 'should trigger' : 'should not trigger'}, threshold ${formatPercent(threshold)})`;
  if (passed) {
    return { kind: 'passed', rate, triggeredRuns, runs: completed.length, message: `${summary}.` };
  }
  return { kind: 'failed', rate, triggeredRuns, runs: completed.length, message: `${summary}: ${describeFailure(skill, shouldTrigger, rate, completed)}` };
}

/**
 * For a failure, what differed from the expectation: the rate against the threshold, then what the
 * runs that went the wrong way loaded (never the skill under test again: the rate already counts it).
 */
function describeFailure(skill: string, shouldTrigger: boolean, rate: number, completed: readonly Extract<RunOutcome, { kind: 'completed' }>[]): string {
  const wrong = completed.filter((outcome) => outcome.triggered !== shouldTrigger);
  const firstLine = wrong.map((outcome) => outcome.firstLine).find((line) => line !== '');
  const wrote = firstLine ? ` The model wrote: "${firstLine}"` : '';
  if (!shouldTrigger) {
    const alongside = countBy(wrong.flatMap((outcome) => outcome.loaded.filter((name) => name !== skill)));
    const also = alongside.length > 0 ? ` Also loaded: ${alongside.map(([name, count]) => `${name} (${pluralRuns(count)})`).join(', ')}.` : '';
    return `${formatPercent(rate)} reaches the threshold.${also}${wrote}`;
  }
  const groups = countBy(wrong.map((outcome) => (outcome.loaded.length > 0 ? outcome.loaded.join(', ') : 'no skill')));
  const subject = wrong.length === completed.length ? (wrong.length === 1 ? 'The run' : `All ${wrong.length} runs`) : wrong.length === 1 ? 'The other run' : `The ${wrong.length} other runs`;
  const what = groups.length === 1 ? ` loaded ${groups[0][0]}` : `: ${groups.map(([loaded, count]) => `${count} loaded ${loaded}`).join(', ')}`;
  return `${formatPercent(rate)} is under the threshold. ${subject}${what}.${wrote}`;
}

/** Each distinct value with how often it occurs, in order of first occurrence. */
function countBy(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  values.forEach((value) => counts.set(value, (counts.get(value) ?? 0) + 1));
  return [...counts];
}

function pluralRuns(count: number): string {
  return `${count} run${count === 1 ? '' : 's'}`;
}

export interface PrecisionRecall {
  /** Of the queries that triggered, the share that should have; undefined when none triggered. */
  precision?: number;
  /** Of the queries that should trigger, the share that did; undefined when none should. */
  recall?: number;
}

/** Over a skill's finished queries (errored ones are left out): a query triggered when its rate reached the threshold. */
export function precisionRecall(results: readonly { shouldTrigger: boolean; verdict: QueryVerdict }[]): PrecisionRecall {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const { shouldTrigger, verdict } of results) {
    if (verdict.kind === 'errored') {
      continue;
    }
    const triggered = (verdict.kind === 'passed') === shouldTrigger;
    if (triggered && shouldTrigger) {
      truePositives++;
    } else if (triggered) {
      falsePositives++;
    } else if (shouldTrigger) {
      falseNegatives++;
    }
  }
  return {
    ...(truePositives + falsePositives > 0 ? { precision: truePositives / (truePositives + falsePositives) } : {}),
    ...(truePositives + falseNegatives > 0 ? { recall: truePositives / (truePositives + falseNegatives) } : {}),
  };
}

/** "precision 100% · recall 67%", with "n/a" where a share is undefined. */
export function describePrecisionRecall(scores: PrecisionRecall): string {
  const share = (value: number | undefined): string => (value === undefined ? 'n/a' : formatPercent(value));
  return `precision ${share(scores.precision)} · recall ${share(scores.recall)}`;
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
