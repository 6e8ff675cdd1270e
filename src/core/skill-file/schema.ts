// The SKILL.md frontmatter format: the fields of the Agent Skills specification, the common
// extensions this product honours, their limits, and zod schemas for their value types.

import * as z from 'zod/mini';
import type { SkillMetadata } from '../model/types';

// Lengths are counted in UTF-16 code units (`string.length`), as the reference validator counts
// them; zod's string bounds count code points, so these limits are checked by hand.
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

/**
 * The description Create Skill writes, for the user to replace: while it is still there the skill
 * is a draft, warned about and not offered to the model.
 */
export const NEW_SKILL_DESCRIPTION = 'Describe what this skill does and when to use it; the model picks skills by this text.';

/** Whether a description is still Create Skill's placeholder, spaces aside. */
export function isPlaceholderDescription(description: string): boolean {
  return description.trim() === NEW_SKILL_DESCRIPTION;
}

/** Names VS Code's own skills support accepts, and the portable subset of the specification. */
export const PORTABLE_NAME_PATTERN = /^[a-z0-9-]+$/;

/**
 * Code point ranges the specification's reference validator accepts in a name (after NFKC
 * normalization): ASCII letters and digits, Latin-1 and Latin Extended-A/B letters, combining
 * diacritics, Cyrillic, CJK ideographs. The hyphen is handled apart; case is checked separately.
 */
const SPEC_NAME_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x61, 0x7a],
  [0xc0, 0x24f],
  [0x300, 0x36f],
  [0x400, 0x4ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
];

/** Whether one character (a whole code point) may appear in a name according to the specification. */
export function isSpecNameCharacter(character: string): boolean {
  if (character === '-') {
    return true;
  }
  const codePoint = character.codePointAt(0) ?? -1;
  return SPEC_NAME_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

const booleanSchema = z.boolean();
const textSchema = z.string();

/** One frontmatter field: where it comes from, what it holds, and how the product shows it. */
interface FieldSpec {
  /** The Agent Skills specification, or an extension widely used and honoured here (errors in strict mode). */
  origin: 'spec' | 'extension';
  /** Whether a skill must set it. */
  required?: true;
  /** Its rule in the README's field table: a required field's whole rule, an optional one's note after its name (`(≤ 500)`). */
  rule?: string;
  /** The SkillMetadata property holding a text or true/false field's value, and the value it has when the skill does not set it. */
  property?: keyof SkillMetadata;
  default?: boolean;
  /** For an optional field whose only rule is its value type (a wrong one is reported and ignored): that type. */
  value?: { schema: z.ZodMiniType; expected: string };
  /**
   * How a host's warning names the field when that host ignores it: with its value (`context: fork`) or
   * by name alone (a long value); absent for a field whose neglect changes nothing the user relies on.
   */
  hostWarning?: 'with value' | 'name';
  /** What Agent Skills does with a field VS Code's own skills support reads differently or calls unsupported, shown on hover beside VS Code's hint. */
  note?: string;
}

/**
 * Every frontmatter field the product knows, in the order it lists them: the schema, the
 * validators, the Skills view's tooltip, the host checks, the hovers and the README's field table
 * all follow this table.
 */
export const FRONTMATTER_FIELDS = {
  name: { origin: 'spec', required: true, rule: `required; 1–${MAX_NAME_LENGTH} characters, lowercase \`a-z\`, \`0-9\` and \`-\`, no leading, trailing or double hyphen; equal to the folder name` },
  description: { origin: 'spec', required: true, rule: `required; 1–${MAX_DESCRIPTION_LENGTH} characters: what the skill does and when to use it` },
  license: { origin: 'spec', value: { schema: textSchema, expected: 'text' }, property: 'license' },
  compatibility: { origin: 'spec', rule: `(≤ ${MAX_COMPATIBILITY_LENGTH})`, property: 'compatibility' },
  metadata: { origin: 'spec', rule: '(string → string)' },
  'allowed-tools': {
    origin: 'spec',
    value: { schema: textSchema, expected: 'text (tool names separated by spaces)' },
    property: 'allowedTools',
    hostWarning: 'name',
    note: 'Agent Skills: accepted and shown as the tools this skill expects (space-separated, as the specification defines it), but not enforced: no tool is allowed or blocked because of it. VS Code\'s own skills support does not read this field, hence its "not supported" hint.',
  },
  'argument-hint': { origin: 'extension', value: { schema: textSchema, expected: 'text' }, property: 'argumentHint', hostWarning: 'name' },
  'user-invocable': { origin: 'extension', rule: '(default `true`)', value: { schema: booleanSchema, expected: 'true or false' }, property: 'userInvocable', default: true, hostWarning: 'with value' },
  'disable-model-invocation': {
    origin: 'extension',
    rule: '(default `false`)',
    value: { schema: booleanSchema, expected: 'true or false' },
    property: 'disableModelInvocation',
    default: false,
    hostWarning: 'with value',
  },
  context: {
    origin: 'extension',
    rule: '(`inline` or `fork`)',
    value: { schema: z.enum(['inline', 'fork']), expected: '"inline" or "fork"' },
    property: 'context',
    hostWarning: 'with value',
    note: "Agent Skills: `fork` makes `@skills` run the skill in an isolated request and report back; `inline` (the default) loads it into the conversation. VS Code's own skills support runs `fork` only with github.copilot.chat.skillTool.enabled.",
  },
  model: {
    origin: 'extension',
    value: { schema: textSchema, expected: 'text' },
    property: 'model',
    hostWarning: 'with value',
    note: "Agent Skills: the model a `context: fork` skill runs on when `@skills` runs it in isolation (a model id or family); without it, the user's model. VS Code's own skills support does not read this field.",
  },
} as const satisfies Record<string, FieldSpec>;

export type FieldName = keyof typeof FRONTMATTER_FIELDS;

const FIELD_NAMES = Object.keys(FRONTMATTER_FIELDS) as FieldName[];
const fieldSpec = (field: FieldName): FieldSpec => FRONTMATTER_FIELDS[field];

/** Frontmatter fields defined by the Agent Skills specification. */
export const SPEC_FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES.filter((field) => fieldSpec(field).origin === 'spec'));

