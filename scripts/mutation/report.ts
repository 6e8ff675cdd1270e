// Reading Stryker's JSON reports (mutation-testing-report-schema; positions 1-based) for the score,
// without trusting them: a report counts only when it holds every mutant Stryker makes in every
// file its run was asked to mutate, of exactly today's sources and tests, and each of its Ignored
// mutants has a cause Stryker gives. Several reports merge into one set of mutants, each counted
// once (the later report's result wins).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Minimatch } from 'minimatch';
import { errorMessage } from '../../src/core/util/errors';
import { plural } from '../../src/core/util/text';
import { z } from 'zod';
import { describeSite, enumerateMutants, groupByFile, textBetween, type EnumeratedMutant, type MutantSite } from './equivalents';

const STATUSES = ['Killed', 'Survived', 'NoCoverage', 'Timeout', 'CompileError', 'RuntimeError', 'Ignored', 'Pending'] as const;
export type MutantStatus = (typeof STATUSES)[number];

const position = z.object({ line: z.number().int().min(1), column: z.number().int().min(1) });

/** The parts of a report the score reads; anything else in it is left alone. */
const reportSchema = z.object({
  files: z.record(
    z.string(),
    z.object({
      source: z.string(),
      mutants: z.array(
        z.object({
          mutatorName: z.string(),
          replacement: z.string().optional(),
          status: z.enum(STATUSES),
          static: z.boolean().optional(),
          location: z.object({ start: position, end: position }),
        }),
      ),
    }),
  ),
  testFiles: z.record(z.string(), z.object({ source: z.string().optional() })).optional(),
  config: z
    .object({
      mutate: z.array(z.string()).optional(),
      ignoreStatic: z.boolean().optional(),
      incremental: z.boolean().optional(),
      force: z.boolean().optional(),
      concurrency: z.number().optional(),
      mutator: z.object({ excludedMutations: z.array(z.string()).optional() }).optional(),
    })
    .optional(),
  framework: z.object({ name: z.string(), version: z.string() }).optional(),
});

export type MutationReport = z.infer<typeof reportSchema>;

/** A mutant of the merged reports. */
export type ScoredMutant = MutantSite & {
  end: { line: number; column: number };
  status: MutantStatus;
  static: boolean;
  /** Whether the run that reported it left static mutants out (`ignoreStatic`). */
  ignoreStatic: boolean;
};

/** One report as read: its name for messages, its content, and the files its run was asked to mutate. */
export interface ReadReport {
  name: string;
  report: MutationReport;
  mutate: string[];
  scope: string[];
}

export interface ReadResult {
  reports: ReadReport[];
  /** Every file some report's run was asked to mutate, sorted. */
  scope: string[];
  mutants: ScoredMutant[];
  /** Mutants reported more than once, and how many of those with another status. */
  duplicates: { count: number; disagreeing: number };
  /** Why the reports cannot be scored; empty when they can. */
  refusals: string[];
}

/** The mutate patterns of stryker.config.json, what a report without its own `config` is held to. */
export function configuredMutate(root: string): string[] {
  const config = JSON.parse(fs.readFileSync(path.join(root, 'stryker.config.json'), 'utf8')) as { mutate?: unknown };
  if (!Array.isArray(config.mutate) || !config.mutate.every((pattern) => typeof pattern === 'string')) {
    throw new Error(`${path.join(root, 'stryker.config.json')}: "mutate" is not a list of patterns`);
  }
  return config.mutate;
}

const toPosix = (file: string) => file.split(path.sep).join('/');

/** `file` relative to `root` with `/` separators, or undefined when it lies outside `root`. */
function insideRoot(root: string, file: string): string | undefined {
  const relative = path.relative(root, path.resolve(root, file));
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? undefined : toPosix(relative);
}

/** Stryker's `file:LINE-LINE` or `file:LINE:COLUMN-LINE:COLUMN` form, which mutates part of a file only. */
const LINE_RANGE = /:\d+(?::\d+)?-\d+(?::\d+)?$/;

