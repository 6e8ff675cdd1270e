// Splits a SKILL.md into YAML frontmatter and Markdown body, and parses the frontmatter.
// Only YAML is ever read: gray-matter would eval `---js` frontmatter, so the fences are found here,
// any other language is refused, and only gray-matter's YAML engine ever sees the text.

import { parseSimpleFrontmatter } from './flat-frontmatter';
import { findTabIndentation, locateFrontmatterFields, type FieldLocations } from './frontmatter-locator';
import { FILE_START_RANGE, OPENING_FENCE_RANGE, makeDiagnostic, rangeOnLine, type SkillDiagnosticCode } from './diagnostic-codes';
import type { Position, Range, Severity, SkillDiagnostic } from '../model/types';
import { isPlainObject } from '../util/objects';

export const BYTE_ORDER_MARK = '\uFEFF';
/** What decoding puts in place of bytes that are not UTF-8. */
const REPLACEMENT_CHARACTER = '\uFFFD';
export const FRONTMATTER_FENCE = '---';
/** The frontmatter ends at the first line that starts with `---` (as in gray-matter). */
const CLOSING_FENCE = '\n---';
/** How much of a file without frontmatter is searched for NUL bytes to call it binary. */
export const BINARY_SNIFF_CHARS = 1024;
const UTF8_BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
const FENCE_BYTES = Buffer.from(FRONTMATTER_FENCE);
const CLOSING_FENCE_BYTES = Buffer.from(CLOSING_FENCE);
const MAX_UTF8_BYTES_PER_CHAR = 4;

/**
 * gray-matter's YAML engine: js-yaml's safe loader, which knows no JavaScript types. It is taken
 * from gray-matter's engines module and called directly because the fences are split here:
 * gray-matter's own entry point would pick an engine from the fence line (and eval `---js`), its
 * per-call option merging and copies cost more than the YAML itself when loading a thousand
 * skills, and the rest of it (excerpts, sections, writing) would only add to the bundles. It is
 * loaded on first use: most frontmatter is read without it (see flat-frontmatter.ts), and loading
 * it would be a good part of a short command line run.
 */
let yamlEngine: { parse(yaml: string, options?: { listener?: (event: 'open' | 'close', state: YamlNodeEvent) => void }): unknown } | undefined;

export interface ParseOptions {
  /** Absolute path reported in diagnostics. */
  file: string;
  /** Read the frontmatter exactly as the specification's reference validator does (see parseSkillText). */
  strict?: boolean;
  /** Also return the body; leave off when `text` is only the head of the file. */
  includeBody?: boolean;
}

export interface ParsedSkillText {
  /** The top-level frontmatter mapping; absent when the frontmatter could not be read. */
  data?: Record<string, unknown>;
  /** Positions of the top-level keys and values, for precise diagnostics; found on first use. */
  readonly locations: FieldLocations;
  diagnostics: SkillDiagnostic[];
  /** Markdown after the closing fence (when asked for and the frontmatter is closed). */
  body?: string;
  /** Zero-based file line on which the body starts. */
  bodyStartLine?: number;
}

const NO_LOCATIONS: FieldLocations = new Map();

/**
 * A frontmatter that was read; a class rather than a literal with a getter, which is slow to create,
 * with its fields only declared and set in the constructor: a field declaration defines the field
 * anew on each object, which costs more than the rest of the constructor while the code is still
 * interpreted.
 */
class ParsedFrontmatter implements ParsedSkillText {
  declare body?: string;
  declare bodyStartLine?: number;
  declare readonly data: Record<string, unknown>;
  declare readonly diagnostics: SkillDiagnostic[];
  declare private readonly lines: readonly string[];
  declare private located: FieldLocations | undefined;

  constructor(data: Record<string, unknown>, diagnostics: SkillDiagnostic[], lines: readonly string[]) {
    this.data = data;
    this.diagnostics = diagnostics;
    this.lines = lines;
  }

  get locations(): FieldLocations {
    return (this.located ??= locateFrontmatterFields(this.lines));
  }
}

/**
 * Parses the frontmatter of SKILL.md text. Never throws: every problem becomes a diagnostic with a
 * position (zero-based; a leading byte-order mark is not counted, as editors hide it).
 *
 * In strict mode the frontmatter is read the way the reference validator (`skills-ref`) reads it,
 * so that both judge the same files invalid: a byte-order mark is an error, and the frontmatter ends
 * at the first `---` anywhere after the opening one, even inside a line.
 */
