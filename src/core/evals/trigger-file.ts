// A skill's trigger tests: `evals/triggers.json`, the shape of skill-creator's trigger evals
// (`[{ "query", "should_trigger" }]`), or an object that also sets how the file is run
// (`{ "runs", "threshold", "queries": [...] }`). Parsed with positions, so every problem and every
// query has an exact range in the JSON text.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Range, Severity, SkillDiagnostic } from '../model/types';
import { FILE_START_RANGE } from '../skill-file/diagnostic-codes';
import { MAX_RUNS } from '../defaults';
import { EVALS_FOLDER } from './evals-folder';
import { errorCode, errorMessage } from '../util/errors';
import { READ_WITHOUT_WAITING } from '../util/files';
import { joinChild } from '../util/paths';

/** Where a skill keeps its trigger tests, relative to the skill folder. */
export const TRIGGER_TESTS_PATH = path.join(EVALS_FOLDER, 'triggers.json');

export const TRIGGER_DIAGNOSTIC_CODES = [
  'triggers-json-syntax',
  'triggers-shape',
  'triggers-entry-shape',
  'triggers-missing-query',
  'triggers-empty-query',
  'triggers-duplicate-query',
  'triggers-should-trigger-type',
  'triggers-runs',
  'triggers-threshold',
  'triggers-unknown-field',
  'triggers-no-queries',
  'triggers-unreadable',
  'triggers-too-large',
] as const;

export type TriggerDiagnosticCode = (typeof TRIGGER_DIAGNOSTIC_CODES)[number];

/** Trigger files hold a few dozen queries; a larger one is refused unread. */
export const MAX_TRIGGER_FILE_BYTES = 1024 * 1024;

export interface TriggerQuery {
  query: string;
  shouldTrigger: boolean;
  /** The entry's object in the JSON text. */
  range: Range;
}

export interface TriggerTestFile {
  /** Absolute path of the JSON file. */
  file: string;
  queries: TriggerQuery[];
  /** Per-file overrides of the settings. */
  runs?: number;
  threshold?: number;
}

export interface ParsedTriggerTests {
  /** Absolute path of the JSON file. */
  file: string;
  /** The usable queries (entries with errors are left out); undefined when the file as a whole is unusable. */
  tests?: TriggerTestFile;
  diagnostics: SkillDiagnostic[];
}

const FILE_FIELDS = new Set(['runs', 'threshold', 'queries']);

/** Parses and checks the text of a trigger-test file; `file` names it in diagnostics. */
export function parseTriggerTests(text: string, file: string): ParsedTriggerTests {
  const positions = new LinePositions(text);
  const diagnostics: SkillDiagnostic[] = [];
  const report = (code: TriggerDiagnosticCode, severity: Severity, message: string, offset: number, length: number): void => {
    diagnostics.push({ code, severity, message, file, range: positions.range(offset, length) });
  };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || !root) {
    // The parser reports an error whenever it returns no tree (empty content is not allowed).
    const [first] = errors;
    report(
      'triggers-json-syntax',
      'error',
      `${path.basename(file)} is not valid JSON: ${describeParseError(first)}. Expected an array of { "query": "…", "should_trigger": true }.`,
      first.offset,
      first.length,
    );
    return { file, diagnostics };
  }

  const settings: { runs?: number; threshold?: number } = {};
  let list: Node | undefined;
  if (root.type === 'array') {
    list = root;
  } else if (root.type === 'object') {
    // The parser gives every object, array and property node its children.
    for (const property of root.children!) {
      const [key, value] = property.children!;
      const name = String(key.value);
      if (!FILE_FIELDS.has(name)) {
        report('triggers-unknown-field', 'warning', `Unknown field "${name}" (expected "queries", "runs" or "threshold"); it is ignored.`, key.offset, key.length);
      } else if (name === 'queries') {
        list = value;
      } else if (name === 'runs') {
        if (Number.isInteger(value.value) && value.value >= 1 && value.value <= MAX_RUNS) {
          settings.runs = value.value as number;
        } else {
          report('triggers-runs', 'error', `"runs" must be a whole number from 1 to ${MAX_RUNS}.`, value.offset, value.length);
        }
      } else if (value.type === 'number' && value.value >= 0 && value.value <= 1) {
        settings.threshold = value.value as number;
      } else {
        report('triggers-threshold', 'error', '"threshold" must be a number from 0 to 1 (the share of runs that must trigger).', value.offset, value.length);
      }
    }
    if (!list) {
      report('triggers-shape', 'error', 'The object form needs a "queries" array of { "query": "…", "should_trigger": true }.', root.offset, 1);
      return { file, diagnostics };
    }
  }
  if (!list || list.type !== 'array') {
    const where = list ?? root;
    report('triggers-shape', 'error', 'Trigger tests are an array of { "query": "…", "should_trigger": true } (or an object with such a "queries" array).', where.offset, where.length);
    return { file, diagnostics };
  }

  const queries: TriggerQuery[] = [];
  const firstLineOf = new Map<string, number>();
  for (const entry of list.children!) {
    const query = checkEntry(entry, report);
    if (!query) {
      continue;
    }
    const key = query.text.trim().toLowerCase();
    const earlier = firstLineOf.get(key);
    if (earlier !== undefined) {
      report('triggers-duplicate-query', 'error', `Duplicate query "${query.text}" (also on line ${earlier + 1}); each query is tested once.`, query.node.offset, query.node.length);
      continue;
    }
    firstLineOf.set(key, positions.position(query.node.offset).line);
    if (query.shouldTrigger !== undefined) {
      queries.push({ query: query.text, shouldTrigger: query.shouldTrigger, range: positions.range(entry.offset, entry.length) });
    }
  }
  if (list.children!.length === 0) {
    report('triggers-no-queries', 'warning', 'No queries to test yet. Add { "query": "…", "should_trigger": true } entries, or run Skills: Draft Trigger Tests….', list.offset, list.length);
  }
  return { file, tests: { file, queries, ...settings }, diagnostics };
}

