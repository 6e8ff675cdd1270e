// Publishing a full mutation run in docs/mutation-testing.md: only one report, of a run over the
// whole of stryker.config.json's `mutate` that re-tested every mutant (`--force`), scored at a
// commit whose work tree has no changes, so the figures belong to that one commit.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { plural } from '../../src/core/util/text';
import { GOAL, gateLines, percent, scoreTable, type ScoreResult } from './score';

export const PUBLISH_COMMAND = 'npm run mutate -- --force';
const BEGIN = '<!-- full-mutation-run:begin -->';
const END = '<!-- full-mutation-run:end -->';

function git(root: string, args: readonly string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Why `result` cannot be published as the full run of the commit checked out at `root`. */
export function publishProblems(root: string, result: ScoreResult): string[] {
  const { read } = result;
  if (read.refusals.length > 0) {
    return ['the reports have the problems above; fix them first'];
  }
  const problems = result.listProblems.length > 0 ? ['the equivalent-mutants list has the problems above; fix it first'] : [];
  if (read.reports.length !== 1) {
    return [...problems, `publish exactly one report, the full run's (${read.reports.length} were given)`];
  }
  const [{ name, report }] = read.reports;
  const left = result.leftOut;
  if (left.length > 0) {
    problems.push(
      `${name}: its run left out ${plural(left.length, 'file')} stryker.config.json mutates (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', …' : ''}); publish a run of ${PUBLISH_COMMAND}`,
    );
  }
  if (report.config?.force !== true && report.config?.incremental !== false) {
    problems.push(`${name}: its run reused results of earlier runs (incremental, without --force); publish a run of ${PUBLISH_COMMAND}`);
  }
  // Each line is two status letters, a space and the path; a trim would eat the first line's blank status letter.
  const files = git(root, ['status', '--porcelain'])
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(3));
  if (files.length > 0) {
    problems.push(`the work tree has changes (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}); commit them first, so the figures belong to one commit`);
  }
  return problems;
}

/** The section that records the run. */
export function publishedSection(root: string, result: ScoreResult, reportFile: string): string[] {
  const [{ report }] = result.read.reports;
  const commit = git(root, ['rev-parse', 'HEAD']).trim();
  const committed = git(root, ['log', '-1', '--format=%cI', 'HEAD']).trim();
  const written = fs.statSync(reportFile).mtime.toISOString().slice(0, 16).replace('T', ' ');
  const stryker = report.framework ? `${report.framework.name} ${report.framework.version}` : 'StrykerJS';
  const misses = result.rows.filter((row) => row.score === undefined || row.score < GOAL);
  return [
    `Commit \`${commit}\` (${committed}), measured with \`${PUBLISH_COMMAND}\` (${stryker}, concurrency ${report.config?.concurrency ?? 'default'}; report written ${written} UTC) and scored with \`npm run mutate:score\`: ${plural(result.read.mutants.length, 'mutant')} in ${plural(result.read.scope.length, 'file')}.`,
    '',
    ...scoreTable(result),
    '',
    misses.length === 0
      ? `Every folder reaches ${percent(GOAL)}; ${plural(result.unexplained.length, 'mutant')} neither killed nor listed as equivalent.`
      : `Under the goal: ${gateLines(misses).join('; ')}.`,
  ];
}

/** Writes the section between its markers in `docFile`. */
export function writePublishedSection(docFile: string, section: readonly string[]): void {
  const text = fs.readFileSync(docFile, 'utf8');
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin === -1 || end < begin) {
    throw new Error(`${docFile}: no ${BEGIN} … ${END} section to write the run into`);
  }
  fs.writeFileSync(docFile, `${text.slice(0, begin + BEGIN.length)}\n\n${section.join('\n')}\n\n${text.slice(end)}`);
}

export const MUTATION_DOC = (root: string) => path.join(root, 'docs', 'mutation-testing.md');
