// What a trigger-test run writes to its output (Test Results): one short block per query, written
// when its runs are done, in lines that fit a narrow panel without a word cut in two. The output is
// a terminal that wraps wherever its edge falls and cannot say how wide it is: the lines are cut
// for the narrowest panel that still shows it (270 px, about 17 columns beside the results tree),
// and runs that loaded the same thing share a line so the block stays short in a wide panel too.

import { collapseWhitespace } from '../util/text';
import type { QueryVerdict, RunOutcome } from './verdict';

/** Columns of a Test Results panel 270 px wide: the output's lines never get longer. */
export const OUTPUT_WIDTH = 16;
const CONTINUATION = '  ';

/** The skill, the query, the verdict, then what the runs loaded (or the model's error). */
export function queryOutputBlock(skill: string, query: string, shouldTrigger: boolean, verdict: QueryVerdict, outcomes: readonly RunOutcome[]): string[] {
  const expected = shouldTrigger ? 'should trigger' : 'should not trigger';
  return [...fitted(`${skill}:`), ...fitted(`“${query}”`), ...fitted(`${verdict.kind}: ${expected}`), ...runGroups(outcomes).flatMap((line) => fitted(line)), ''];
}

/** Any other line of the output, fitted the same way. */
export function outputLines(text: string): string[] {
  return fitted(text);
}

/** "run 1: …" for each run, "runs 1–3: …" for consecutive runs that did the same. */
function runGroups(outcomes: readonly RunOutcome[]): string[] {
  const groups: { first: number; last: number; text: string }[] = [];
  outcomes.forEach((outcome, index) => {
    const text = describeOutcome(outcome);
    const previous = groups.at(-1);
    if (previous?.text === text) {
      previous.last = index + 1;
    } else {
      groups.push({ first: index + 1, last: index + 1, text });
    }
  });
  return groups.map(({ first, last, text }) => (first === last ? `run ${first}: ${text}` : `runs ${first}–${last}: ${text}`));
}

function describeOutcome(outcome: RunOutcome): string {
  if (outcome.kind === 'errored') {
    return `model error: ${outcome.message}`;
  }
  const loaded = outcome.loaded.length > 0 ? `loaded ${outcome.loaded.join(', ')}` : 'loaded no skill';
  return outcome.firstLine ? `${loaded}; wrote “${outcome.firstLine}”` : loaded;
}

/**
 * Wrapped at OUTPUT_WIDTH between words; a word longer than a line (a skill's name can have 64
 * characters) is broken after one of its hyphens, and only where it has none, mid-word.
 */
function fitted(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of collapseWhitespace(text).split(' ')) {
    longWordPieces(word, OUTPUT_WIDTH - CONTINUATION.length).forEach((piece, index) => {
      const lead = lines.length === 0 ? '' : CONTINUATION;
      const separator = line === '' || index > 0 ? '' : ' ';
      if (line !== '' && lead.length + line.length + separator.length + piece.length > OUTPUT_WIDTH) {
        lines.push(lead + line);
        line = piece;
      } else {
        line += separator + piece;
      }
    });
  }
  lines.push((lines.length === 0 ? '' : CONTINUATION) + line);
  return lines;
}

function longWordPieces(word: string, width: number): string[] {
  if (word.length <= width) {
    return [word];
  }
  const pieces: string[] = [];
  for (const part of word.split(/(?<=-)/)) {
    const last = pieces.at(-1);
    if (last !== undefined && last.endsWith('-') && last.length + part.length <= width) {
      pieces[pieces.length - 1] = last + part;
    } else {
      for (let start = 0; start < part.length; start += width) {
        pieces.push(part.slice(start, start + width));
      }
    }
  }
  return pieces;
}
