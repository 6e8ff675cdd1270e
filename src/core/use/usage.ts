// What fired, and what it cost: a workspace's record of skill activations (who asked for each, when,
// and how many characters its text added), kept small enough for the editor's workspace storage
// and never sent anywhere. Recording and reading are pure: the caller gives the clock and stores
// the value.

import type { InvocationMode } from './activation';
import { tokensOfChars } from './catalog';

/**
 * Who activated a skill in the editor. `model`: a chat model through the language-model tools
 * (@skills or another participant). `agent`: agent mode through the referenceable tools
 * (`agentSkills.agentMode: tools`). `use`: `/use` in @skills. `view`: Activate in the Skills view.
 * `api`: another extension.
 */
export type EditorOrigin = 'model' | 'agent' | 'use' | 'view' | 'api';

/**
 * Who activated a skill, the editor's own activations and those of the `agent-skills mcp` server
 * the editor starts (reported through usage-log.ts): `mcp`, its activate tool (agent mode, by
 * default); `mcpPrompt`, a skill's prompt there.
 */
export type UsageOrigin = EditorOrigin | 'mcp' | 'mcpPrompt';

export const USAGE_ORIGINS: readonly UsageOrigin[] = ['model', 'agent', 'mcp', 'use', 'mcpPrompt', 'view', 'api'];

/** Which skills an origin may activate: the user's own choices reach skills hidden from the model too. */
export function invocationModeOf(origin: EditorOrigin): InvocationMode {
  return origin === 'use' || origin === 'view' ? 'user' : 'model';
}

export const ORIGIN_LABELS: Record<UsageOrigin, string> = {
  model: 'model',
  agent: 'agent mode',
  use: '/use',
  view: 'Skills view',
  api: 'other extensions',
  mcp: 'MCP server (agent mode)',
  mcpPrompt: 'MCP prompt',
};

/** A skill not activated on any of this many most recent days of use is pointed out. */
export const UNUSED_AFTER_DAYS_OF_USE = 30;
/** Skills kept at most; past it the one activated longest ago is forgotten. */
export const MAX_SKILLS_KEPT = 500;

export interface SkillUsage {
  /** Activations by origin. */
  byOrigin: Partial<Record<UsageOrigin, number>>;
  /** Characters the activations' texts added, summed. */
  chars: number;
  /** Epoch milliseconds of the last activation. */
  lastAt: number;
}

/** The stored value: per skill, and which skills fired on each of the last days of use. */
export interface UsageRecord {
  version: 1;
  skills: Record<string, SkillUsage>;
  /**
   * The most recent days on which some skill was activated (UTC dates, oldest first), at most
   * UNUSED_AFTER_DAYS_OF_USE, with the day's first activation (epoch milliseconds; absent in records
   * written before it was kept).
   */
  days: { day: string; skills: string[]; firstAt?: number }[];
}

export function emptyUsage(): UsageRecord {
  return { version: 1, skills: {}, days: [] };
}

/** The UTC date of a moment, `2026-11-26`. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

// Number.isFinite is true of numbers only.
const isCount = (value: unknown): value is number => Number.isFinite(value) && (value as number) >= 0;

/** The stored value read back; anything malformed (another version, a hand edit) is dropped, never trusted. */
export function readUsage(stored: unknown): UsageRecord {
  const usage = emptyUsage();
  if (typeof stored !== 'object' || stored === null || (stored as { version?: unknown }).version !== 1) {
    return usage;
  }
  const { skills, days } = stored as { skills?: unknown; days?: unknown };
  if (typeof skills === 'object' && skills !== null) {
    for (const [name, value] of Object.entries(skills)) {
      const { byOrigin, chars, lastAt } = (value ?? {}) as Partial<SkillUsage>;
      if (!isCount(chars) || !isCount(lastAt) || typeof byOrigin !== 'object' || byOrigin === null) {
        continue;
      }
      const counts = Object.fromEntries(USAGE_ORIGINS.filter((origin) => isCount(byOrigin[origin])).map((origin) => [origin, byOrigin[origin]]));
      usage.skills[name] = { byOrigin: counts, chars, lastAt };
    }
  }
  if (Array.isArray(days)) {
    for (const entry of days as unknown[]) {
      const { day, skills: names, firstAt } = (entry ?? {}) as { day?: unknown; skills?: unknown; firstAt?: unknown };
      if (typeof day === 'string' && Array.isArray(names)) {
        usage.days.push({ day, skills: names.filter((name): name is string => typeof name === 'string'), ...(isCount(firstAt) ? { firstAt } : {}) });
      }
    }
  }
  usage.days = usage.days.slice(-UNUSED_AFTER_DAYS_OF_USE);
  return usage;
}