/** Files under `folder` (relative to `root`), not following links, skipping dot folders and node_modules. */
function filesUnder(root: string, folder: string): string[] {
  const absolute = path.join(root, folder);
  const stat = fs.lstatSync(absolute, { throwIfNoEntry: false });
  if (stat?.isFile()) {
    return [folder];
  }
  if (!stat?.isDirectory()) {
    return [];
  }
  return fs.readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') {
      return [];
    }
    const file = folder === '' ? entry.name : `${folder}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, file) : entry.isFile() ? [file] : [];
  });
}

/**
 * The files (relative to `root`) that Stryker's `mutate` patterns select, read in order as Stryker
 * reads them: a pattern adds the files it matches, a `!pattern` takes them out again. Throws on a
 * pattern that reaches outside `root` or mutates only some lines of a file.
 */
export function filesToMutate(root: string, patterns: readonly string[]): string[] {
  const rules = patterns.map((pattern) => {
    const negated = pattern.startsWith('!');
    const glob = negated ? pattern.slice(1) : pattern;
    if (LINE_RANGE.test(glob)) {
      throw new Error(`the mutate pattern "${pattern}" mutates part of a file only, which gives that file no score; mutate whole files`);
    }
    // Only the folder before the first wildcard needs walking.
    const segments = toPosix(glob).split('/');
    const firstWildcard = segments.findIndex((segment) => /[*?[\]{}()!+@]/.test(segment));
    const literal = (firstWildcard === -1 ? segments : segments.slice(0, firstWildcard)).join('/');
    const base = literal === '' || literal === '.' ? '' : insideRoot(root, literal);
    if (base === undefined) {
      throw new Error(`the mutate pattern "${pattern}" reaches outside the repository`);
    }
    return { negated, base, matcher: new Minimatch(toPosix(path.resolve(root, glob)), { dot: false }) };
  });
  const candidates = new Set(rules.filter((rule) => !rule.negated).flatMap((rule) => filesUnder(root, rule.base)));
  return [...candidates].filter((file) => rules.reduce((selected, rule) => (rule.matcher.match(toPosix(path.join(root, file))) ? !rule.negated : selected), false)).sort();
}

/** The 1-based line where two texts first differ. */
function firstDifference(a: string, b: string): number {
  const linesA = a.split('\n');
  const linesB = b.split('\n');
  const index = linesA.findIndex((line, i) => line !== linesB[i]);
  return (index === -1 ? linesA.length : index) + 1;
}

/** What is wrong with `text` as the content of `file` in the working tree, if anything. */
function differenceFromDisk(root: string, file: string, text: string): string | undefined {
  const onDisk = fs.readFileSync(path.join(root, file), 'utf8');
  return onDisk === text ? undefined : `differs from the file on disk from line ${firstDifference(text, onDisk)} on`;
}

/** A file, not a link: a link could lead the comparison out of the repository. */
function isRegularFile(root: string, file: string): boolean {
  return fs.lstatSync(path.join(root, file), { throwIfNoEntry: false })?.isFile() === true;
}

function locationWithin(source: string, location: { start: { line: number; column: number }; end: { line: number; column: number } }): boolean {
  const lines = source.split('\n');
  const fits = ({ line, column }: { line: number; column: number }) => line <= lines.length && column <= lines[line - 1].length + 1;
  return fits(location.start) && fits(location.end);
}

/** Reads one report and checks what needs no instrumenter: its shape, its file names, its scope, and its sources against the disk. */
function readReport(root: string, reportFile: string): { read?: ReadReport; refusals: string[] } {
  const name = insideRoot(root, reportFile) ?? reportFile;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  } catch (error) {
    return { refusals: [`${name}: cannot be read as JSON (${errorMessage(error)})`] };
  }
  const checked = reportSchema.safeParse(parsed);
  if (!checked.success) {
    return {
      refusals: checked.error.issues.slice(0, 5).map((issue) => `${name}: ${issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}: ${issue.message}`),
    };
  }
  const report = checked.data;
  const refusals: string[] = [];
  const excluded = report.config?.mutator?.excludedMutations ?? [];
  if (excluded.length > 0) {
    refusals.push(`${name}: its run left out mutators (${excluded.join(', ')}); the gate counts every mutator`);
  }
  const mutate = report.config?.mutate ?? configuredMutate(root);
  let scope: string[];
  try {
    scope = filesToMutate(root, mutate);
  } catch (error) {
    return { refusals: [...refusals, `${name}: ${errorMessage(error)}`] };
  }
  const inScope = new Set(scope);
  for (const [reportedFile, { source, mutants }] of Object.entries(report.files)) {
    const file = insideRoot(root, reportedFile);
    if (file === undefined) {
      refusals.push(`${name}: names a file outside the repository: ${JSON.stringify(reportedFile)}`);
    } else if (!inScope.has(file)) {
      refusals.push(`${name}: ${file} is not among the files its run was asked to mutate (${mutate.join(', ')})`);
    } else {
      const problem = differenceFromDisk(root, file, source);
      if (problem !== undefined) {
        refusals.push(`${name}: ${file}: the report's source ${problem}; the report is of other code: run npm run mutate again`);
      } else if (!mutants.every((mutant) => locationWithin(source, mutant.location))) {
        refusals.push(`${name}: ${file}: a mutant lies outside the file's text`);
      }
    }
  }
  for (const [reportedFile, { source }] of Object.entries(report.testFiles ?? {})) {
    if (source === undefined || reportedFile === '') {
      continue; // tests the runner named no file for: nothing to compare
    }
    const file = insideRoot(root, reportedFile);
    if (file === undefined) {
      refusals.push(`${name}: names a test file outside the repository: ${JSON.stringify(reportedFile)}`);
    } else if (!isRegularFile(root, file)) {
      refusals.push(`${name}: its tests ran from ${file}, which is no longer a file in the work tree; run npm run mutate again`);
    } else {
      const problem = differenceFromDisk(root, file, source);
      if (problem !== undefined) {
        refusals.push(`${name}: the test file ${file} ${problem}: the tests changed since the run; run npm run mutate again`);
      }
    }
  }
  return { read: { name, report, mutate, scope }, refusals };
}

