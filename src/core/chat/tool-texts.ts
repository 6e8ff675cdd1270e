// What the three language-model tools accept and answer, decided without the editor: input checks,
// the progress line shown while a tool runs, and the texts the model reads back. Refusals are plain
// text results rather than thrown errors, so every caller (the @skills participant, agent mode,
// other participants) hands the model the same readable explanation.

import { checkInvocation, type ActivationResult } from '../use/activation';
import { modelVisibleSkills, type Catalog } from '../use/catalog';
import { MAX_FIND_MATCHES } from '../defaults';
import { singleLine } from '../util/text';
import { TOOL_NAMES, type ToolNames } from './tool-names';
import type { RegistrySnapshot } from '../discovery/registry';
import type { SkillMetadata, SkillRecord, SkillStatus } from '../model/types';
import { isUsableStatus } from '../model/status';

export interface ActivateInput {
  name: string;
  arguments?: string;
}

export interface FindInput {
  query: string;
}

export interface ReadResourceInput {
  skill: string;
  path: string;
}

export type ParsedInput<T> = { ok: true; input: T } | { ok: false; message: string };

/** VS Code checks inputs against the declared schema, but other callers may not: say what is wrong. */
function parseObject<T>(input: unknown, tool: string, read: (fields: Record<string, unknown>) => ParsedInput<T>): ParsedInput<T> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, message: `${tool} expects a JSON object as input.` };
  }
  return read(input as Record<string, unknown>);
}

function nonEmptyText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function optionalText(value: unknown): value is string | undefined | null {
  return value === undefined || value === null || typeof value === 'string';
}

export function parseActivateInput(input: unknown, tools: ToolNames = TOOL_NAMES): ParsedInput<ActivateInput> {
  return parseObject(input, tools.activate, ({ name, arguments: args }) => {
    if (!nonEmptyText(name)) {
      return { ok: false, message: `${tools.activate} needs "name" as a non-empty string, e.g. {"name": "pdf-report"}.` };
    }
    if (!optionalText(args)) {
      return { ok: false, message: `${tools.activate} takes "arguments" as one string, as the user would type it.` };
    }
    return { ok: true, input: nonEmptyText(args) ? { name: name.trim(), arguments: args } : { name: name.trim() } };
  });
}

export function parseFindInput(input: unknown, tools: ToolNames = TOOL_NAMES): ParsedInput<FindInput> {
  // The schema requires the query; an empty one is meaningful: it asks for the whole catalog.
  return parseObject(input, tools.find, ({ query }) =>
    typeof query === 'string'
      ? { ok: true, input: { query: query.trim() } }
      : { ok: false, message: `${tools.find} needs "query" as a string, e.g. {"query": "fill a pdf form"}; an empty query lists every skill.` },
  );
}

export function parseReadResourceInput(input: unknown, tools: ToolNames = TOOL_NAMES): ParsedInput<ReadResourceInput> {
  return parseObject(input, tools.readResource, ({ skill, path }) => {
    if (!nonEmptyText(skill)) {
      return { ok: false, message: `${tools.readResource} needs "skill" as a non-empty string, e.g. {"skill": "pdf-report", "path": "references/guide.md"}.` };
    }
    // The path is left as given: the core resolver owns what a valid path is.
    if (!nonEmptyText(path)) {
      return { ok: false, message: `${tools.readResource} needs "path" relative to the skill folder, e.g. "references/guide.md".` };
    }
    return { ok: true, input: { skill: skill.trim(), path } };
  });
}

/** Why a skill of this status cannot be loaded, in a few words for a progress line. */
const SHORT_REASONS: Partial<Record<SkillStatus, string>> = {
  untrusted: 'the workspace is not trusted',
  'not-allowed': 'it is not in agentSkills.allowlist',
  disabled: 'skills are turned off',
  invalid: 'its SKILL.md has errors',
  shadowed: 'another skill of that name wins',
};

/** The line the chat shows while the activation tool runs (or why it will refuse). */
export function activationInvocationMessage(snapshot: RegistrySnapshot, name: string): string {
  const check = checkInvocation(snapshot, name, 'model');
  if (check.ok) {
    return `Loading skill ${check.record.name}…`;
  }
  if (check.reason === 'unknown') {
    return `Looking for skill ${name} (no skill has that name)…`;
  }
  const record = check.record;
  const reason = record && isUsableStatus(record.status) ? 'only the user can start it (/use)' : ((record && SHORT_REASONS[record.status]) ?? 'it cannot be used');
  return `Not loading skill ${name}: ${reason}`;
}

export function findInvocationMessage(query: string): string {
  return query.trim() === '' ? 'Listing skills…' : `Searching skills for "${query.trim()}"…`;
}

export function readResourceInvocationMessage(skill: string, requestedPath: string): string {
  return `Reading ${requestedPath} of skill ${skill}…`;
}

