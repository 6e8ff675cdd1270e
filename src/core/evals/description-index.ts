// Pairs of skills whose descriptions are nearly the same: the cosine of their TF-IDF vectors over
// the set (words as the find index sees them, stemmed, without stop words, so words every skill
// uses weigh little and shared rare words a lot) at a threshold or above. Kept current as skills
// change: an edit re-reads one description, yet the pairs are exactly those of comparing every
// pair of the new set.
//
// How an edit stays cheap though every weight depends on the whole set (how many descriptions hold
// each term): candidate pairs, the "band", are found with *reference* weights, each term's weight
// as it was when last refreshed, and a pair is reported when its similarity with the *current*
// weights reaches the threshold. A weight that moved by a factor within e^±drift moves a cosine of
// non-negative vectors by a factor within e^±4·drift, so every pair at the threshold now was at
// threshold·e^-4·drift or above with the reference weights: the band keeps those. A term whose
// weight drifts further is refreshed, and the descriptions holding it looked at again; rare terms
// drift fast but few descriptions hold them, common ones are held by many but drift slowly.

import type { SkillRecord } from '../model/types';
import { isModelVisible } from '../use/catalog';
import { stem, STOP_WORDS, tokenize } from '../use/find';

/**
 * Cosine similarity from which a pair is reported. Chosen on 453 published skills (anthropics,
 * openai, github/awesome-copilot, obra/superpowers, vercel-labs): at 0.8, 10 pairs, each a
 * template copy with a word or two changed (aws/azure, java/kotlin, create/update); siblings that
 * share a topic but differ in task stay below it.
 */
export const SIMILAR_DESCRIPTIONS = 0.8;

/**
 * The drift a long-lived index (the editor's) allows: candidates are kept down to 0.8 × e^-0.08,
 * about 0.74, and a term is refreshed once its weight moved by 2 %.
 */
export const INCREMENTAL_DRIFT = 0.02;

/** How far below a bound the approximate candidate search keeps pairs: its sums are rounded, the reported values are not. */
const ROUNDING_MARGIN = 1e-9;

/** What computing one cosine costs, in steps of walking a posting (a dozen terms each). */
const HEAVY_PAIR_COST = 12;

/**
 * How much of the band an entry's part in the terms findCandidates sets apart may reach: the
 * smaller, the fewer entries met elsewhere are looked at in full, the larger, the fewer postings
 * are walked.
 */
const COMMON_SHARE = 0.8;

/** A refresh of this many terms at once re-reads everything instead (cheaper than one by one). */
const REBUILD_SHARE = 0.25;

/** The terms of an entry not counted yet: shared, as setTerms gives each entry arrays of its own. */
const NO_TERMS = new Int32Array(0);
const NO_COUNTS = new Float64Array(0);

/** What DescriptionIndex.termOfWord holds for a stop word. */
const NOT_A_TERM = -1;

export interface SimilarPair {
  a: SkillRecord;
  b: SkillRecord;
  similarity: number;
}

/** The others a skill's description is alike to: the closest, most alike first, and how many more. */
export interface AlikeDescriptions {
  record: SkillRecord;
  closest: Array<{ record: SkillRecord; similarity: number }>;
  more: number;
}

interface Entry {
  record: SkillRecord;
  description: string;
  /** Place in the set's order, for stable ordering of equal similarities. */
  order: number;
  /** Place of its record in the records of the last update (the first of its folder's the model may invoke). */
  position: number;
  /** Term ids in the order of their text, and how often each occurs. */
  terms: Int32Array;
  counts: Float64Array;
  norm: number;
  referenceNorm: number;
  /** Candidates: other entries whose reference cosine reaches the band. */
  band: Set<number>;
  /** Reported: other entries whose cosine reaches the threshold, with it. */
  alike: Map<number, number>;
}

/**
 * The similar pairs of a set of skills, updated skill by skill (`update`). Only skills the model
 * may invoke take part; a folder reached by two paths counts once. `drift` is how far (as a
 * natural logarithm) a term's weight may move before its descriptions are looked at again: 0 for
 * a one-off check, which then keeps no candidates below the threshold.
 */
