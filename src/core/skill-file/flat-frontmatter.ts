// Reads the most common frontmatter, `key: text` lines and a `metadata:` block of such lines,
// without running the YAML parser, which costs more than the rest of loading a skill. Anything else
// (nesting deeper than one level, block text, escapes, comments after values, words YAML reads as
// null or booleans...) is left to the YAML parser, so the result is always what it would give.

// A plain key and a value: plain text that starts with a letter (YAML resolves it to a string,
// unless it is one of the null and boolean words, which the lookahead leaves out), or text in
// quotes without escapes. Trailing spaces are not part of a value (other white space is, for YAML).
const FLAT_ENTRY_PATTERN = /^([A-Za-z][A-Za-z0-9_-]*): +(?:(?!(?:null|Null|NULL|true|True|TRUE|false|False|FALSE) *$)([A-Za-z](?:.*[^ ])?)|"([^"\\]*)"|'([^']*)') *$/;
// A key whose value is the indented block below it.
const BLOCK_KEY_PATTERN = /^([A-Za-z][A-Za-z0-9_-]*): *$/;
// YAML's white space is spaces and tabs only (a no-break space is text).
const BLANK_LINE_PATTERN = /^[ \t]*$/;
// Text that YAML treats apart in any value: tabs, control characters, line breaks, surrogates.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const SPECIAL_TEXT_PATTERN = /[\t\r\x00-\x1F\x7F-\x9F\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/;
// In a plain value, also what would make it mean something else: ": " starts a mapping, " #" a
// comment, a final ":" a key. One pattern, so a long description is searched once.
const SPECIAL_PLAIN_PATTERN = new RegExp(`${SPECIAL_TEXT_PATTERN.source}|: | #|:$`);

export type SimpleFrontmatter = Record<string, string | Record<string, string>>;

/**
 * The mapping of a frontmatter made only of flat entries with plain or simply quoted text values
 * (blank lines and whole-line comments allowed), or undefined when the YAML parser must read it.
 * @param lines frontmatter lines without terminators; line 0 (the rest of the opening fence) is skipped.
 * @param from, to, indent the entries read: lines `from` to `to` (excluded), indented by `indent` spaces.
 */
export function parseFlatFrontmatter(lines: readonly string[], from = 1, to = lines.length, indent = 0): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (let index = from; index < to; index++) {
    if (!addFlatEntry(data, lines[index], indent)) {
      return undefined;
    }
  }
  return data;
}

/**
 * Adds the flat entry of one line indented by `indent` spaces to `data` (a blank or comment line
 * adds nothing); false when the YAML parser must read the line, a key already in `data` included.
 */
function addFlatEntry(data: SimpleFrontmatter, indented: string, indent: number): boolean {
  const line = leadingSpaces(indented) === indent ? indented.slice(indent) : '';
  if (line[0] === '#') {
    return true;
  }
  const entry = FLAT_ENTRY_PATTERN.exec(line);
  if (!entry) {
    // A blank line is skipped; anything else is left to the YAML parser.
    return BLANK_LINE_PATTERN.test(indented);
  }
  // Indexed rather than destructured: destructuring iterates, which costs while the code is still interpreted.
  const key = entry[1];
  const plain: string | undefined = entry[2];
  const value = plain ?? entry[3] ?? entry[4];
  // A repeated key is a YAML error; let the parser report it.
  if ((plain === undefined ? SPECIAL_TEXT_PATTERN : SPECIAL_PLAIN_PATTERN).test(value) || Object.prototype.hasOwnProperty.call(data, key)) {
    return false;
  }
  data[key] = value;
  return true;
}

/**
 * The mapping of a frontmatter made of flat entries (see parseFlatFrontmatter) and keys whose value
 * is a block of flat entries indented with spaces, like the usual `metadata:` block; undefined when
 * the YAML parser must read it. Each line is first tried as a flat entry, the usual case, so most
 * lines are matched against one pattern.
 */
export function parseSimpleFrontmatter(lines: readonly string[]): SimpleFrontmatter | undefined {
  const data: SimpleFrontmatter = {};
  let index = 1;
  while (index < lines.length) {
    if (addFlatEntry(data, lines[index], 0)) {
      index++;
      continue;
    }
    const blockKey = BLOCK_KEY_PATTERN.exec(lines[index]);
    if (!blockKey) {
      return undefined;
    }
    const key = blockKey[1];
    let end = index + 1;
    while (end < lines.length && (lines[end] === '' || lines[end][0] === ' ')) {
      end++;
    }
    let first = index + 1;
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
