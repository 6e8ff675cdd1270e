// What a trigger-test run writes to its output (Test Results): one short block per query, written
// when its runs are done, in lines that fit a narrow panel without a word cut in two.

import { wrapWords } from '../util/text';
import type { QueryVerdict, RunOutcome } from './verdict';

/** Columns of a Test Results panel about 280 px wide: the output's lines never get longer. */
export const OUTPUT_WIDTH = 34;
const CONTINUATION = '    ';

/** The skill and the query, the verdict, then what each run loaded (or the model's error). */
export function queryOutputBlock(skill: string, query: string, shouldTrigger: boolean, verdict: QueryVerdict, outcomes: readonly RunOutcome[]): string[] {
  const expected = shouldTrigger ? 'should trigger' : 'should not trigger';
  return [...fitted(`${skill}: “${query}”`), ...fitted(`${verdict.kind}, ${expected}`), ...outcomes.flatMap((outcome, index) => fitted(`run ${index + 1}: ${describeOutcome(outcome)}`, '  ')), ''];
}

/** Any other line of the output, fitted the same way. */
export function outputLines(text: string): string[] {
  return fitted(text);
}

function describeOutcome(outcome: RunOutcome): string {
  if (outcome.kind === 'errored') {
    return `model error: ${outcome.message}`;
  }
  const loaded = outcome.loaded.length > 0 ? `loaded ${outcome.loaded.join(', ')}` : 'loaded no skill';
  return outcome.firstLine ? `${loaded}; wrote “${outcome.firstLine}”` : loaded;
}

function fitted(text: string, margin = ''): string[] {
  return wrapWords(text, OUTPUT_WIDTH - margin.length, CONTINUATION).map((line) => margin + line);
}
