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

/** Words of a description as the find index sees them: stemmed, without stop words. */
function descriptionTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokenize(text)) {
    if (!STOP_WORDS.has(token)) {
      const stemmed = stem(token);
      counts.set(stemmed, (counts.get(stemmed) ?? 0) + 1);
    }
  }
  return counts;
}

export interface SimilarPair {
  a: SkillRecord;
  b: SkillRecord;
  similarity: number;
}

/**
 * Pairs of skills the model may invoke whose descriptions are nearly the same: TF-IDF cosine over
 * the set, so words every skill uses ("use", "when", "file") weigh little and shared rare words a lot.
 */
export function similarDescriptions(records: readonly SkillRecord[], threshold = SIMILAR_DESCRIPTIONS): SimilarPair[] {
  const visible = modelVisibleSkills(records);
  const terms = visible.map((record) => descriptionTerms(record.metadata!.description));
  const documentFrequency = new Map<string, number>();
  for (const counts of terms) {
    for (const term of counts.keys()) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const vectors = terms.map((counts) => {
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of counts) {
      const weight = count * Math.log(1 + visible.length / documentFrequency.get(term)!);
      vector.set(term, weight);
      norm += weight * weight;
    }
    return { vector, norm: Math.sqrt(norm) };
  });
  // Only pairs sharing a term can be similar: each skill's dot products come from the postings of
  // its terms (the later skills holding them, with their weights), summed in one row.
  const postings = new Map<string, { skills: number[]; weights: number[] }>();
  vectors.forEach(({ vector }, index) =>
    vector.forEach((weight, term) => {
      const posting = postings.get(term) ?? postings.set(term, { skills: [], weights: [] }).get(term)!;
      posting.skills.push(index);
      posting.weights.push(weight);
    }),
  );
  const pairs: SimilarPair[] = [];
  const row = new Float64Array(visible.length);
  for (let i = 0; i < visible.length; i++) {
    row.fill(0);
    for (const [term, weight] of vectors[i].vector) {
      const { skills, weights } = postings.get(term)!;
      // Postings are in skill order: the later skills are at the end.
      for (let k = skills.length - 1; k >= 0 && skills[k] > i; k--) {
        row[skills[k]] += weight * weights[k];
      }
    }
    for (let j = i + 1; j < visible.length; j++) {
      const similarity = row[j] / (vectors[i].norm * vectors[j].norm);
      if (similarity >= threshold) {
        pairs.push({ a: visible[i], b: visible[j], similarity });
      }
    }
  }
  return pairs.sort((x, y) => y.similarity - x.similarity);
}

/** Where the description's value stands in a SKILL.md's text. */
function descriptionRange(text: string): Range | undefined {
  const lines = text.split(/\r?\n/);
  const closing = lines.indexOf(FRONTMATTER_FENCE, 1);
  return locateFrontmatterFields(lines.slice(0, closing < 0 ? lines.length : closing)).get('description')?.value;
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
