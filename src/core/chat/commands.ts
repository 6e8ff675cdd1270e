// The @skills slash commands and follow-ups, decided from a registry snapshot: `/use` parsing,
// the `/list` table, the `/validate` summary and the skills suggested after a request.

import { singleLine } from '../util/text';
import { untrustedNote } from './tool-texts';
import { isUsableStatus, isUserInvocable, leadingProblem, statusWords } from '../model/status';
import { escapeMarkdown } from '../util/text';
import { findSkills, type SkillMatch } from '../use/find';
import type { RegistrySnapshot } from '../discovery/registry';
import { sourceNamer } from '../discovery/source-names';
import type { Severity, SkillRecord } from '../model/types';

export interface UseCommand {
  name: string;
  arguments?: string;
}

/** `/use <skill> [arguments]`: the first word names the skill, the rest is passed on as typed. */
export function parseUseCommand(prompt: string): UseCommand | undefined {
  const match = /^\s*(\S+)(?:\s+([\s\S]*))?$/.exec(prompt);
  if (!match) {
    return undefined;
  }
  const args = match[2]?.trim();
  return args ? { name: match[1], arguments: args } : { name: match[1] };
}

/** Skills the user may start with /use, including those hidden from the model. */
export function userInvocableSkills(snapshot: RegistrySnapshot): SkillRecord[] {
  return snapshot.skills.filter(isUserInvocable);
}

const MAX_NAMES_IN_USAGE = 30;

export function useUsage(snapshot: RegistrySnapshot): string {
  const names = [...new Set(userInvocableSkills(snapshot).map((record) => record.name))];
  if (names.length === 0) {
    return 'Usage: `/use <skill> [arguments]`. No skills are available to start.';
  }
  const more = names.length > MAX_NAMES_IN_USAGE ? `, …and ${names.length - MAX_NAMES_IN_USAGE} more (see /list)` : '';
  return `Usage: \`/use <skill> [arguments]\`. Skills you can start: ${names.slice(0, MAX_NAMES_IN_USAGE).join(', ')}${more}.`;
}

/** About two lines of a narrow chat panel (270–300 px); the whole description is one click away. */
const MAX_DESCRIPTION_IN_LIST = 80;

/** A Markdown table cell: one line, no pipe that would split the row. */
function cell(text: string): string {
  return singleLine(text).replace(/\|/g, '\\|');
}

/** Cut to `length` characters at a word's end, with an ellipsis. */
function truncate(text: string, length: number): string {
  if (text.length <= length) {
    return text;
  }
  const cut = text.slice(0, length - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > 0 ? cut.slice(0, lastSpace) : cut}…`;
}

/** The first sentence: what a skill does, before the "Use when…" that only the model needs. */
function firstSentence(text: string): string {
  const end = /[.!?](?=\s)/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}

function descriptionText(record: SkillRecord): string {
  // Only shadowed records name a winner, and invalid ones never have metadata (stale ones keep their last valid version's).
  if (record.shadowedBy) {
    return `Shadowed by ${record.shadowedBy}`;
  }
  if (record.metadata) {
    return firstSentence(singleLine(record.metadata.description));
  }
  const error = leadingProblem(record);
  return error ? error.message : '';
}

export interface SkillListOptions {
  /** A link target for the skill's SKILL.md (e.g. a file URI). */
  link(record: SkillRecord): string;
}

/**
 * `/list`: every skill with status, source and description, one list item each: a table's columns
 * break names mid-word in the usual narrow chat panel. Untrusted skills are only counted.
 */
export function renderSkillList(snapshot: RegistrySnapshot, options: SkillListOptions): string {
  const shown = snapshot.skills.filter((record) => record.status !== 'untrusted');
  const withheld = snapshot.skills.length - shown.length;
  const lines: string[] = [];
  if (shown.length === 0) {
    lines.push('No skills found. A skill is a folder with a SKILL.md in `.agent/skills` of the workspace or in `~/.agent/skills`; run **Skills: Create Skill…** to make one.');
  } else {
    const usable = shown.filter((record) => isUsableStatus(record.status)).length;
    lines.push(`${shown.length} skill${shown.length === 1 ? '' : 's'}, ${usable} usable:`, '');
    const sourceName = sourceNamer(snapshot);
    for (const record of shown) {
      const name = `**[${escapeMarkdown(record.name)}](${options.link(record)})**`;
      const description = escapeMarkdown(singleLine(truncate(descriptionText(record), MAX_DESCRIPTION_IN_LIST)));
      lines.push(`- ${name} · ${escapeMarkdown(statusWords(record))} · ${escapeMarkdown(singleLine(sourceName(record.root)))}: ${description}`);
    }
  }
  if (withheld > 0) {
    lines.push('', untrustedNote(withheld));
  }
  return lines.join('\n');
}

export interface ChatProblem {
  file: string;
  /** Zero-based, as editors count. */
  line: number;
  severity: Severity;
  message: string;
}

export interface ValidationSummaryOptions {
  /** A link target for a file at a zero-based line. */
  link(file: string, line: number): string;
  /** How a file is named in the list (e.g. relative to its skill root). */
  label(file: string): string;
}

const MAX_PROBLEMS_LISTED = 50;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const SEVERITY_LABEL: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/** `/validate`: the summary line, then each problem with a link to its file and line. */
export function renderValidationSummary(summary: string, problems: readonly ChatProblem[], options: ValidationSummaryOptions): string {
  const sorted = [...problems].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  const lines = [summary];
  if (sorted.length > 0) {
    lines.push('');
    for (const problem of sorted.slice(0, MAX_PROBLEMS_LISTED)) {
      const place = `${options.label(problem.file)}:${problem.line + 1}`;
      lines.push(`- **${SEVERITY_LABEL[problem.severity]}** [${cell(place)}](${options.link(problem.file, problem.line)}): ${singleLine(problem.message)}`);
    }
    if (sorted.length > MAX_PROBLEMS_LISTED) {
      lines.push(`- …and ${sorted.length - MAX_PROBLEMS_LISTED} more in the Problems panel.`);
    }
  }
  return lines.join('\n');
}

/** Suggestions far below the best match are noise next to it. */
const MIN_SHARE_OF_BEST = 0.5;
export const MAX_SUGGESTIONS = 3;

/**
 * A match worth suggesting takes more than one common word: a word of the name, or two words of
 * the description. A single description word ("from", "report") suggests unrelated skills.
 */
function isStrongMatch(match: SkillMatch): boolean {
  return match.nameMatch || match.matchedWords >= 2;
}

/**
 * Skills worth offering after a request: those matching it that the user may start and that were
 * not loaded already. Skills hidden from the model are included on purpose: /use is their only way in.
 */
export function suggestSkills(snapshot: RegistrySnapshot, request: string, exclude: Iterable<string>, limit = MAX_SUGGESTIONS): string[] {
  const excluded = new Set(exclude);
  const candidates = userInvocableSkills(snapshot).filter((record) => !excluded.has(record.name));
  const matches = findSkills(candidates, request);
  const best = matches[0]?.score ?? 0;
  return matches
    .filter((match) => isStrongMatch(match) && match.score >= best * MIN_SHARE_OF_BEST)
    .slice(0, limit)
    .map((match) => match.record.name);
}