/** Appended to a `context: fork` skill's activation, for callers that cannot isolate it themselves. */
export const FORK_NOTE = 'This skill asks to run in isolation (context: fork): carry it out as a self-contained task, using only these instructions and the task, and report its result.';

/** The activation tool's text: the core activation, a fork note where it applies, or the refusal. */
export function activationToolText(result: ActivationResult): string {
  if (!result.ok) {
    return result.message;
  }
  return result.record.metadata?.context === 'fork' ? `${result.text}\n\n${FORK_NOTE}` : result.text;
}

/** `<skill name="…"` and the element's other attributes (a folder, or a skill server and URI); values are escaped, so they hold no `"`. */
const ACTIVATION_HEADER = /^<skill name="([^"]*)"((?: [a-z]+="[^"]*")*)>/;
const HEADER_ATTRIBUTE = / ([a-z]+)="([^"]*)"/g;

function unescapeAttribute(value: string): string {
  return value
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

export interface ActivationHeader {
  name: string;
  /** The skill's folder; a skill server's skill has none. */
  dir?: string;
  /** A skill server's skill: the server, and the skill's URI on it. */
  server?: string;
  uri?: string;
}

/** The skill an activation tool result loaded, or undefined when the text is a refusal. */
export function parseActivationHeader(text: string): ActivationHeader | undefined {
  const match = ACTIVATION_HEADER.exec(text);
  if (!match) {
    return undefined;
  }
  const header: ActivationHeader = { name: unescapeAttribute(match[1]) };
  for (const [, key, value] of match[2].matchAll(HEADER_ATTRIBUTE)) {
    if (key === 'dir' || key === 'server' || key === 'uri') {
      header[key] = unescapeAttribute(value);
    }
  }
  return header;
}

/** Counted once per list of skills: the find tool asks on every call, and a snapshot's list never changes. */
const untrustedCounts = new WeakMap<readonly SkillRecord[], number>();

/** How many skills of the workspace are withheld because it is not trusted (names stay unsaid). */
export function untrustedSkillCount(snapshot: RegistrySnapshot): number {
  let count = untrustedCounts.get(snapshot.skills);
  if (count === undefined) {
    count = 0;
    for (const record of snapshot.skills) {
      count += record.status === 'untrusted' ? 1 : 0;
    }
    untrustedCounts.set(snapshot.skills, count);
  }
  return count;
}

export function untrustedNote(count: number): string {
  return `${count} skill${count === 1 ? '' : 's'} of this workspace ${count === 1 ? 'is' : 'are'} not available because the workspace is not trusted.`;
}

/** Each description as one line, made once: the find tool shows the same few again and again. */
const descriptionLines = new WeakMap<SkillMetadata, { description: string; line: string }>();

function descriptionLine(metadata: SkillMetadata): string {
  const known = descriptionLines.get(metadata);
  if (known?.description === metadata.description) {
    return known.line;
  }
  const line = singleLine(metadata.description);
  descriptionLines.set(metadata, { description: metadata.description, line });
  return line;
}

/**
 * The find tool's text. An empty query returns the catalog (within its budget, the overflow by
 * name). Otherwise ranked matches with descriptions, best first; the count of further matches says
 * a narrower query reaches them, so no skill is out of reach however many there are.
 */
export function renderFindResult(snapshot: RegistrySnapshot, query: string, catalog: Catalog, tools: ToolNames = TOOL_NAMES): string {
  const withheld = untrustedSkillCount(snapshot);
  const footer = withheld > 0 ? [untrustedNote(withheld)] : [];
  if (query.trim() === '') {
    if (modelVisibleSkills(snapshot.skills).length === 0) {
      return ['No skills are available.', ...footer].join('\n');
    }
    return [catalog.text, ...footer].join('\n');
  }
  const { best: shown, total } = snapshot.rankSkills(query, MAX_FIND_MATCHES);
  if (total === 0) {
    const visible = modelVisibleSkills(snapshot.skills).length;
    return [
      `No skill matches "${query}".${visible > 0 ? ` Try other words, or call ${tools.find} with an empty query for the catalog of ${visible} skill${visible === 1 ? '' : 's'}.` : ' No skills are available.'}`,
      ...footer,
    ].join('\n');
  }
  const lines = [
    `${total} skill${total === 1 ? '' : 's'} match "${query}"${total > shown.length ? `; the best ${shown.length}` : ''}, best first:`,
    ...shown.map(({ record }) => `- ${record.name}: ${record.metadata ? descriptionLine(record.metadata) : ''}`),
  ];
  if (total > shown.length) {
    lines.push(`…and ${total - shown.length} more; use more specific words to reach them.`);
  }
  lines.push(`Load one with ${tools.activate}.`, ...footer);
  return lines.join('\n');
}

/** The answer to a call of a tool @skills did not offer. */
export function unavailableToolText(name: string): string {
  return `The tool "${name}" is not available here; use ${Object.values(TOOL_NAMES).join(', ')}.`;
}
