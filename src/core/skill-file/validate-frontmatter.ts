// Validates parsed SKILL.md frontmatter and body against the Agent Skills specification and the
// extensions honoured here. Loading is lenient but loud: only problems that make a skill unusable
// are errors; the rest are warnings and the skill still loads. Strict mode applies the
// specification alone, with the verdicts of its reference validator (`skills-ref`).

import type * as z from 'zod/mini';
import type { FieldLocation, FieldLocations } from './frontmatter-locator';
import {
  EXTENSION_FIELDS,
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  isPlaceholderDescription,
  PORTABLE_NAME_PATTERN,
  SPEC_FIELDS,
  TYPED_OPTIONAL_FIELDS,
  fieldProperty,
  isSpecNameCharacter,
  metadataMappingSchema,
  type TypedOptionalField,
} from './schema';
import { OPENING_FENCE_RANGE, hasErrors, makeDiagnostic, type SkillDiagnosticCode } from './diagnostic-codes';
import type { Range, Severity, SkillDiagnostic, SkillMetadata } from '../model/types';
import { targetsHonouring } from '../targets/profiles';

export interface FrontmatterValidationContext {
  /** Absolute path reported in diagnostics. */
  file: string;
  /** Name of the skill folder, which the skill name must equal; omit when unknown. */
  dirName?: string;
  /** Apply the specification alone: fields outside it, over-long names and mismatches are errors. */
  strict?: boolean;
  /**
   * Key and value positions from the parser; as a function, called only when a diagnostic needs a
   * range (most files have none, and locating the fields costs more than validating them).
   */
  locations: FieldLocations | (() => FieldLocations);
}

export interface FrontmatterValidation {
  /** Present iff no diagnostic is an error. */
  metadata?: SkillMetadata;
  diagnostics: SkillDiagnostic[];
}

/**
 * Collects diagnostics for one file, placing each on the key or value it is about. One per file,
 * so its fields are only declared and set in the constructor (see ParsedFrontmatter in parse.ts).
 */
class DiagnosticSink {
  declare readonly diagnostics: SkillDiagnostic[];
  declare private located: FieldLocations | undefined;
  declare private readonly file: string;
  declare private readonly locate: FieldLocations | (() => FieldLocations);

  constructor(file: string, locate: FieldLocations | (() => FieldLocations)) {
    this.diagnostics = [];
    this.file = file;
    this.locate = locate;
  }

  private get locations(): FieldLocations {
    return (this.located ??= typeof this.locate === 'function' ? this.locate() : this.locate);
  }

  add(code: SkillDiagnosticCode, severity: Severity, message: string, range: Range): void {
    this.diagnostics.push(makeDiagnostic(this.file, code, severity, message, range));
  }

  keyRange(field: string): Range {
    return this.locations.get(field)?.key ?? OPENING_FENCE_RANGE;
  }

  valueRange(field: string): Range {
    const location = this.locations.get(field);
    if (!location) {
      return OPENING_FENCE_RANGE;
    }
    return isEmptyRange(location.value) ? location.key : location.value;
  }

  childValueRange(field: string, child: string): Range {
    const location: FieldLocation | undefined = this.locations.get(field)?.children?.get(child);
    if (!location) {
      return this.valueRange(field);
    }
    return isEmptyRange(location.value) ? location.key : location.value;
  }
}

/** Checks the frontmatter fields and builds the skill's metadata when no error was found. */
export function validateFrontmatter(data: Record<string, unknown>, context: FrontmatterValidationContext): FrontmatterValidation {
  const strict = context.strict === true;
  const sink = new DiagnosticSink(context.file, context.locations);

  checkFieldNames(data, strict, sink);
  const name = checkName(data, context.dirName, strict, sink);
  const description = checkDescription(data, strict, sink);
  const compatibility = checkCompatibility(data, sink);
  const metadataMap = readMetadataMap(data, sink);
  const typed = readTypedOptionalFields(data, strict, sink);

  if (name === undefined || description === undefined || hasErrors(sink.diagnostics)) {
    return { diagnostics: sink.diagnostics };
  }
  // Every text is copied out of the file's text (see detached).
  const metadata: SkillMetadata = { name: detached(name), description: detached(description.trim()), userInvocable: true, disableModelInvocation: false };
  if (compatibility !== undefined) {
    metadata.compatibility = detached(compatibility);
  }
  if (metadataMap !== undefined) {
    metadata.metadata = metadataMap;
  }
  for (const field of TYPED_OPTIONAL_FIELD_NAMES) {
    const { property, default: fallback } = fieldProperty(field);
    const value = typed[field] ?? fallback;
    if (value !== undefined) {
      (metadata as unknown as Record<string, unknown>)[property] = typeof value === 'string' ? detached(value) : value;
    }
  }
  return { metadata, diagnostics: sink.diagnostics };
}