export class DescriptionIndex {
  private readonly entries: Array<Entry | undefined> = [];
  private readonly slotOf = new Map<string, number>();
  private readonly freeSlots: number[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly termTexts: string[] = [];
  /** Each word an update met, as a term id (NOT_A_TERM: a stop word): the descriptions of a set share most of their words. */
  private readonly termOfWord = new Map<string, number>();
  /** Per term, zero but while setTerms counts a description's words in it. */
  private tally = new Float64Array(0);
  /** Per term: the entries holding it, with its count there. */
  private readonly postings: Array<Map<number, number>> = [];
  private readonly reference: number[] = [];
  /** Per term, zero but while `cosine` holds one entry's counts in it, or `findCandidates` one entry's products' first factors. */
  private scratch = new Float64Array(0);
  /** Per slot, zero but while `findCandidates` sums one entry's dot products in it; `dotHolders` lists the slots met, in the order met. */
  private dots = new Float64Array(0);
  private dotHolders = new Int32Array(0);
  private size = 0;
  /** The records of the last update, in its order: the next one looks again only where they differ. */
  private held: SkillRecord[] = [];
  private readonly band: number;
  /** Entries whose reported pairs (or name, or file) changed since the last `update` returned. */
  private touched = new Set<number>();
  private removedFiles: string[] = [];
  /** Each SKILL.md's entry, made when first asked for after an entry came, went or moved to another file. */
  private slotOfFile: Map<string, number> | undefined;
  /** Set by alikeOnce: takes each pair at the threshold a rebuild finds, instead of the entries' candidates and reported pairs. */
  private collect: ((earlier: number, later: number, similarity: number) => void) | undefined;

  constructor(
    private readonly threshold = SIMILAR_DESCRIPTIONS,
    private readonly drift = 0,
  ) {
    if (!(threshold > 0)) {
      throw new RangeError(`The similarity threshold must be positive, not ${threshold}.`);
    }
    this.band = threshold * Math.exp(-4 * drift) * (1 - ROUNDING_MARGIN);
  }

  /**
   * Takes the set's current skills; returns the SKILL.md files whose alike descriptions changed
   * (new, gone, other similarities, a partner renamed), those of skills that left the set included.
   *
   * Records are taken as immutable, as the registry's are (a change makes a new record): a record
   * found at the same place as in the last update is not looked at again, so a save that replaced
   * one record costs that record and its candidates, plus comparing the two lists by identity.
   */
  update(records: readonly SkillRecord[]): string[] {
    /** Each term's number of holders before this update, for the terms whose holders it touched. */
    const heldBefore = new Map<number, number>();
    const reread = new Set<number>();
    const replaced = this.replacedPlaces(records);
    const sizeChanged = replaced ? this.followReplaced(records, replaced, heldBefore, reread) : this.followAll(records, heldBefore, reread);
    // A reworded description leaves most of its terms as many holders as before: their weights stay.
    const dfChanged = new Set([...heldBefore].filter(([term, before]) => this.postings[term].size !== before).map(([term]) => term));
    // Every weight depends on the set's size: a skill added or removed moves them all a little.
    const moved = sizeChanged ? this.postings.keys() : dfChanged.values();
    const refresh: number[] = [];
    for (const term of moved) {
      if (this.postings[term].size === 0) {
        continue;
      }
      const weight = this.idf(term);
      if (this.reference[term] === undefined || Math.abs(Math.log(weight / this.reference[term])) > this.drift) {
        refresh.push(term);
      }
    }
    if (refresh.length > REBUILD_SHARE * this.termIds.size) {
      this.rebuild();
    } else {
      for (const term of refresh) {
        this.reference[term] = this.idf(term);
        this.postings[term].forEach((_, slot) => reread.add(slot));
      }
      this.reread(reread, sizeChanged ? this.slots() : this.holding(dfChanged));
    }
    this.termOfWord.clear();
    const files = [...this.removedFiles, ...[...this.touched].map((slot) => this.entries[slot]!.record.file)];
    this.touched = new Set();
    this.removedFiles = [];
    return files;
  }

  /**
   * The places where `records` holds another object than the last update did, when each still
   * stands for the same folder and is as visible to the model as before (so the set, its order and
   * which record of a folder counts stay); undefined when the lists differ otherwise.
   */
  private replacedPlaces(records: readonly SkillRecord[]): number[] | undefined {
    const { held } = this;
    if (records.length !== held.length) {
      return undefined;
    }
    const replaced: number[] = [];
    for (let place = 0; place < records.length; place++) {
      const before = held[place];
      const now = records[place];
      if (now !== before) {
        if (now.realDir !== before.realDir || isModelVisible(now) !== isModelVisible(before)) {
          return undefined;
        }
        replaced.push(place);
      }
    }
    return replaced;
  }

  /** Takes the records at the `replaced` places (see replacedPlaces); the set's size stays, so returns false. */
  private followReplaced(records: readonly SkillRecord[], replaced: readonly number[], heldBefore: Map<number, number>, reread: Set<number>): boolean {
    for (const place of replaced) {
      const record = records[place];
      this.held[place] = record;
      const slot = isModelVisible(record) ? this.slotOf.get(record.realDir) : undefined;
      // Another record of the same folder earlier in the list is the one that counts.
      if (slot !== undefined && this.entries[slot]!.position === place) {
        this.follow(slot, this.entries[slot]!, record, heldBefore, reread);
      }
    }
    return false;
  }

  /** Takes every record, the first of each folder's the model may invoke; returns whether the set's size changed. */
  private followAll(records: readonly SkillRecord[], heldBefore: Map<number, number>, reread: Set<number>): boolean {
    this.held = records.slice();
    /** Each folder's place in `records`. */
    const visible = new Map<string, number>();
    records.forEach((record, position) => {
      if (!visible.has(record.realDir) && isModelVisible(record)) {
        visible.set(record.realDir, position);
      }
    });
    // forEach rather than for…of: a Map's entries iterator makes an array per entry, a cost per skill on every update.
    this.slotOf.forEach((slot, key) => {
      if (!visible.has(key)) {
        this.remove(slot, heldBefore);
      }
    });
    let order = 0;
    visible.forEach((position, key) => {
      const record = records[position];
      const slot = this.slotOf.get(key);
      const entry = slot === undefined ? undefined : this.entries[slot];
      if (slot !== undefined && entry) {
        entry.order = order++;
        entry.position = position;
        this.follow(slot, entry, record, heldBefore, reread);
        return;
      }
      const added = this.freeSlots.pop() ?? this.entries.length;
      const fresh: Entry = {
        record,
        description: '',
        order: order++,
        position,
        terms: NO_TERMS,
        counts: NO_COUNTS,
        norm: 0,
        referenceNorm: 0,
        band: new Set(),
        alike: new Map(),
      };
      this.entries[added] = fresh;
      this.slotOf.set(key, added);
      this.slotOfFile = undefined;
      this.setTerms(added, fresh, record.metadata!.description, heldBefore);
      reread.add(added);
      this.touch(added);
    });
    const sizeChanged = this.size !== visible.size;
    this.size = visible.size;
    return sizeChanged;
  }

  /** An entry's record as it is now: its partners told of a new name or file, its description read again when it changed. */
  private follow(slot: number, entry: Entry, record: SkillRecord, heldBefore: Map<number, number>, reread: Set<number>): void {
    if (entry.record.name !== record.name || entry.record.file !== record.file) {
      this.touch(slot);
      entry.alike.forEach((_, other) => this.touch(other));
    }
    if (entry.record.file !== record.file) {
      this.slotOfFile = undefined;
      // The file it leaves loses its alike descriptions, as the file of a skill that left the set does.
      if (entry.alike.size > 0) {
        this.removedFiles.push(entry.record.file);
      }
    }
    entry.record = record;
    if (entry.description !== record.metadata!.description) {
      this.setTerms(slot, entry, record.metadata!.description, heldBefore);
      reread.add(slot);
    }
  }

  /** Every pair at the threshold or above, most alike first (equally alike: in the set's order). */
  pairs(): SimilarPair[] {
    const pairs: Array<SimilarPair & { first: number; second: number }> = [];
    for (const entry of this.entries) {
      entry?.alike.forEach((similarity, other) => {
        const partner = this.entries[other]!;
        if (partner.order > entry.order) {
          pairs.push({ a: entry.record, b: partner.record, similarity, first: entry.order, second: partner.order });
        }
      });
    }
    return pairs.sort((x, y) => y.similarity - x.similarity || x.first - y.first || x.second - y.second).map(({ a, b, similarity }) => ({ a, b, similarity }));
  }

  /** The skill of a SKILL.md and the `limit` others its description is most alike to; undefined when none. */
  alikeTo(file: string, limit: number): AlikeDescriptions | undefined {
    if (!this.slotOfFile) {
      this.slotOfFile = new Map();
      this.entries.forEach((entry, slot) => entry && this.slotOfFile!.set(entry.record.file, slot));
    }
    const slot = this.slotOfFile.get(file);
    const entry = slot === undefined ? undefined : this.entries[slot];
    return entry && entry.alike.size > 0 ? this.describe(entry, limit) : undefined;
  }

  /** Every skill alike to others, in the set's order, with the `limit` others it is most alike to. */
  allAlike(limit: number): AlikeDescriptions[] {
    return this.entries
      .filter((entry): entry is Entry => entry !== undefined && entry.alike.size > 0)
      .sort((x, y) => x.order - y.order)
      .map((entry) => this.describe(entry, limit));
  }

  /** The closest `limit` partners of an entry and how many more. */
  private describe(entry: Entry, limit: number): AlikeDescriptions {
    const partners = new ClosestPartners(1, limit);
    entry.alike.forEach((similarity, slot) => partners.add(0, slot, this.entries[slot]!.order, similarity));
    return partners.describe(0, entry.record, this.entries);
  }

  /** What a new index's `allAlike(limit)` gives after its first `update(records)`, found without keeping the pairs (see alikeDescriptions). */
  static alikeOnce(records: readonly SkillRecord[], limit: number, threshold: number): AlikeDescriptions[] {
    const index = new DescriptionIndex(threshold);
    // A fresh index holds its entries in slots 0, 1, … in the set's order.
    const partners = new ClosestPartners(records.length, limit);
    index.collect = (earlier, later, similarity) => {
      partners.add(earlier, later, later, similarity);
      partners.add(later, earlier, earlier, similarity);
    };
    index.update(records);
    const alike: AlikeDescriptions[] = [];
    index.entries.forEach((entry, slot) => partners.count(slot) > 0 && alike.push(partners.describe(slot, entry!.record, index.entries)));
    return alike;
  }

  private idf(term: number): number {
    return Math.log(1 + this.size / this.postings[term].size);
  }

  private touch(slot: number): void {
    this.touched.add(slot);
  }

  private slots(): Set<number> {
    return new Set(this.slotOf.values());
  }

  private holding(terms: Set<number>): Set<number> {
    const slots = new Set<number>();
    terms.forEach((term) => this.postings[term].forEach((_, slot) => slots.add(slot)));
    return slots;
  }

  private remove(slot: number, heldBefore: Map<number, number>): void {
    const entry = this.entries[slot]!;
    this.dropTerms(slot, entry, heldBefore);
    entry.band.forEach((other) => this.entries[other]!.band.delete(slot));
    entry.alike.forEach((_, other) => {
      this.entries[other]!.alike.delete(slot);
      this.touch(other);
    });
    this.touched.delete(slot);
    if (entry.alike.size > 0) {
      this.removedFiles.push(entry.record.file);
    }
    this.entries[slot] = undefined;
    this.slotOf.delete(entry.record.realDir);
    this.slotOfFile = undefined;
    this.freeSlots.push(slot);
  }

  private dropTerms(slot: number, entry: Entry, heldBefore: Map<number, number>): void {
    entry.terms.forEach((term) => {
      if (!heldBefore.has(term)) {
        heldBefore.set(term, this.postings[term].size);
      }
      this.postings[term].delete(slot);
    });
  }

  /**
   * Reads an entry's description into its terms and their postings. The postings of terms it
   * keeps are updated where they are: taking an entry out of a long posting and putting it back
   * grows the posting's table until it is made anew, a cost per holder on every save.
   */
  private setTerms(slot: number, entry: Entry, description: string, heldBefore: Map<number, number>): void {
    /** The description's terms, each once, in the order met; their counts are in `tally` meanwhile. */
    const met: number[] = [];
    for (const word of tokenize(description)) {
      let term = this.termOfWord.get(word);
      if (term === undefined) {
        term = STOP_WORDS.has(word) ? NOT_A_TERM : this.termId(stem(word));
        this.termOfWord.set(word, term);
      }
      if (term !== NOT_A_TERM) {
        if (this.tally[term]++ === 0) {
          met.push(term);
        }
      }
    }
    met.sort((x, y) => (this.termTexts[x] < this.termTexts[y] ? -1 : 1));
    entry.terms.forEach((term) => {
      if (this.tally[term] === 0) {
        if (!heldBefore.has(term)) {
          heldBefore.set(term, this.postings[term].size);
        }
        this.postings[term].delete(slot);
      }
    });
    entry.description = description;
    entry.terms = Int32Array.from(met);
    entry.counts = new Float64Array(met.length);
    for (let position = 0; position < met.length; position++) {
      const term = met[position];
      entry.counts[position] = this.tally[term];
      this.tally[term] = 0;
      if (!heldBefore.has(term)) {
        heldBefore.set(term, this.postings[term].size);
      }
      this.postings[term].set(slot, entry.counts[position]);
    }
  }

  /** The id of a term's text, made when first met. */
  private termId(text: string): number {
    let term = this.termIds.get(text);
    if (term === undefined) {
      term = this.postings.length;
      this.termIds.set(text, term);
      this.termTexts.push(text);
      this.postings.push(new Map());
      if (this.tally.length <= term) {
        const grown = new Float64Array(2 * this.tally.length + 64);
        grown.set(this.tally);
        this.tally = grown;
      }
    }
    return term;
  }

  /** The length of an entry's vector, summed in the order of its terms' text. */
  private length(entry: Entry, weight: (term: number) => number): number {
    let squares = 0;
    entry.terms.forEach((term, position) => {
      const value = entry.counts[position] * weight(term);
      squares += value * value;
    });
    return Math.sqrt(squares);
  }

  /**
   * The cosine two entries are reported with, the same however the index got there: the products
   * of their shared terms summed in the order of the terms' text.
   */
  private cosine(a: Entry, b: Entry): number {
    if (this.scratch.length < this.postings.length) {
      this.scratch = new Float64Array(2 * this.postings.length);
    }
    const counts = this.scratch;
    for (let position = 0; position < a.terms.length; position++) {
      counts[a.terms[position]] = a.counts[position];
    }
    let dot = 0;
    for (let position = 0; position < b.terms.length; position++) {
      const term = b.terms[position];
      if (counts[term] !== 0) {
        const weight = this.idf(term);
        dot += counts[term] * weight * (b.counts[position] * weight);
      }
    }
    for (let position = 0; position < a.terms.length; position++) {
      counts[a.terms[position]] = 0;
    }
    return dot / (a.norm * b.norm);
  }

  /** Looks again at the candidates of `reread` (changed, or holding a refreshed term), and at the reported pairs of `renormed` and `reread`. */
  private reread(reread: Set<number>, renormed: Set<number>): void {
    for (const slot of renormed) {
      this.entries[slot]!.norm = this.length(this.entries[slot]!, (term) => this.idf(term));
    }
    for (const slot of reread) {
      const entry = this.entries[slot]!;
      entry.norm = this.length(entry, (term) => this.idf(term));
      entry.referenceNorm = this.length(entry, (term) => this.reference[term]);
    }
    for (const slot of reread) {
      this.findCandidates(slot);
    }
    const reported = new Set<number>();
    for (const slot of new Set([...reread, ...renormed])) {
      this.reportFrom(slot, reported);
    }
  }

  /**
   * An entry's candidates, from the postings of its terms with the reference weights. As in
   * allCandidates, the terms most descriptions hold are set apart, as many as keep the entry's part
   * in them under COMMON_SHARE of the band: their share of a dot product is at most that part's
   * length times the other vector's (Cauchy–Schwarz), so an entry met through them alone stays
   * below the band. The dot products are summed over the other terms' postings, and an entry met
   * there whose sum plus that bound can reach the band gets its whole dot product: the same
   * products in the same order (the terms' text) as summing every posting, so the candidates are
   * exactly those.
   */
  private findCandidates(slot: number): void {
    const entry = this.entries[slot]!;
    entry.band.forEach((other) => this.entries[other]!.band.delete(slot));
    entry.band.clear();
    if (this.dots.length < this.entries.length) {
      this.dots = new Float64Array(2 * this.entries.length);
      this.dotHolders = new Int32Array(2 * this.entries.length);
    }
    if (this.scratch.length < this.postings.length) {
      this.scratch = new Float64Array(2 * this.postings.length);
    }
    const { dots, dotHolders, scratch } = this;
    const { terms, counts, referenceNorm } = entry;
    const bound = this.band * (1 - ROUNDING_MARGIN);
    // Per position of the entry's terms: the square of its weight there, and whether the term is set apart.
    const squares = Float64Array.from(terms, (term, position) => (counts[position] * this.reference[term]) ** 2);
    const common = new Uint8Array(terms.length);
    // The terms that spare the most postings for the least of the allowance first.
    const bySaving = Array.from(terms.keys()).sort((x, y) => this.postings[terms[y]].size / squares[y] - this.postings[terms[x]].size / squares[x]);
    const allowed = (COMMON_SHARE * bound * referenceNorm) ** 2;
    let commonSquares = 0;
    for (const position of bySaving) {
      if (commonSquares + squares[position] <= allowed) {
        commonSquares += squares[position];
        common[position] = 1;
      }
    }
    const commonLength = Math.sqrt(commonSquares);
    let holders = 0;
    terms.forEach((term, position) => {
      const weight = counts[position] * this.reference[term] * this.reference[term];
      scratch[term] = weight;
      if (common[position] === 1) {
        return;
      }
      this.postings[term].forEach((count, other) => {
        if (other !== slot) {
          // Every product is positive: a dot still zero is an entry not met yet.
          if (dots[other] === 0) {
            dotHolders[holders++] = other;
          }
          dots[other] += weight * count;
        }
      });
    });
    for (let k = 0; k < holders; k++) {
      const other = dotHolders[k];
      const partner = this.entries[other]!;
      let dot = dots[other];
      dots[other] = 0;
      if (commonLength > 0) {
        if (dot + commonLength * partner.referenceNorm < bound * referenceNorm * partner.referenceNorm) {
          continue;
        }
        dot = 0;
        for (let position = 0; position < partner.terms.length; position++) {
          const weight = scratch[partner.terms[position]];
          if (weight !== 0) {
            dot += weight * partner.counts[position];
          }
        }
      }
      if (dot / (referenceNorm * partner.referenceNorm) >= this.band) {
        entry.band.add(other);
        partner.band.add(slot);
      }
    }
    terms.forEach((term) => (scratch[term] = 0));
  }

  /** Reported pairs of an entry, from its candidates with the current weights; those with entries in `reported` are already done. */
  private reportFrom(slot: number, reported: Set<number>): void {
    reported.add(slot);
    this.dropOutsideBand(slot);
    this.entries[slot]!.band.forEach((other) => {
      if (!reported.has(other)) {
        this.report(slot, other, this.cosine(this.entries[slot]!, this.entries[other]!));
      }
    });
  }

  /** Drops the reported pairs of an entry whose partner is no longer a candidate. */
  private dropOutsideBand(slot: number): void {
    const entry = this.entries[slot]!;
    for (const other of entry.alike.keys()) {
      if (!entry.band.has(other)) {
        entry.alike.delete(other);
        this.entries[other]!.alike.delete(slot);
        this.touch(slot);
        this.touch(other);
      }
    }
  }

  /** A candidate pair with its cosine under the current weights: reported when it reaches the threshold. */
  private report(slot: number, other: number, similarity: number): void {
    const entry = this.entries[slot]!;
    const partner = this.entries[other]!;
    const before = entry.alike.get(other);
    const now = similarity >= this.threshold ? similarity : undefined;
    if (before === now) {
      return;
    }
    if (now === undefined) {
      entry.alike.delete(other);
      partner.alike.delete(slot);
    } else {
      entry.alike.set(other, now);
      partner.alike.set(slot, now);
    }
    this.touch(slot);
    this.touch(other);
  }

  /** Every reference weight set to the current one, every candidate and reported pair found anew. */
  private rebuild(): void {
    this.postings.forEach((holders, term) => {
      if (holders.size > 0) {
        this.reference[term] = this.idf(term);
      }
    });
    const live = [...this.slots()];
    for (const slot of live) {
      const entry = this.entries[slot]!;
      entry.norm = this.length(entry, (term) => this.idf(term));
      entry.referenceNorm = entry.norm;
      entry.band.clear();
    }
    const { collect } = this;
    if (collect) {
      this.allCandidates(live, (earlier, later, similarity) => similarity >= this.threshold && collect(earlier, later, similarity));
      return;
    }
    this.allCandidates(live, (earlier, later, similarity) => {
      this.entries[earlier]!.band.add(later);
      this.entries[later]!.band.add(earlier);
      this.report(earlier, later, similarity);
    });
    for (const slot of live) {
      this.dropOutsideBand(slot);
    }
  }

  /**
   * Every candidate pair at once, each handed to `found` (the earlier entry in `live` first, the
   * entries' pairs in the order of `live`) with its cosine exactly as `cosine` finds it: the
   * reference weights are the current ones here, and the same products are summed over the shared
   * terms in the order of their text.
   *
   * Comparing every pair through the postings costs the squares of their lengths, which the terms
   * most descriptions hold make most of. So the commonest terms are set apart: a pair that shares
   * no other term has at most the product of the lengths of the two vectors' parts in those terms
   * as its dot product (Cauchy–Schwarz), which is below the band unless both are made mostly of
   * common terms ("heavy"). Each entry's dot products with the earlier ones are summed over the
   * postings of the other terms only; a pair is looked at when that sum plus the bound of the
   * common terms can reach the band, or when both are heavy, and then gets its exact cosine. The
   * common terms are chosen, the longest postings first, to make the postings walked plus the
   * pairs of heavy entries fewest.
   */
  private allCandidates(live: readonly number[], found: (earlier: number, later: number, similarity: number) => void): void {
    const count = live.length;
    const entries = live.map((slot) => this.entries[slot]!);
    const norms = Float64Array.from(entries, (entry) => entry.referenceNorm);
    const bound = this.band * (1 - ROUNDING_MARGIN);
    const common = this.commonTerms(entries, norms, bound);
    // Every entry's terms and their weights (count × reference weight), in the order of their
    // text, one entry after the other in two arrays, each entry's from its start offset on: the
    // loops below then read no entry object.
    const termsFrom = new Int32Array(count + 1);
    entries.forEach((entry, index) => (termsFrom[index + 1] = termsFrom[index] + entry.terms.length));
    const entryTerms = new Int32Array(termsFrom[count]);
    const entryWeights = new Float64Array(entryTerms.length);
    /** Per entry, the squared length of its part in the common terms. */
    const commonSquares = new Float64Array(count);
    // Each other term's holders in the order of `live`, with the term's weight in each: the
    // postings one after the other in two arrays, each term's from its start offset on.
    const starts = new Int32Array(this.postings.length + 1);
    this.postings.forEach((posting, term) => (starts[term + 1] = starts[term] + (common[term] ? 0 : posting.size)));
    const holders = new Int32Array(starts[this.postings.length]);
    const weights = new Float64Array(holders.length);
    const next = starts.slice(0, this.postings.length);
    for (let index = 0; index < count; index++) {
      const { terms, counts } = entries[index];
      for (let position = 0, at = termsFrom[index]; position < terms.length; position++, at++) {
        const term = terms[position];
        const weight = counts[position] * this.reference[term];
        entryTerms[at] = term;
        entryWeights[at] = weight;
        if (common[term]) {
          commonSquares[index] += weight * weight;
        } else {
          holders[next[term]] = index;
          weights[next[term]++] = weight;
        }
      }
    }
    const commonLengths = commonSquares.map(Math.sqrt);
    const heavy = Uint8Array.from(commonLengths, (length, index) => (length >= bound * norms[index] ? 1 : 0));
    /** Per term, the weight of the entry being looked at; zero elsewhere. */
    const own = new Float64Array(this.postings.length);
    const sums = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      const first = termsFrom[index];
      const last = termsFrom[index + 1];
      for (let at = first; at < last; at++) {
        const term = entryTerms[at];
        const weight = entryWeights[at];
        own[term] = weight;
        for (let k = starts[term], end = starts[term + 1]; k < end && holders[k] < index; k++) {
          sums[holders[k]] += weight * weights[k];
        }
      }
      const norm = norms[index];
      const commonLength = commonLengths[index];
      const isHeavy = heavy[index] === 1;
      for (let other = 0; other < index; other++) {
        const shared = sums[other];
        sums[other] = 0;
        if ((shared === 0 && !(isHeavy && heavy[other] === 1)) || shared + commonLength * commonLengths[other] < bound * norm * norms[other]) {
          continue;
        }
        let dot = 0;
        for (let at = termsFrom[other], end = termsFrom[other + 1]; at < end; at++) {
          const weight = own[entryTerms[at]];
          if (weight !== 0) {
            dot += weight * entryWeights[at];
          }
        }
        const similarity = dot / (norms[other] * norm);
        if (similarity >= this.band) {
          found(live[other], live[index], similarity);
        }
      }
      for (let at = first; at < last; at++) {
        own[entryTerms[at]] = 0;
      }
    }
  }

