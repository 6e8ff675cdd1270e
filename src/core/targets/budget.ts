// What one host lists of a project's skills at a given context size: each skill in full, with a
// shortened description, by name only, not at all (past the budget), or not offered to the model
// (disable-model-invocation, where the host honours it), with the characters each costs. An
// estimate from the host's documented rule, at about four characters per token.

import { DEFAULT_CONTEXT_TOKENS } from '../defaults';
import { isUsableStatus } from '../model/status';
import { CHARS_PER_TOKEN, collapseWhitespace } from '../util/text';
import type { SkillRecord } from '../model/types';
import type { BudgetRule, TargetProfile } from './profiles';

export { DEFAULT_CONTEXT_TOKENS };

export type ListingState = 'full' | 'shortened' | 'name-only' | 'dropped' | 'user-only';

export interface ListedSkill {
  name: string;
  state: ListingState;
  /** Characters the skill's entry costs in the host's list (0 when not listed). */
  chars: number;
  /** Characters of its description as the host lists it. */
  descriptionChars: number;
  /** The description as the host lists it (cut to `descriptionChars`). */
  description: string;
}

export interface TargetListing {
  host: TargetProfile;
  contextTokens: number;
  /** The list's budget in characters; undefined when the host lists everything or its rule is unknown. */
  budgetChars?: number;
  rule: BudgetRule;
  skills: ListedSkill[];
  usedChars: number;
}

/** The line a skill takes: `name: description` and a newline (hosts differ in markup; this is the common core). */
function entryChars(name: string, descriptionChars: number): number {
  return descriptionChars === 0 ? name.length + 1 : name.length + 2 + descriptionChars + 1;
}

/** Whether a host's list offers `record` at all: a usable skill whose frontmatter was read. */
export function isOffered(record: SkillRecord): boolean {
  return isUsableStatus(record.status) && record.metadata !== undefined;
}

/** The skills a model may be offered by this host, in precedence order, with their descriptions on one line. */
function offered(records: readonly SkillRecord[]): { name: string; description: string; userOnly: boolean }[] {
  return records.filter(isOffered).map((record) => ({ name: record.name, description: oneLineDescription(record), userOnly: record.metadata!.disableModelInvocation }));
}

/**
 * Each record's description on one line, as last worked out: a snapshot keeps the records that did
 * not change, so listing it again collapses only the descriptions that did.
 */
const oneLineDescriptions = new WeakMap<SkillRecord, { description: string; oneLine: string }>();

function oneLineDescription(record: SkillRecord): string {
  const description = record.metadata!.description;
  const known = oneLineDescriptions.get(record);
  if (known?.description === description) {
    return known.oneLine;
  }
  const oneLine = collapseWhitespace(description);
  oneLineDescriptions.set(record, { description, oneLine });
  return oneLine;
}

export function budgetChars(rule: BudgetRule, contextTokens: number): number | undefined {
  if (rule.kind !== 'share') {
    return undefined;
  }
  return contextTokens > 0 ? Math.floor((contextTokens * rule.contextPercent * CHARS_PER_TOKEN) / 100) : rule.fallbackChars;
}

export function targetListing(records: readonly SkillRecord[], host: TargetProfile, contextTokens = DEFAULT_CONTEXT_TOKENS): TargetListing {
  const rule = host.budget.value;
  const honoursUserOnly = host.fields.value.honoured.includes('disable-model-invocation');
  const candidates = offered(records);
  const skills: ListedSkill[] = candidates.map((skill) => ({ name: skill.name, state: 'full', chars: 0, descriptionChars: skill.description.length, description: '' }));
  const listed: number[] = [];
  candidates.forEach((skill, index) => {
    if (skill.userOnly && honoursUserOnly) {
      skills[index] = { ...skills[index], state: 'user-only', descriptionChars: 0 };
    } else {
      listed.push(index);
    }
  });
  const budget = budgetChars(rule, contextTokens);
  if (rule.kind === 'share' && rule.descriptionChars !== undefined) {
    for (const index of listed) {
      if (skills[index].descriptionChars > rule.descriptionChars) {
        skills[index] = { ...skills[index], state: 'shortened', descriptionChars: rule.descriptionChars };
      }
    }
  }
  if (budget !== undefined && rule.kind === 'share') {
    if (rule.overflow === 'name-only') {
      fitByDroppingDescriptions(skills, listed, budget);
    } else {
      fitByShorteningThenOmitting(skills, listed, budget);
    }
  }
  let usedChars = 0;
  for (const index of listed) {
    const skill = skills[index];
    skill.chars = skill.state === 'dropped' ? 0 : entryChars(skill.name, skill.descriptionChars);
    usedChars += skill.chars;
  }
  skills.forEach((skill, index) => {
    skill.description = candidates[index].description.slice(0, skill.descriptionChars);
  });
  return { host, contextTokens, ...(budget === undefined ? {} : { budgetChars: budget }), rule, skills, usedChars };
}

/** Claude Code's rule: entries keep their descriptions in order until the budget is spent; the rest are listed by name. */
function fitByDroppingDescriptions(skills: ListedSkill[], listed: readonly number[], budget: number): void {
  const namesFrom = new Array<number>(listed.length + 1).fill(0);
  for (let position = listed.length - 1; position >= 0; position--) {
    namesFrom[position] = namesFrom[position + 1] + entryChars(skills[listed[position]].name, 0);
  }
  let used = 0;
  listed.forEach((index, position) => {
    const skill = skills[index];
    const full = entryChars(skill.name, skill.descriptionChars);
    if (used + full + namesFrom[position + 1] <= budget) {
      used += full;
      return;
    }
    skills[index] = { ...skill, state: 'name-only', descriptionChars: 0 };
    used += entryChars(skill.name, 0);
  });
}

/**
 * Codex's rule: every description is cut to one common length, the longest that fits; when even
 * names alone do not fit, skills are left out from the end.
 */
function fitByShorteningThenOmitting(skills: ListedSkill[], listed: readonly number[], budget: number): void {
  const total = (cap: number): number => listed.reduce((sum, index) => sum + entryChars(skills[index].name, Math.min(cap, skills[index].descriptionChars)), 0);
  const longest = Math.max(0, ...listed.map((index) => skills[index].descriptionChars));
  if (total(longest) <= budget) {
    return;
  }
  let low = 0;
  let high = longest;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (total(middle) <= budget) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  if (total(low) <= budget) {
    for (const index of listed) {
      const skill = skills[index];
      if (skill.descriptionChars > low) {
        skills[index] = { ...skill, state: low === 0 ? 'name-only' : 'shortened', descriptionChars: low };
      }
    }
    return;
  }
  let used = 0;
  let full = false;
  for (const index of listed) {
    const skill = skills[index];
    const cost = entryChars(skill.name, 0);
    full ||= used + cost > budget;
    skills[index] = { ...skill, state: full ? 'dropped' : 'name-only', descriptionChars: 0 };
    used += full ? 0 : cost;
  }
}

export function countByState(listing: TargetListing): Record<ListingState, number> {
  const counts: Record<ListingState, number> = { full: 0, shortened: 0, 'name-only': 0, dropped: 0, 'user-only': 0 };
  for (const skill of listing.skills) {
    counts[skill.state]++;
  }
  return counts;
}

/** Each target's listing of the same skills, by host id. */
export function targetListings(records: readonly SkillRecord[], targets: readonly TargetProfile[], contextTokens = DEFAULT_CONTEXT_TOKENS): Map<string, TargetListing> {
  return new Map(targets.map((host) => [host.id, targetListing(records, host, contextTokens)]));
}
