// Finds where each top-level frontmatter key and its value sit in the file, so a diagnostic can
// underline the exact text. YAML parsers return values without positions; a SKILL.md frontmatter
// is a flat mapping (plus one nested map, `metadata`), which a line scanner covers well enough.

import { rangeOnLine } from './diagnostic-codes';
import type { Position, Range } from '../model/types';

export interface FieldLocation {
  key: Range;
  /** First to last character of the value; zero-width just after the colon when the value is empty. */
  value: Range;
  /** Entries of a nested block mapping (e.g. `metadata`). */
  children?: FieldLocations;
}

export type FieldLocations = ReadonlyMap<string, FieldLocation>;

// A mapping key at the start of the examined text: double-quoted, single-quoted or plain, then a
// colon followed by a space or the end of the line. Plain keys may not start with a YAML indicator.
const KEY_PATTERN = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|(?!-\s)([^\s#'"[\]{},&*!|>%@`][^#]*?))[ \t]*:(?=[ \t]|$)/;
const SEQUENCE_ENTRY_PATTERN = /^-(\s|$)/;

/**
 * Locates the top-level entries of the frontmatter.
 * @param lines frontmatter lines without line terminators; `lines[i]` is line `i` of the file, and
 *   line 0 (the opening fence) is skipped.
 */
export function locateFrontmatterFields(lines: readonly string[]): FieldLocations {
  return locateEntries(lines, 1, lines.length, 0, true);
}

/**
 * The first tab used as indentation where YAML forbids it: at the start of a line (outside quoted
 * and flow values), or before a key or `-` entry of a nested collection. The specification's
 * reference parser rejects these, while gray-matter's parser silently reads some of them as
 * top-level fields; so they are reported as syntax errors.
 */
export function findTabIndentation(lines: readonly string[]): Position | undefined {
  let valueKind: TopLevelValueKind = 'none';
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index];
    const content = line.trimStart();
    if (content === '') {
      continue;
    }
    if (content.length === line.length) {
      if (line[0] !== '#') {
        valueKind = topLevelValueKind(line);
      }
      continue;
    }
    if (valueKind === 'quoted' || valueKind === 'flow' || content[0] === '#') {
      continue;
    }
    const indentation = line.slice(0, line.length - content.length);
    if (indentation[0] === '\t') {
      return { line: index, column: 0 };
    }
    const nestedEntry = KEY_PATTERN.test(content) || SEQUENCE_ENTRY_PATTERN.test(content);
    if (valueKind === 'nested' && nestedEntry && indentation.includes('\t')) {
      return { line: index, column: indentation.indexOf('\t') };
    }
  }
  return undefined;
}

type TopLevelValueKind = 'none' | 'nested' | 'quoted' | 'flow' | 'other';

/** How the value of a top-level line continues on the lines below it. */
function topLevelValueKind(line: string): TopLevelValueKind {
  const key = KEY_PATTERN.exec(line);
  if (!key) {
    return 'none';
  }
  const valueStart = key[0].length + leadingWhitespace(line.slice(key[0].length));
  const inline = line.slice(valueStart, inlineValueEnd(line, valueStart));
  if (inline === '' || isNodeProperty(inline)) {
    return 'nested';
  }
  const opening = inline[0];
  if ((opening === '"' || opening === "'") && findClosingQuote(line, valueStart + 1, opening) < 0) {
    return 'quoted';
  }
  if (opening === '[' || opening === '{') {
    return 'flow';
  }
  return 'other';
}

function locateEntries(lines: readonly string[], from: number, to: number, indent: number, withChildren: boolean): Map<string, FieldLocation> {
  const entries = new Map<string, FieldLocation>();
  const entryLines: number[] = [];
  for (let index = from; index < to; index++) {
    const line = lines[index];
    // KEY_PATTERN matches neither a blank line nor a comment.
    if (leadingWhitespace(line) === indent && KEY_PATTERN.test(line.slice(indent))) {
      entryLines.push(index);
    }
  }
  entryLines.forEach((line, position) => {
    const nextEntry = position + 1 < entryLines.length ? entryLines[position + 1] : to;
    const located = locateEntry(lines, line, nextEntry, indent, withChildren);
    // The first occurrence wins: a duplicate key is a YAML error reported at the second one.
    if (!entries.has(located.name)) {
      entries.set(located.name, located.location);
    }
  });
  return entries;
}

