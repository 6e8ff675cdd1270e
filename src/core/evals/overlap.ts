// Skills that compete for the same requests, found without a model: a should-trigger query of one
// skill on which the find index ranks another skill higher, and pairs of descriptions so alike
// that a model has little to choose by. Both are warnings that name the other skill; they are
// cheap (one search per query, one pass over the descriptions), so they run on every change.

import type { Range, SkillDiagnostic, SkillRecord } from '../model/types';
import { FRONTMATTER_FENCE } from '../skill-file/parse';
import { FILE_START_RANGE } from '../skill-file/diagnostic-codes';
import { locateFrontmatterFields } from '../skill-file/frontmatter-locator';
import { modelVisibleSkills } from '../use/catalog';
import { stem, STOP_WORDS, tokenize, type SkillMatch } from '../use/find';
import type { TriggerTestFile } from './trigger-file';

export const OVERLAP_CODES = ['overlap-query', 'overlap-description'] as const;

/**
 * Cosine similarity of two descriptions' weighted words from which a pair is reported. Chosen on
 * 453 published skills (anthropics, openai, github/awesome-copilot, obra/superpowers, vercel-labs):
 * at 0.8, 10 pairs, each a template copy with a word or two changed (aws/azure, java/kotlin,
 * create/update); siblings that share a topic but differ in task stay below it.
 */
export const SIMILAR_DESCRIPTIONS = 0.8;

export interface SkillTests {
  record: SkillRecord;
  tests: TriggerTestFile;
}

/**
 * For each should-trigger query: the skill the find index ranks first, when it is another skill
 * than the one the query belongs to (a warning on the query in evals/triggers.json).
 */
export function queryOverlaps(skills: readonly SkillTests[], find: (query: string) => SkillMatch[]): SkillDiagnostic[] {
  const diagnostics: SkillDiagnostic[] = [];
  for (const { record, tests } of skills) {
    for (const query of tests.queries) {
      if (!query.shouldTrigger) {
        continue;
      }
      const matches = find(query.query);
      const own = matches.findIndex((match) => match.record.name === record.name);
      const top = matches[0];
      if (!top || own === 0) {
        continue;
      }
      const place = own < 0 ? `${record.name} does not match it at all` : `${record.name} comes ${ordinal(own + 1)}`;
      diagnostics.push({
        file: tests.file,
        range: query.range,
        severity: 'warning',
        code: 'overlap-query',
        message: `"${query.query}" ranks ${top.record.name} above ${record.name} in the skill search (${place}): a model may load ${top.record.name} for it. Say in ${record.name}'s description what sets it apart, or reword the query.`,
      });
    }
  }
  return diagnostics;
}

function ordinal(place: number): string {
  const suffix = place % 100 >= 11 && place % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][place % 10] ?? 'th');
  return `${place}${suffix}`;
}

/** A description's weighted words: term ids in increasing order, and their TF-IDF weights. */
interface DescriptionVector {
  terms: Int32Array;
  weights: Float64Array;
  /** The vector's length. */
  norm: number;
}

/**
 * The descriptions as TF-IDF vectors over the set, their words as the find index sees them
 * (stemmed, without stop words), so words every skill uses ("use", "when", "file") weigh little
 * and shared rare words a lot; and how many descriptions hold each term.
 */
function descriptionVectors(records: readonly SkillRecord[]): { vectors: DescriptionVector[]; documentFrequency: number[] } {
  const ids = new Map<string, number>();
  const documentFrequency: number[] = [];
  const counted = records.map((record) => {
    const counts = new Map<number, number>();
    for (const token of tokenize(record.metadata!.description)) {
      if (STOP_WORDS.has(token)) {
        continue;
      }
      const term = stem(token);
      let id = ids.get(term);
      if (id === undefined) {
        id = ids.size;
        ids.set(term, id);
        documentFrequency.push(0);
      }
      const count = counts.get(id) ?? 0;
      if (count === 0) {
        documentFrequency[id]++;
      }
      counts.set(id, count + 1);
    }
    return counts;
  });
  const vectors = counted.map((counts) => {
    const terms = Int32Array.from(counts.keys()).sort();
    const weights = Float64Array.from(terms, (term) => counts.get(term)! * Math.log(1 + records.length / documentFrequency[term]));
    return { terms, weights, norm: Math.sqrt(weights.reduce((squares, weight) => squares + weight * weight, 0)) };
  });
  return { vectors, documentFrequency };
}

