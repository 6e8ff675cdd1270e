// Ranks skills for a free-text query (the find tool) and suggests names for typos ("did you mean").
// Matching is forgiving on purpose: the model paraphrases, abbreviates and misspells.

import type { SkillRecord } from '../model/types';

export interface FindOptions {
  /** At most this many matches; all of them when omitted. */
  limit?: number;
}

export interface SkillMatch {
  record: SkillRecord;
  score: number;
}

/** Words that carry no intent in queries like "how to fill in a pdf form". */
const STOP_WORDS = new Set(['a', 'an', 'and', 'the', 'to', 'of', 'for', 'in', 'on', 'with', 'or', 'how', 'i', 'my', 'me', 'is', 'it', 'this', 'that']);

/** A name hit says far more about intent than the same word somewhere in a description. */
const NAME_WEIGHT = 3;
const DESCRIPTION_WEIGHT = 1;

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
}

/**
 * Optimal string alignment distance: Levenshtein plus adjacent transpositions ("pdf" ~ "pfd").
 * With `limit`, only a band of the table is computed and any distance above it is reported as
 * `limit + 1`: ranking compares thousands of word pairs and only cares about small distances.
 */
export function editDistance(a: string, b: string, limit = Math.max(a.length, b.length)): number {
  if (Math.abs(a.length - b.length) > limit) {
    return limit + 1;
  }
  const outside = limit + 1;
  const width = b.length + 1;
  let beforePrevious = new Array<number>(width).fill(outside);
  let previous = Array.from({ length: width }, (_, column) => (column <= limit ? column : outside));
  let current = new Array<number>(width);
  for (let row = 1; row <= a.length; row++) {
    const first = Math.max(1, row - limit);
    const last = Math.min(b.length, row + limit);
    current.fill(outside);
    current[0] = row <= limit ? row : outside;
    let rowMinimum = current[0];
    for (let column = first; column <= last; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, beforePrevious[column - 2] + 1);
      }
      current[column] = Math.min(best, outside);
      rowMinimum = Math.min(rowMinimum, current[column]);
    }
    if (rowMinimum > limit) {
      return outside;
    }
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[b.length];
}

/** Typos tolerated grow with word length; short words must match exactly or by prefix. */
function allowedTypos(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/** How well one query word matches one text word, from 0 (not at all) to 1 (exactly). */
export function wordSimilarity(queryWord: string, word: string): number {
  if (queryWord === word) {
    return 1;
  }
  if (word.startsWith(queryWord) && queryWord.length >= 2) {
    return 0.8; // "extract" finds "extraction"
  }
  if (queryWord.startsWith(word) && word.length >= 3) {
    return 0.6; // "documents" finds "document"
  }
  if (queryWord.length >= 3 && word.includes(queryWord)) {
    return 0.5; // "sheet" finds "spreadsheet"
  }
  const typos = allowedTypos(Math.min(queryWord.length, word.length));
  if (typos > 0 && Math.abs(queryWord.length - word.length) <= typos) {
    const distance = editDistance(queryWord, word, typos);
    if (distance <= typos) {
      return distance === 1 ? 0.6 : 0.4;
    }
  }
  return 0;
}

function bestSimilarity(queryWord: string, words: readonly string[]): number {
  let best = 0;
  for (const word of words) {
    best = Math.max(best, wordSimilarity(queryWord, word));
    if (best === 1) {
      break;
    }
  }
  return best;
}

function queryWords(query: string): string[] {
  const words = tokenize(query);
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  return meaningful.length > 0 ? meaningful : words;
}

/** Scores one skill against the query words; 0 means it does not match at all. */
function scoreSkill(record: SkillRecord, words: readonly string[], compactQuery: string): number {
  const nameWords = tokenize(record.name);
  // "pdftools" should find "pdf-tools", so the name also counts as one joined word.
  nameWords.push(nameWords.join(''));
  const descriptionWords = tokenize(record.metadata?.description ?? '');
  let score = 0;
  for (const word of words) {
    score += Math.max(NAME_WEIGHT * bestSimilarity(word, nameWords), DESCRIPTION_WEIGHT * bestSimilarity(word, descriptionWords));
  }
  if (score > 0 && compactQuery === nameWords[nameWords.length - 1]) {
    score += NAME_WEIGHT * 2; // The query is the skill's name.
  }
  return score;
}

/**
 * Ranks skills by how well their name and description match `query`, best first; ties keep
 * alphabetical order so results are stable. An empty query matches nothing: callers show the catalog.
 */
export function findSkills(records: readonly SkillRecord[], query: string, options: FindOptions = {}): SkillMatch[] {
  const words = queryWords(query);
  if (words.length === 0) {
    return [];
  }
  const compactQuery = words.join('');
  const matches = records
    .map((record) => ({ record, score: scoreSkill(record, words, compactQuery) }))
    .filter((match) => match.score > 0)
    .sort((a, b) => b.score - a.score || (a.record.name < b.record.name ? -1 : a.record.name > b.record.name ? 1 : 0));
  return options.limit === undefined ? matches : matches.slice(0, options.limit);
}

/** Names close to `name` (typos, prefixes, partial words), closest first, for "did you mean". */
export function closestNames(name: string, names: readonly string[], limit = 5): string[] {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') {
    return [];
  }
  const candidates: { name: string; distance: number }[] = [];
  for (const candidate of new Set(names)) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const related = lower.includes(wanted) || wanted.includes(lower);
    if (distance <= Math.max(2, Math.floor(wanted.length / 3)) || (related && Math.min(wanted.length, lower.length) >= 3)) {
      candidates.push({ name: candidate, distance });
    }
  }
  return candidates
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit)
    .map((candidate) => candidate.name);
}