/**
 * A copy that shares no memory with the string `text` was cut from (joining forces a fresh string).
 * V8 keeps a substring as a view of the string it was cut from, so a description read from a
 * SKILL.md would otherwise keep the whole text read (the frontmatter, or the entire file when
 * validating) alive as long as the record.
 */
function detached<Text extends string>(text: Text): Text {
  return ` ${text}`.slice(1) as Text;
}

function checkFieldNames(data: Record<string, unknown>, strict: boolean, sink: DiagnosticSink): void {
  // for-in (the mapping is a plain object): no key array and iterator per file.
  for (const field in data) {
    if (SPEC_FIELDS.has(field)) {
      continue;
    }
    if (EXTENSION_FIELDS.has(field)) {
      if (strict) {
        sink.add('extension-field', 'error', `"${field}" is not part of the Agent Skills specification (strict mode allows only ${listFields(SPEC_FIELDS)}).`, sink.keyRange(field));
      }
      continue;
    }
    const suggestion = closeKnownField(field);
    sink.add(
      'unknown-field',
      strict ? 'error' : 'warning',
      `Unknown frontmatter field "${field}"${suggestion ? `; did you mean "${suggestion}"?` : '.'} Known fields: ${listFields(strict ? SPEC_FIELDS : new Set([...SPEC_FIELDS, ...EXTENSION_FIELDS]))}.`,
      sink.keyRange(field),
    );
  }
}

/**
 * A known field the unknown one was probably meant to be: same letters ignoring case, `_` and `-`.
 * Upper case folds more: a dotless ı (Turkish keyboards) is an I there, as a long ſ is an S.
 */
function closeKnownField(field: string): string | undefined {
  const simplified = (text: string): string => text.toUpperCase().replace(/[-_\s]/g, '');
  const wanted = simplified(field);
  return [...SPEC_FIELDS, ...EXTENSION_FIELDS].find((known) => simplified(known) === wanted);
}

function listFields(fields: ReadonlySet<string>): string {
  return [...fields].join(', ');
}

/**
 * Text of a required field. Numbers and booleans are read as their text with a warning; strict mode
 * reads any value as text, as the reference validator does (`String(value)`).
 */
function requiredText(field: 'name' | 'description', value: unknown, strict: boolean, sink: DiagnosticSink): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (value === null && !strict) {
    return '';
  }
  if (strict || typeof value === 'number' || typeof value === 'boolean') {
    const text = String(value);
    sink.add('field-type', 'warning', `"${field}" should be text; it is read as "${text}". Write it as a quoted string.`, sink.valueRange(field));
    return text;
  }
  sink.add('field-type', 'error', `"${field}" must be text. Write it as a quoted string.`, sink.valueRange(field));
  return undefined;
}

