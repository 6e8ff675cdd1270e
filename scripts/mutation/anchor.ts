// Keeping the equivalent-mutants list on its mutants after edits under src/ (npm run mutate:anchor):
// each entry is moved to the position of the one mutant it excuses, found with Stryker's own
// instrumenter (no test runs). An entry moved by a guess is marked for review; `check` changes
// nothing and fails on an entry that would move and on one still marked.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  anchorEquivalents,
  commitOfEquivalents,
  enclosingFunctions,
  entriesUnderReview,
  enumerateMutants,
  formatEquivalents,
  knownPositions,
  readEquivalents,
  type EquivalentMutant,
} from './equivalents';

export interface AnchorRun {
  exitCode: number;
  /** Lines for standard output, then lines for standard error. */
  report: string[];
  problems: string[];
}

/** Whether the entry's original text still starts at its position, in the function it names (then it names the same mutant as before). */
function inPlace(root: string): (entry: EquivalentMutant) => boolean {
  const sources = new Map<string, { lines: string[]; functionAt: (line: number, column: number) => string | undefined } | undefined>();
  return (entry) => {
    if (!sources.has(entry.file)) {
      const file = path.join(root, entry.file);
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      sources.set(entry.file, text === undefined ? undefined : { lines: text.split('\n'), functionAt: enclosingFunctions(entry.file, text) });
    }
    const source = sources.get(entry.file);
    const lineCount = entry.original.split('\n').length;
    const text = source?.lines.slice(entry.line - 1, entry.line - 1 + lineCount).join('\n');
    return text?.startsWith(entry.original, entry.column - 1) === true && source?.functionAt(entry.line, entry.column) === entry.function;
  };
}

/** Re-anchors the list `listFile` of the repository at `root` (writes it unless `check`). */
export async function anchorList(root: string, listFile: string, check: boolean): Promise<AnchorRun> {
  const entries = readEquivalents(listFile);
  const listName = path.relative(root, listFile).split(path.sep).join('/');
  // The list as last committed: its positions described the sources of that commit.
  const base = commitOfEquivalents(listFile, root);
  const committed = base === undefined ? [] : (JSON.parse(execFileSync('git', ['show', `${base}:${listName}`], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as EquivalentMutant[]);
  // An entry still in place is where it was; only files with another need the instrumenter.
  const stillInPlace = inPlace(root);
  const files = [...new Set(entries.filter((entry) => !stillInPlace(entry)).map((entry) => entry.file))];
  const checked = entries.filter((entry) => files.includes(entry.file));
  const anchoring = anchorEquivalents(
    checked,
    await enumerateMutants(
      files.filter((file) => fs.existsSync(path.join(root, file))),
      root,
    ),
    base === undefined ? undefined : knownPositions(checked, committed, base, root),
    root,
  );
  const { moved, marked, problems } = anchoring;
  if (problems.length > 0) {
    return { exitCode: 1, report: [], problems: [`${problems.length} entries of ${listName} do not fit exactly one mutant; nothing was written:`, ...problems] };
  }
  const anchoredByEntry = new Map(checked.map((entry, index) => [entry, anchoring.entries[index]]));
  const anchored = entries.map((entry) => anchoredByEntry.get(entry) ?? entry);
  const underReview = entriesUnderReview(anchored, listName);
  if (check) {
    const outOfPlace = moved === 0 ? [] : [`${listName}: ${moved} of ${entries.length} entries are out of place; run npm run mutate:anchor.`];
    const problemsFound = [...outOfPlace, ...underReview];
    return problemsFound.length === 0 ? { exitCode: 0, report: [`${listName}: all ${entries.length} entries fit their mutants.`], problems: [] } : { exitCode: 1, report: [], problems: problemsFound };
  }
  if (moved > 0) {
    fs.writeFileSync(listFile, formatEquivalents(anchored));
  }
  const summary =
    moved === 0
      ? `${listName}: all ${entries.length} entries fit their mutants.`
      : `${listName}: moved ${moved} of ${entries.length} entries to their mutants${marked > 0 ? `; ${marked} of them moved by a guess and are marked for review` : ''}.`;
  return { exitCode: 0, report: [summary, ...underReview], problems: [] };
}
