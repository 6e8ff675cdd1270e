// Every entry of test/mutation/equivalent-mutants.json gives its reason; and the anchoring that
// keeps entries on their mutants (`npm run mutate:anchor`) moves them only to one mutant, and marks
// for review each it could place only by its text. Whether every entry sits on a current mutant, with
// no mark left, is checked by the mutation scripts
// (`npm run mutate:anchor -- --check`, `npm run mutate:score`), not here: ordinary edits shift lines.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchorList } from '../../../scripts/mutation/anchor';
import { anchorEquivalents, enumerateMutants, formatEquivalents, lineMapOfDiff, readEquivalents, type EquivalentMutant, type MutantSite } from '../../../scripts/mutation/equivalents';
import { removeDir, tempDir, writeTree } from '../../fixtures/trees/tree';

describe('equivalent-mutants list', () => {
  it('gives every entry a reason', () => {
    for (const entry of readEquivalents()) {
      assert.ok(entry.reason.trim().length > 20, `${entry.file}:${entry.line}:${entry.column} needs a reason that says why no input tells the mutant apart`);
    }
  });
});

describe('anchoring equivalent mutants', () => {
  // src/cli/args.ts: parseArguments spans lines 17-57, describeOptions 60-63.
  const file = 'src/cli/args.ts';
  const site = (line: number, column: number): MutantSite => ({ file, line, column, mutator: 'BooleanLiteral', original: 'true', replacement: 'false' });
  const entry = (line: number, column: number, enclosing?: string): EquivalentMutant => ({ ...site(line, column), ...(enclosing ? { function: enclosing } : {}), reason: 'a reason' });

  it('keeps an entry on the mutant at its position, and names the function around it', () => {
    const { entries, moved, problems } = anchorEquivalents([entry(30, 5)], [site(30, 5), site(31, 5)], undefined);
    assert.deepEqual(problems, []);
    assert.equal(moved, 1); // the function name was added
    assert.deepEqual(entries, [{ ...entry(30, 5), function: 'parseArguments' }]);
  });

  it('moves an entry where git saw its line move, as the same mutant', () => {
    const { entries, moved, marked, problems } = anchorEquivalents([entry(30, 9, 'parseArguments')], [site(32, 9), site(34, 9)], () => ({ line: 34, column: 9 }));
    assert.deepEqual(problems, []);
    assert.deepEqual([moved, marked], [1, 0]);
    assert.deepEqual(entries, [entry(34, 9, 'parseArguments')]);
  });

  it('moves an entry to the only mutant with its text in its function, marked for review', () => {
    const { entries, moved, marked, problems } = anchorEquivalents([entry(20, 5, 'parseArguments')], [site(33, 9), site(61, 3)], undefined);
    assert.deepEqual(problems, []);
    assert.deepEqual([moved, marked], [1, 1]);
    assert.deepEqual(entries, [{ ...entry(33, 9, 'parseArguments'), review: 'moved from 20:5; confirm the reason' }]);
  });

  it('moves an entry to the mutant with its text in its column on the nearest line, when no other is as near, marked for review', () => {
    const { entries, problems } = anchorEquivalents([entry(30, 9, 'parseArguments'), entry(40, 9, 'parseArguments')], [site(32, 9), site(42, 9), site(32, 20)], undefined);
    assert.deepEqual(problems, []);
    assert.deepEqual(entries, [
      { ...entry(32, 9, 'parseArguments'), review: 'moved from 30:9; confirm the reason' },
      { ...entry(42, 9, 'parseArguments'), review: 'moved from 40:9; confirm the reason' },
    ]);
  });

  it('marks an entry left on a mutant with its text when the line it followed lost its mutant, and keeps a mark until a person removes it', () => {
    const followedAway = anchorEquivalents([entry(30, 9, 'parseArguments')], [site(30, 9)], () => ({ line: 35, column: 9 }));
    assert.deepEqual(followedAway.entries, [{ ...entry(30, 9, 'parseArguments'), review: 'its line moved to 35, where this mutant is gone; confirm the reason holds at 30:9' }]);
    assert.deepEqual([followedAway.moved, followedAway.marked], [1, 1]);

    const stillMarked = anchorEquivalents([{ ...entry(30, 9, 'parseArguments'), review: 'moved from 20:9; confirm the reason' }], [site(32, 9)], () => ({ line: 32, column: 9 }));
    assert.deepEqual(stillMarked.entries, [{ ...entry(32, 9, 'parseArguments'), review: 'moved from 20:9; confirm the reason' }]);
    assert.deepEqual([stillMarked.moved, stillMarked.marked], [1, 0]);
  });

  it('refuses to guess between two mutants with its text in its function, equally near or in other columns', () => {
    for (const mutants of [
      [site(33, 9), site(37, 9)],
      [site(33, 7), site(40, 7)],
    ]) {
      const { entries, problems } = anchorEquivalents([entry(35, 9, 'parseArguments')], mutants, undefined);
      assert.equal(problems.length, 1);
      assert.match(problems[0], new RegExp(`2 mutants fit \\(${mutants.map((mutant) => `${mutant.line}:${mutant.column}`).join(', ')}\\)`));
      assert.deepEqual(entries, [entry(35, 9, 'parseArguments')]);
    }
  });

  it('reports an entry whose mutant is gone, and two entries on one mutant', () => {
    assert.match(anchorEquivalents([entry(20, 5, 'parseArguments')], [site(61, 3)], undefined).problems[0], /no such mutant any more/);
    assert.match(anchorEquivalents([entry(33, 9), entry(33, 9)], [site(33, 9)], undefined).problems[0], /the same mutant as the entry/);
  });

  it('ignores mutants with other text', () => {
    const other = { ...site(33, 9), replacement: 'true' };
    assert.match(anchorEquivalents([entry(20, 5, 'parseArguments')], [other], undefined).problems[0], /no such mutant any more/);
  });
});