/** The record with one more activation of `skill` by `origin` at `at`, which added `chars` characters. */
export function recordActivation(usage: UsageRecord, activation: { skill: string; origin: UsageOrigin; chars: number; at: number }): UsageRecord {
  const { skill, origin, chars, at } = activation;
  const previous = usage.skills[skill];
  const skills = {
    ...usage.skills,
    [skill]: { byOrigin: { ...previous?.byOrigin, [origin]: (previous?.byOrigin[origin] ?? 0) + 1 }, chars: (previous?.chars ?? 0) + chars, lastAt: Math.max(previous?.lastAt ?? 0, at) },
  };
  const names = Object.keys(skills);
  if (names.length > MAX_SKILLS_KEPT) {
    const oldest = names.reduce((a, b) => (skills[a].lastAt <= skills[b].lastAt ? a : b));
    delete skills[oldest];
  }
  const day = dayOf(at);
  const days = usage.days.filter((entry) => entry.day !== day);
  const today = usage.days.find((entry) => entry.day === day);
  const skillsToday = today?.skills ?? [];
  days.push({ day, skills: skillsToday.includes(skill) ? skillsToday : [...skillsToday, skill], firstAt: Math.min(today?.firstAt ?? at, at) });
  days.sort((a, b) => a.day.localeCompare(b.day));
  return { version: 1, skills, days: days.slice(-UNUSED_AFTER_DAYS_OF_USE) };
}

export interface SkillUsageRow {
  skill: string;
  activations: number;
  byOrigin: Record<UsageOrigin, number>;
  lastAt: number;
  chars: number;
  averageChars: number;
  estimatedTokens: number;
  averageTokens: number;
}

export interface UsageSummary {
  /** Skills activated at least once, the most activated first. */
  rows: SkillUsageRow[];
  /** Available skills not activated on any of the recorded days of use (at most the last 30), by name. */
  unused: string[];
  /** Skills not activated either, but added since those days began: too new to point out. */
  addedSince: string[];
  /** How many days of use the "unused" rule looked at, and the first of them. */
  daysOfUse: number;
  since?: string;
}

/** When the recorded days of use began: the first activation of the first day (its midnight, UTC, in older records). */
export function usageWindowStart(usage: UsageRecord): number | undefined {
  const first = usage.days[0];
  return first && (first.firstAt ?? Date.parse(`${first.day}T00:00:00Z`));
}

/**
 * The table and the skills to point out, for the skills available now. `addedAt`: when a skill was
 * installed or created, where known; one added after the days of use began is not pointed out.
 */
export function summarizeUsage(usage: UsageRecord, availableSkills: readonly string[], addedAt: ReadonlyMap<string, number> = new Map()): UsageSummary {
  const rows = Object.entries(usage.skills).map(([skill, entry]): SkillUsageRow => {
    const byOrigin = Object.fromEntries(USAGE_ORIGINS.map((origin) => [origin, entry.byOrigin[origin] ?? 0])) as Record<UsageOrigin, number>;
    const activations = USAGE_ORIGINS.reduce((sum, origin) => sum + byOrigin[origin], 0);
    const averageChars = activations === 0 ? 0 : Math.round(entry.chars / activations);
    return { skill, activations, byOrigin, lastAt: entry.lastAt, chars: entry.chars, averageChars, estimatedTokens: tokensOfChars(entry.chars), averageTokens: tokensOfChars(averageChars) };
  });
  rows.sort((a, b) => b.activations - a.activations || b.lastAt - a.lastAt || a.skill.localeCompare(b.skill));
  const recent = new Set(usage.days.flatMap((entry) => entry.skills));
  const notActivated = [...new Set(availableSkills)].filter((skill) => !recent.has(skill)).sort();
  const start = usageWindowStart(usage);
  const isNew = (skill: string): boolean => start !== undefined && (addedAt.get(skill) ?? 0) > start;
  return {
    rows,
    unused: notActivated.filter((skill) => !isNew(skill)),
    addedSince: notActivated.filter(isNew),
    daysOfUse: usage.days.length,
    ...(usage.days.length > 0 ? { since: usage.days[0].day } : {}),
  };
}
