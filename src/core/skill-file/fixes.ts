// Quick fixes for SKILL.md diagnostics, as pure text edits (plus a folder rename where the fix is
// to rename the skill folder). The editor only turns them into a WorkspaceEdit.

import * as path from 'node:path';
import type { FieldLocation } from './frontmatter-locator';
import { BYTE_ORDER_MARK, parseSkillText } from './parse';
import { EXTENSION_FIELDS, MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, SPEC_FIELDS } from './schema';
import { newSkillNameProblem } from './scaffold';
import { parseYamlCore } from './yaml-core';
import type { Range, SkillDiagnostic } from '../model/types';

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface SkillFix {
  title: string;
  /** Code of the diagnostic it fixes. */
  code: string;
  edits: TextEdit[];
  /** Rename the skill folder (instead of, or besides, the edits). */
  renameFolder?: { from: string; to: string };
  /** The fix a user most likely wants; editors apply it with the quick-fix shortcut. */
  preferred?: boolean;
}

const TRIMMABLE_FIELDS: Record<string, { field: string; limit: number }> = {
  'description-too-long': { field: 'description', limit: MAX_DESCRIPTION_LENGTH },
  'compatibility-too-long': { field: 'compatibility', limit: MAX_COMPATIBILITY_LENGTH },
};

/** The fixes offered for one diagnostic of the SKILL.md `file` whose current text is `text`. */
export function fixesForDiagnostic(text: string, file: string, diagnostic: Pick<SkillDiagnostic, 'code' | 'range'>): SkillFix[] {
  switch (diagnostic.code) {
    case 'name-mismatch':
      return nameMismatchFixes(text, file);
    case 'yaml-syntax': {
      const fix = quoteValueFix(text, file, diagnostic.range.start.line);
      return fix ? [fix] : [];
    }
    case 'unknown-field':
      return unknownFieldFixes(text, file, diagnostic.range.start.line);
    default: {
      const trimmable = TRIMMABLE_FIELDS[diagnostic.code];
      const fix = trimmable && trimFieldFix(text, file, diagnostic.code, trimmable.field, trimmable.limit);
      return fix ? [fix] : [];
    }
  }
}

/**
 * A YAML scalar for `value`: plain when it is obviously safe, otherwise double-quoted (JSON escapes
 * are valid YAML). Letters, digits and hyphens are quoted when a YAML reader would take them for
 * something other than text: whatever the validating or the publishing reader does not read back
 * as the same string (`true`, `12`, `1e5`, `0x1f`, `0o17`, `0b101`, `2024-01-01`), and the words
 * YAML 1.1 readers take for booleans (`yes`, `off`).
 */
export function yamlScalar(value: string): string {
  const plain = /^[\p{L}\p{N}][\p{L}\p{N}-]*$/u.test(value) && !/^(yes|no|on|off)$/i.test(value) && readsBackAsText(value);
  return plain ? value : JSON.stringify(value);
}

function readsBackAsText(plainValue: string): boolean {
  const field = `value: ${plainValue}`;
  const validated = parseSkillText(`---\n${field}\n---\n`, { file: 'SKILL.md' }).data?.value;
  const published = (parseYamlCore(field) as { value?: unknown }).value;
  return validated === plainValue && published === plainValue;
}

interface Frontmatter {
  data: Record<string, unknown>;
  locations: ReadonlyMap<string, FieldLocation>;
  /** Line of the closing `---`. */
  closingLine: number;
  eol: string;
}

function splitLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function readFrontmatter(text: string, file: string): Frontmatter | undefined {
  const parsed = parseSkillText(text, { file });
  if (!parsed.data) {
    return undefined;
  }
  // Line 0, which may start with a byte-order mark, is the opening fence: it is not read. Parsed
  // data means the parser found the closing fence, the first line after it that starts with "---".
  const closingLine = splitLines(text).findIndex((line, index) => index > 0 && line.startsWith('---'));
  return { data: parsed.data, locations: parsed.locations, closingLine, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

function nameMismatchFixes(text: string, file: string): SkillFix[] {
  const frontmatter = readFrontmatter(text, file);
  const nameValue = frontmatter?.locations.get('name')?.value;
  const name = typeof frontmatter?.data.name === 'string' ? frontmatter.data.name.trim().normalize('NFKC') : undefined;
  if (!nameValue || name === undefined) {
    return [];
  }
  const dir = path.dirname(file);
  const folderName = path.basename(dir);
  const fixes: SkillFix[] = [];
  if (newSkillNameProblem(folderName) === undefined) {
    fixes.push({ title: `Set name to "${folderName}" (the folder name)`, code: 'name-mismatch', edits: [{ range: nameValue, newText: yamlScalar(folderName) }], preferred: true });
  }
  if (newSkillNameProblem(name) === undefined) {
    fixes.push({ title: `Rename the folder to "${name}"`, code: 'name-mismatch', edits: [], renameFolder: { from: dir, to: path.join(path.dirname(dir), name) } });
  }
  return fixes;
}

const TOP_LEVEL_KEY = /^([A-Za-z0-9_-]+)[ \t]*:(?:[ \t]+|$)/;

/**
 * A plain value that YAML cannot read, typically a description holding ": " or starting with a
 * character YAML reserves (`@`, `` ` ``, `[`...): wrap it, with its continuation lines, in double
 * quotes. Offered only when the quoted text no longer fails on that line.
 */
function quoteValueFix(text: string, file: string, errorLine: number): SkillFix | undefined {
  // Line 0, which may start with a byte-order mark, is the opening fence: it is never a key.
  const lines = splitLines(text);
  // The error is reported on the broken value's line, or further down for values spanning lines.
  let keyLine = errorLine;
  while (keyLine > 0 && !TOP_LEVEL_KEY.test(lines[keyLine])) {
    keyLine--;
  }
  const match = keyLine > 0 ? TOP_LEVEL_KEY.exec(lines[keyLine]) : null;
  if (!match) {
    return undefined;
  }
  const valueStart = match[0].length;
  const first = lines[keyLine].slice(valueStart).trim();
  if (first === '' || first.startsWith('"') || first.startsWith("'") || first.startsWith('|') || first.startsWith('>')) {
    return undefined;
  }
  // Plain scalars fold indented continuation lines into one line, joined by spaces.
  let lastLine = keyLine;
  const parts = [first];
  while (lastLine + 1 < lines.length && /^[ \t]+\S/.test(lines[lastLine + 1])) {
    lastLine++;
    parts.push(lines[lastLine].trim());
  }
  const edit: TextEdit = {
    range: { start: { line: keyLine, column: valueStart }, end: { line: lastLine, column: lines[lastLine].length } },
    newText: JSON.stringify(parts.join(' ')),
  };
  const after = parseSkillText(applyEdits(text, [edit]), { file }).diagnostics.find((diagnostic) => diagnostic.code === 'yaml-syntax');
  if (after && after.range.start.line <= errorLine) {
    return undefined;
  }
  return { title: `Quote the value of "${match[1]}"`, code: 'yaml-syntax', edits: [edit], preferred: true };
}

function unknownFieldFixes(text: string, file: string, keyLine: number): SkillFix[] {
  const frontmatter = readFrontmatter(text, file);
  if (!frontmatter) {
    return [];
  }
  // The same rule as validation: a field neither in the specification nor a known extension.
  const unknown = [...frontmatter.locations].filter(([field]) => !SPEC_FIELDS.has(field) && !EXTENSION_FIELDS.has(field));
  const here = unknown.find(([, location]) => location.key.start.line === keyLine);
  if (!here) {
    return [];
  }
  const fixes: SkillFix[] = [];
  const single = moveToMetadata(frontmatter, [here[0]]);
  if (single) {
    fixes.push({ title: `Move "${here[0]}" under metadata`, code: 'unknown-field', edits: single, preferred: true });
  }
  const all =
    unknown.length > 1
      ? moveToMetadata(
          frontmatter,
          unknown.map(([field]) => field),
        )
      : undefined;
  if (all) {
    fixes.push({ title: `Move all ${unknown.length} unknown fields under metadata`, code: 'unknown-field', edits: all });
  }
  return fixes;
}

/**
 * Edits that delete the fields' lines and add them as string entries of `metadata` (appended to an
 * existing block mapping, or as a new block before the closing fence). Undefined when a value is
 * not a plain scalar or `metadata` is written in a form this cannot extend.
 */
function moveToMetadata(frontmatter: Frontmatter, fields: readonly string[]): TextEdit[] | undefined {
  const { data, locations, eol } = frontmatter;
  const entries: string[] = [];
  const edits: TextEdit[] = [];
  for (const field of fields) {
    const value = data[field];
    const location = locations.get(field);
    if (!location || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) {
      return undefined;
    }
    entries.push(`${yamlScalar(field)}: ${JSON.stringify(String(value))}`);
    const lastLine = Math.max(location.key.start.line, location.value.end.line);
    edits.push({ range: { start: { line: location.key.start.line, column: 0 }, end: { line: lastLine + 1, column: 0 } }, newText: '' });
  }
  const metadata = locations.get('metadata');
  let insertLine: number;
  let insertText: string;
  if (metadata) {
    // Only a block mapping has entries located below it (a flow mapping or a block scalar has none).
    if (!metadata.children) {
      return undefined;
    }
    const indent = ' '.repeat([...metadata.children.values()][0].key.start.column);
    insertLine = metadata.value.end.line + 1;
    insertText = entries.map((entry) => `${indent}${entry}${eol}`).join('');
  } else {
    insertLine = frontmatter.closingLine;
    insertText = `metadata:${eol}${entries.map((entry) => `  ${entry}${eol}`).join('')}`;
  }
  // An insertion where a deleted field starts would be ambiguous: it becomes that deletion's replacement.
  const deletionThere = edits.find((edit) => edit.range.start.line === insertLine);
  if (deletionThere) {
    deletionThere.newText = insertText;
  } else {
    edits.push({ range: { start: { line: insertLine, column: 0 }, end: { line: insertLine, column: 0 } }, newText: insertText });
  }
  return sortEdits(edits);
}

function trimFieldFix(text: string, file: string, code: string, field: string, limit: number): SkillFix | undefined {
  const frontmatter = readFrontmatter(text, file);
  const value = frontmatter?.data[field];
  const location = frontmatter?.locations.get(field);
  if (typeof value !== 'string' || !location || value.length <= limit) {
    return undefined;
  }
  return { title: `Trim ${field} to ${limit} characters`, code, edits: [{ range: location.value, newText: yamlScalar(value.slice(0, limit).trimEnd()) }] };
}

/** The edit that sets the value of a top-level text field (quoted as YAML needs); undefined without that field. */
export function setFieldValueEdit(text: string, file: string, field: string, value: string): TextEdit | undefined {
  const location = readFrontmatter(text, file)?.locations.get(field);
  return location && { range: location.value, newText: yamlScalar(value) };
}

function sortEdits(edits: TextEdit[]): TextEdit[] {
  return [...edits].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
}

/** Applies non-overlapping edits to text (used to check fixes and in tests). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
    lineStarts.push(index + 1);
  }
  const offset = (line: number, column: number): number => (line >= lineStarts.length ? text.length : lineStarts[line] + column);
  const bom = text.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK.length : 0;
  const ordered = sortEdits([...edits]).reverse();
  let result = text;
  for (const edit of ordered) {
    // Positions on line 0 do not count a byte-order mark, as editors hide it.
    const shift = (line: number): number => (line === 0 ? bom : 0);
    const start = offset(edit.range.start.line, edit.range.start.column) + shift(edit.range.start.line);
    const end = offset(edit.range.end.line, edit.range.end.column) + shift(edit.range.end.line);
    result = result.slice(0, start) + edit.newText + result.slice(end);
  }
  return result;
}