  /**
   * The terms allCandidates sets apart (by term id): of the terms taken longest posting first, as
   * many as make the postings left to walk (the squares of their lengths) plus the pairs of heavy
   * entries (whose cosines are computed, a dozen products each) fewest.
   */
  private commonTerms(entries: readonly Entry[], norms: Float64Array, bound: number): Uint8Array {
    const common = new Uint8Array(this.postings.length);
    const byLength = this.postings.map((_, term) => term).filter((term) => this.postings[term].size > 1);
    byLength.sort((x, y) => this.postings[y].size - this.postings[x].size || x - y);
    const slotIndex = new Map(entries.map((entry, index) => [this.slotOf.get(entry.record.realDir)!, index]));
    const squares = new Float64Array(entries.length);
    const heavyFrom = Float64Array.from(norms, (norm) => bound * norm * bound * norm);
    let walked = 0;
    byLength.forEach((term) => (walked += (this.postings[term].size * this.postings[term].size) / 2));
    let heavyCount = 0;
    let best = walked;
    let bestTaken = 0;
    for (let taken = 0; taken < byLength.length; taken++) {
      const term = byLength[taken];
      walked -= (this.postings[term].size * this.postings[term].size) / 2;
      this.postings[term].forEach((count, slot) => {
        const index = slotIndex.get(slot)!;
        const weight = count * this.reference[term];
        const before = squares[index];
        squares[index] += weight * weight;
        if (before < heavyFrom[index] && squares[index] >= heavyFrom[index]) {
          heavyCount++;
        }
      });
      const cost = walked + HEAVY_PAIR_COST * ((heavyCount * heavyCount) / 2);
      if (cost < best) {
        best = cost;
        bestTaken = taken + 1;
      }
    }
    byLength.slice(0, bestTaken).forEach((term) => (common[term] = 1));
    return common;
  }
}

