// Ranks skills for a free-text query (the find tool) and suggests names for typos ("did you mean").
// Matching is forgiving on purpose: the model paraphrases, abbreviates and misspells. Ranking is
// BM25F over the name and the description, on lightly stemmed words; a query word also reaches
// the words it is a prefix or a part of, and those within a typo or two. The index is updated one
// record at a time, so a registry keeps it current as skills change instead of rebuilding it.

import type { SkillRecord } from '../model/types';

export interface FindOptions {
  /** At most this many matches; all of them when omitted. */
  limit?: number;
}

/** The best matches of a query, and how many skills it matched in all. */
export interface RankedMatches {
  best: SkillMatch[];
  total: number;
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
/** Query words whose reached stems a search index remembers: a client's queries come from anywhere, so the memory is bounded. */
const MAX_REMEMBERED_WORDS = 512;
/** Starts the terms of joined names; never part of a word, as words split on it. */
const JOINED_NAME_MARK = '+';

/** Words of a text: its runs of letters and digits, lower-cased. */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let start = -1;
  // Most descriptions and queries are ASCII: a scan of their codes costs a fraction of the Unicode split.
  for (let at = 0; at < lower.length; at++) {
    const code = lower.charCodeAt(at);
    if (code >= 0x80) {
      return unicodeWords(lower);
    }
    // Lower-cased ASCII has no capitals left: its letters and digits are a-z and 0-9.
    const inWord = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
    if (inWord && start < 0) {
      start = at;
    } else if (!inWord && start >= 0) {
      words.push(lower.slice(start, at));
      start = -1;
    }
  }
  if (start >= 0) {
    words.push(lower.slice(start));
  }
  return words;
}

