// The mutation score of `npm run mutate`, per folder, with the mutants listed in
// test/mutation/equivalent-mutants.json set aside. It refuses reports it cannot trust: one that
// lacks a mutant of a file its run was asked to mutate, whose sources or tests differ from the
// work tree, or whose Ignored mutants have no cause Stryker gives. Every folder must reach the goal.
// With --publish it writes the result into docs/mutation-testing.md, for the one report of a full
// run (`npm run mutate -- --force`) at a commit with no changes in the work tree.
//
// Usage: tsx scripts/mutation-score.ts [--publish] [REPORT.json…]   (default reports/mutation/mutation.json)
//   Several reports merge: each mutant counts once, with the result of the last report that has it.

import * as path from 'node:path';
import { errorMessage } from '../src/core/util/errors';
import { repositoryRoot } from './harness/repository';
import { EQUIVALENTS_FILE } from './mutation/equivalents';
import { MUTATION_DOC, publishProblems, publishedSection, writePublishedSection } from './mutation/publish';
import { scoreReport, scoreReports } from './mutation/score';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const publish = args.includes('--publish');
  const given = args.filter((arg) => arg !== '--publish');
  const reportFiles = given.length > 0 ? given.map((file) => path.resolve(file)) : [path.join(repositoryRoot, 'reports', 'mutation', 'mutation.json')];
  const result = await scoreReports(repositoryRoot, reportFiles, EQUIVALENTS_FILE);
  for (const line of scoreReport(result)) {
    console.log(line);
  }
  if (publish) {
    const problems = publishProblems(repositoryRoot, result);
    if (problems.length > 0) {
      console.error(`\nNot published:\n${problems.join('\n')}`);
      return 1;
    }
    writePublishedSection(MUTATION_DOC(repositoryRoot), publishedSection(repositoryRoot, result, reportFiles[0]));
    console.log(`\nPublished in ${path.relative(repositoryRoot, MUTATION_DOC(repositoryRoot))}; commit it.`);
  }
  return result.passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(errorMessage(error));
    process.exitCode = 1;
  },
);