/**
 * The closest `limit` partners of each of a number of entries (most alike first, equally alike: in
 * the set's order), kept in short sorted rows of typed arrays rather than sorting them all, and
 * how many each has: thousands of alike pairs then allocate nothing.
 */
class ClosestPartners {
  /** Per entry, `limit` places: each partner's slot, its place in the set's order, and the similarity. */
  private readonly slots: Int32Array;
  private readonly orders: Int32Array;
  private readonly similarities: Float64Array;
  /** Per entry, its partners counted so far, named or not. */
  private readonly counts: Int32Array;

  constructor(
    entries: number,
    private readonly limit: number,
  ) {
    this.slots = new Int32Array(entries * limit);
    this.orders = new Int32Array(entries * limit);
    this.similarities = new Float64Array(entries * limit);
    this.counts = new Int32Array(entries);
  }

  count(at: number): number {
    return this.counts[at];
  }

  /** A partner of entry `at`: its slot, its place in the set's order, and how alike it is. */
  add(at: number, slot: number, order: number, similarity: number): void {
    const { limit, slots, orders, similarities } = this;
    const first = at * limit;
    let place = first + Math.min(this.counts[at]++, limit);
    if (place === first + limit) {
      if (!this.comesBefore(similarity, order, place - 1)) {
        return;
      }
      place--;
    }
    for (; place > first && this.comesBefore(similarity, order, place - 1); place--) {
      slots[place] = slots[place - 1];
      orders[place] = orders[place - 1];
      similarities[place] = similarities[place - 1];
    }
    slots[place] = slot;
    orders[place] = order;
    similarities[place] = similarity;
  }

