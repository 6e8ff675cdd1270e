// Re-anchors test/mutation/equivalent-mutants.json after edits under src/: each entry is moved to
// the position of the one mutant it excuses, found with Stryker's own instrumenter (no test runs,
// so it takes seconds). Run it before committing a change to src/ and commit what it rewrites.
// Exits 1, writing nothing, when an entry fits no current mutant or several: those need a person.
//
// Usage: tsx scripts/mutation-anchor.ts [--check]   (--check: change nothing; exit 1 if any entry would move)

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './harness/repository';
import { EQUIVALENTS_FILE, anchorEquivalents, commitOfEquivalents, enumerateMutants, formatEquivalents, readEquivalents } from './mutation/equivalents';

/** The commit whose sources the list's positions describe, or undefined when the list was edited since. */
function positionsBase(): string | undefined {
  const listChanged = execFileSync('git', ['status', '--porcelain', '--', path.relative(repositoryRoot, EQUIVALENTS_FILE)], { cwd: repositoryRoot, encoding: 'utf8' }).trim() !== '';
  return listChanged ? undefined : commitOfEquivalents();
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const entries = readEquivalents();
  const files = [...new Set(entries.map((entry) => entry.file))].filter((file) => fs.existsSync(path.join(repositoryRoot, file)));
  const { entries: anchored, moved, problems } = anchorEquivalents(entries, await enumerateMutants(files), positionsBase());
  const listName = path.relative(repositoryRoot, EQUIVALENTS_FILE);
  if (problems.length > 0) {
    console.error(`${problems.length} entries of ${listName} do not fit exactly one mutant; nothing was written:\n${problems.join('\n')}`);
    return 1;
  }
  if (moved === 0) {
    console.log(`${listName}: all ${entries.length} entries fit their mutants.`);
    return 0;
  }
  if (check) {
    console.error(`${listName}: ${moved} of ${entries.length} entries are out of place; run npm run mutate:anchor.`);
    return 1;
  }
  fs.writeFileSync(EQUIVALENTS_FILE, formatEquivalents(anchored));
  console.log(`${listName}: moved ${moved} of ${entries.length} entries to their mutants.`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
