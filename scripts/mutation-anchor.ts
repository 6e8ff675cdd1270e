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

function git(args: readonly string[]): string {
  return execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8' }).trim();
}

/** The commit whose sources the list's positions describe, or undefined when the list was edited since. */
function positionsBase(): string | undefined {
  return git(['status', '--porcelain', '--', path.relative(repositoryRoot, EQUIVALENTS_FILE)]) === '' ? commitOfEquivalents() : undefined;
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const entries = readEquivalents();
  const base = positionsBase();
  // Entries of files unchanged since the list was committed are where they were: only the others need Stryker's instrumenter.
  const changed = base === undefined ? undefined : new Set(git(['diff', '--name-only', base, '--', 'src']).split('\n'));
  const files = [...new Set(entries.map((entry) => entry.file))].filter((file) => fs.existsSync(path.join(repositoryRoot, file)) && (changed === undefined || changed.has(file)));
  const checked = new Set(files);
  const anchoring = anchorEquivalents(
    entries.filter((entry) => checked.has(entry.file)),
    await enumerateMutants(files),
    base,
  );
  const moved = anchoring.moved;
  const problems = [
    ...anchoring.problems,
    ...entries.filter((entry) => !checked.has(entry.file) && !fs.existsSync(path.join(repositoryRoot, entry.file))).map((entry) => `${entry.file}: the file is gone; remove its entries`),
  ];
  const anchoredByEntry = new Map(entries.filter((entry) => checked.has(entry.file)).map((entry, index) => [entry, anchoring.entries[index]]));
  const anchored = entries.map((entry) => anchoredByEntry.get(entry) ?? entry);
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