/** Fields outside the specification that are widely used and honoured here (errors in strict mode). */
export const EXTENSION_FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES.filter((field) => fieldSpec(field).origin === 'extension'));

/** Optional fields whose only rule is their value type. */
export type TypedOptionalField = { [Field in FieldName]: (typeof FRONTMATTER_FIELDS)[Field] extends { value: object } ? Field : never }[FieldName];

export const TYPED_OPTIONAL_FIELDS = Object.fromEntries(
  FIELD_NAMES.flatMap((field) => {
    const value = fieldSpec(field).value;
    return value ? [[field, value]] : [];
  }),
) as { [Field in TypedOptionalField]: (typeof FRONTMATTER_FIELDS)[Field]['value'] };

/** The hover note of each field that has one. */
export const FIELD_NOTES: Readonly<Record<string, string>> = Object.fromEntries(
  FIELD_NAMES.flatMap((field) => {
    const note = fieldSpec(field).note;
    return note === undefined ? [] : [[field, note]];
  }),
);

/**
 * The optional text and true/false fields a skill sets, in the table's order, each with its value
 * as written; a field holding its default is left out.
 */
export function writtenFields(metadata: SkillMetadata): { field: FieldName; value: string; hostWarning?: FieldSpec['hostWarning'] }[] {
  return FIELD_NAMES.flatMap((field) => {
    const spec = fieldSpec(field);
    const value = spec.property === undefined ? undefined : metadata[spec.property];
    return value === undefined || value === spec.default ? [] : [{ field, value: String(value), hostWarning: spec.hostWarning }];
  });
}

/** The SkillMetadata property of each typed optional field, and its value when the skill does not set it. */
export function fieldProperty(field: TypedOptionalField): { property: keyof SkillMetadata; default?: boolean } {
  const spec = fieldSpec(field);
  return { property: spec.property!, default: spec.default };
}

/** The README's table of fields: one row each for the required fields, then the optional ones of the specification, then the extensions. */
export function renderFieldTable(): string {
  const optional = (origin: FieldSpec['origin']): string =>
    FIELD_NAMES.filter((field) => fieldSpec(field).origin === origin && fieldSpec(field).required !== true)
      .map((field) => [`\`${field}\``, fieldSpec(field).rule].filter(Boolean).join(' '))
      .join(', ');
  const required = FIELD_NAMES.filter((field) => fieldSpec(field).required === true).map((field) => `| \`${field}\` | ${fieldSpec(field).rule} |`);
  return ['| field | rule |', '| --- | --- |', ...required, `| ${optional('spec')} | optional, from the specification |`, `| ${optional('extension')} | optional extensions, honoured here |`].join(
    '\n',
  );
}

/** `metadata` must be a mapping (each value must be text, checked apart to report each one). */
export const metadataMappingSchema = z.record(z.string(), z.unknown());
