// The mutation score of `npm run mutate`, per folder, after setting aside the mutants listed in
// test/mutation/equivalent-mutants.json (each with the reason no test can tell it from the
// original). An entry excuses exactly the one surviving mutant at its position; the run fails on
// an entry that matches no mutant or several, on one whose mutant a test now kills (stale), on one
// whose mutant no test reaches (NoCoverage is never excused: a test must reach the code), and when
// src/core or src/cli scores under its goal. Every mutant neither killed nor excused is listed.
//
// Usage: tsx scripts/mutation-score.ts [REPORT.json…]   (default reports/mutation/mutation.json)

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './harness/repository';
import { EQUIVALENTS_FILE, describeSite, readEquivalents, sameMutation, textBetween, type MutantSite } from './mutation/equivalents';

/** The part of Stryker's JSON report (mutation-testing-report-schema; positions 1-based) the score needs. */
interface MutationReport {
  files: Record<string, { source: string; mutants: ReportedMutant[] }>;
}

interface ReportedMutant {
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

type ScoredMutant = MutantSite & { status: ReportedMutant['status']; excused: boolean };

/** The folders whose scores gate the run, and their goals. */
const GATES = [
  { folder: 'src/core', goal: 0.85 },
  { folder: 'src/cli', goal: 0.85 },
];

interface Tally {
  killed: number;
  survived: number;
  noCoverage: number;
  excused: number;
}

function folderOf(file: string): string {
  const segments = file.split('/');
  return segments[1] === 'core' ? segments.slice(0, 3).join('/') : segments.slice(0, 2).join('/');
}

function score(tally: Tally): number {
  const counted = tally.killed + tally.survived + tally.noCoverage;
  return counted === 0 ? 1 : tally.killed / counted;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}

function readMutants(reportFiles: readonly string[]): ScoredMutant[] {
  const mutants: ScoredMutant[] = [];
  for (const reportFile of reportFiles) {
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as MutationReport;
    for (const [reportedFile, { source, mutants: reported }] of Object.entries(report.files)) {
      const file = path.relative(repositoryRoot, path.resolve(repositoryRoot, reportedFile)).split(path.sep).join('/');
      for (const mutant of reported) {
        const { start, end } = mutant.location;
        mutants.push({ file, ...start, mutator: mutant.mutatorName, original: textBetween(source, start, end), replacement: mutant.replacement ?? '', status: mutant.status, excused: false });
      }
    }
  }
  return mutants;
}

/** Marks the mutant each entry excuses; returns what is wrong with the entries. */
function excuseEquivalents(mutants: readonly ScoredMutant[]): string[] {
  const listName = path.relative(repositoryRoot, EQUIVALENTS_FILE);
  const measuredFiles = new Set(mutants.map((mutant) => mutant.file));
  const problems: string[] = [];
  for (const entry of readEquivalents()) {
    if (!measuredFiles.has(entry.file)) {
      continue; // a run narrowed to other files says nothing about this entry
    }
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

function main(): number {
  const reportFiles = process.argv.slice(2);
  const mutants = readMutants(reportFiles.length > 0 ? reportFiles : [path.join(repositoryRoot, 'reports', 'mutation', 'mutation.json')]);
  const problems = excuseEquivalents(mutants);

  const tallies = new Map<string, Tally>();
  const unexplained: string[] = [];
  for (const mutant of mutants) {
    const tally = tallies.get(folderOf(mutant.file)) ?? { killed: 0, survived: 0, noCoverage: 0, excused: 0 };
    tallies.set(folderOf(mutant.file), tally);
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') {
      tally.killed++;
    } else if (mutant.excused) {
      tally.excused++;
    } else if (mutant.status === 'Survived') {
      tally.survived++;
      unexplained.push(describeSite(mutant));
    } else if (mutant.status === 'NoCoverage') {
      tally.noCoverage++;
      unexplained.push(`${describeSite(mutant)} (no test reaches it)`);
    }
  }

  const sum = (rows: Tally[]): Tally =>
    rows.reduce(
      (total, tally) => ({ killed: total.killed + tally.killed, survived: total.survived + tally.survived, noCoverage: total.noCoverage + tally.noCoverage, excused: total.excused + tally.excused }),
      { killed: 0, survived: 0, noCoverage: 0, excused: 0 },
    );
  const rows = [...tallies].sort(([a], [b]) => a.localeCompare(b));
  const gates = GATES.map(({ folder, goal }) => {
    const inFolder = rows.filter(([name]) => name === folder || name.startsWith(`${folder}/`));
    return { folder, goal, measured: inFolder.length > 0, tally: sum(inFolder.map(([, tally]) => tally)) };
  });
  console.log('| folder | killed | survived | no coverage | equivalent | score |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [folder, tally] of [...rows, ...gates.filter((gate) => gate.measured).map((gate) => [`${gate.folder} (all)`, gate.tally] as const)]) {
    console.log(`| ${folder} | ${tally.killed} | ${tally.survived} | ${tally.noCoverage} | ${tally.excused} | ${percent(score(tally))} |`);
  }
  if (unexplained.length > 0) {
    console.log(`\n${unexplained.length} mutants neither killed nor listed as equivalent:\n${unexplained.join('\n')}`);
  }
  if (problems.length > 0) {
    console.log(`\n${problems.length} entries of the equivalent-mutants list are wrong:\n${problems.join('\n')}`);
  }
  console.log('');
  let passed = problems.length === 0;
  for (const gate of gates) {
    if (!gate.measured) {
      console.log(`${gate.folder}: not in the report (goal ≥ ${percent(gate.goal)}) MISS`);
      passed = false;
      continue;
    }
    const value = score(gate.tally);
    console.log(`${gate.folder}: ${percent(value)} with ${gate.tally.excused} equivalent mutants excused (goal ≥ ${percent(gate.goal)}) ${value >= gate.goal ? 'PASS' : 'MISS'}`);
    passed &&= value >= gate.goal;
  }
  if (problems.length > 0) {
    console.log(`equivalent-mutants list: ${problems.length} wrong entries FAIL`);
  }
  return passed ? 0 : 1;
}

process.exitCode = main();
