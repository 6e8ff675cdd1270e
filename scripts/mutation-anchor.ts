// Re-anchors test/mutation/equivalent-mutants.json after edits under src/: each entry is moved to
// the position of the one mutant it excuses, found with Stryker's own instrumenter (no test runs,
// so it takes seconds). Run it before committing a change to src/ and commit what it rewrites.
// An entry it could place only by its text (not by following its line) is marked with a `review`
// note: the reason was written for the mutant it left, so a person confirms it and deletes the note.
// Exits 1, writing nothing, when an entry fits no current mutant or several: those need a person.
//
// Usage: tsx scripts/mutation-anchor.ts [--check]
//   --check: change nothing; exit 1 if an entry would move or is still marked for review.

import { repositoryRoot } from './harness/repository';
import { anchorList } from './mutation/anchor';
import { EQUIVALENTS_FILE } from './mutation/equivalents';

anchorList(repositoryRoot, EQUIVALENTS_FILE, process.argv.includes('--check')).then(
  ({ exitCode, report, problems }) => {
    for (const line of report) {
      console.log(line);
    }
    for (const line of problems) {
      console.error(line);
    }
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