function checkName(data: Record<string, unknown>, dirName: string | undefined, strict: boolean, sink: DiagnosticSink): string | undefined {
  if (!('name' in data)) {
    sink.add('missing-name', 'error', `The required field "name" is missing. Add "name: ${dirName ?? 'my-skill'}" (the folder name).`, OPENING_FENCE_RANGE);
    return undefined;
  }
  const text = requiredText('name', data.name, strict, sink);
  if (text === undefined) {
    return undefined;
  }
  const trimmed = text.trim();
  if (trimmed === '') {
    sink.add('missing-name', 'error', `"name" is empty. Set it to the folder name${dirName ? ` ("${dirName}")` : ''}.`, sink.valueRange('name'));
    return undefined;
  }
  // The specification compares names after NFKC normalization (so full-width letters equal ASCII).
  const name = trimmed.normalize('NFKC');
  if (name.length > MAX_NAME_LENGTH) {
    sink.add(
      'name-too-long',
      strict ? 'error' : 'warning',
      `The name is ${name.length} characters long; the limit is ${MAX_NAME_LENGTH}. Shorten it (and rename the folder to match).`,
      sink.valueRange('name'),
    );
  }
  const uppercase = name !== name.toLowerCase();
  const hyphenEdge = name.startsWith('-') || name.endsWith('-');
  const consecutiveHyphens = name.includes('--');
  // A portable name, the usual case, holds only characters the specification allows.
  const invalid = PORTABLE_NAME_PATTERN.test(name) ? [] : [...new Set(Array.from(name).filter((character) => !isSpecNameCharacter(character)))];
  const formatProblems = uppercase || hyphenEdge || consecutiveHyphens || invalid.length > 0;
  if (formatProblems) {
    // Only a name with a problem needs one, and making it costs more than checking the name.
    const suggestion = validNameSuggestion(name);
    const tryIt = suggestion === undefined ? '' : `, e.g. "${suggestion}"`;
    if (uppercase) {
      sink.add('name-uppercase', 'error', `The name must be lowercase${suggestion === undefined ? '' : `: use "${suggestion}"`}.`, sink.valueRange('name'));
    }
    if (hyphenEdge) {
      sink.add('name-hyphen-edge', 'error', `The name must not start or end with a hyphen${tryIt}.`, sink.valueRange('name'));
    }
    if (consecutiveHyphens) {
      sink.add('name-consecutive-hyphens', 'error', `The name must not contain consecutive hyphens ("--")${tryIt}.`, sink.valueRange('name'));
    }
    if (invalid.length > 0) {
      sink.add(
        'name-invalid-characters',
        'error',
        `The name contains characters that are not allowed (${invalid.map((character) => JSON.stringify(character)).join(', ')}). Use lowercase letters, digits and hyphens${tryIt}.`,
        sink.valueRange('name'),
      );
    }
  }
  if (!formatProblems && !PORTABLE_NAME_PATTERN.test(text)) {
    sink.add(
      'name-not-portable',
      'warning',
      `The name "${text}" is valid for the specification, but VS Code's own skills support accepts only lowercase a-z, digits 0-9 and "-". Prefer an ASCII name for portability.`,
      sink.valueRange('name'),
    );
  }
  if (dirName !== undefined && dirName.normalize('NFKC') !== name) {
    sink.add('name-mismatch', strict ? 'error' : 'warning', `The name "${name}" does not match its folder "${dirName}". Rename the folder or set "name: ${dirName}".`, sink.valueRange('name'));
  }
  return name;
}

/**
 * A name that passes every name rule, made from one that does not: lowercase, each run of other
 * characters (spaces, "_", ".") turned into one hyphen. undefined when nothing usable is left.
 */
export function validNameSuggestion(name: string): string | undefined {
  const hyphenated = Array.from(name.normalize('NFKC').toLowerCase(), (character) => (isSpecNameCharacter(character) ? character : '-')).join('');
  const suggestion = hyphenated.replace(/-{2,}/g, '-').replace(/^-/, '').slice(0, MAX_NAME_LENGTH).replace(/-$/, '');
  return suggestion === '' ? undefined : suggestion;
}

function checkDescription(data: Record<string, unknown>, strict: boolean, sink: DiagnosticSink): string | undefined {
  if (!('description' in data)) {
    sink.add(
      'missing-description',
      'error',
      'The required field "description" is missing. Add one saying what the skill does and when to use it: the model chooses skills by their description.',
      OPENING_FENCE_RANGE,
    );
    return undefined;
  }
  const text = requiredText('description', data.description, strict, sink);
  if (text === undefined) {
    return undefined;
  }
  if (text.trim() === '') {
    sink.add('missing-description', 'error', '"description" is empty. Say what the skill does and when to use it: the model chooses skills by their description.', sink.valueRange('description'));
    return undefined;
  }
  if (isPlaceholderDescription(text)) {
    sink.add(
      'placeholder-description',
      'warning',
      'The description is still the placeholder Create Skill wrote, so the skill is not offered to the model. Say what the skill does and when to use it.',
      sink.valueRange('description'),
    );
  }
  if (text.length > MAX_DESCRIPTION_LENGTH) {
    sink.add(
      'description-too-long',
      'error',
      `The description is ${text.length} characters long; the limit is ${MAX_DESCRIPTION_LENGTH}. Keep what matters for choosing the skill and move details into the body.`,
      sink.valueRange('description'),
    );
    return undefined;
  }
  return text;
}

