// What Agent Skills does with the frontmatter fields VS Code's own skills support reads
// differently or calls unsupported (the notes of FRONTMATTER_FIELDS), shown on hover beside VS
// Code's hint so the two read as complementary rather than contradictory.

import { FIELD_NOTES } from './schema';

export interface FieldAtPosition {
  field: string;
  note: string;
  /** Zero-based columns of the key on its line. */
  start: number;
  end: number;
}

/** The noted top-level frontmatter key under `line`:`column` of a SKILL.md, if any. */
export function fieldNoteAt(lines: readonly string[], line: number, column: number): FieldAtPosition | undefined {
  // Line 0 is the fence, which no key pattern matches.
  if (lines[0]?.trimEnd() !== '---') {
    return undefined;
  }
  for (let index = 1; index < line; index++) {
    if (lines[index].startsWith('---')) {
      return undefined; // Past the frontmatter.
    }
  }
  const key = /^([A-Za-z][\w-]*)\s*:/.exec(lines[line] ?? '');
  if (!key || column > key[1].length) {
    return undefined;
  }
  const note = FIELD_NOTES[key[1]];
  return note === undefined ? undefined : { field: key[1], note, start: 0, end: key[1].length };
}
