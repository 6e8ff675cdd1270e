// Skills that compete for the same requests, found without a model: a should-trigger query of one
// skill on which the find index ranks another skill higher, and descriptions so alike that a model
// has little to choose by (see description-index.ts). Both are warnings that name the other skill;
// a description names its closest few and counts the rest, however many skills are alike.

import type { Range, SkillDiagnostic, SkillRecord } from '../model/types';
import { FRONTMATTER_FENCE } from '../skill-file/parse';
import { FILE_START_RANGE } from '../skill-file/diagnostic-codes';
import { locateFrontmatterFields } from '../skill-file/frontmatter-locator';
import type { SkillMatch } from '../use/find';
import { alikeDescriptions, SIMILAR_DESCRIPTIONS, type AlikeDescriptions } from './description-index';
import type { TriggerTestFile } from './trigger-file';

export const OVERLAP_CODES = ['overlap-query', 'overlap-description'] as const;

/** Skills alike to one are named up to this many, the closest; the rest are counted. */
export const MAX_ALIKE_NAMED = 3;

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

/** A line of its own closing the frontmatter: any line but the first. */
const CLOSING_FENCE_LINE = new RegExp(`\\r?\\n${FRONTMATTER_FENCE}(?:\\r?\\n|$)`);

/** Where the description's value stands in a SKILL.md's text, when given and found (only the frontmatter's lines are cut: bodies are long). */
export function descriptionRange(text: string | undefined): Range | undefined {
  if (text === undefined) {
    return undefined;
  }
  const closing = CLOSING_FENCE_LINE.exec(text);
  const frontmatter = closing ? text.slice(0, closing.index) : text;
  return locateFrontmatterFields(frontmatter.split(/\r?\n/)).get('description')?.value;
}

/**
 * Warnings on a description alike to others: one per other skill named (the closest
 * MAX_ALIKE_NAMED when taken from the index), the last saying how many more there are. At the
 * description's value when `description` says where it stands, else at the start of the file.
 */
export function alikeDescriptionDiagnostics({ record, closest, more }: AlikeDescriptions, description: Range | undefined): SkillDiagnostic[] {
  const range = description ?? FILE_START_RANGE;
  return closest.map(({ record: other, similarity }, index) => ({
    file: record.file,
    range,
    severity: 'warning',
    code: 'overlap-description',
    message: `The description of ${record.name} is ${Math.round(similarity * 100)}% alike to ${other.name}'s: a model has little to choose between them by. Say what each is for that the other is not.${
      index === closest.length - 1 && more > 0 ? ` ${more} more ${more === 1 ? 'skill is' : 'skills are'} as alike (${Math.round(SIMILAR_DESCRIPTIONS * 100)}% or more) to ${record.name}.` : ''
    }`,
  }));
}

/**
 * Both checks over a set of skills: warnings on the trigger files' queries and on the
 * descriptions alike to others. `locateDescription` says where a SKILL.md's description stands, to
 * place a description warning (only skills alike to others are asked about).
 */
export async function overlapDiagnostics(
  records: readonly SkillRecord[],
  skills: readonly SkillTests[],
  find: (query: string) => SkillMatch[],
  locateDescription: (file: string) => Promise<Range | undefined>,
): Promise<SkillDiagnostic[]> {
  const diagnostics = queryOverlaps(skills, find);
  for (const alike of alikeDescriptions(records, MAX_ALIKE_NAMED)) {
    diagnostics.push(...alikeDescriptionDiagnostics(alike, await locateDescription(alike.record.file)));
  }
  return diagnostics;
}
