// Renders the `<available_skills>` block the model sees: one line per skill within a budget,
// the rest by name only, and reports what did not fit so it is never dropped silently.

import { TOOL_NAMES, type ToolNames } from '../chat/tool-names';
import { DEFAULT_CATALOG_BUDGET_CHARS } from '../defaults';
import { isDraft, isUsableStatus } from '../model/status';
import { CHARS_PER_TOKEN, singleLine } from '../util/text';
import type { SkillRecord } from '../model/types';

export { DEFAULT_CATALOG_BUDGET_CHARS };
/** The share of the model's input window the catalog may take, in percent (agentSkills.catalog.budgetPercent). */
export const DEFAULT_CATALOG_BUDGET_PERCENT = 2;

export interface CatalogOptions {
  /** Upper bound of the rendered text, in characters. */
  maxChars?: number;
  /** Upper bound in estimated tokens (chars / 4); the smaller of the two bounds applies. */
  maxTokens?: number;
  /** The tool names the text tells the model to call; the editor's contributed tools by default. */
  toolNames?: ToolNames;
  /** Shortens each description to this many characters (the MCP activate tool's short list). */
  descriptionChars?: number;
}

export interface Catalog {
  text: string;
  /** Skills listed with their description, in order. */
  included: string[];
  /** Skills that did not fit with their description (listed by name, or not at all). */
  overflow: string[];
  /** The part of `overflow` that did not fit even by name; reachable only through the find tool. */
  unlisted: string[];
  chars: number;
  estimatedTokens: number;
}

/** A rough, model-independent estimate; good enough to size a budget. */
export function estimateTokens(text: string): number {
  return tokensOfChars(text.length);
}

/** The token estimate of a text of `chars` characters. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The character budget from the settings: a share of the model's input window, capped by `budgetChars`. */
export function catalogBudgetChars(settings: { budgetChars?: number; budgetPercent?: number; maxInputTokens?: number }): number {
  const budgetChars = settings.budgetChars ?? DEFAULT_CATALOG_BUDGET_CHARS;
  if (!settings.maxInputTokens || !settings.budgetPercent) {
    return budgetChars;
  }
  return Math.min(budgetChars, Math.floor((settings.maxInputTokens * settings.budgetPercent * CHARS_PER_TOKEN) / 100));
}

/** Whether the model may invoke a skill: usable, not marked `disable-model-invocation`, not a draft. */
export function isModelVisible(record: SkillRecord): boolean {
  return isUsableStatus(record.status) && record.metadata !== undefined && !record.metadata.disableModelInvocation && !isDraft(record);
}

/** Skills the model may invoke: usable ones not marked `disable-model-invocation`, drafts left out. */
export function modelVisibleSkills(skills: readonly SkillRecord[]): SkillRecord[] {
  return skills.filter(isModelVisible);
}

const OPEN = '<available_skills>';
const CLOSE = '</available_skills>';
const header = (tools: ToolNames): string => `Skills: call ${tools.activate} with a name below to load its instructions before a task it covers.`;
const namesOnly = (tools: ToolNames): string => `More skills (call ${tools.find} for details): `;
const unlistedNote = (tools: ToolNames, count: number): string => ` …and ${count} more (${tools.find})`;

function shorten(text: string, maxChars: number | undefined): string {
  return maxChars === undefined || text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
}

/** A sub-project's skill says which package it belongs to: in a monorepo that is what tells two similar skills apart. */
function packageNote(record: SkillRecord): string {
  return record.root.package === undefined ? '' : ` (in ${singleLine(record.root.package)})`;
}

/**
 * Renders the catalog. Each skill is `name: description` on its own line, followed by its package
 * for a sub-project's skill. No location otherwise: the activation tool resolves names itself and
 * returns the folder, so paths would only spend budget (and reveal file-system layout) without
 * helping the model choose.
 * Skills are taken in the given order (registry precedence), so when the budget runs out the
 * skills closest to the workspace keep their descriptions.
 */
export function renderCatalog(skills: readonly SkillRecord[], options: CatalogOptions = {}): Catalog {
  const visible = modelVisibleSkills(skills);
  const budget = Math.min(options.maxChars ?? DEFAULT_CATALOG_BUDGET_CHARS, options.maxTokens === undefined ? Infinity : options.maxTokens * CHARS_PER_TOKEN);
  const tools = options.toolNames ?? TOOL_NAMES;
  const headerText = header(tools);
  const namesPrefix = namesOnly(tools);
  const lines = visible.map((record) => `${record.name}: ${shorten(singleLine(record.metadata!.description), options.descriptionChars)}${packageNote(record)}`);
  const fixed = OPEN.length + 1 + headerText.length + 1 + CLOSE.length;

  // Names-only and described cost of every suffix, so each step knows whether the rest still fits.
  const suffixNames = new Array<number>(visible.length + 1).fill(0);
  const suffixLines = new Array<number>(visible.length + 1).fill(0);
  for (let index = visible.length - 1; index >= 0; index--) {
    suffixNames[index] = suffixNames[index + 1] + visible[index].name.length + 2;
    suffixLines[index] = suffixLines[index + 1] + lines[index].length + 1;
  }
  const namesCost = (from: number): number => (from === visible.length ? 0 : namesPrefix.length - 2 + suffixNames[from] + 1);
  // Room kept for the skills not yet described: their names, or their lines when describing them
  // all costs less (the names line has a prefix of its own). When even the names alone would not
  // fit, at most half the budget goes to them, so the catalog never degrades to names only.
  const namesReserve = (from: number): number => Math.min(namesCost(from), suffixLines[from], Math.floor(budget / 2));

  let used = fixed;
  let fullCount = 0;
  while (fullCount < visible.length && used + lines[fullCount].length + 1 + namesReserve(fullCount + 1) <= budget) {
    used += lines[fullCount].length + 1;
    fullCount++;
  }

  const rest = visible.slice(fullCount).map((record) => record.name);
  let listed = rest;
  if (used + namesCost(fullCount) > budget) {
    // Not even every name fits: list as many as the budget allows and say how many are missing.
    listed = [];
    // Each name counts its separator, so the first one's is taken off, as in namesCost.
    let length = used + namesPrefix.length - 2 + 1 + unlistedNote(tools, rest.length).length;
    for (const name of rest) {
      length += name.length + 2;
      if (length > budget) {
        break;
      }
      listed.push(name);
    }
  }
  const unlisted = rest.slice(listed.length);

  const body = [headerText, ...lines.slice(0, fullCount)];
  if (rest.length > 0) {
    body.push(namesPrefix + listed.join(', ') + (unlisted.length > 0 ? unlistedNote(tools, unlisted.length) : ''));
  }
  const text = [OPEN, ...body, CLOSE].join('\n');
  return {
    text,
    included: visible.slice(0, fullCount).map((record) => record.name),
    overflow: rest,
    unlisted,
    chars: text.length,
    estimatedTokens: estimateTokens(text),
  };
}
