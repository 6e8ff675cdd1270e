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
import { modelVisibleSkills } from '../use/catalog';
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

/** A refresh of this many terms at once re-reads everything instead (cheaper than one by one). */
const REBUILD_SHARE = 0.25;

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
  /** Term ids in the order of their text, and how often each occurs. */
  terms: Int32Array;
  counts: Float64Array;
  norm: number;
  referenceNorm: number;
  /** Candidates: other entries whose reference cosine reaches the band. */
  band: Map<number, number>;
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
  /** Per term: the entries holding it, with its count there. */
  private readonly postings: Array<Map<number, number>> = [];
  private readonly reference: number[] = [];
  /** Per term, zero but while `cosine` holds one entry's counts in it. */
  private scratch = new Float64Array(0);
  private size = 0;
  private readonly band: number;
  /** Entries whose reported pairs (or name, or file) changed since the last `update` returned. */
  private touched = new Set<number>();
  private removedFiles: string[] = [];
  /** Each SKILL.md's entry, made when first asked for after an update. */
  private slotOfFile: Map<string, number> | undefined;

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
   */
  update(records: readonly SkillRecord[]): string[] {
    const visible = new Map<string, SkillRecord>();
    for (const record of modelVisibleSkills(records)) {
      if (!visible.has(record.realDir)) {
        visible.set(record.realDir, record);
      }
    }
    /** Each term's number of holders before this update, for the terms whose holders it touched. */
    const heldBefore = new Map<number, number>();
    const reread = new Set<number>();
    for (const [key, slot] of this.slotOf) {
      if (!visible.has(key)) {
        this.remove(slot, heldBefore);
      }
    }
    let order = 0;
    for (const [key, record] of visible) {
      const slot = this.slotOf.get(key);
      const entry = slot === undefined ? undefined : this.entries[slot];
      if (slot !== undefined && entry) {
        entry.order = order++;
        if (entry.record.name !== record.name || entry.record.file !== record.file) {
          this.touch(slot);
          entry.alike.forEach((_, other) => this.touch(other));
        }
        entry.record = record;
        if (entry.description === record.metadata!.description) {
          continue;
        }
        this.dropTerms(slot, entry, heldBefore);
        this.setTerms(slot, entry, record.metadata!.description, heldBefore);
        reread.add(slot);
        continue;
      }
      const added = this.freeSlots.pop() ?? this.entries.length;
      const fresh: Entry = { record, description: '', order: order++, terms: new Int32Array(0), counts: new Float64Array(0), norm: 0, referenceNorm: 0, band: new Map(), alike: new Map() };
      this.entries[added] = fresh;
      this.slotOf.set(key, added);
      this.setTerms(added, fresh, record.metadata!.description, heldBefore);
      reread.add(added);
      this.touch(added);
    }
    // A reworded description leaves most of its terms as many holders as before: their weights stay.
    const dfChanged = new Set([...heldBefore].filter(([term, before]) => this.postings[term].size !== before).map(([term]) => term));
    const sizeChanged = this.size !== visible.size;
    this.size = visible.size;
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
    this.slotOfFile = undefined;
    const files = [...this.removedFiles, ...[...this.touched].map((slot) => this.entries[slot]!.record.file)];
    this.touched = new Set();
    this.removedFiles = [];
    return files;
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

  /** The closest `limit` partners (equally alike: in the set's order), kept in a short sorted list rather than sorting them all. */
  private describe(entry: Entry, limit: number): AlikeDescriptions {
    const closest: Array<{ partner: Entry; similarity: number }> = [];
    const before = (x: { partner: Entry; similarity: number }, y: { partner: Entry; similarity: number }): boolean =>
      x.similarity > y.similarity || (x.similarity === y.similarity && x.partner.order < y.partner.order);
    entry.alike.forEach((similarity, slot) => {
      const candidate = { partner: this.entries[slot]!, similarity };
      if (closest.length === limit && !before(candidate, closest[limit - 1])) {
        return;
      }
      let at = closest.length === limit ? limit - 1 : closest.length;
      while (at > 0 && before(candidate, closest[at - 1])) {
        closest[at] = closest[at - 1];
        at--;
      }
      closest[at] = candidate;
    });
    return { record: entry.record, closest: closest.map(({ partner, similarity }) => ({ record: partner.record, similarity })), more: entry.alike.size - closest.length };
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
    entry.band.forEach((_, other) => this.entries[other]!.band.delete(slot));
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

  private setTerms(slot: number, entry: Entry, description: string, heldBefore: Map<number, number>): void {
    const counted = new Map<string, number>();
    for (const token of tokenize(description)) {
      if (!STOP_WORDS.has(token)) {
        const term = stem(token);
        counted.set(term, (counted.get(term) ?? 0) + 1);
      }
    }
    const texts = [...counted.keys()].sort();
    entry.description = description;
    entry.terms = new Int32Array(texts.length);
    entry.counts = new Float64Array(texts.length);
    for (let position = 0; position < texts.length; position++) {
      let term = this.termIds.get(texts[position]);
      if (term === undefined) {
        term = this.postings.length;
        this.termIds.set(texts[position], term);
        this.postings.push(new Map());
      }
      entry.terms[position] = term;
      entry.counts[position] = counted.get(texts[position])!;
      if (!heldBefore.has(term)) {
        heldBefore.set(term, this.postings[term].size);
      }
      this.postings[term].set(slot, entry.counts[position]);
    }
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

  /** An entry's candidates, from the postings of its terms with the reference weights. */
  private findCandidates(slot: number): void {
    const entry = this.entries[slot]!;
    entry.band.forEach((_, other) => this.entries[other]!.band.delete(slot));
    entry.band.clear();
    const dots = new Map<number, number>();
    entry.terms.forEach((term, position) => {
      const weight = entry.counts[position] * this.reference[term] * this.reference[term];
      this.postings[term].forEach((count, other) => {
        if (other !== slot) {
          dots.set(other, (dots.get(other) ?? 0) + weight * count);
        }
      });
    });
    dots.forEach((dot, other) => {
      const partner = this.entries[other]!;
      const similarity = dot / (entry.referenceNorm * partner.referenceNorm);
      if (similarity >= this.band) {
        entry.band.set(other, similarity);
        partner.band.set(slot, similarity);
      }
    });
  }

  /** Reported pairs of an entry, from its candidates with the current weights; those with entries in `reported` are already done. */
  private reportFrom(slot: number, reported: Set<number>): void {
    reported.add(slot);
    const entry = this.entries[slot]!;
    for (const other of entry.alike.keys()) {
      if (!entry.band.has(other)) {
        entry.alike.delete(other);
        this.entries[other]!.alike.delete(slot);
        this.touch(slot);
        this.touch(other);
      }
    }
    entry.band.forEach((_, other) => {
      if (reported.has(other)) {
        return;
      }
      const partner = this.entries[other]!;
      const similarity = this.cosine(entry, partner);
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
    });
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
    this.allCandidates(live);
    const reported = new Set<number>();
    for (const slot of live) {
      this.reportFrom(slot, reported);
    }
  }

  /**
   * Every candidate pair at once: for each entry, its dot products with the later ones, summed over
   * its terms' postings into one array (the cost is the squares of the postings' lengths, halved).
   */
  private allCandidates(live: readonly number[]): void {
    const count = live.length;
    // Each term's holders in the order of `live`, with the term's weight in each, relative to its length.
    const holders = this.postings.map((posting) => ({ at: new Int32Array(posting.size), weights: new Float64Array(posting.size), filled: 0, next: 0 }));
    for (let index = 0; index < count; index++) {
      const entry = this.entries[live[index]]!;
      for (let position = 0; position < entry.terms.length; position++) {
        const term = entry.terms[position];
        const posting = holders[term];
        posting.at[posting.filled] = index;
        posting.weights[posting.filled++] = (entry.counts[position] * this.reference[term]) / entry.referenceNorm;
      }
    }
    const dots = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      const entry = this.entries[live[index]]!;
      for (let position = 0; position < entry.terms.length; position++) {
        const posting = holders[entry.terms[position]];
        const own = posting.weights[posting.next++];
        const { at, weights } = posting;
        for (let k = posting.next; k < at.length; k++) {
          dots[at[k]] += own * weights[k];
        }
      }
      for (let other = index + 1; other < count; other++) {
        if (dots[other] >= this.band) {
          entry.band.set(live[other], dots[other]);
          this.entries[live[other]]!.band.set(live[index], dots[other]);
        }
        dots[other] = 0;
      }
    }
  }
}

/** The pairs of `records` whose descriptions are alike at `threshold` or above, most alike first. */
export function similarDescriptions(records: readonly SkillRecord[], threshold = SIMILAR_DESCRIPTIONS): SimilarPair[] {
  const index = new DescriptionIndex(threshold);
  index.update(records);
  return index.pairs();
}
