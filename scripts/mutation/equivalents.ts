// The list of equivalent mutants (test/mutation/equivalent-mutants.json) and how an entry finds
// the one mutant it excuses: by file, mutator, original text, replacement and position (1-based
// line and column where the original text starts). `function`, the enclosing function's name, lets
// `npm run mutate:anchor` move an entry when edits elsewhere shift its position; `review` marks an
// entry it moved to a mutant it cannot be sure is the one the reason was written for.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { repositoryRoot } from '../harness/repository';

export const EQUIVALENTS_FILE = path.join(repositoryRoot, 'test', 'mutation', 'equivalent-mutants.json');

/** One equivalent mutant and the reason no test can tell it from the original. */
export interface EquivalentMutant {
  file: string;
  line: number;
  column: number;
  function?: string;
  mutator: string;
  original: string;
  replacement: string;
  reason: string;
  /** Set by `npm run mutate:anchor` on an entry it moved by guess; `npm run mutate:score` refuses the list until a person confirms the reason and deletes it. */
  review?: string;
}

/** A mutant as the score and the anchoring compare it with the entries (positions 1-based). */
export interface MutantSite {
  file: string;
  line: number;
  column: number;
  mutator: string;
  original: string;
  replacement: string;
}

export function readEquivalents(file = EQUIVALENTS_FILE): EquivalentMutant[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as EquivalentMutant[];
}

/** The entry's fields in a fixed order, without the optional ones it lacks, so rewrites of the list give small diffs. */
function orderedEntry({ file, line, column, function: enclosing, mutator, original, replacement, reason, review }: EquivalentMutant): EquivalentMutant {
  return {
    file,
    line,
    column,
    ...(enclosing === undefined ? {} : { function: enclosing }),
    mutator,
    original,
    replacement,
    reason,
    ...(review === undefined ? {} : { review }),
  };
}

export function formatEquivalents(entries: readonly EquivalentMutant[]): string {
  return `${JSON.stringify(entries.map(orderedEntry), null, 2)}\n`;
}

/** The text between two 1-based positions of `source`, end exclusive. */
export function textBetween(source: string, start: { line: number; column: number }, end: { line: number; column: number }): string {
  const lines = source.split('\n');
  if (start.line === end.line) {
    return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  }
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}

/** What an entry and a mutant must share besides the position. */
export function sameMutation(entry: Omit<MutantSite, 'line' | 'column'>, site: Omit<MutantSite, 'line' | 'column'>): boolean {
  return entry.file === site.file && entry.mutator === site.mutator && entry.original === site.original && entry.replacement === site.replacement;
}

/** The entries still waiting for a person, as lines that say what to do. */
export function entriesUnderReview(entries: readonly EquivalentMutant[], listName: string): string[] {
  return entries
    .filter((entry) => entry.review !== undefined)
    .map((entry) => `${listName}: ${describeSite(entry)}: marked for review (${entry.review}): check that "${entry.reason}" holds for this mutant, then delete the "review" field`);
}

/** Sites (mutants, entries) by their file, in their order. */
export function groupByFile<T extends { file: string }>(sites: Iterable<T>): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const site of sites) {
    const group = groups.get(site.file);
    if (group) {
      group.push(site);
    } else {
      groups.set(site.file, [site]);
    }
  }
  return groups;
}

export function describeSite(site: MutantSite): string {
  return `${site.file}:${site.line}:${site.column} ${site.mutator}: ${JSON.stringify(site.original)} -> ${JSON.stringify(site.replacement)}`;
}

/** A mutant the instrumenter makes, with the status it already gives (Ignored where a Stryker comment disables it). */
export type EnumeratedMutant = MutantSite & { end: { line: number; column: number }; ignored: boolean };