/** tokenize for any text: the Unicode classes of letters and numbers decide. */
function unicodeWords(lower: string): string[] {
  return lower.split(/[^\p{L}\p{N}]+/u).filter((token) => token !== '');
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
  let [beforePrevious, previous, current] = distanceRows(width);
  beforePrevious.fill(outside, 0, width);
  for (let column = 0; column < width; column++) {
    previous[column] = column <= limit ? column : outside;
  }
  for (let row = 1; row <= a.length; row++) {
    const first = Math.max(1, row - limit);
    const last = Math.min(b.length, row + limit);
    current.fill(outside, 0, width);
    current[0] = row <= limit ? row : outside;
    let rowMinimum = current[0];
    for (let column = first; column <= last; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost);
      // In the first row or column a[-1] or b[-1] is undefined, equal to no character: no transposition there.
      if (a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
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

/**
 * The three rows editDistance works in, one buffer kept between calls (a search makes hundreds)
 * and grown as needed; every call checks its size, so one that finds it too small grows it.
 */
let sharedRows = new Float64Array(3 * 64);

function distanceRows(width: number): [Float64Array, Float64Array, Float64Array] {
  if (sharedRows.length < 3 * width) {
    sharedRows = new Float64Array(3 * width);
  }
  return [sharedRows.subarray(0, width), sharedRows.subarray(width, 2 * width), sharedRows.subarray(2 * width, 3 * width)];
}

interface IndexedSkill {
  record: SkillRecord;
  /** Per field (name, description): how often each stem occurs. */
  counts: [Map<string, number>, Map<string, number>];
  lengths: [number, number];
  /** The name without separators, stemmed, e.g. "pdfform". */
  compactName: string;
  /** Its place in the index's per-query score arrays; freed for reuse when the skill is removed. */
  slot: number;
}

/**
 * What BM25F gives one stem in each skill holding it, as long as the index is unchanged: flat
 * arrays by holder, so a search reads them in order instead of visiting each skill's object.
 */
interface TermScores {
  /** The holders' slots. */
  slots: Int32Array;
  /** The stem's BM25F score in each holder (its rarity times its saturated, length-normalised, field-weighted frequency). */
  scores: Float64Array;
  inName: Uint8Array;
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
  return { record, counts: [countStems(name), countStems(description)], lengths: [name.length, description.length], compactName, slot: -1 };
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

/** The index of the last of `sorted` (ascending, its first at most `value`) that is at most `value`. */
function lastIndexNotAbove(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sorted[middle] <= value) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

/** `stems` as one text, each followed by a line break (never part of a stem), and where each starts. */
function vocabularyText(stems: readonly string[]): { text: string; starts: Int32Array } {
  const starts = new Int32Array(stems.length);
  let length = 0;
  stems.forEach((stemmed, index) => {
    starts[index] = length;
    length += stemmed.length + 1;
  });
  return { text: `${stems.join('\n')}\n`, starts };
}

/** The positions 0…count-1 that come first by `before` (a strict total order), `limit` of them, in that order. */
function bestPositions(count: number, limit: number, before: (a: number, b: number) => boolean): number[] {
  if (limit >= count) {
    return Array.from({ length: count }, (_, position) => position).sort((a, b) => (before(a, b) ? -1 : 1));
  }
  const best: number[] = [];
  for (let position = 0; position < count && limit > 0; position++) {
    if (best.length === limit && !before(position, best[limit - 1])) {
      continue;
    }
    let at = best.length;
    while (at > 0 && before(position, best[at - 1])) {
      at--;
    }
    best.splice(at, 0, position);
    if (best.length > limit) {
      best.pop();
    }
  }
  return best;
}

const MAX_STAMP = 0xffff_ffff;

/** The stamp after `stamp`; when the stamps run out, every entry is marked unwritten and they start again. */
function nextStamp(stamp: number, stamps: Uint32Array): number {
  if (stamp < MAX_STAMP) {
    return stamp + 1;
  }
  stamps.fill(0);
  return 1;
}

/**
 * A query's running totals, by skill slot, in arrays kept from one search to the next (a search
 * touches hundreds of skills; maps of them were most of its time). Stamps tell which entries the
 * current query and word have written, so nothing is cleared between searches.
 */
class QueryScratch {
  /** Slots it has room for. */
  readonly capacity: number;
  readonly totalScores: Float64Array;
  readonly matchedWords: Uint32Array;
  readonly nameMatches: Uint8Array;
  private readonly queryStamps: Uint32Array;
  readonly wordScores: Float64Array;
  readonly wordInName: Uint8Array;
  readonly wordStamps: Uint32Array;
  /** Slots of the skills the query matched, in the order they were first matched (ties keep it); `touchedCount` of them. */
  readonly touched: Int32Array;
  touchedCount = 0;
  /** Slots of the skills the current word reached. */
  readonly wordTouched: Int32Array;
  private queryStamp = 0;
  wordStamp = 0;

  constructor(slots: number) {
    this.capacity = Math.max(16, slots * 2);
    this.totalScores = new Float64Array(this.capacity);
    this.matchedWords = new Uint32Array(this.capacity);
    this.nameMatches = new Uint8Array(this.capacity);
    this.queryStamps = new Uint32Array(this.capacity);
    this.wordScores = new Float64Array(this.capacity);
    this.wordInName = new Uint8Array(this.capacity);
    this.wordStamps = new Uint32Array(this.capacity);
    this.touched = new Int32Array(this.capacity);
    this.wordTouched = new Int32Array(this.capacity);
  }

  startQuery(): void {
    this.queryStamp = nextStamp(this.queryStamp, this.queryStamps);
    this.touchedCount = 0;
  }

  startWord(): void {
    this.wordStamp = nextStamp(this.wordStamp, this.wordStamps);
  }

  add(slot: number, score: number, inName: number): void {
    if (this.queryStamps[slot] !== this.queryStamp) {
      this.queryStamps[slot] = this.queryStamp;
      this.totalScores[slot] = score;
      this.matchedWords[slot] = 1;
      this.nameMatches[slot] = inName;
      this.touched[this.touchedCount++] = slot;
    } else {
      this.totalScores[slot] += score;
      this.matchedWords[slot]++;
      this.nameMatches[slot] |= inName;
    }
  }
}

/**
 * An inverted index of skills by the stems of their name and description. Records are added and
 * removed one at a time (`sync` does it for the records that changed between two lists), and the
 * vocabulary lookups for prefixes and typos are kept up to date with them, so a query never scans
 * the skills or compares words one by one against the whole catalog.
 */
export class SkillSearchIndex {
  private readonly skills = new Map<SkillRecord, IndexedSkill>();
  /** The indexed skills by slot. */
  private readonly bySlot: (IndexedSkill | undefined)[] = [];
  /** Slots by compact name, for queries that are a whole name. */
  private readonly compactNames = new Map<string, number[]>();
  /** The skills holding each stem, in either field. */
  private readonly postings = new Map<string, Set<IndexedSkill>>();
  /** Every stem, sorted, for prefix lookups. */
  private readonly sortedStems: string[] = [];
  /** The sorted stems as one text, each followed by a line break, with where each starts: found inside in one scan. Made again when a stem comes or goes. */
  private vocabulary: { text: string; starts: Int32Array } | undefined;
  /**
   * Stems by themselves and by each of their one-deletion variants, for typo lookups. Lists, not
   * sets: most hold one stem, and there are tens of thousands of them.
   */
  private readonly stemsByDeletion = new Map<string, string[]>();
  private readonly totalLengths = [0, 0];
  /**
   * Each searched stem's rarity and frequencies per holder: they depend on the whole index (the number of skills,
   * the average lengths), so any change empties it; searches between changes reuse it.
   */
  private readonly termScores = new Map<string, TermScores>();
  /**
   * The stems each recent query word reached (see reach), which depend on the vocabulary alone: any
   * change empties it, like the term scores. Finding them is most of a search's time, and words
   * recur across queries. At most MAX_REMEMBERED_WORDS, the oldest forgotten first.
   */
  private readonly reachedByWord = new Map<string, ReadonlyMap<string, number>>();
  /** Slots of removed skills, taken again before new ones. */
  private readonly freeSlots: number[] = [];
  private slotCount = 0;
  private scratch = new QueryScratch(0);

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
    skill.slot = this.freeSlots.pop() ?? this.slotCount++;
    this.skills.set(record, skill);
    this.bySlot[skill.slot] = skill;
    const sameName = this.compactNames.get(skill.compactName);
    if (sameName) {
      sameName.push(skill.slot);
    } else {
      this.compactNames.set(skill.compactName, [skill.slot]);
    }
    this.forgetScores();
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
    this.freeSlots.push(skill.slot);
    this.bySlot[skill.slot] = undefined;
    const sameName = this.compactNames.get(skill.compactName)!;
    sameName.splice(sameName.indexOf(skill.slot), 1);
    if (sameName.length === 0) {
      this.compactNames.delete(skill.compactName);
    }
    this.forgetScores();
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
    return this.rank(query, options.limit).best;
  }

  /**
   * The `limit` best skills for `query`, in the order `search` gives, and how many matched in all.
   * Only those few are sorted: a broad query matches most of a large catalog.
   */
  rank(query: string, limit = Infinity): RankedMatches {
    const words = queryWords(query);
    const reached = words.map((word) => this.reachOf(word));
    // "google calendar" also finds "googlecalendar": the joined pair counts as the first word, and
    // the pair as one word of the query.
    let wordCount = words.length;
    for (let index = 0; index + 1 < words.length; index++) {
      const joined = stem(words[index] + words[index + 1]);
      const terms = [joined, joinedNameTerm(joined)].filter((term) => this.postings.has(term));
      if (terms.length > 0) {
        reached[index] = new Map([...reached[index], ...terms.map((term): [string, number] => [term, EXACT])]);
        wordCount--;
      }
    }
    if (this.scratch.capacity < this.slotCount) {
      this.scratch = new QueryScratch(this.slotCount);
    }
    const scratch = this.scratch;
    scratch.startQuery();
    for (const stems of reached) {
      this.scoreWord(stems, scratch);
    }
    const { touched, touchedCount: total, totalScores, matchedWords } = scratch;
    // Skills matching more of the query's words come first, whatever one rare word weighs.
    for (let position = 0; position < total; position++) {
      const slot = touched[position];
      if (matchedWords[slot] < wordCount) {
        totalScores[slot] *= matchedWords[slot] / wordCount;
      }
    }
    for (const slot of this.compactNames.get(stem(words.join(''))) ?? []) {
      totalScores[slot] *= WHOLE_NAME_FACTOR; // Touched or not: an untouched slot's total is never read.
    }
    const nameAt = (position: number): string => this.bySlot[touched[position]]!.record.name;
    // Higher score first, then alphabetical, then the order the skills were matched in (the index's).
    const before = (a: number, b: number): boolean => {
      const scoreA = totalScores[touched[a]];
      const scoreB = totalScores[touched[b]];
      if (scoreA !== scoreB) {
        return scoreA > scoreB;
      }
      const nameA = nameAt(a);
      const nameB = nameAt(b);
      return nameA !== nameB ? nameA < nameB : a < b;
    };
    const best = bestPositions(total, Math.min(limit, total), before).map((position) => {
      const slot = touched[position];
      return { record: this.bySlot[slot]!.record, score: totalScores[slot], matchedWords: matchedWords[slot], nameMatch: scratch.nameMatches[slot] === 1 };
    });
    return { best, total };
  }

  /** Adds each skill's BM25F for one query word to the query's totals: the best of the stems the word reached. */
  private scoreWord(stems: ReadonlyMap<string, number>, scratch: QueryScratch): void {
    scratch.startWord();
    const { wordScores, wordInName, wordStamps, wordTouched } = scratch;
    const stamp = scratch.wordStamp;
    let reached = 0;
    for (const [stemmed, weight] of stems) {
      const { slots, scores, inName: holdersInName } = this.termScoresOf(stemmed);
      for (let index = 0; index < slots.length; index++) {
        const slot = slots[index];
        const score = weight * scores[index];
        const inName = holdersInName[index];
        if (wordStamps[slot] !== stamp) {
          wordStamps[slot] = stamp;
          wordScores[slot] = score;
          wordInName[slot] = inName;
          wordTouched[reached++] = slot;
        } else if (score > wordScores[slot] || (score === wordScores[slot] && inName === 1)) {
          // On a tie the name wins, whichever of the two stems was reached first.
          wordScores[slot] = score;
          wordInName[slot] = inName;
        }
      }
    }
    for (let index = 0; index < reached; index++) {
      const slot = wordTouched[index];
      scratch.add(slot, wordScores[slot], wordInName[slot]);
    }
  }

  /** What the searches remembered of the index as it was. */
  private forgetScores(): void {
    this.termScores.clear();
    this.reachedByWord.clear();
  }

  /** The stem's rarity and frequency per holder, computed once per state of the index. */
  private termScoresOf(stemmed: string): TermScores {
    const known = this.termScores.get(stemmed);
    if (known) {
      return known;
    }
    const count = this.skills.size;
    const averageLengths = this.totalLengths.map((total) => Math.max(1, total / count));
    const holders = [...this.postings.get(stemmed)!];
    const idf = Math.log(1 + (count - holders.length + 0.5) / (holders.length + 0.5));
    const slots = new Int32Array(holders.length);
    const scores = new Float64Array(holders.length);
    const inName = new Uint8Array(holders.length);
    holders.forEach((skill, index) => {
      let frequency = 0;
      for (const field of [NAME, DESCRIPTION]) {
        const occurrences = skill.counts[field].get(stemmed);
        if (occurrences) {
          const normalization = 1 - LENGTH_NORMALIZATION[field] + (LENGTH_NORMALIZATION[field] * skill.lengths[field]) / averageLengths[field];
          frequency += (FIELD_WEIGHTS[field] * occurrences) / normalization;
        }
      }
      slots[index] = skill.slot;
      scores[index] = (idf * frequency * (K1 + 1)) / (frequency + K1);
      inName[index] = skill.counts[NAME].has(stemmed) ? 1 : 0;
    });
    const terms = { slots, scores, inName };
    this.termScores.set(stemmed, terms);
    return terms;
  }

  /** What reach finds for `word`, remembered until the index changes. */
  private reachOf(word: string): ReadonlyMap<string, number> {
    let reached = this.reachedByWord.get(word);
    if (!reached) {
      reached = this.reach(word);
      if (this.reachedByWord.size >= MAX_REMEMBERED_WORDS) {
        this.reachedByWord.delete(this.reachedByWord.keys().next().value!);
      }
      this.reachedByWord.set(word, reached);
    }
    return reached;
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
      this.forEachStemHolding(word, (found) => offer(found, INSIDE));
      for (const typed of new Set([word, stemmed])) {
        if (typed.length < MIN_FUZZY_LENGTH) {
          continue;
        }
        const typos = typed.length >= MIN_TWO_TYPOS_LENGTH ? 2 : 1;
        // A stem shares several of these keys with the word; it is measured once.
        const measured = new Set<string>();
        for (const variant of [typed, ...deletions(typed)]) {
          for (const candidate of this.stemsByDeletion.get(variant) ?? []) {
            if (measured.has(candidate)) {
              continue;
            }
            measured.add(candidate);
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

  /** Each stem longer than `part` that holds it, in sorted order. */
  private forEachStemHolding(part: string, action: (found: string) => void): void {
    this.vocabulary ??= vocabularyText(this.sortedStems);
    const { text, starts } = this.vocabulary;
    for (let at = text.indexOf(part); at !== -1;) {
      // The stem the match lies in: the last one starting at or before it.
      const index = lastIndexNotAbove(starts, at);
      const end = index + 1 < starts.length ? starts[index + 1] - 1 : text.length - 1;
      if (end - starts[index] > part.length) {
        action(this.sortedStems[index]);
      }
      at = text.indexOf(part, end + 1);
    }
  }

  private forEachStemStartingWith(prefix: string, action: (found: string) => void): void {
    for (let index = firstIndexNotBelow(this.sortedStems, prefix); index < this.sortedStems.length && this.sortedStems[index].startsWith(prefix); index++) {
      action(this.sortedStems[index]);
    }
  }

  private addStem(stemmed: string): void {
    this.vocabulary = undefined;
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
    this.vocabulary = undefined;
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
  // The names are distinct (a set): one comparison orders them.
  return candidates
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1))
    .slice(0, limit)
    .map((candidate) => candidate.name);
}

/** The words of a skill name: `sql-fmt` → sql, fmt. */
function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 2);
}

/**
 * Whether `short` abbreviates `long` as people shorten words: the same first letter, then its
 * letters in order, at least three of them and three fewer than the word ("fmt" and "cfg", "repo";
 * not "form" for "format", which is a word of its own).
 */
function abbreviates(short: string, long: string): boolean {
  if (short.length < 3 || long.length - short.length < 3 || short[0] !== long[0]) {
    return false;
  }
  let at = 0;
  for (const letter of long) {
    at += letter === short[at] ? 1 : 0;
  }
  return at === short.length;
}

/**
 * Skill names close to `name`: the typos and prefixes closestNames finds first, then names that
 * share one of its words or an abbreviation of one (`sql-fmt` → `sql-format`, `format-sql`).
 */
export function similarSkillNames(name: string, names: readonly string[], limit = 5): string[] {
  const close = closestNames(name, names, limit);
  const wanted = nameWords(name);
  const sharing = [...new Set(names)]
    .filter((candidate) => !close.includes(candidate))
    .filter((candidate) => nameWords(candidate).some((word) => wanted.some((asked) => asked === word || abbreviates(asked, word) || abbreviates(word, asked))))
    .sort();
  return [...close, ...sharing].slice(0, limit);
}