describe('following lines through a git diff', () => {
  // Line 3 replaced by two lines, two lines added after line 10, line 20 removed.
  const follow = lineMapOfDiff(['@@ -3 +3,2 @@', '-a', '+b', '+c', '@@ -10,0 +12,2 @@', '+d', '+e', '@@ -20 +21,0 @@', '-f'].join('\n'));

  it('shifts a line by what was added or removed above it, and loses a line that changed', () => {
    assert.deepEqual([1, 2, 3, 4, 10, 11, 19, 20, 21].map(follow), [1, 2, undefined, 5, 11, 14, 22, undefined, 23]);
  });
});

describe('npm run mutate:anchor', function () {
  // The instrumenter parses each file with Babel: seconds on a busy machine.
  this.timeout(60_000);
  const FILE = 'src/core/pick.ts';
  const LIST = 'test/mutation/equivalent-mutants.json';
  const body = (condition: string) => `export function pick(flag: boolean): string {\n  if (${condition}) {\n    return 'yes';\n  }\n  return 'no';\n}\n`;
  let root: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const commit = () => {
    git('add', '.');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'change');
  };
  const list = () => readEquivalents(path.join(root, LIST));
  const anchor = (check: boolean) => anchorList(root, path.join(root, LIST), check);

  before(async () => {
    root = await tempDir();
    await writeTree(root, { [FILE]: body('flag === true') });
    const mutant = (await enumerateMutants([FILE], root)).find((found) => found.mutator === 'EqualityOperator');
    assert.ok(mutant);
    const { file, line, column, mutator, original, replacement } = mutant;
    fs.mkdirSync(path.join(root, 'test', 'mutation'), { recursive: true });
    fs.writeFileSync(
      path.join(root, LIST),
      formatEquivalents([{ file, line, column, function: 'pick', mutator, original, replacement, reason: 'flag is a boolean, so the comparison has two outcomes' }]),
    );
    git('init', '--quiet');
    commit();
  });

  after(async () => {
    await removeDir(root);
  });

  it('follows lines git saw move without a mark, and marks an entry it placed by its text for review, which --check refuses until removed', async () => {
    assert.deepEqual(await anchor(true), { exitCode: 0, report: [`${LIST}: all 1 entries fit their mutants.`], problems: [] });

    // Two lines above: the same code, two lines down.
    fs.writeFileSync(path.join(root, FILE), `// Picks.\n\n${body('flag === true')}`);
    assert.deepEqual(await anchor(true), { exitCode: 1, report: [], problems: [`${LIST}: 1 of 1 entries are out of place; run npm run mutate:anchor.`] });
    assert.equal((await anchor(false)).exitCode, 0);
    assert.deepEqual(
      list().map((entry) => [entry.line, entry.review]),
      [[4, undefined]],
    );
    commit();

    // The entry's own line changed and moved: only its text places it.
    fs.writeFileSync(path.join(root, FILE), `// Picks.\n\n\n${body('flag === true || !flag')}`);
    const moved = await anchor(false);
    assert.equal(moved.exitCode, 0);
    assert.match(moved.report[0], /moved 1 of 1 entries to their mutants; 1 of them moved by a guess and are marked for review/);
    assert.deepEqual(
      list().map((entry) => [entry.line, entry.review]),
      [[5, 'moved from 4:7; confirm the reason']],
    );
    const refused = await anchor(true);
    assert.equal(refused.exitCode, 1);
    assert.match(refused.problems.join('\n'), /src\/core\/pick\.ts:5:7 EqualityOperator: "flag === true" -> "flag !== true": marked for review \(moved from 4:7; confirm the reason\)/);

    // A person confirms the reason and deletes the mark.
    fs.writeFileSync(path.join(root, LIST), formatEquivalents(list().map(({ review: _review, ...entry }) => entry)));
    assert.equal((await anchor(true)).exitCode, 0);
  });
});