/** Every mutant Stryker makes in `files` (relative to `root`), as its instrumenter makes them for a run. */
export async function enumerateMutants(files: readonly string[], root = repositoryRoot): Promise<EnumeratedMutant[]> {
  // The instrumenter is an ES module; it needs only a logger to run on its own.
  const { Instrumenter } = await import('@stryker-mutator/instrumenter');
  const silent = () => undefined;
  const logger = {
    isTraceEnabled: () => false,
    isDebugEnabled: () => false,
    isInfoEnabled: () => false,
    isWarnEnabled: () => false,
    isErrorEnabled: () => false,
    isFatalEnabled: () => false,
    trace: silent,
    debug: silent,
    info: silent,
    warn: silent,
    error: silent,
    fatal: silent,
  };
  const sources = new Map(files.map((file) => [file, fs.readFileSync(path.join(root, file), 'utf8')]));
  const result = await new Instrumenter(logger).instrument(
    [...sources].map(([name, content]) => ({ name, mutate: true, content })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
  return result.mutants.map((mutant) => {
    // The instrumenter counts lines and columns from 0; the report and the entries from 1.
    const start = { line: mutant.location.start.line + 1, column: mutant.location.start.column + 1 };
    const end = { line: mutant.location.end.line + 1, column: mutant.location.end.column + 1 };
    const file = mutant.fileName;
    return {
      file,
      ...start,
      end,
      mutator: mutant.mutatorName,
      original: textBetween(sources.get(file) ?? '', start, end),
      replacement: mutant.replacement,
      ignored: mutant.status === 'Ignored',
    };
  });
}

/** The name of the innermost named function around each 1-based position of a TypeScript source (undefined at module level). */
export function enclosingFunctions(fileName: string, source: string): (line: number, column: number) => string | undefined {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return (line, column) => {
    const position = (sourceFile.getLineStarts()[line - 1] ?? sourceFile.getEnd()) + column - 1;
    let name: string | undefined;
    const visit = (node: ts.Node): void => {
      if (position < node.getStart(sourceFile) || position >= node.getEnd()) {
        return;
      }
      name = functionName(node) ?? name;
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return name;
  };
}

/** `name`, or `Class.name` for a class member, for a function-like node that has a name. */
function functionName(node: ts.Node): string | undefined {
  const nameOf = (named: ts.Node | undefined): string | undefined => (named && (ts.isIdentifier(named) || ts.isStringLiteral(named) || ts.isPrivateIdentifier(named)) ? named.text : undefined);
  if (ts.isFunctionDeclaration(node)) {
    return nameOf(node.name);
  }
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || ts.isConstructorDeclaration(node)) {
    const member = ts.isConstructorDeclaration(node) ? 'constructor' : nameOf(node.name);
    const owner = ts.isClassLike(node.parent) ? nameOf(node.parent.name) : undefined;
    return member && owner ? `${owner}.${member}` : member;
  }
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent))) {
    return nameOf(node.parent.name);
  }
  return undefined;
}

/**
 * For each line of `file` as it was at commit `base`, its line now (undefined if that line was
 * changed or removed), from `git diff`; undefined when git cannot tell.
 */
