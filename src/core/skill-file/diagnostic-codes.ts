// Diagnostic codes reported while parsing and validating a SKILL.md, and small helpers to build
// diagnostics and ranges. Codes are stable: quick fixes, tests and the CLI match on them.

import type { Range, Severity, SkillDiagnostic } from '../model/types';

export const SKILL_DIAGNOSTIC_CODES = [
  // Reading the file
  'skill-file-name',
  'file-unreadable',
  'file-too-large',
  'binary-file',
  'invalid-utf8',
  // Finding and parsing the frontmatter
  'missing-frontmatter',
  'unterminated-frontmatter',
  'frontmatter-language',
  'yaml-syntax',
  'frontmatter-not-mapping',
  'byte-order-mark',
  'frontmatter-cut',
  'flow-collection',
  // Fields
  'missing-name',
  'name-too-long',
  'name-uppercase',
  'name-hyphen-edge',
  'name-consecutive-hyphens',
  'name-invalid-characters',
  'name-not-portable',
  'name-mismatch',
  'missing-description',
  'description-too-long',
  'placeholder-description',
  'compatibility-too-long',
  'empty-compatibility',
  'field-type',
  'unknown-field',
  'extension-field',
  'allowed-tools-list',
  // What a target host does with the skill (warnings, each naming the host)
  'host-folder',
  'host-ignores-field',
  'host-budget',
  // Body guidance
  'body-too-long',
  'missing-link',
  'link-outside-skill',
  // A skill server's entry for the skill
  'served-entry',
] as const;

export type SkillDiagnosticCode = (typeof SKILL_DIAGNOSTIC_CODES)[number];

/**
 * Findings VS Code's own skills support (1.139) reports itself, at the same place and at least the
 * same severity, on a SKILL.md shown in an editor: the name not matching its folder, a name outside
 * a-z 0-9 "-", a relative link to a missing file. There, the editor leaves them to VS Code rather
 * than say them twice. Findings VS Code reports more mildly (a missing description, which excludes
 * the skill here) or not at all stay.
 */
export const REPORTED_BY_VSCODE_SKILLS: ReadonlySet<string> = new Set<SkillDiagnosticCode>(['name-mismatch', 'name-uppercase', 'name-invalid-characters', 'missing-link']);

/** Where problems about the frontmatter as a whole are shown: the opening `---`. */
export const OPENING_FENCE_RANGE: Range = { start: { line: 0, column: 0 }, end: { line: 0, column: 3 } };

/** Where problems about the file as a whole are shown. */
export const FILE_START_RANGE: Range = { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } };

export function rangeOnLine(line: number, startColumn: number, endColumn: number): Range {
  return { start: { line, column: startColumn }, end: { line, column: endColumn } };
}

export function makeDiagnostic(file: string, code: SkillDiagnosticCode, severity: Severity, message: string, range: Range): SkillDiagnostic {
  return { code, severity, message, file, range };
}

export function hasErrors(diagnostics: readonly SkillDiagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === 'error');
}
