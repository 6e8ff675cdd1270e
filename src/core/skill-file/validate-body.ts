// Guidance on a SKILL.md body: its length against the specification's advice, and relative
// Markdown links to files that do not exist in the skill folder.

import * as fs from 'node:fs';
import { MAX_BODY_LINES, MAX_BODY_TOKENS } from './schema';
import { CHARS_PER_TOKEN } from '../util/text';
import { resolveInside } from '../util/paths';
import { makeDiagnostic, rangeOnLine } from './diagnostic-codes';
import type { SkillDiagnostic } from '../model/types';

export interface BodyValidationContext {
  file: string;
  /** The skill folder, against which relative links are resolved. */
  skillDir: string;
  /** Zero-based file line on which the body starts. */
  bodyStartLine: number;
}

/** Guidance on the Markdown body: its length, and relative links to files that do not exist. */
export function validateBody(body: string, context: BodyValidationContext): SkillDiagnostic[] {
  const diagnostics = checkBodyLinks(body, context);
  const lengthWarning = checkBodyLength(body, context);
  if (lengthWarning) {
    diagnostics.unshift(lengthWarning);
  }
  return diagnostics;
}

/**
 * The number of lines of a body, without a final empty line, counting no further than `limit` + 1:
 * the length check only needs to know whether a body is over its limit.
 */
function countBodyLines(body: string, limit = Infinity): number {
  let count = 0;
  for (let start = 0; start < body.length && count <= limit; count++) {
    const newline = body.indexOf('\n', start);
    start = newline === -1 ? body.length : newline + 1;
  }
  return count;
}

function checkBodyLength(body: string, context: BodyValidationContext): SkillDiagnostic | undefined {
  const tokens = Math.ceil(body.length / CHARS_PER_TOKEN);
  // A body within the token budget is usually within the line limit too: its lines are counted only that far.
  if (tokens <= MAX_BODY_TOKENS && countBodyLines(body, MAX_BODY_LINES) <= MAX_BODY_LINES) {
    return undefined;
  }
  const lineCount = countBodyLines(body);
  // Point at the first line past either limit, where trimming would start (a body past a limit has
  // lines): the line whose end, its "\n" included, passes the token budget, unless the line limit
  // comes first.
  let firstLineOver = 0;
  let lineStart = 0;
  for (; firstLineOver < lineCount - 1 && firstLineOver < MAX_BODY_LINES; firstLineOver++) {
    const nextLineStart = body.indexOf('\n', lineStart) + 1;
    if (nextLineStart > MAX_BODY_TOKENS * CHARS_PER_TOKEN) {
      break;
    }
    lineStart = nextLineStart;
  }
  const line = context.bodyStartLine + firstLineOver;
  return makeDiagnostic(
    context.file,
    'body-too-long',
    'warning',
    `The body is ${lineCount} lines and about ${tokens} tokens; keep SKILL.md under ${MAX_BODY_LINES} lines and ~${MAX_BODY_TOKENS} tokens. Move detailed material into files under references/ and link to them: the model reads those only when needed.`,
    rangeOnLine(line, 0, lineText(body, lineStart).length),
  );
}

