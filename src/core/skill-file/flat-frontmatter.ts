// Reads the most common frontmatter, `key: text` lines and a `metadata:` block of such lines,
// without running the YAML parser, which costs more than the rest of loading a skill. Anything else
// (nesting deeper than one level, block text, escapes, comments after values, words YAML reads as
// null or booleans...) is left to the YAML parser, so the result is always what it would give.

// A plain key and a value: plain text that starts with a letter (YAML resolves it to a string,
// unless it is one of the null and boolean words below), or text in quotes without escapes.
// Trailing spaces are not part of a value (other white space is, for YAML).
const FLAT_ENTRY_PATTERN = /^([A-Za-z][A-Za-z0-9_-]*): +(?:([A-Za-z](?:.*[^ ])?)|"([^"\\]*)"|'([^']*)') *$/;
// A key whose value is the indented block below it.
const BLOCK_KEY_PATTERN = /^([A-Za-z][A-Za-z0-9_-]*): *$/;
// YAML's white space is spaces and tabs only (a no-break space is text).
const BLANK_LINE_PATTERN = /^[ \t]*$/;
const NON_STRING_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
// Text that YAML treats apart in any value: tabs, control characters, line breaks, surrogates.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const SPECIAL_TEXT_PATTERN = /[\t\r\x00-\x1F\x7F-\x9F\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/;
// And in a plain value, what would make it mean something else: ": " starts a mapping, " #" a
// comment, a final ":" a key.
const SPECIAL_PLAIN_PATTERN = /: | #|:$/;

export type SimpleFrontmatter = Record<string, string | Record<string, string>>;

/**
 * The mapping of a frontmatter made only of flat entries with plain or simply quoted text values
 * (blank lines and whole-line comments allowed), or undefined when the YAML parser must read it.
 * @param lines frontmatter lines without terminators; line 0 (the rest of the opening fence) is skipped.
 * @param from, to, indent the entries read: lines `from` to `to` (excluded), indented by `indent` spaces.
 */
export function parseFlatFrontmatter(lines: readonly string[], from = 1, to = lines.length, indent = 0): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  return addFlatEntries(data, lines, from, to, indent) ? data : undefined;
}

/**
 * Adds the flat entries of lines `from` to `to` to `data` (see parseFlatFrontmatter); false when
 * the YAML parser must read them, a key already in `data` included.
 */
function addFlatEntries(data: SimpleFrontmatter, lines: readonly string[], from: number, to: number, indent: number): boolean {
  for (let index = from; index < to; index++) {
    const indented = lines[index];
    const line = leadingSpaces(indented) === indent ? indented.slice(indent) : '';
    if (line[0] === '#') {
      continue;
    }
    const entry = FLAT_ENTRY_PATTERN.exec(line);
    if (!entry) {
      // A blank line is skipped; anything else is left to the YAML parser.
      if (BLANK_LINE_PATTERN.test(indented)) {
        continue;
      }
      return false;
    }
    // Indexed rather than destructured: destructuring iterates, which costs while the code is still interpreted.
    const key = entry[1];
    const plain: string | undefined = entry[2];
    const value = plain ?? entry[3] ?? entry[4];
    if (SPECIAL_TEXT_PATTERN.test(value)) {
      return false;
    }
    if (plain !== undefined && (NON_STRING_WORDS.has(value) || SPECIAL_PLAIN_PATTERN.test(value))) {
      return false;
    }
    // A repeated key is a YAML error; let the parser report it.
    if (Object.prototype.hasOwnProperty.call(data, key)) {
      return false;
    }
    data[key] = value;
  }
  return true;
}

/**
 * The mapping of a frontmatter made of flat entries (see parseFlatFrontmatter) and keys whose value
 * is a block of flat entries indented with spaces, like the usual `metadata:` block; undefined when
 * the YAML parser must read it.
 */
export function parseSimpleFrontmatter(lines: readonly string[]): SimpleFrontmatter | undefined {
  const data: SimpleFrontmatter = {};
  let index = 1;
  while (index < lines.length) {
    let blockKeyLine = index;
    while (blockKeyLine < lines.length && !BLOCK_KEY_PATTERN.test(lines[blockKeyLine])) {
      blockKeyLine++;
    }
    if (!addFlatEntries(data, lines, index, blockKeyLine, 0)) {
      return undefined;
    }
    if (blockKeyLine === lines.length) {
      break;
    }

    const key = BLOCK_KEY_PATTERN.exec(lines[blockKeyLine])![1];
    let end = blockKeyLine + 1;
    while (end < lines.length && (lines[end] === '' || lines[end][0] === ' ')) {
      end++;
    }
    let first = blockKeyLine + 1;
    while (first < end && BLANK_LINE_PATTERN.test(lines[first])) {
      first++;
    }
    if (first === end || Object.prototype.hasOwnProperty.call(data, key)) {
      return undefined;
    }
    const block = parseFlatFrontmatter(lines, first, end, leadingSpaces(lines[first]));
    // Without entries (only comments, say) the value is null, which the YAML parser gives.
    if (!block || Object.keys(block).length === 0) {
      return undefined;
    }
    data[key] = block;
    index = end;
  }
  return data;
}

function leadingSpaces(line: string): number {
  let count = 0;
  while (line[count] === ' ') {
    count++;
  }
  return count;
}