/** Reads a skill's trigger tests without blocking; undefined when the skill has none. */
export async function loadTriggerTests(skillDir: string): Promise<ParsedTriggerTests | undefined> {
  const file = joinChild(skillDir, TRIGGER_TESTS_PATH);
  let read: TriggerFileRead;
  try {
    read = await readText(file);
  } catch (error) {
    return readFailure(file, error);
  }
  return parsedRead(file, read);
}

/**
 * loadTriggerTests with blocking reads: for the command line, which reads blocking as it reads
 * SKILL.md files (see LoadOptions.blockingReads), and looks for the trigger tests of thousands of
 * skills one after the other, without a promise for each.
 */
export function loadTriggerTestsBlocking(skillDir: string): ParsedTriggerTests | undefined {
  const file = joinChild(skillDir, TRIGGER_TESTS_PATH);
  let read: TriggerFileRead | undefined;
  try {
    read = readTextBlocking(file);
  } catch (error) {
    return readFailure(file, error);
  }
  return read && parsedRead(file, read);
}

/** A trigger file that could not be opened or read: none when it is missing. */
function readFailure(file: string, error: unknown): ParsedTriggerTests | undefined {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return undefined;
  }
  return fileProblem(file, 'triggers-unreadable', `${file} cannot be read: ${errorMessage(error)}`);
}

function parsedRead(file: string, read: TriggerFileRead): ParsedTriggerTests {
  if ('tooLargeBytes' in read) {
    return fileProblem(
      file,
      'triggers-too-large',
      `${file} is ${read.tooLargeBytes} bytes, over the ${MAX_TRIGGER_FILE_BYTES}-byte (1 MiB) limit for trigger tests; it was not read. Keep it to the queries that test the skill.`,
    );
  }
  return parseTriggerTests(read.text, file);
}

/** The text of a trigger file, or its size when it is over the limit. */
type TriggerFileRead = { text: string } | { tooLargeBytes: number };

/** A trigger file that could not be read, as one error at its start. */
function fileProblem(file: string, code: TriggerDiagnosticCode, message: string): ParsedTriggerTests {
  return { file, diagnostics: [{ code, severity: 'error', message, file, range: FILE_START_RANGE }] };
}

async function readText(file: string): Promise<TriggerFileRead> {
  const handle = await fs.promises.open(file, READ_WITHOUT_WAITING);
  try {
    const { size } = await handle.stat();
    return size > MAX_TRIGGER_FILE_BYTES ? { tooLargeBytes: size } : { text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}

/** undefined when there is no such file. */
function readTextBlocking(file: string): TriggerFileRead | undefined {
  // Most skills have no trigger tests: a stat that returns nothing for a missing file costs a
  // fraction of the error a failed open throws, which validating thousands of skills notices.
  if (!fs.statSync(file, { throwIfNoEntry: false })) {
    return undefined;
  }
  const fd = fs.openSync(file, READ_WITHOUT_WAITING);
  try {
    const { size } = fs.fstatSync(fd);
    return size > MAX_TRIGGER_FILE_BYTES ? { tooLargeBytes: size } : { text: fs.readFileSync(fd, 'utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

type Report = (code: TriggerDiagnosticCode, severity: Severity, message: string, offset: number, length: number) => void;

/** One entry's query and expectation; problems are reported, and an entry without a usable query is dropped. */
function checkEntry(entry: Node, report: Report): { text: string; node: Node; shouldTrigger?: boolean } | undefined {
  if (entry.type !== 'object') {
    report('triggers-entry-shape', 'error', 'Each entry must be an object: { "query": "…", "should_trigger": true }.', entry.offset, entry.length);
    return undefined;
  }
  let queryNode: Node | undefined;
  let expectationNode: Node | undefined;
  for (const property of entry.children!) {
    const [key, value] = property.children!;
    if (key.value === 'query') {
      queryNode = value;
    } else if (key.value === 'should_trigger') {
      expectationNode = value;
    } else {
      report('triggers-unknown-field', 'warning', `Unknown field "${String(key.value)}" (an entry has "query" and "should_trigger"); it is ignored.`, key.offset, key.length);
    }
  }
  let shouldTrigger: boolean | undefined;
  if (expectationNode?.type === 'boolean') {
    shouldTrigger = expectationNode.value as boolean;
  } else {
    const where = expectationNode ?? entry;
    report('triggers-should-trigger-type', 'error', '"should_trigger" must be true or false: whether this query should load the skill.', where.offset, expectationNode ? where.length : 1);
  }
  if (!queryNode || queryNode.type !== 'string') {
    const where = queryNode ?? entry;
    report('triggers-missing-query', 'error', '"query" must be a string: what a user would ask.', where.offset, queryNode ? where.length : 1);
    return undefined;
  }
  const text = queryNode.value as string;
  if (text.trim() === '') {
    report('triggers-empty-query', 'error', '"query" is empty: write what a user would ask.', queryNode.offset, queryNode.length);
    return undefined;
  }
  return { text, node: queryNode, shouldTrigger };
}

function describeParseError(error: ParseError): string {
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** Offsets to zero-based line and column. */
class LinePositions {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let index = 0; index < text.length; index++) {
      if (text.charCodeAt(index) === 10) {
        this.lineStarts.push(index + 1);
      }
    }
  }

  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= offset) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return { line: low, column: offset - this.lineStarts[low] };
  }

  range(offset: number, length: number): Range {
    return { start: this.position(offset), end: this.position(offset + length) };
  }
}