export function lineMapSince(base: string, file: string, root = repositoryRoot): ((line: number) => number | undefined) | undefined {
  try {
    return lineMapOfDiff(execFileSync('git', ['diff', '--no-color', '--unified=0', base, '--', file], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return undefined;
  }
}

/** The line map of one file's `git diff --unified=0`. */
export function lineMapOfDiff(diff: string): (line: number) => number | undefined {
  const hunks = [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)].map((match) => ({
    oldStart: Number(match[1]),
    oldCount: match[2] === undefined ? 1 : Number(match[2]),
    newCount: match[4] === undefined ? 1 : Number(match[4]),
  }));
  return (line) => {
    let shift = 0;
    for (const hunk of hunks) {
      // A hunk that removes nothing comes after its oldStart line; one that removes lines starts at it.
      const firstOld = hunk.oldCount === 0 ? hunk.oldStart + 1 : hunk.oldStart;
      if (line < firstOld) {
        break;
      }
      if (line < firstOld + hunk.oldCount) {
        return undefined;
      }
      shift += hunk.newCount - hunk.oldCount;
    }
    return line + shift;
  };
}

/** The last commit that wrote the list: the positions in it are those of the sources at that commit. */
export function commitOfEquivalents(listFile = EQUIVALENTS_FILE, root = repositoryRoot): string | undefined {
  try {
    const commit = execFileSync('git', ['log', '-1', '--format=%H', '--', path.relative(root, listFile)], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return commit === '' ? undefined : commit;
  } catch {
    return undefined;
  }
}

/**
 * For each entry, where the list committed at `base` had it (the nth entry with the same file,
 * mutator, texts and reason is the nth such entry there), with its line moved as git saw the
 * lines move since: those positions described the sources at that commit.
 */
export function knownPositions(entries: readonly EquivalentMutant[], committed: readonly EquivalentMutant[], base: string, root = repositoryRoot): KnownPosition {
  const identity = (entry: EquivalentMutant) => JSON.stringify([entry.file, entry.mutator, entry.original, entry.replacement, entry.reason]);
  const committedByIdentity = new Map<string, EquivalentMutant[]>();
  for (const entry of committed) {
    committedByIdentity.set(identity(entry), [...(committedByIdentity.get(identity(entry)) ?? []), entry]);
  }
  const seen = new Map<string, number>();
  const formerByEntry = new Map<EquivalentMutant, EquivalentMutant>();
  for (const entry of entries) {
    const nth = seen.get(identity(entry)) ?? 0;
    seen.set(identity(entry), nth + 1);
    const former = committedByIdentity.get(identity(entry))?.[nth];
    if (former) {
      formerByEntry.set(entry, former);
    }
  }
  const lineMaps = new Map<string, ((line: number) => number | undefined) | undefined>();
  return (entry) => {
    const former = formerByEntry.get(entry);
    if (!former) {
      return undefined;
    }
    if (!lineMaps.has(entry.file)) {
      lineMaps.set(entry.file, lineMapSince(base, entry.file, root));
    }
    const line = lineMaps.get(entry.file)?.(former.line);
    return line === undefined ? undefined : { line, column: former.column };
  };
}

export interface AnchorResult {
  entries: EquivalentMutant[];
  /** How many entries changed: position, function name or a new review mark. */
  moved: number;
  /** How many entries were newly marked for review. */
  marked: number;
  problems: string[];
}

/**
 * Of several mutants with an entry's text in its function, the one in the entry's column on the
 * nearest line, if no other is as near: lines shift with edits above, columns seldom do.
 */
function nearestInColumn(entry: EquivalentMutant, candidates: readonly MutantSite[]): MutantSite | undefined {
  const [nearest, next] = candidates
    .filter((mutant) => mutant.column === entry.column)
    .map((mutant) => ({ mutant, distance: Math.abs(mutant.line - entry.line) }))
    .sort((a, b) => a.distance - b.distance);
  return nearest && (!next || next.distance > nearest.distance) ? nearest.mutant : undefined;
}

/** Where an entry's mutant was last known to be, carried to today's lines (see knownPositions). */
export type KnownPosition = (entry: EquivalentMutant) => { line: number; column: number } | undefined;

/** Why an entry placed by its text needs a person: where it was, and what to confirm. */
function reviewNote(entry: EquivalentMutant, target: MutantSite, known: { line: number } | undefined): string {
  return target.line !== entry.line || target.column !== entry.column || !known
    ? `moved from ${entry.line}:${entry.column}; confirm the reason`
    : `its line moved to ${known.line}, where this mutant is gone; confirm the reason holds at ${entry.line}:${entry.column}`;
}

/**
 * Points every entry at exactly one current mutant: the one with its text at its known position
 * (where the committed list had it, moved as git saw the lines move), else at its own position,
 * else the only one with its text in its function (in its file when it names none), else the one
 * of those in its column on the nearest line, when no other is as near. Anything else
 * is a problem: no such mutant (the code changed: re-check the entry or remove it), several (fix
 * the position by hand), or two entries on one mutant.
 * Only the first two follow the same code: git saw its line move unchanged, or nothing moved.
 * An entry placed any other way may now sit on another mutant with the same text, for which its
 * reason was never written, so it gets a `review` note until a person confirms the reason.
 */
export function anchorEquivalents(entries: readonly EquivalentMutant[], mutants: readonly MutantSite[], knownPosition: KnownPosition = () => undefined, root = repositoryRoot): AnchorResult {
  const byFile = groupByFile(mutants);
  const functionsByFile = new Map<string, (line: number, column: number) => string | undefined>();
  const functionAt = (file: string, line: number, column: number) => {
    let lookup = functionsByFile.get(file);
    if (!lookup) {
      lookup = enclosingFunctions(file, fs.readFileSync(path.join(root, file), 'utf8'));
      functionsByFile.set(file, lookup);
    }
    return lookup(line, column);
  };

  const problems: string[] = [];
  const claimed = new Map<MutantSite, EquivalentMutant>();
  let moved = 0;
  let marked = 0;
  const anchored = entries.map((entry) => {
    const candidates = (byFile.get(entry.file) ?? []).filter((mutant) => sameMutation(entry, mutant));
    const at = (line: number | undefined, column: number | undefined) => candidates.find((mutant) => mutant.line === line && mutant.column === column);
    const inFunction = candidates.filter((mutant) => entry.function === undefined || functionAt(entry.file, mutant.line, mutant.column) === entry.function);
    const known = knownPosition(entry);
    const target = at(known?.line, known?.column) ?? at(entry.line, entry.column) ?? (inFunction.length === 1 ? inFunction[0] : nearestInColumn(entry, inFunction));
    const label = `${entry.file}:${entry.line}:${entry.column}${entry.function ? ` (in ${entry.function})` : ''} ${entry.mutator}: ${JSON.stringify(entry.original)} -> ${JSON.stringify(entry.replacement)}`;
    if (!target) {
      problems.push(
        inFunction.length === 0
          ? `${label}: no such mutant any more (the code changed: check whether the mutant is still equivalent, then fix or remove the entry)`
          : `${label}: ${inFunction.length} mutants fit (${inFunction.map((mutant) => `${mutant.line}:${mutant.column}`).join(', ')}); set the entry's line and column to the one it means`,
      );
      return entry;
    }
    const twin = claimed.get(target);
    if (twin) {
      problems.push(`${label}: the same mutant as the entry "${twin.reason}"; remove one`);
    }
    claimed.set(target, entry);
    const enclosing = functionAt(entry.file, target.line, target.column);
    const review = entry.review ?? (target === (known ? at(known.line, known.column) : at(entry.line, entry.column)) ? undefined : reviewNote(entry, target, known));
    if (review !== entry.review) {
      marked++;
    }
    if (target.line !== entry.line || target.column !== entry.column || enclosing !== entry.function || review !== entry.review) {
      moved++;
    }
    return orderedEntry({ ...entry, line: target.line, column: target.column, function: enclosing, review });
  });
  return { entries: anchored, moved, marked, problems };
}
