// Ranks skills for a free-text query (the find tool) and suggests names for typos ("did you mean").
// Matching is forgiving on purpose: the model paraphrases, abbreviates and misspells. Ranking is
// BM25F over the name and the description, on lightly stemmed words; a query word also reaches
// the words it is a prefix or a part of, and those within a typo or two. The index is updated one
// record at a time, so a registry keeps it current as skills change instead of rebuilding it.

import type { SkillRecord } from '../model/types';

/** Matches shown by the find tool; a narrower query reaches the rest. */
export const MAX_FIND_MATCHES = 20;

export interface FindOptions {
  /** At most this many matches; all of them when omitted. */
  limit?: number;
}

export interface SkillMatch {
  record: SkillRecord;
  score: number;
  /** How many of the query's meaningful words the skill matches. */
  matchedWords: number;
  /** Whether a query word matches a word of the skill's name. */
  nameMatch: boolean;
}

/** Words that carry no intent in queries like "how do I fill in a pdf form". */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by can do for from help how i in into is it me my need of on or our please some that the these this those to use using want we what which with you your'.split(' '),
);

const NAME = 0;
const DESCRIPTION = 1;
/** A word of the name says far more about intent than the same word somewhere in a description. */
const FIELD_WEIGHTS = [3, 1];
/** Names are all short: their length says little, so it barely normalizes. */
const LENGTH_NORMALIZATION = [0.3, 0.75];
/** BM25's term-frequency saturation. */
const K1 = 1.2;

/** How much a vocabulary word counts for a query word it was reached from. */
const EXACT = 1;
const PREFIX = 0.7; // "extr" finds "extraction"
const ONE_TYPO = 0.6; // "spredsheet" finds "spreadsheet"
const INSIDE = 0.5; // "sheet" finds "spreadsheet"
const SAME_ROOT = 0.5; // "significant" finds "significance"
const TWO_TYPOS = 0.4;
/** Shorter words must match exactly or by prefix: one edit turns most of them into other words. */
const MIN_FUZZY_LENGTH = 4;
const MIN_TWO_TYPOS_LENGTH = 8;
/** A prefix of one or two letters reaches too many words to mean anything. */
const MIN_PREFIX_LENGTH = 2;
/** Long words also reach the words sharing all of them but a few last letters: their root. */
const MIN_ROOT_WORD_LENGTH = 7;
const ROOT_ENDING_LENGTH = 3;
const MIN_ROOT_LENGTH = 5;
/** The query that is the whole name of a skill ("code review", "pdfforms") wants that skill. */
const WHOLE_NAME_FACTOR = 2;
/** Starts the terms of joined names; never part of a word, as words split on it. */
const JOINED_NAME_MARK = '+';

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token !== '');
}

/**
 * A light English stemmer: plurals, -ing, -ed and a final e, so "forms", "merging" and "merged"
 * meet "form" and "merge". Both the index and the query go through it, so its stems need only be
 * consistent, not words.
 */
export function stem(word: string): string {
  let stemmed = word;
  if (stemmed.length > 4 && stemmed.endsWith('ies')) {
    stemmed = `${stemmed.slice(0, -3)}y`;
  } else if (stemmed.length > 3 && stemmed.endsWith('s') && !/(ss|us|is)$/.test(stemmed)) {
    stemmed = stemmed.slice(0, -1);
  }
  if (stemmed.length > 5 && stemmed.endsWith('ing')) {
    stemmed = stemmed.slice(0, -3);
  } else if (stemmed.length > 4 && stemmed.endsWith('ed')) {
    stemmed = stemmed.slice(0, -2);
  }
  if (stemmed.length >= 4 && /([^aeiouls])\1$/.test(stemmed)) {
    stemmed = stemmed.slice(0, -1); // "running" -> "runn" -> "run"
  }
  if (stemmed.length > 3 && stemmed.endsWith('e')) {
    stemmed = stemmed.slice(0, -1);
  }
  return stemmed;
}