/** The line that starts at `start`, without its line terminator ("\n" or "\r\n"). */
function lineText(body: string, start: number): string {
  const newline = body.indexOf('\n', start);
  const line = body.slice(start, newline === -1 ? body.length : newline);
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

// Inline links and images: [text](target "title"); the target may be wrapped in <...>.
const INLINE_LINK_PATTERN = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(?:<([^>\n]*)>|([^\s()]+(?:\([^\s()]*\)[^\s()]*)*))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/dg;
// Reference definitions: [label]: target
const LINK_DEFINITION_PATTERN = /^ {0,3}\[[^\]]+\]:[ \t]*(?:<([^>\n]*)>|(\S+))/d;
const FENCE_PATTERN = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN_PATTERN = /(`+)[^`]*?\1/g;
// Targets that are not files of the skill: a scheme (http:, mailto:, vscode:...), an anchor, or an absolute path.
const NON_FILE_TARGET_PATTERN = /^(?:[a-z][a-z0-9+.-]*:|#|\/|\\)/i;

/**
 * Relative links whose target is missing or outside the skill folder. Only the lines that can
 * matter are cut out of the body: those holding the "](" of an inline link or the "]:" of a
 * reference definition, and those before the last of them where three backticks or tildes may
 * open or close a fence. They are found by searching the body for those marks, so the bulk of its
 * lines is never visited one by one, and a body without links (most are) is searched only for them.
 */
function checkBodyLinks(body: string, context: BodyValidationContext): SkillDiagnostic[] {
  const diagnostics: SkillDiagnostic[] = [];
  const inlineLinks = new Occurrences(body, '](');
  const definitions = new Occurrences(body, ']:');
  if (inlineLinks.from(0) === Infinity && definitions.from(0) === Infinity) {
    return diagnostics;
  }
  let openFence: string | undefined;
  // Bodies link to the same few files again and again; each target is resolved and looked up on disk once.
  const verdicts = new Map<string, LinkProblem | null>();
  const lineNumbers = new LineNumbers(body);
  const backticks = new Occurrences(body, '```');
  const tildes = new Occurrences(body, '~~~');
  for (let from = 0; ;) {
    const nextLink = Math.min(inlineLinks.from(from), definitions.from(from));
    // Fences after the last link change nothing.
    if (nextLink === Infinity) {
      break;
    }
    const next = Math.min(nextLink, backticks.from(from), tildes.from(from));
    const start = body.lastIndexOf('\n', next) + 1;
    const newline = body.indexOf('\n', next);
    const end = newline === -1 ? body.length : newline;
    from = end + 1;

    // A "\r" ending the line is left on it: neither pattern can end a match with it.
    const line = body.slice(start, end);
    const fence = FENCE_PATTERN.exec(line)?.[1];
    if (fence && (openFence === undefined || (fence[0] === openFence[0] && fence.length >= openFence.length))) {
      openFence = openFence === undefined ? fence : undefined;
      continue;
    }
    if (openFence !== undefined) {
      continue;
    }
    // Blank out code spans, keeping columns, so links shown as code are not checked.
    const prose = line.includes('`') ? line.replace(CODE_SPAN_PATTERN, (span) => ' '.repeat(span.length)) : line;
    const targets: Array<{ target: string; start: number }> = [];
    // exec rather than matchAll, which makes a copy of the pattern for each line.
    INLINE_LINK_PATTERN.lastIndex = 0;
    for (let match = INLINE_LINK_PATTERN.exec(prose); match; match = INLINE_LINK_PATTERN.exec(prose)) {
      targets.push(linkTarget(match));
    }
    const definition = LINK_DEFINITION_PATTERN.exec(prose);
    if (definition) {
      targets.push(linkTarget(definition));
    }
    for (const { target, start: column } of targets) {
      let problem = verdicts.get(target);
      if (problem === undefined) {
        problem = checkLinkTarget(target, context.skillDir) ?? null;
        verdicts.set(target, problem);
      }
      if (!problem) {
        continue;
      }
      const lineIndex = context.bodyStartLine + lineNumbers.of(start);
      diagnostics.push(
        makeDiagnostic(
          context.file,
          problem,
          'warning',
          problem === 'missing-link'
            ? `The link target "${target}" does not exist in the skill folder. Create the file or fix the link.`
            : `The link target "${target}" is outside the skill folder, so it is not available with the skill. Move the file into the skill folder.`,
          rangeOnLine(lineIndex, column, column + target.length),
        ),
      );
    }
  }
  return diagnostics;
}

/**
 * Where a mark next occurs in a text, from offsets asked for in increasing order; Infinity once it
 * no longer does. Three per file, so its fields are only declared and set in the constructor (see
 * ParsedFrontmatter in parse.ts).
 */
class Occurrences {
  declare private found: number;
  declare private readonly text: string;
  declare private readonly mark: string;

  constructor(text: string, mark: string) {
    this.text = text;
    this.mark = mark;
    this.found = this.search(0);
  }

  from(offset: number): number {
    // The search is only repeated past an occurrence already passed.
    if (this.found < offset) {
      this.found = this.search(offset);
    }
    return this.found;
  }

  private search(offset: number): number {
    const found = this.text.indexOf(this.mark, offset);
    return found === -1 ? Infinity : found;
  }
}

/** Zero-based line numbers of offsets asked for in increasing order, counted only as far as asked; fields as in Occurrences. */
class LineNumbers {
  declare private counted: number;
  declare private line: number;
  declare private readonly text: string;

  constructor(text: string) {
    this.text = text;
    this.counted = 0;
    this.line = 0;
  }

  of(offset: number): number {
    for (let newline = this.text.indexOf('\n', this.counted); newline !== -1 && newline < offset; newline = this.text.indexOf('\n', newline + 1)) {
      this.line++;
      this.counted = newline + 1;
    }
    return this.line;
  }
}

function linkTarget(match: RegExpExecArray): { target: string; start: number } {
  const group = match[1] !== undefined ? 1 : 2;
  return { target: match[group] ?? '', start: match.indices?.[group]?.[0] ?? match.index ?? 0 };
}

type LinkProblem = 'missing-link' | 'link-outside-skill';

function checkLinkTarget(target: string, skillDir: string): LinkProblem | undefined {
  if (NON_FILE_TARGET_PATTERN.test(target)) {
    return undefined;
  }
  // An empty target, or only a query or fragment: a link to the page itself.
  const withoutSuffix = target.replace(/[?#].*/, '');
  if (withoutSuffix === '') {
    return undefined;
  }
  let relative = withoutSuffix;
  try {
    relative = decodeURIComponent(withoutSuffix);
  } catch {
    // A stray "%" is taken literally.
  }
  const resolved = resolveInside(skillDir, relative);
  if (resolved === undefined) {
    return 'link-outside-skill';
  }
  return fs.existsSync(resolved) ? undefined : 'missing-link';
}