function locateEntry(lines: readonly string[], line: number, nextEntry: number, indent: number, withChildren: boolean): { name: string; location: FieldLocation } {
  const text = lines[line];
  // locateEntries only passes lines that match.
  const [whole, doubleQuoted, singleQuoted, plain] = KEY_PATTERN.exec(text.slice(indent))!;
  const name = doubleQuoted !== undefined ? unescapeDoubleQuoted(doubleQuoted) : singleQuoted !== undefined ? singleQuoted.replace(/''/g, "'") : plain;
  // A quoted key spans its raw text and the two quotes, escapes (`\"`, `''`) included.
  const keyLength = plain !== undefined ? plain.length : (doubleQuoted ?? singleQuoted).length + 2;
  const key = rangeOnLine(line, indent, indent + keyLength);

  const afterColon = indent + whole.length;
  const valueStart = afterColon + leadingWhitespace(text.slice(afterColon));
  const inlineEnd = inlineValueEnd(text, valueStart);
  const lastContinuation = lastContentLine(lines, line + 1, nextEntry, indent);
  const onKeyLine = { name, location: { key, value: rangeOnLine(line, valueStart, Math.max(valueStart, inlineEnd)) } };

  if (lastContinuation === undefined) {
    return onKeyLine;
  }
  const lastEnd = trimmedEnd(lines[lastContinuation]);
  if (inlineEnd > valueStart && !isNodeProperty(text.slice(valueStart, inlineEnd))) {
    // A value that starts on the key line and continues below: block scalar, folded text, flow collection.
    return { name, location: { key, value: spanRange(line, valueStart, lastContinuation, lastEnd) } };
  }
  const firstContinuation = firstContentLine(lines, line + 1, nextEntry);
  if (firstContinuation === undefined) {
    // Only comments below the key: none of them is the value.
    return onKeyLine;
  }
  const childIndent = leadingWhitespace(lines[firstContinuation]);
  const value = spanRange(firstContinuation, childIndent, lastContinuation, lastEnd);
  const startsSequence = SEQUENCE_ENTRY_PATTERN.test(lines[firstContinuation].slice(childIndent));
  const children = withChildren && !startsSequence ? locateEntries(lines, firstContinuation, nextEntry, childIndent, false) : undefined;
  return { name, location: children && children.size > 0 ? { key, value, children } : { key, value } };
}

/** End column of the value written on the key's own line, without a trailing comment. */
function inlineValueEnd(text: string, valueStart: number): number {
  const quote = text[valueStart];
  if (quote === '"' || quote === "'") {
    const closing = findClosingQuote(text, valueStart + 1, quote);
    if (closing >= 0) {
      return closing + 1;
    }
    return trimmedEnd(text);
  }
  const comment = text.slice(valueStart).search(/[ \t]#/);
  const end = comment < 0 ? text.length : valueStart + comment;
  return valueStart + text.slice(valueStart, end).trimEnd().length;
}

function findClosingQuote(text: string, from: number, quote: string): number {
  for (let index = from; index < text.length; index++) {
    const character = text[index];
    if (quote === '"' && character === '\\') {
      index++;
    } else if (character === quote) {
      if (quote === "'" && text[index + 1] === "'") {
        index++;
      } else {
        return index;
      }
    }
  }
  return -1;
}

/** An anchor (`&a`) or tag (`!!map`) alone on the key line: the value itself is on the lines below. */
function isNodeProperty(inline: string): boolean {
  return /^([&!][^\s]*\s*)+$/.test(inline);
}

/** Last line before `to` that carries value text: not blank and not a comment at the entry's own indent. */
function lastContentLine(lines: readonly string[], from: number, to: number, indent: number): number | undefined {
  for (let index = to - 1; index >= from; index--) {
    const line = lines[index];
    const lead = leadingWhitespace(line);
    if (lead === line.length) {
      continue;
    }
    if (lead <= indent && line[lead] === '#') {
      continue;
    }
    return index;
  }
  return undefined;
}

function firstContentLine(lines: readonly string[], from: number, to: number): number | undefined {
  for (let index = from; index < to; index++) {
    const line = lines[index];
    const lead = leadingWhitespace(line);
    if (lead < line.length && line[lead] !== '#') {
      return index;
    }
  }
  return undefined;
}

function unescapeDoubleQuoted(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

function leadingWhitespace(text: string): number {
  let index = 0;
  while (text[index] === ' ' || text[index] === '\t') {
    index++;
  }
  return index;
}

function trimmedEnd(text: string): number {
  return text.trimEnd().length;
}

function spanRange(startLine: number, startColumn: number, endLine: number, endColumn: number): Range {
  return { start: { line: startLine, column: startColumn }, end: { line: endLine, column: endColumn } };
}