/**
 * Optimal string alignment distance: Levenshtein plus adjacent transpositions ("pdf" ~ "pfd").
 * With `limit`, only a band of the table is computed and any distance above it is reported as
 * `limit + 1`: typo lookups and name suggestions only care about small distances.
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

interface IndexedSkill {
  record: SkillRecord;
  /** Per field (name, description): how often each stem occurs. */
  counts: [Map<string, number>, Map<string, number>];
  lengths: [number, number];
  /** The name without separators, stemmed, e.g. "pdfform". */
  compactName: string;
}

/**
 * The term of a name's words written as one ("pdfform" for pdf-forms), apart from the words of the
 * text: it is only ever matched whole. Reached by a prefix or a typo, it would count as a word as
 * rare as a name, for a query word that really matched a common part of it ("pdf").
 */
function joinedNameTerm(compact: string): string {
  return `${JOINED_NAME_MARK}${compact}`;
}

function countStems(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

function indexSkill(record: SkillRecord): IndexedSkill {
  const nameWords = tokenize(record.name);
  const compactName = stem(nameWords.join(''));
  // "pdftools" should find "pdf-tools", so the name also counts as one joined word.
  const name = [...nameWords.map(stem), ...(nameWords.length > 1 ? [joinedNameTerm(compactName)] : [])];
  // Filler words are left out: they say nothing, and a typo lookup would reach them ("form" ~ "for").
  const description = tokenize(record.metadata?.description ?? '')
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem);
  return { record, counts: [countStems(name), countStems(description)], lengths: [name.length, description.length], compactName };
}

/** Every word one deletion away; two words within one edit of each other share one of these. */
function deletions(word: string): string[] {
  const result = new Set<string>();
  for (let index = 0; index < word.length; index++) {
    result.add(word.slice(0, index) + word.slice(index + 1));
  }
  return [...result];
}