const keyOf = (mutant: MutantSite & { end: { line: number; column: number } }) =>
  JSON.stringify([mutant.file, mutant.line, mutant.column, mutant.end.line, mutant.end.column, mutant.mutator, mutant.replacement]);

const ABSENT_FILES_NAMED = 10;

/** Up to `count` things, then how many more. */
function someOf(items: readonly string[], count = 3): string {
  return items.slice(0, count).join('; ') + (items.length > count ? `; and ${items.length - count} more` : '');
}

/**
 * Reads the reports, merges their mutants (one per file, location, mutator and replacement; the
 * later report's wins) and checks them against the mutants Stryker's instrumenter makes in the
 * files the runs were asked to mutate.
 */
export async function readReports(root: string, reportFiles: readonly string[]): Promise<ReadResult> {
  const reads = reportFiles.map((reportFile) => readReport(root, reportFile));
  const reports = reads.flatMap(({ read }) => (read ? [read] : []));
  const refusals = reads.flatMap((read) => read.refusals);
  const scope = [...new Set(reports.flatMap((read) => read.scope))].sort();
  if (refusals.length > 0) {
    return { reports, scope, mutants: [], duplicates: { count: 0, disagreeing: 0 }, refusals };
  }

  const merged = new Map<string, ScoredMutant>();
  const duplicates = { count: 0, disagreeing: 0 };
  for (const { report } of reports) {
    for (const [reportedFile, { source, mutants }] of Object.entries(report.files)) {
      const file = insideRoot(root, reportedFile) ?? reportedFile;
      for (const mutant of mutants) {
        const { start, end } = mutant.location;
        const scored: ScoredMutant = {
          file,
          ...start,
          end,
          mutator: mutant.mutatorName,
          original: textBetween(source, start, end),
          replacement: mutant.replacement ?? '',
          status: mutant.status,
          static: mutant.static === true,
          ignoreStatic: report.config?.ignoreStatic === true,
        };
        const earlier = merged.get(keyOf(scored));
        if (earlier) {
          duplicates.count++;
          duplicates.disagreeing += earlier.status === scored.status ? 0 : 1;
        }
        merged.set(keyOf(scored), scored);
      }
    }
  }

  const expected = new Map<string, EnumeratedMutant>((await enumerateMutants(scope, root)).map((mutant) => [keyOf(mutant), mutant]));
  const expectedByFile = groupByFile(expected.values());
  const reportedByFile = groupByFile(merged.values());
  const absent: string[] = [];
  for (const file of scope) {
    const made = expectedByFile.get(file) ?? [];
    const reported = reportedByFile.get(file) ?? [];
    if (made.length > 0 && reported.length === 0) {
      const askedBy = reports.filter((read) => read.scope.includes(file)).map((read) => read.name);
      absent.push(`${file}: in no report, though the run of ${askedBy.join(' and ')} was asked to mutate it; its ${plural(made.length, 'mutant')} are unmeasured`);
      continue;
    }
    const missing = made.filter((mutant) => !merged.has(keyOf(mutant)));
    if (missing.length > 0) {
      refusals.push(`${file}: the reports lack ${missing.length} of its ${plural(made.length, 'mutant')} (${someOf(missing.map(describeSite))}); the run did not measure it whole`);
    }
    const unknown = reported.filter((mutant) => !expected.has(keyOf(mutant)));
    if (unknown.length > 0) {
      refusals.push(`${file}: the reports hold ${plural(unknown.length, 'mutant')} Stryker does not make in it (${someOf(unknown.map(describeSite))})`);
    }
    const pending = reported.filter((mutant) => mutant.status === 'Pending');
    if (pending.length > 0) {
      refusals.push(`${file}: ${plural(pending.length, 'mutant')} never tested (Pending): the run did not finish`);
    }
    const unexplained = reported.filter((mutant) => mutant.status === 'Ignored' && !expected.get(keyOf(mutant))?.ignored && !(mutant.static && mutant.ignoreStatic));
    if (unexplained.length > 0) {
      refusals.push(
        `${file}: ${plural(unexplained.length, 'mutant')} Ignored with no cause Stryker gives (neither static in a run with ignoreStatic nor disabled by a comment in the source): ${someOf(unexplained.map(describeSite))}`,
      );
    }
  }
  // A report of a few mutants leaves out most files: name some, count the rest.
  refusals.push(...absent.slice(0, ABSENT_FILES_NAMED), ...(absent.length > ABSENT_FILES_NAMED ? [`… and ${plural(absent.length - ABSENT_FILES_NAMED, 'more file')} in no report`] : []));
  return { reports, scope, mutants: [...merged.values()], duplicates, refusals };
}