export function parseSkillText(text: string, options: ParseOptions): ParsedSkillText {
  const strict = options.strict === true;
  const diagnostics: SkillDiagnostic[] = [];
  const report = (code: SkillDiagnosticCode, severity: Severity, message: string, range: Range): void => {
    diagnostics.push(makeDiagnostic(options.file, code, severity, message, range));
  };
  const unreadable = (): ParsedSkillText => ({ locations: NO_LOCATIONS, diagnostics });

  if (text.startsWith(BYTE_ORDER_MARK)) {
    text = text.slice(BYTE_ORDER_MARK.length);
    if (strict) {
      report(
        'byte-order-mark',
        'error',
        'The file starts with a byte-order mark, which the specification\'s reference validator does not accept before the opening "---". Save the file as UTF-8 without BOM.',
        FILE_START_RANGE,
      );
    }
  }

  if (!text.startsWith(FRONTMATTER_FENCE)) {
    if (containsNul(text, Math.min(text.length, BINARY_SNIFF_CHARS))) {
      report('binary-file', 'error', binaryMessage(), FILE_START_RANGE);
    } else {
      report(
        'missing-frontmatter',
        'error',
        'SKILL.md must start with YAML frontmatter: a "---" line, the fields (name, description, ...), then a closing "---" line.',
        rangeOnLine(0, 0, firstLineEnd(text)),
      );
    }
    return unreadable();
  }

  const closingFenceNewline = text.indexOf(CLOSING_FENCE, FRONTMATTER_FENCE.length);
  const yamlEnd = strict ? text.indexOf(FRONTMATTER_FENCE, FRONTMATTER_FENCE.length) : closingFenceNewline;
  if (containsNul(text, yamlEnd < 0 ? text.length : yamlEnd)) {
    report('binary-file', 'error', binaryMessage(), FILE_START_RANGE);
    return unreadable();
  }

  const openingLineEnd = firstLineEnd(text);
  const openingRest = text.slice(FRONTMATTER_FENCE.length, openingLineEnd);
  const language = openingRest.trim();
  if (openingRest.startsWith('-')) {
    report(
      'missing-frontmatter',
      'error',
      `The first line "${text.slice(0, openingLineEnd)}" is not a frontmatter fence: the frontmatter must open with a line "---".`,
      rangeOnLine(0, 0, openingLineEnd),
    );
    return unreadable();
  }
  // A YAML comment after the fence is harmless; any other word names a frontmatter language.
  if (language !== '' && !language.startsWith('#')) {
    const languageStart = FRONTMATTER_FENCE.length + openingRest.indexOf(language);
    report(
      'frontmatter-language',
      'error',
      `"---${language}" frontmatter is not read: only YAML frontmatter is supported, and frontmatter is never run as code. Make the first line exactly "---" and write the fields in YAML.`,
      rangeOnLine(0, languageStart, languageStart + language.length),
    );
    return unreadable();
  }

  if (yamlEnd < 0) {
    report('unterminated-frontmatter', 'error', 'The frontmatter is never closed: add a line "---" after the last field, before the Markdown body.', OPENING_FENCE_RANGE);
    return unreadable();
  }
  if (strict && yamlEnd !== closingFenceNewline + 1) {
    const cut = positionAt(text, yamlEnd);
    report(
      'frontmatter-cut',
      'warning',
      'Strict mode ends the frontmatter at this "---", as the reference validator does, although it is not a fence line; the rest of the frontmatter is ignored. Avoid "---" inside frontmatter values.',
      rangeOnLine(cut.line, cut.column, cut.column + FRONTMATTER_FENCE.length),
    );
  }

  // Decoding turned bytes that are not UTF-8 into U+FFFD, which would reach the model as is.
  const undecodable = text.indexOf(REPLACEMENT_CHARACTER);
  if (undecodable >= 0 && undecodable < yamlEnd) {
    report('invalid-utf8', 'error', invalidUtf8Message(positionAt(text, undecodable), 'frontmatter'), rangeAt(text, undecodable, 1));
  }

  const yamlText = text.slice(FRONTMATTER_FENCE.length, yamlEnd);
  const splitLines = yamlText.split('\n');
  // Most files have no CR: their lines need no second array.
  const lines = yamlText.includes('\r') ? splitLines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)) : splitLines;
  const simple = parseSimpleFrontmatter(lines);
  let data: unknown = simple;
  // The rest of the opening line is blank or a comment; dropping it keeps YAML line numbers equal
  // to file line numbers.
  const firstNewline = yamlText.indexOf('\n');
  const yaml = firstNewline < 0 ? '' : yamlText.slice(firstNewline);
  // Only the YAML parser reads brackets and braces as collections (see flat-frontmatter.ts).
  const flow: FlowCollections | undefined = strict && data === undefined && /[[{]/.test(yaml) ? { starts: [] } : undefined;
  try {
    data ??= parseYamlFrontmatter(yaml, flow);
  } catch (error) {
    const tooDeep = error instanceof RangeError;
    const { position, reason } = tooDeep ? describeDeepNesting(lines) : describeYamlError(error, lines);
    // Nesting too deep is said in our words already; the parser's words come after what to do.
    const explanation = tooDeep ? `${reason}. ${capitalize(GENERIC_YAML_HINT)}` : `${yamlErrorHint(lines, position.line)} The YAML parser says: ${reason}.`;
    report(
      'yaml-syntax',
      'error',
      `Invalid YAML in the frontmatter (line ${position.line + 1}, column ${position.column + 1}): ${explanation}`,
      rangeOnLine(position.line, position.column, Math.max(position.column + 1, lines[position.line].trimEnd().length)),
    );
    return unreadable();
  }
  if (!isMapping(data)) {
    report('frontmatter-not-mapping', 'error', 'The frontmatter must be a YAML mapping of fields ("name: ...", "description: ..."), not a list or a single value.', OPENING_FENCE_RANGE);
    return unreadable();
  }
  // Entries read without the YAML parser are indented with spaces only: only a frontmatter the YAML
  // parser read can be indented with tabs.
  const tab = simple ? undefined : findTabIndentation(lines);
  if (tab) {
    report(
      'yaml-syntax',
      'error',
      `Invalid YAML in the frontmatter (line ${tab.line + 1}, column ${tab.column + 1}): tab characters must not be used in indentation. Indent with spaces.`,
      rangeOnLine(tab.line, tab.column, tab.column + 1),
    );
    return unreadable();
  }
  if (flow && flow.starts.length > 0) {
    const start = positionAt(yaml, Math.min(...flow.starts));
    const opening = yaml[Math.min(...flow.starts)];
    report(
      'flow-collection',
      'error',
      `Strict mode refuses this flow-style ${opening === '[' ? 'list' : 'mapping'} ("${opening}...${opening === '[' ? ']' : '}'}"), as the specification's reference validator does: its YAML reader (strictyaml) accepts only block style. Write one "${opening === '[' ? '- item' : 'key: value'}" per line, or quote the value if it is text.`,
      rangeOnLine(start.line, start.column, start.column + 1),
    );
  }
  const parsed = new ParsedFrontmatter(data, diagnostics, lines);
  if (options.includeBody) {
    const body = bodyAfterFence(text, closingFenceNewline);
    if (body) {
      parsed.body = body.text;
      parsed.bodyStartLine = body.startLine;
      if (undecodable >= yamlEnd) {
        report('invalid-utf8', 'warning', invalidUtf8Message(positionAt(text, undecodable), 'body'), rangeAt(text, undecodable, 1));
      }
    }
  }
  return parsed;
}

/**
 * The Markdown body of a SKILL.md (text after the line that closes the frontmatter), or undefined
 * when the text has no complete frontmatter.
 */
export function extractSkillBody(text: string): { text: string; startLine: number } | undefined {
  if (text.startsWith(BYTE_ORDER_MARK)) {
    text = text.slice(BYTE_ORDER_MARK.length);
  }
  if (!text.startsWith(FRONTMATTER_FENCE)) {
    return undefined;
  }
  return bodyAfterFence(text, text.indexOf(CLOSING_FENCE, FRONTMATTER_FENCE.length));
}

/**
 * The YAML between the fences of a SKILL.md (without the opening line), or undefined when the text
 * has no complete frontmatter. Fences are found as parseSkillText finds them.
 */
export function frontmatterYaml(text: string): string | undefined {
  if (text.startsWith(BYTE_ORDER_MARK)) {
    text = text.slice(BYTE_ORDER_MARK.length);
  }
  if (!text.startsWith(FRONTMATTER_FENCE)) {
    return undefined;
  }
  const closingFenceNewline = text.indexOf(CLOSING_FENCE, FRONTMATTER_FENCE.length);
  if (closingFenceNewline < 0) {
    return undefined;
  }
  // Empty when the closing fence follows the opening line: the slice then starts after its end.
  return text.slice(text.indexOf('\n') + 1, closingFenceNewline);
}

/**
 * How many leading bytes of a file parseSkillText needs when the body is not wanted, or undefined
 * when the first `length` bytes of `head` (those read so far) do not hold them yet: everything up to
 * the closing fence, or for a file without frontmatter, enough to tell whether it is binary.
 */
export function frontmatterHeadLength(head: Buffer, length: number): number | undefined {
  const start = startsWithBytes(head, length, 0, UTF8_BYTE_ORDER_MARK) ? UTF8_BYTE_ORDER_MARK.length : 0;
  if (!startsWithBytes(head, length, start, FENCE_BYTES)) {
    return length >= MAX_UTF8_BYTES_PER_CHAR * BINARY_SNIFF_CHARS ? length : undefined;
  }
  // `head` may be longer than what was read (a scratch buffer holding older bytes past it), so the
  // search stops at `length`; over the usual few hundred bytes a loop also costs less than indexOf.
  for (let index = start + FENCE_BYTES.length; index + CLOSING_FENCE_BYTES.length <= length; index++) {
    if (head[index] === CLOSING_FENCE_BYTES[0] && startsWithBytes(head, length, index, CLOSING_FENCE_BYTES)) {
      return index + CLOSING_FENCE_BYTES.length;
    }
  }
  return undefined;
}

function startsWithBytes(buffer: Buffer, length: number, offset: number, prefix: Buffer): boolean {
  if (offset + prefix.length > length) {
    return false;
  }
  for (let index = 0; index < prefix.length; index++) {
    if (buffer[offset + index] !== prefix[index]) {
      return false;
    }
  }
  return true;
}

/** Where the flow collections of a YAML text start (offsets), as its parser reads them. */
interface FlowCollections {
  starts: number[];
}

/** What js-yaml tells a listener of the node it opens or closes. */
interface YamlNodeEvent {
  position: number;
  kind: string | null;
  input: string;
}

function parseYamlFrontmatter(yaml: string, flow?: FlowCollections): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see yamlEngine)
  yamlEngine ??= (require('gray-matter/lib/engines') as { yaml: NonNullable<typeof yamlEngine> }).yaml;
  // Blank or comment-only YAML loads as nothing: an empty mapping.
  return yamlEngine.parse(yaml, flow ? { listener: flowCollectionListener(flow) } : undefined) ?? {};
}

