// Reads the most common frontmatter, flat `key: plain text` lines, without running the YAML parser,
// which costs more than the rest of loading a skill. Anything else (quotes, nesting, block text,
// comments after values, words YAML reads as null or booleans...) is left to the YAML parser, so the
// result is always what it would give.

// A plain key and a plain value that starts with a letter: YAML resolves such a value to a string,
// unless it is one of the null and boolean words below.
const FLAT_ENTRY_PATTERN = /^([A-Za-z][A-Za-z0-9_-]*): +([A-Za-z].*)$/;
const NON_STRING_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
// Text that would make a plain value mean something else (": " starts a mapping, " #" a comment, a
// final ":" a key) or that YAML treats apart: tabs, control characters, line breaks, surrogates.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const SPECIAL_VALUE_PATTERN = /: | #|:$|[\t\r\x00-\x1F\x7F-\x9F\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/;

/**
 * The mapping of a frontmatter made only of flat entries with plain text values (blank lines and
 * whole-line comments allowed), or undefined when the YAML parser must read it.
 * @param lines frontmatter lines without terminators; line 0 (the rest of the opening fence) is skipped.
 */
export function parseFlatFrontmatter(lines: readonly string[]): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index];
    if (line === '' || line[0] === '#' || line.trim() === '') {
      continue;
    }
    const entry = FLAT_ENTRY_PATTERN.exec(line);
    if (!entry) {
      return undefined;
    }
    const [, key, rawValue] = entry;
    const value = rawValue.trimEnd();
    if (NON_STRING_WORDS.has(value) || SPECIAL_VALUE_PATTERN.test(value)) {
      return undefined;
    }
    // A repeated key is a YAML error; let the parser report it.
    if (Object.prototype.hasOwnProperty.call(data, key)) {
      return undefined;
    }
    data[key] = value;
  }
  return data;
}