export interface SimilarPair {
  a: SkillRecord;
  b: SkillRecord;
  similarity: number;
}

/** The descriptions holding a term, in skill order, with the term's weight in each. */
interface Posting {
  skills: Int32Array;
  weights: Float64Array;
}

/**
 * How far below the threshold the bound on a left-out part must stay: similarities are sums of a
 * few dozen products, whose rounding is many orders of magnitude smaller.
 */
const ROUNDING_MARGIN = 1e-9;

/**
 * Pairs of skills the model may invoke whose descriptions are nearly the same: the cosine of their
 * TF-IDF vectors (see descriptionVectors) at `threshold` (positive) or above, most alike first.
 *
 * Each description is compared with the later ones through the postings of its terms (a pair
 * sharing no term has a cosine of 0), in whichever of two ways costs less for it:
 * - its dot products with every later description, accumulated over all its terms' postings;
 * - or only with the later descriptions sharing one of its *probe* terms, one dot product at a
 *   time. The probe terms are its terms less the commonest ones, left out as long as what they
 *   can add to a cosine stays under the threshold: the smaller of their part's length (Cauchy–
 *   Schwarz) and the sum of their weights times the largest weight each has in any description.
 *   A pair sharing no probe term cannot reach the threshold.
 * Both sum the same products in the same order (by term id), so the similarities, and the pairs
 * found, are exactly those of comparing every pair.
 */
export function similarDescriptions(records: readonly SkillRecord[], threshold = SIMILAR_DESCRIPTIONS): SimilarPair[] {
  if (!(threshold > 0)) {
    throw new RangeError(`The similarity threshold must be positive, not ${threshold}.`);
  }
  const visible = modelVisibleSkills(records);
  const { vectors, documentFrequency } = descriptionVectors(visible);
  const postings = indexTerms(vectors, documentFrequency);
  const termCount = documentFrequency.length;
  // The largest weight of each term in any description, relative to that description's length.
  const largestShare = new Float64Array(termCount);
  for (const { terms, weights, norm } of vectors) {
    terms.forEach((term, position) => (largestShare[term] = Math.max(largestShare[term], weights[position] / norm)));
  }
  const bound = threshold * (1 - ROUNDING_MARGIN);
  // Where each posting's entries for later descriptions start, moved on as descriptions are taken in order.
  const laterStart = new Int32Array(termCount);
  const dots = new Float64Array(visible.length);
  const ownWeights = new Float64Array(termCount);
  const candidates = new Int32Array(visible.length);
  const probedBy = new Int32Array(visible.length).fill(-1);
  const pairs: SimilarPair[] = [];
  const compare = (i: number, j: number, dot: number): void => {
    const similarity = dot / (vectors[i].norm * vectors[j].norm);
    if (similarity >= threshold) {
      pairs.push({ a: visible[i], b: visible[j], similarity });
    }
  };
  for (let i = 0; i < visible.length; i++) {
    const { terms, weights } = vectors[i];
    let laterEntries = 0;
    for (const term of terms) {
      laterEntries += postings[term].skills.length - ++laterStart[term];
    }
    const probes = probeTerms(vectors[i], postings, largestShare, bound);
    let probeEntries = 0;
    for (const term of probes) {
      probeEntries += postings[term].skills.length - laterStart[term];
    }
    // A dot product on its own reads about as many weights as a description has terms.
    if (probeEntries * (1 + terms.length) < laterEntries) {
      let found = 0;
      for (const term of probes) {
        const { skills } = postings[term];
        for (let k = laterStart[term]; k < skills.length; k++) {
          if (probedBy[skills[k]] !== i) {
            probedBy[skills[k]] = i;
            candidates[found++] = skills[k];
          }
        }
      }
      terms.forEach((term, position) => (ownWeights[term] = weights[position]));
      for (const j of candidates.subarray(0, found).sort()) {
        const other = vectors[j];
        let dot = 0;
        for (let position = 0; position < other.terms.length; position++) {
          const own = ownWeights[other.terms[position]];
          if (own !== 0) {
            dot += own * other.weights[position];
          }
        }
        compare(i, j, dot);
      }
      terms.forEach((term) => (ownWeights[term] = 0));
      continue;
    }
    for (let position = 0; position < terms.length; position++) {
      const weight = weights[position];
      const { skills, weights: theirs } = postings[terms[position]];
      for (let k = laterStart[terms[position]]; k < skills.length; k++) {
        dots[skills[k]] += weight * theirs[k];
      }
    }
    for (let j = i + 1; j < visible.length; j++) {
      if (dots[j] !== 0) {
        compare(i, j, dots[j]);
        dots[j] = 0;
      }
    }
  }
  return pairs.sort((x, y) => y.similarity - x.similarity);
}

