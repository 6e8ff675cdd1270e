// The SKILL.md frontmatter format: the fields of the Agent Skills specification, the common
// extensions this product honours, their limits, and zod schemas for their value types.

import * as z from 'zod/mini';

// Lengths are counted in UTF-16 code units (`string.length`), as the reference validator counts
// them; zod's string bounds count code points, so these limits are checked by hand.
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

/** Frontmatter fields defined by the Agent Skills specification. */
export const SPEC_FIELDS: ReadonlySet<string> = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);

/**
 * The description Create Skill writes, for the user to replace: while it is still there the skill
 * is a draft, warned about and not offered to the model.
 */
export const NEW_SKILL_DESCRIPTION = 'Describe what this skill does and when to use it; the model picks skills by this text.';

/** Whether a description is still Create Skill's placeholder, spaces aside. */
export function isPlaceholderDescription(description: string): boolean {
  return description.trim() === NEW_SKILL_DESCRIPTION;
}

/** Fields outside the specification that are widely used and honoured here (errors in strict mode). */
export const EXTENSION_FIELDS: ReadonlySet<string> = new Set(['argument-hint', 'user-invocable', 'disable-model-invocation', 'context', 'model']);

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

/** Optional fields whose only rule is their value type; a value of the wrong type is reported and ignored. */
export const TYPED_OPTIONAL_FIELDS = {
  license: { schema: textSchema, expected: 'text' },
  'allowed-tools': { schema: textSchema, expected: 'text (tool names separated by spaces)' },
  'argument-hint': { schema: textSchema, expected: 'text' },
  'user-invocable': { schema: booleanSchema, expected: 'true or false' },
  'disable-model-invocation': { schema: booleanSchema, expected: 'true or false' },
  context: { schema: z.enum(['inline', 'fork']), expected: '"inline" or "fork"' },
  model: { schema: textSchema, expected: 'text' },
} as const satisfies Record<string, { schema: z.ZodMiniType; expected: string }>;

export type TypedOptionalField = keyof typeof TYPED_OPTIONAL_FIELDS;

/** `metadata` must be a mapping (each value must be text, checked apart to report each one). */
export const metadataMappingSchema = z.record(z.string(), z.unknown());