function checkCompatibility(data: Record<string, unknown>, sink: DiagnosticSink): string | undefined {
  if (!('compatibility' in data)) {
    return undefined;
  }
  const value = data.compatibility;
  if (typeof value !== 'string') {
    sink.add('field-type', 'error', '"compatibility" must be text describing the environment the skill needs.', sink.valueRange('compatibility'));
    return undefined;
  }
  if (value.length > MAX_COMPATIBILITY_LENGTH) {
    sink.add('compatibility-too-long', 'error', `"compatibility" is ${value.length} characters long; the limit is ${MAX_COMPATIBILITY_LENGTH}.`, sink.valueRange('compatibility'));
    return undefined;
  }
  if (value.trim() === '') {
    sink.add('empty-compatibility', 'warning', '"compatibility" is empty: remove it or describe what the skill needs.', sink.valueRange('compatibility'));
    return undefined;
  }
  return value.trim();
}

/** `metadata` as a map of text to text; wrong values are reported (never errors) and left out. */
function readMetadataMap(data: Record<string, unknown>, sink: DiagnosticSink): Record<string, string> | undefined {
  if (!('metadata' in data)) {
    return undefined;
  }
  const mapping = metadataMappingSchema.safeParse(data.metadata);
  if (!mapping.success || data.metadata instanceof Date) {
    sink.add('field-type', 'warning', '"metadata" should be a mapping of keys to text values (for example "author: me" on an indented line); it is ignored.', sink.valueRange('metadata'));
    return undefined;
  }
  const result: Record<string, string> = {};
  const entries = mapping.data;
  for (const key in entries) {
    const value = entries[key];
    // Text is the rule for a value, a check too plain for a schema; keys and values are copied out of the file's text (see detached).
    if (typeof value === 'string') {
      result[detached(key)] = detached(value);
      continue;
    }
    const scalar = typeof value === 'number' || typeof value === 'boolean';
    if (scalar) {
      result[detached(key)] = String(value);
    }
    sink.add(
      'field-type',
      'warning',
      scalar ? `metadata "${key}" should be text; it is read as "${String(value)}". Write it as a quoted string.` : `metadata "${key}" must be text; this value is ignored.`,
      sink.childValueRange('metadata', key),
    );
  }
  return result;
}

type TypedOptionalValues = {
  [Field in TypedOptionalField]?: z.output<(typeof TYPED_OPTIONAL_FIELDS)[Field]['schema']>;
};

const TYPED_OPTIONAL_FIELD_NAMES = Object.keys(TYPED_OPTIONAL_FIELDS) as TypedOptionalField[];

function readTypedOptionalFields(data: Record<string, unknown>, strict: boolean, sink: DiagnosticSink): TypedOptionalValues {
  const values: Record<string, unknown> = {};
  for (const field of TYPED_OPTIONAL_FIELD_NAMES) {
    if (!(field in data) || (strict && EXTENSION_FIELDS.has(field))) {
      continue;
    }
    const { schema, expected } = TYPED_OPTIONAL_FIELDS[field];
    const result = schema.safeParse(data[field]);
    if (result.success) {
      values[field] = result.data;
    } else if (field === 'allowed-tools' && isListOfText(data[field])) {
      // The specification's text defines one space-separated string, but its reference validator
      // accepts a list: a portability warning in every mode, naming the hosts that read the field.
      const list = data[field] as string[];
      values[field] = list.join(' ');
      const readers = targetsHonouring(field).map((host) => host.name);
      sink.add(
        'allowed-tools-list',
        'warning',
        `"allowed-tools" is a list; the specification defines it as one string of tool names separated by spaces ("allowed-tools: ${list.join(' ')}").${readers.length > 0 ? ` ${readers.join(', ')} ${readers.length === 1 ? 'reads' : 'read'} this field and may not understand a list.` : ''}`,
        sink.valueRange(field),
      );
    } else {
      sink.add('field-type', 'warning', `"${field}" must be ${expected}; this value is ignored.`, sink.valueRange(field));
    }
  }
  return values as TypedOptionalValues;
}

function isListOfText(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isEmptyRange(range: Range): boolean {
  return range.start.line === range.end.line && range.start.column === range.end.column;
}
