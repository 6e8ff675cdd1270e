// The mutation score of `npm run mutate`, per folder, after setting aside the mutants listed in
// test/mutation/equivalent-mutants.json (each with the reason no test can tell it from the
// original). Lists every mutant neither killed nor set aside, and every entry that no longer
// matches a mutant, so the list cannot quietly fall behind the code. Exits 1 when src/core scores
// under its goal.
//
// Usage: tsx scripts/mutation-score.ts [REPORT.json…]   (default reports/mutation/mutation.json)

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './harness/repository';

/** The part of Stryker's JSON report (mutation-testing-report-schema) the score needs. */
interface MutationReport {
  files: Record<string, { source: string; mutants: ReportedMutant[] }>;
}

interface ReportedMutant {
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** One equivalent mutant: the code it changes (`original`, exactly as in the source) and what it puts there. */
export interface EquivalentMutant {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  reason: string;
}

const CORE_GOAL = 0.85;
const EQUIVALENTS_FILE = path.join(repositoryRoot, 'test', 'mutation', 'equivalent-mutants.json');

interface FolderTally {
  killed: number;
  survived: number;
  noCoverage: number;
  equivalent: number;
}

/** The source text a mutant replaces (locations are 1-based lines, 1-based columns). */
function originalText(source: string, mutant: ReportedMutant): string {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  if (start.line === end.line) {
    return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  }
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}

function equivalentKey(file: string, mutator: string, original: string, replacement: string): string {
  return JSON.stringify([file, mutator, original, replacement]);
}

function folderOf(file: string): string {
  const segments = file.split('/');
  return segments[1] === 'core' ? segments.slice(0, 3).join('/') : segments.slice(0, 2).join('/');
}

function score(tally: FolderTally): number {
  const counted = tally.killed + tally.survived + tally.noCoverage;
  return counted === 0 ? 1 : tally.killed / counted;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}

function main(): number {
  const reportFiles = process.argv.slice(2);
  const reports = (reportFiles.length > 0 ? reportFiles : [path.join(repositoryRoot, 'reports', 'mutation', 'mutation.json')]).map(
    (file) => JSON.parse(fs.readFileSync(file, 'utf8')) as MutationReport,
  );
  const equivalents = JSON.parse(fs.readFileSync(EQUIVALENTS_FILE, 'utf8')) as EquivalentMutant[];
  const unused = new Map(equivalents.map((entry) => [equivalentKey(entry.file, entry.mutator, entry.original, entry.replacement), entry]));
  const listed = new Set(unused.keys());

  const tallies = new Map<string, FolderTally>();
  const unexplained: string[] = [];
  for (const report of reports) {
    for (const [reportedFile, { source, mutants }] of Object.entries(report.files)) {
      const file = path.relative(repositoryRoot, path.resolve(repositoryRoot, reportedFile)).split(path.sep).join('/');
      const folder = folderOf(file);
      const tally = tallies.get(folder) ?? { killed: 0, survived: 0, noCoverage: 0, equivalent: 0 };
      tallies.set(folder, tally);
      for (const mutant of mutants) {
        if (mutant.status === 'Killed' || mutant.status === 'Timeout') {
          tally.killed++;
          continue;
        }
        const original = originalText(source, mutant);
        const key = equivalentKey(file, mutant.mutatorName, original, mutant.replacement ?? '');
        if (mutant.status === 'Ignored') {
          // A static mutant a run left out (ignoreStatic): its entry is still current.
          unused.delete(key);
          continue;
        }
        if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') {
          continue;
        }
        if (listed.has(key)) {
          unused.delete(key);
          tally.equivalent++;
        } else if (mutant.status === 'Survived') {
          tally.survived++;
          unexplained.push(`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}: ${JSON.stringify(original)} -> ${JSON.stringify(mutant.replacement ?? '')}`);
        } else {
          tally.noCoverage++;
          unexplained.push(`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} (no test runs it): ${JSON.stringify(original)}`);
        }
      }
    }
  }

  const rows = [...tallies].sort(([a], [b]) => a.localeCompare(b));
  const core = rows
    .filter(([folder]) => folder.startsWith('src/core/'))
    .reduce<FolderTally>(
      (sum, [, tally]) => ({
        killed: sum.killed + tally.killed,
        survived: sum.survived + tally.survived,
        noCoverage: sum.noCoverage + tally.noCoverage,
        equivalent: sum.equivalent + tally.equivalent,
      }),
      { killed: 0, survived: 0, noCoverage: 0, equivalent: 0 },
    );
  console.log('| folder | killed | survived | no coverage | equivalent | score |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [folder, tally] of [...rows, ['src/core (all)', core] as const]) {
    console.log(`| ${folder} | ${tally.killed} | ${tally.survived} | ${tally.noCoverage} | ${tally.equivalent} | ${percent(score(tally))} |`);
  }
  if (unexplained.length > 0) {
    console.log(`\n${unexplained.length} mutants neither killed nor listed as equivalent:`);
    console.log(unexplained.join('\n'));
  }
  if (unused.size > 0) {
    console.log(`\n${unused.size} entries of ${path.relative(repositoryRoot, EQUIVALENTS_FILE)} match no surviving mutant (the code changed, or a test now kills it); remove them:`);
    console.log([...unused.values()].map((entry) => `${entry.file} ${entry.mutator}: ${JSON.stringify(entry.original)}`).join('\n'));
  }
  const coreScore = score(core);
  console.log(`\nsrc/core: ${percent(coreScore)} (goal ≥ ${percent(CORE_GOAL)}) ${coreScore >= CORE_GOAL ? 'PASS' : 'MISS'}`);
  return coreScore >= CORE_GOAL ? 0 : 1;
}

process.exitCode = main();
