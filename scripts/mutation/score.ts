// The mutation score of checked reports (see report.ts), per folder, after setting aside the
// mutants listed in the equivalent-mutants list (each with the reason no test can tell it from the
// original). An entry excuses exactly the one surviving mutant at its position. The gate fails on
// an entry that matches no mutant or several, on one whose mutant a test now kills (stale), on one
// whose mutant no test reaches (NoCoverage is never excused: a test must reach the code), on one
// still marked for review, and on every folder that scores under the goal or has no tested mutant.

import * as path from 'node:path';
import { plural } from '../../src/core/util/text';
import { describeSite, entriesUnderReview, readEquivalents, sameMutation } from './equivalents';
import { configuredMutate, filesToMutate, readReports, type ReadResult, type ScoredMutant } from './report';

/** The share of killed mutants every folder must reach. */
export const GOAL = 0.85;

export interface Tally {
  killed: number;
  survived: number;
  noCoverage: number;
  excused: number;
  /** Left out of the score: Ignored (static or disabled), and runtime or compile errors. */
  notTested: number;
}

export interface FolderRow {
  folder: string;
  tally: Tally;
  /** Killed ÷ (killed + survived + no coverage); undefined when no mutant of the folder was tested. */
  score: number | undefined;
}

export interface ScoreResult {
  read: ReadResult;
  /** Files stryker.config.json mutates that no report's run was asked to: the gate says nothing of them. */
  leftOut: string[];
  rows: FolderRow[];
  total: FolderRow;
  /** Mutants neither killed nor excused. */
  unexplained: string[];
  /** What is wrong with the equivalent-mutants list. */
  listProblems: string[];
  passed: boolean;
}

type ExcusableMutant = ScoredMutant & { excused?: boolean };

/** Marks the mutant each entry of the files in scope excuses; returns what is wrong with the entries. */
function excuseEquivalents(listFile: string, root: string, scope: ReadonlySet<string>, mutants: readonly ExcusableMutant[]): string[] {
  const listName = path.relative(root, listFile).split(path.sep).join('/');
  // A run narrowed to other files says nothing about an entry.
  const entries = readEquivalents(listFile).filter((entry) => scope.has(entry.file));
  const problems = entriesUnderReview(entries, listName);
  for (const entry of entries) {
    const label = `${listName}: ${describeSite(entry)}`;
    const matches = mutants.filter((mutant) => sameMutation(entry, mutant) && mutant.line === entry.line && mutant.column === entry.column);
    if (matches.length !== 1) {
      problems.push(
        `${label}: matches ${matches.length === 0 ? 'no mutant (run npm run mutate:anchor; if it cannot place the entry, the code changed: fix or remove it)' : `${matches.length} mutants`}`,
      );
      continue;
    }
    const [mutant] = matches;
    if (mutant.status === 'Survived') {
      if (mutant.excused) {
        problems.push(`${label}: another entry excuses the same mutant`);
      }
      mutant.excused = true;
    } else if (mutant.status === 'NoCoverage') {
      problems.push(`${label}: no test reaches this mutant, and only a mutant the tests run can be equivalent; write a test that reaches it`);
    } else if (mutant.status === 'Killed' || mutant.status === 'Timeout') {
      problems.push(`${label}: a test kills this mutant now (stale); remove the entry`);
    } else if (mutant.status !== 'Ignored') {
      // Ignored: a static mutant the run left out (ignoreStatic); its entry still applies.
      problems.push(`${label}: the mutant is ${mutant.status}, nothing to excuse; remove the entry`);
    }
  }
  return problems;
}

function tallyColumn(mutant: ExcusableMutant): keyof Tally {
  if (mutant.status === 'Killed' || mutant.status === 'Timeout') {
    return 'killed';
  }
  if (mutant.excused) {
    return 'excused';
  }
  return mutant.status === 'Survived' ? 'survived' : mutant.status === 'NoCoverage' ? 'noCoverage' : 'notTested';
}

const emptyTally = (): Tally => ({ killed: 0, survived: 0, noCoverage: 0, excused: 0, notTested: 0 });

function rowOf(folder: string, tally: Tally): FolderRow {
  const counted = tally.killed + tally.survived + tally.noCoverage;
  return { folder, tally, score: counted === 0 ? undefined : tally.killed / counted };
}