function firstIndexNotBelow(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/**
 * An inverted index of skills by the stems of their name and description. Records are added and
 * removed one at a time (`sync` does it for the records that changed between two lists), and the
 * vocabulary lookups for prefixes and typos are kept up to date with them, so a query never scans
 * the skills or compares words one by one against the whole catalog.
 */
export class SkillSearchIndex {
  private readonly skills = new Map<SkillRecord, IndexedSkill>();
  /** The skills holding each stem, in either field. */
  private readonly postings = new Map<string, Set<IndexedSkill>>();
  /** Every stem, sorted, for prefix lookups. */
  private readonly sortedStems: string[] = [];
  /**
   * Stems by themselves and by each of their one-deletion variants, for typo lookups. Lists, not
   * sets: most hold one stem, and there are tens of thousands of them.
   */
  private readonly stemsByDeletion = new Map<string, string[]>();
  private readonly totalLengths = [0, 0];

  get size(): number {
    return this.skills.size;
  }

  /** Makes the index hold exactly `records`, adding and removing only those that changed. */
  sync(records: readonly SkillRecord[]): void {
    const wanted = new Set(records);
    for (const record of [...this.skills.keys()]) {
      if (!wanted.has(record)) {
        this.remove(record);
      }
    }
    for (const record of records) {
      if (!this.skills.has(record)) {
        this.add(record);
      }
    }
  }

  add(record: SkillRecord): void {
    if (this.skills.has(record)) {
      return;
    }
    const skill = indexSkill(record);
    this.skills.set(record, skill);
    for (const stemmed of new Set([...skill.counts[NAME].keys(), ...skill.counts[DESCRIPTION].keys()])) {
      const holders = this.postings.get(stemmed);
      if (holders) {
        holders.add(skill);
      } else {
        this.postings.set(stemmed, new Set([skill]));
        if (!stemmed.startsWith(JOINED_NAME_MARK)) {
          this.addStem(stemmed);
        }
      }
    }
    this.totalLengths[NAME] += skill.lengths[NAME];
    this.totalLengths[DESCRIPTION] += skill.lengths[DESCRIPTION];
  }

  remove(record: SkillRecord): void {
    const skill = this.skills.get(record);
    if (!skill) {
      return;
    }
    this.skills.delete(record);
    for (const stemmed of new Set([...skill.counts[NAME].keys(), ...skill.counts[DESCRIPTION].keys()])) {
      const holders = this.postings.get(stemmed);
      holders?.delete(skill);
      if (holders?.size === 0) {
        this.postings.delete(stemmed);
        if (!stemmed.startsWith(JOINED_NAME_MARK)) {
          this.removeStem(stemmed);
        }
      }
    }
    this.totalLengths[NAME] -= skill.lengths[NAME];
    this.totalLengths[DESCRIPTION] -= skill.lengths[DESCRIPTION];
  }

  /**
   * Skills matching `query`, best first; ties keep alphabetical order so results are stable. An
   * empty query matches nothing: callers show the catalog.
   */
  search(query: string, options: FindOptions = {}): SkillMatch[] {
    const words = queryWords(query);
    const reached = words.map((word) => this.reach(word));
    // "google calendar" also finds "googlecalendar": the joined pair counts as the first word, and
    // the pair as one word of the query.
    let wordCount = words.length;
    for (let index = 0; index + 1 < words.length; index++) {
      const joined = stem(words[index] + words[index + 1]);
      const terms = [joined, joinedNameTerm(joined)].filter((term) => this.postings.has(term));
      for (const term of terms) {
        reached[index].set(term, EXACT);
      }
      if (terms.length > 0) {
        wordCount--;
      }
    }
    const totals = new Map<IndexedSkill, { score: number; matchedWords: number; nameMatch: boolean }>();
    for (const stems of reached) {
      for (const [skill, best] of this.scoreWord(stems)) {
        const total = totals.get(skill);
        if (total) {
          total.score += best.score;
          total.matchedWords++;
          total.nameMatch ||= best.inName;
        } else {
          totals.set(skill, { score: best.score, matchedWords: 1, nameMatch: best.inName });
        }
      }
    }
    const compactQuery = stem(words.join(''));
    const matches: SkillMatch[] = [];
    for (const [skill, total] of totals) {
      // Skills matching more of the query's words come first, whatever one rare word weighs.
      let score = total.score * Math.min(1, total.matchedWords / wordCount);
      if (compactQuery === skill.compactName) {
        score *= WHOLE_NAME_FACTOR;
      }
      matches.push({ record: skill.record, score, matchedWords: total.matchedWords, nameMatch: total.nameMatch });
    }
    matches.sort((a, b) => b.score - a.score || (a.record.name < b.record.name ? -1 : a.record.name > b.record.name ? 1 : 0));
    return options.limit === undefined ? matches : matches.slice(0, options.limit);
  }

  /** BM25F of each skill for one query word: the best of the stems the word reached. */
  private scoreWord(stems: ReadonlyMap<string, number>): Map<IndexedSkill, { score: number; inName: boolean }> {
    const count = this.skills.size;
    const averageLengths = this.totalLengths.map((total) => Math.max(1, total / count));
    const best = new Map<IndexedSkill, { score: number; inName: boolean }>();
    for (const [stemmed, weight] of stems) {
      const holders = this.postings.get(stemmed)!;
      const idf = Math.log(1 + (count - holders.size + 0.5) / (holders.size + 0.5));
      for (const skill of holders) {
        let frequency = 0;
        for (const field of [NAME, DESCRIPTION]) {
          const occurrences = skill.counts[field].get(stemmed);
          if (occurrences) {
            const normalization = 1 - LENGTH_NORMALIZATION[field] + (LENGTH_NORMALIZATION[field] * skill.lengths[field]) / averageLengths[field];
            frequency += (FIELD_WEIGHTS[field] * occurrences) / normalization;
          }
        }
        const score = (weight * idf * frequency * (K1 + 1)) / (frequency + K1);
        const inName = skill.counts[NAME].has(stemmed);
        const previous = best.get(skill);
        // On a tie the name wins, whichever of the two stems was reached first.
        if (!previous || score > previous.score || (score === previous.score && inName)) {
          best.set(skill, { score, inName });
        }
      }
    }
    return best;
  }

  /** The indexed stems a query word stands for, each with how much it counts. */
  private reach(word: string): Map<string, number> {
    const reached = new Map<string, number>();
    const offer = (stemmed: string, weight: number): void => {
      if ((reached.get(stemmed) ?? 0) < weight) {
        reached.set(stemmed, weight);
      }
    };
    const stemmed = stem(word);
    for (const exact of [word, stemmed, joinedNameTerm(stemmed)]) {
      if (this.postings.has(exact)) {
        offer(exact, EXACT);
      }
    }
    if (word.length >= MIN_PREFIX_LENGTH) {
      for (const prefix of new Set([word, stemmed])) {
        this.forEachStemStartingWith(prefix, (found) => offer(found, PREFIX));
      }
    }
    if (stemmed.length >= MIN_ROOT_WORD_LENGTH) {
      this.forEachStemStartingWith(stemmed.slice(0, Math.max(MIN_ROOT_LENGTH, stemmed.length - ROOT_ENDING_LENGTH)), (found) => offer(found, SAME_ROOT));
    }
    if (word.length >= MIN_FUZZY_LENGTH) {
      for (const candidate of this.sortedStems) {
        if (candidate.length > word.length && candidate.includes(word)) {
          offer(candidate, INSIDE);
        }
      }
      for (const typed of new Set([word, stemmed])) {
        if (typed.length < MIN_FUZZY_LENGTH) {
          continue;
        }
        const typos = typed.length >= MIN_TWO_TYPOS_LENGTH ? 2 : 1;
        for (const variant of [typed, ...deletions(typed)]) {
          for (const candidate of this.stemsByDeletion.get(variant) ?? []) {
            const distance = editDistance(typed, candidate, typos);
            if (distance <= typos) {
              offer(candidate, distance === 0 ? EXACT : distance === 1 ? ONE_TYPO : TWO_TYPOS);
            }
          }
        }
      }
    }
    return reached;
  }

  private forEachStemStartingWith(prefix: string, action: (found: string) => void): void {
    for (let index = firstIndexNotBelow(this.sortedStems, prefix); index < this.sortedStems.length && this.sortedStems[index].startsWith(prefix); index++) {
      action(this.sortedStems[index]);
    }
  }

  private addStem(stemmed: string): void {
    this.sortedStems.splice(firstIndexNotBelow(this.sortedStems, stemmed), 0, stemmed);
    for (const variant of typoKeys(stemmed)) {
      const stems = this.stemsByDeletion.get(variant);
      if (stems) {
        stems.push(stemmed);
      } else {
        this.stemsByDeletion.set(variant, [stemmed]);
      }
    }
  }

  private removeStem(stemmed: string): void {
    // Only stems added by addStem come here, so each is in the list and under each of its keys.
    this.sortedStems.splice(firstIndexNotBelow(this.sortedStems, stemmed), 1);
    for (const variant of typoKeys(stemmed)) {
      const stems = this.stemsByDeletion.get(variant)!;
      stems.splice(stems.indexOf(stemmed), 1);
      if (stems.length === 0) {
        this.stemsByDeletion.delete(variant);
      }
    }
  }
}

/**
 * The keys a stem is found by in typo lookups: itself, and its one-deletion variants that a query
 * word long enough for typos can produce (a variant shorter than that word minus one cannot).
 */
function typoKeys(stemmed: string): string[] {
  return stemmed.length > MIN_FUZZY_LENGTH - 1 ? [stemmed, ...deletions(stemmed)] : [stemmed];
}

function queryWords(query: string): string[] {
  const words = tokenize(query);
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  return [...new Set(meaningful.length > 0 ? meaningful : words)];
}

/**
 * Ranks `records` for `query` with a one-off index: for a list ranked once. Callers that rank
 * the same skills again and again keep a SkillSearchIndex (a registry snapshot's findSkills does).
 */
export function findSkills(records: readonly SkillRecord[], query: string, options: FindOptions = {}): SkillMatch[] {
  const index = new SkillSearchIndex();
  index.sync(records);
  return index.search(query, options);
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