/**
 * Notes the flow collections the parser reads. A collection closing right after a "]" or "}" is
 * one (a block collection closes at the start of a later line, past line breaks); it starts at the
 * first bracket after where its node opened, past spaces, comments, a tag or an anchor.
 */
function flowCollectionListener(flow: FlowCollections): (event: 'open' | 'close', state: YamlNodeEvent) => void {
  const opened: number[] = [];
  return (event, state) => {
    if (event === 'open') {
      opened.push(state.position);
      return;
    }
    const from = opened.pop() ?? 0;
    const last = state.input[state.position - 1];
    if ((state.kind === 'sequence' || state.kind === 'mapping') && (last === ']' || last === '}')) {
      NODE_START.lastIndex = from;
      flow.starts.push(from + (NODE_START.exec(state.input)?.[0].length ?? 0));
    }
  };
}

/** What may stand between where the parser opens a node and its first character: spaces, comments, a tag, an anchor. */
const NODE_START = /(?:\s|#[^\n]*|[!&]\S*)*/y;

function bodyAfterFence(text: string, closingFenceNewline: number): { text: string; startLine: number } | undefined {
  if (closingFenceNewline < 0) {
    return undefined;
  }
  const closingLineEnd = text.indexOf('\n', closingFenceNewline + 1);
  if (closingLineEnd < 0) {
    return { text: '', startLine: countLines(text, text.length) };
  }
  return { text: text.slice(closingLineEnd + 1), startLine: countLines(text, closingLineEnd + 1) };
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !(value instanceof Date);
}

/**
 * js-yaml errors carry the position as `mark` (zero-based) and the bare message as `reason`.
 * `yamlLines` are the frontmatter lines without terminators. An
 * error at the end of the input is moved to the end of the last frontmatter line, where the
 * missing text belongs, rather than onto the closing fence.
 */
function describeYamlError(error: unknown, yamlLines: readonly string[]): { position: Position; reason: string } {
  const details = error as { mark?: { line?: unknown; column?: unknown }; reason?: unknown; message?: unknown };
  let line = typeof details?.mark?.line === 'number' ? details.mark.line : 0;
  let column = typeof details?.mark?.column === 'number' ? details.mark.column : 0;
  if (line >= yamlLines.length) {
    line = yamlLines.length - 1;
    column = yamlLines[line].length;
  }
  const reason = typeof details?.reason === 'string' ? details.reason : typeof details?.message === 'string' ? details.message : String(error);
  return { position: { line, column }, reason };
}

const GENERIC_YAML_HINT = 'fix the syntax there; quote values that contain ": " or start with a special character.';

/** A top-level `key: value` line of the frontmatter. */
const TOP_LEVEL_FIELD = /^([A-Za-z0-9_-]+)[ \t]*:[ \t]+(.*)$/;

/**
 * What to do about a YAML error, in the user's words, to lead its message (the parser's own words
 * follow). The usual cause is a plain value holding ": ", which YAML reads as a nested field.
 */
function yamlErrorHint(yamlLines: readonly string[], errorLine: number): string {
  const field = TOP_LEVEL_FIELD.exec(yamlLines[errorLine] ?? '');
  const value = field?.[2].trim() ?? '';
  if (field && !/^["'|>]/.test(value) && /:[ \t]/.test(value)) {
    return `put the value of "${field[1]}" in quotes, since it contains ": ".`;
  }
  return GENERIC_YAML_HINT;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function invalidUtf8Message(position: Position, part: 'frontmatter' | 'body'): string {
  const consequence = part === 'frontmatter' ? 'the skill is not loaded until it is fixed' : 'the model would read "\uFFFD" there';
  return `SKILL.md is not valid UTF-8: the bytes at line ${position.line + 1}, column ${position.column + 1} cannot be decoded (${consequence}). Save the file as UTF-8.`;
}

/**
 * The YAML reader recurses once per nesting level, so a deep enough nesting exhausts the stack. The
 * place to show is where the nesting is deepest: flow brackets, or else block indentation.
 */
function describeDeepNesting(yamlLines: readonly string[]): { position: Position; reason: string } {
  let depth = 0;
  let deepest = { depth: -1, position: { line: 0, column: 0 } };
  yamlLines.forEach((line, lineIndex) => {
    const indentation = line.length - line.trimStart().length;
    if (depth === 0 && indentation > deepest.depth && line.trim() !== '') {
      deepest = { depth: indentation, position: { line: lineIndex, column: indentation } };
    }
    for (let column = 0; column < line.length; column++) {
      const character = line[column];
      if (character === '[' || character === '{') {
        depth++;
        if (depth > deepest.depth) {
          deepest = { depth, position: { line: lineIndex, column } };
        }
      } else if ((character === ']' || character === '}') && depth > 0) {
        depth--;
      }
    }
  });
  return { position: deepest.position, reason: 'the values are nested too deeply to read (thousands of levels of lists or mappings)' };
}

function binaryMessage(): string {
  return 'SKILL.md contains NUL bytes: it looks like a binary file, not Markdown text. Replace it with a UTF-8 text file.';
}

function containsNul(text: string, end: number): boolean {
  const index = text.indexOf('\0');
  return index >= 0 && index < end;
}

/** Offset of the end of the first line, without its line terminator. */
function firstLineEnd(text: string): number {
  const newline = text.indexOf('\n');
  const end = newline < 0 ? text.length : newline;
  return text[end - 1] === '\r' ? end - 1 : end;
}

function countLines(text: string, end: number): number {
  let lines = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < end; index = text.indexOf('\n', index + 1)) {
    lines++;
  }
  return lines;
}

function rangeAt(text: string, offset: number, length: number): Range {
  const start = positionAt(text, offset);
  return rangeOnLine(start.line, start.column, start.column + length);
}

function positionAt(text: string, offset: number): Position {
  const line = countLines(text, offset);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return { line, column: offset - lineStart };
}