/** Scores the reports against the list; `read.refusals` non-empty means no score. */
export async function scoreReports(root: string, reportFiles: readonly string[], listFile: string): Promise<ScoreResult> {
  const read = await readReports(root, reportFiles);
  const scope = new Set(read.scope);
  const leftOut = filesToMutate(root, configuredMutate(root)).filter((file) => !scope.has(file));
  if (read.refusals.length > 0) {
    return { read, leftOut, rows: [], total: rowOf('total', emptyTally()), unexplained: [], listProblems: [], passed: false };
  }
  const mutants: ExcusableMutant[] = read.mutants.map((mutant) => ({ ...mutant }));
  const listProblems = excuseEquivalents(listFile, root, scope, mutants);

  const tallies = new Map<string, Tally>();
  const total = emptyTally();
  const unexplained: string[] = [];
  for (const mutant of mutants) {
    const folder = path.posix.dirname(mutant.file);
    const tally = tallies.get(folder) ?? emptyTally();
    tallies.set(folder, tally);
    const column = tallyColumn(mutant);
    tally[column]++;
    total[column]++;
    if (column === 'survived') {
      unexplained.push(describeSite(mutant));
    } else if (column === 'noCoverage') {
      unexplained.push(`${describeSite(mutant)} (no test reaches it)`);
    }
  }
  const rows = [...tallies].sort(([a], [b]) => a.localeCompare(b)).map(([folder, tally]) => rowOf(folder, tally));
  const passed = listProblems.length === 0 && rows.every((row) => row.score !== undefined && row.score >= GOAL);
  return { read, leftOut, rows, total: rowOf('total', total), unexplained, listProblems, passed };
}

/** Rounded down, so a score just under the goal never prints as the goal. */
export function percent(value: number): string {
  return `${(Math.floor(value * 1000) / 10).toFixed(1)} %`;
}

/** The folder rows and the total as a Markdown table. */
export function scoreTable(result: Pick<ScoreResult, 'rows' | 'total'>): string[] {
  const line = ({ folder, tally, score }: FolderRow, strong: boolean) => {
    const cells = [folder, tally.killed, tally.survived, tally.noCoverage, tally.excused, tally.notTested, score === undefined ? '–' : percent(score)].map(String);
    return `| ${(strong ? cells.map((cell) => `**${cell}**`) : cells).join(' | ')} |`;
  };
  return [
    '| folder | killed | survived | no coverage | equivalent | not tested | score |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...result.rows.map((row) => line(row, false)),
    line(result.total, true),
  ];
}

/** Each folder's verdict against the goal, one line each. */
export function gateLines(rows: readonly FolderRow[]): string[] {
  return rows.map(({ folder, tally, score }) =>
    score === undefined
      ? `${folder}: none of its ${plural(tally.notTested + tally.excused, 'mutant')} was tested (goal ≥ ${percent(GOAL)}) MISS`
      : `${folder}: ${percent(score)} with ${plural(tally.excused, 'equivalent mutant')} excused (goal ≥ ${percent(GOAL)}) ${score >= GOAL ? 'PASS' : 'MISS'}`,
  );
}

/** Everything `npm run mutate:score` prints for a result. */
export function scoreReport(result: ScoreResult): string[] {
  const { read } = result;
  if (read.refusals.length > 0) {
    return [`The reports cannot be scored (${plural(read.refusals.length, 'problem')}):`, ...read.refusals];
  }
  const lines = [
    `Scored ${plural(read.mutants.length, 'mutant')} in ${plural(read.scope.length, 'file')} from ${read.reports.map((report) => `${report.name} (mutate: ${report.mutate.join(', ')})`).join(', ')}.`,
  ];
  if (result.leftOut.length > 0) {
    lines.push(`A narrowed run: stryker.config.json also mutates ${plural(result.leftOut.length, 'file')} outside it, and the gate speaks only for the files scored.`);
  }
  if (read.duplicates.count > 0) {
    lines.push(
      `${plural(read.duplicates.count, 'mutant')} in more than one report count once, with the later report's result` +
        (read.duplicates.disagreeing > 0 ? ` (${read.duplicates.disagreeing} of them with another result in an earlier report).` : '.'),
    );
  }
  lines.push('', ...scoreTable(result));
  if (result.unexplained.length > 0) {
    lines.push('', `${plural(result.unexplained.length, 'mutant')} neither killed nor listed as equivalent:`, ...result.unexplained);
  }
  if (result.listProblems.length > 0) {
    lines.push('', `${plural(result.listProblems.length, 'entry', 'entries')} of the equivalent-mutants list wrong:`, ...result.listProblems);
  }
  lines.push('', ...gateLines(result.rows));
  if (result.listProblems.length > 0) {
    lines.push(`equivalent-mutants list: ${plural(result.listProblems.length, 'wrong entry', 'wrong entries')} FAIL`);
  }
  return lines;
}
