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
import {
  EQUIVALENTS_FILE,
  anchorEquivalents,
  commitOfEquivalents,
  enclosingFunctions,
  enumerateMutants,
  formatEquivalents,
  knownPositions,
  readEquivalents,
  type EquivalentMutant,
} from './mutation/equivalents';

function git(args: readonly string[]): string {
  return execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

const sources = new Map<string, { lines: string[]; functionAt: (line: number, column: number) => string | undefined } | undefined>();

/** Whether the entry's original text still starts at its position, in the function it names (then it names the same mutant as before). */
function stillInPlace(entry: EquivalentMutant): boolean {
  if (!sources.has(entry.file)) {
    const file = path.join(repositoryRoot, entry.file);
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    sources.set(entry.file, text === undefined ? undefined : { lines: text.split('\n'), functionAt: enclosingFunctions(entry.file, text) });
  }
  const source = sources.get(entry.file);
  const lineCount = entry.original.split('\n').length;
  const text = source?.lines.slice(entry.line - 1, entry.line - 1 + lineCount).join('\n');
  return text?.startsWith(entry.original, entry.column - 1) === true && source?.functionAt(entry.line, entry.column) === entry.function;
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const entries = readEquivalents();
  const listName = path.relative(repositoryRoot, EQUIVALENTS_FILE);
  // The list as last committed: its positions described the sources of that commit.
  const base = commitOfEquivalents();
  const committed = base === undefined ? [] : (JSON.parse(git(['show', `${base}:${listName}`])) as EquivalentMutant[]);
  // An entry still in place is where it was; only files with another need the instrumenter.
  const files = [...new Set(entries.filter((entry) => !stillInPlace(entry)).map((entry) => entry.file))];
  const checked = entries.filter((entry) => files.includes(entry.file));
  const anchoring = anchorEquivalents(
    checked,
    await enumerateMutants(files.filter((file) => fs.existsSync(path.join(repositoryRoot, file)))),
    base === undefined ? undefined : knownPositions(checked, committed, base),
  );
  const { moved, problems } = anchoring;
  const anchoredByEntry = new Map(checked.map((entry, index) => [entry, anchoring.entries[index]]));
  const anchored = entries.map((entry) => anchoredByEntry.get(entry) ?? entry);
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