/** Each term's posting. */
function indexTerms(vectors: readonly DescriptionVector[], documentFrequency: readonly number[]): Posting[] {
  const postings = documentFrequency.map((count) => ({ skills: new Int32Array(count), weights: new Float64Array(count) }));
  const filled = new Int32Array(documentFrequency.length);
  vectors.forEach(({ terms, weights }, index) => {
    for (let position = 0; position < terms.length; position++) {
      const at = filled[terms[position]]++;
      postings[terms[position]].skills[at] = index;
      postings[terms[position]].weights[at] = weights[position];
    }
  });
  return postings;
}

/** A description's probe terms (see similarDescriptions). */
function probeTerms({ terms, weights, norm }: DescriptionVector, postings: readonly Posting[], largestShare: Float64Array, bound: number): number[] {
  const commonestFirst = Array.from(terms.keys()).sort((a, b) => postings[terms[b]].skills.length - postings[terms[a]].skills.length);
  let leftOutProducts = 0;
  let leftOutSquares = 0;
  const probes: number[] = [];
  for (const position of commonestFirst) {
    const share = weights[position] / norm;
    leftOutProducts += share * largestShare[terms[position]];
    leftOutSquares += share * share;
    if (Math.min(leftOutProducts, Math.sqrt(leftOutSquares)) >= bound) {
      probes.push(terms[position]);
    }
  }
  return probes;
}

/** A line of its own closing the frontmatter: any line but the first. */
const CLOSING_FENCE_LINE = new RegExp(`\\r?\\n${FRONTMATTER_FENCE}(?:\\r?\\n|$)`);

/** Where the description's value stands in a SKILL.md's text (only the frontmatter's lines are cut: bodies are long). */
function descriptionRange(text: string): Range | undefined {
  const closing = CLOSING_FENCE_LINE.exec(text);
  const frontmatter = closing ? text.slice(0, closing.index) : text;
  return locateFrontmatterFields(frontmatter.split(/\r?\n/)).get('description')?.value;
}

/**
 * A warning on each side of a similar pair, at its description (located in `text`, the SKILL.md
 * text of that side, when given; else at the start of the file).
 */
export function descriptionOverlapDiagnostics(pairs: readonly SimilarPair[], textOf: (record: SkillRecord) => string | undefined): SkillDiagnostic[] {
  const warn = (record: SkillRecord, other: SkillRecord, similarity: number): SkillDiagnostic => {
    const text = textOf(record);
    const range = text === undefined ? FILE_START_RANGE : (descriptionRange(text) ?? FILE_START_RANGE);
    return {
      file: record.file,
      range,
      severity: 'warning',
      code: 'overlap-description',
      message: `The description of ${record.name} is ${Math.round(similarity * 100)}% alike to ${other.name}'s: a model has little to choose between them by. Say what each is for that the other is not.`,
    };
  };
  return pairs.flatMap(({ a, b, similarity }) => [warn(a, b, similarity), warn(b, a, similarity)]);
}

/**
 * Both checks over a set of skills: warnings on the trigger files' queries and on the
 * descriptions of similar pairs. `readText` gives a SKILL.md's text to place a description warning
 * (only skills in a pair are read).
 */
export async function overlapDiagnostics(
  records: readonly SkillRecord[],
  skills: readonly SkillTests[],
  find: (query: string) => SkillMatch[],
  readText: (file: string) => Promise<string | undefined>,
): Promise<SkillDiagnostic[]> {
  const pairs = similarDescriptions(records);
  const texts = new Map<string, string | undefined>();
  for (const record of new Set(pairs.flatMap(({ a, b }) => [a, b]))) {
    texts.set(record.file, await readText(record.file));
  }
  return [...queryOverlaps(skills, find), ...descriptionOverlapDiagnostics(pairs, (record) => texts.get(record.file))];
}
