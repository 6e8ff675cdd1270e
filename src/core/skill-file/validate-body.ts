// Guidance on a SKILL.md body: its length against the specification's advice, and relative
// Markdown links to files that do not exist in the skill folder.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_BODY_LINES, MAX_BODY_TOKENS } from './schema';
import { CHARS_PER_TOKEN } from '../util/text';
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
  const diagnostics: SkillDiagnostic[] = [];
  const lines = new BodyLines(body);
  const lengthWarning = checkBodyLength(body, lines, context);
  if (lengthWarning) {
    diagnostics.push(lengthWarning);
  }
  diagnostics.push(...checkBodyLinks(body, lines, context));
  return diagnostics;
}

/**
 * The lines of a body as offsets into it, without a final empty line. Bodies run to thousands of
 * lines, few of which matter to the checks: a line's text is only cut out when it is needed.
 */
class BodyLines {
  private readonly starts: number[] = [];

  constructor(private readonly body: string) {
    for (let start = 0; start < body.length;) {
      this.starts.push(start);
      const newline = body.indexOf('\n', start);
      start = newline < 0 ? body.length : newline + 1;
    }
  }

  get count(): number {
    return this.starts.length;
  }

  start(index: number): number {
    return this.starts[index];
  }

  /** Offset of the line's end, before its "\n" (a "\r" before it is kept). */
  end(index: number): number {
    return index + 1 < this.starts.length ? this.starts[index + 1] - 1 : this.body.endsWith('\n') ? this.body.length - 1 : this.body.length;
  }

  /** The line without its line terminator ("\n" or "\r\n"). */
  text(index: number): string {
    const line = this.body.slice(this.start(index), this.end(index));
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }
}

function checkBodyLength(body: string, lines: BodyLines, context: BodyValidationContext): SkillDiagnostic | undefined {
  const tokens = Math.ceil(body.length / CHARS_PER_TOKEN);
  if (lines.count <= MAX_BODY_LINES && tokens <= MAX_BODY_TOKENS) {
    return undefined;
  }
  // Point at the first line past either limit, where trimming would start (a body past a limit has lines).
  let firstLineOver = lines.count > MAX_BODY_LINES ? MAX_BODY_LINES : lines.count - 1;
  for (let index = 0; index < firstLineOver; index++) {
    // Characters up to and including this line's "\n".
    if (lines.start(index + 1) > MAX_BODY_TOKENS * CHARS_PER_TOKEN) {
      firstLineOver = index;
      break;
    }
  }
  const line = context.bodyStartLine + firstLineOver;
  return makeDiagnostic(
    context.file,
    'body-too-long',
    'warning',
    `The body is ${lines.count} lines and about ${tokens} tokens; keep SKILL.md under ${MAX_BODY_LINES} lines and ~${MAX_BODY_TOKENS} tokens. Move detailed material into files under references/ and link to them: the model reads those only when needed.`,
    rangeOnLine(line, 0, lines.text(firstLineOver).length),
  );
}

// Inline links and images: [text](target "title"); the target may be wrapped in <...>.
const INLINE_LINK_PATTERN = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(?:<([^>\n]*)>|([^\s()]+(?:\([^\s()]*\)[^\s()]*)*))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/dg;
// Reference definitions: [label]: target
const LINK_DEFINITION_PATTERN = /^ {0,3}\[[^\]]+\]:[ \t]*(?:<([^>\n]*)>|(\S+))/d;
const FENCE_PATTERN = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN_PATTERN = /(`+)[^`]*?\1/g;
// Targets that are not files of the skill: a scheme (http:, mailto:, vscode:...), an anchor, or an absolute path.
const NON_FILE_TARGET_PATTERN = /^(?:[a-z][a-z0-9+.-]*:|#|\/|\\)/i;

function checkBodyLinks(body: string, lines: BodyLines, context: BodyValidationContext): SkillDiagnostic[] {
  const diagnostics: SkillDiagnostic[] = [];
  let openFence: string | undefined;
  // Bodies link to the same few files again and again; each target is resolved and looked up on disk once.
  const verdicts = new Map<string, LinkProblem | null>();
  let nextBracket = body.indexOf('[');
  for (let index = 0; index < lines.count; index++) {
    // Only a line that may open or close a fence, or holds a "[", can matter: others are passed over uncut.
    const start = lines.start(index);
    if (nextBracket >= 0 && nextBracket < start) {
      nextBracket = body.indexOf('[', start);
    }
    const hasBracket = nextBracket >= 0 && nextBracket < lines.end(index);
    if (!hasBracket && !mayBeFence(body, start)) {
      continue;
    }
    const line = lines.text(index);
    const fence = FENCE_PATTERN.exec(line)?.[1];
    if (fence && (openFence === undefined || (fence[0] === openFence[0] && fence.length >= openFence.length))) {
      openFence = openFence === undefined ? fence : undefined;
      continue;
    }
    if (openFence !== undefined || !hasBracket) {
      continue;
    }
    // Blank out code spans, keeping columns, so links shown as code are not checked.
    const prose = line.includes('`') ? line.replace(CODE_SPAN_PATTERN, (span) => ' '.repeat(span.length)) : line;
    const targets: Array<{ target: string; start: number }> = [];
    for (const match of prose.matchAll(INLINE_LINK_PATTERN)) {
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
      diagnostics.push(
        makeDiagnostic(
          context.file,
          problem,
          'warning',
          problem === 'missing-link'
            ? `The link target "${target}" does not exist in the skill folder. Create the file or fix the link.`
            : `The link target "${target}" is outside the skill folder, so it is not available with the skill. Move the file into the skill folder.`,
          rangeOnLine(context.bodyStartLine + index, column, column + target.length),
        ),
      );
    }
  }
  return diagnostics;
}

/** Whether the line at `start` begins, after at most three spaces, with a fence character. */
function mayBeFence(body: string, start: number): boolean {
  let offset = start;
  while (offset < start + 3 && body[offset] === ' ') {
    offset++;
  }
  return body[offset] === '`' || body[offset] === '~';
}

function linkTarget(match: RegExpExecArray | RegExpMatchArray): { target: string; start: number } {
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
  const resolved = path.resolve(skillDir, relative);
  const fromSkill = path.relative(skillDir, resolved);
  if (fromSkill === '..' || fromSkill.startsWith(`..${path.sep}`) || path.isAbsolute(fromSkill)) {
    return 'link-outside-skill';
  }
  return fs.existsSync(resolved) ? undefined : 'missing-link';
}