  describe(at: number, record: SkillRecord, entries: ReadonlyArray<Entry | undefined>): AlikeDescriptions {
    const named = Math.min(this.counts[at], this.limit);
    const closest: AlikeDescriptions['closest'] = [];
    for (let place = at * this.limit; place < at * this.limit + named; place++) {
      closest.push({ record: entries[this.slots[place]]!.record, similarity: this.similarities[place] });
    }
    return { record, closest, more: this.counts[at] - named };
  }

  /** Whether a partner this alike and this far in the set's order comes before the one at `place`: more alike, or as alike and earlier. */
  private comesBefore(similarity: number, order: number, place: number): boolean {
    return similarity > this.similarities[place] || (similarity === this.similarities[place] && order < this.orders[place]);
  }
}

/**
 * Every skill of `records` alike to others, as a DescriptionIndex's `allAlike(limit)` gives them,
 * for a one-off check: the pairs are not kept (of thousands of alike skills, keeping each pair
 * costs more than finding it), only each skill's closest.
 */
export function alikeDescriptions(records: readonly SkillRecord[], limit: number, threshold = SIMILAR_DESCRIPTIONS): AlikeDescriptions[] {
  return DescriptionIndex.alikeOnce(records, limit, threshold);
}

/** The pairs of `records` whose descriptions are alike at `threshold` or above, most alike first. */
export function similarDescriptions(records: readonly SkillRecord[], threshold = SIMILAR_DESCRIPTIONS): SimilarPair[] {
  const index = new DescriptionIndex(threshold);
  index.update(records);
  return index.pairs();
}
