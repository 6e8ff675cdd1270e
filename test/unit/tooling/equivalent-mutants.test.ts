// Every entry of test/mutation/equivalent-mutants.json gives its reason; and the anchoring that
// keeps entries on their mutants (`npm run mutate:anchor`) moves them only where that cannot be
// mistaken. Whether every entry sits on a current mutant is checked by the mutation scripts
// (`npm run mutate:anchor -- --check`, `npm run mutate:score`), not here: ordinary edits shift lines.

import * as assert from 'node:assert/strict';
import { anchorEquivalents, lineMapOfDiff, readEquivalents, type EquivalentMutant, type MutantSite } from '../../../scripts/mutation/equivalents';

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

  it('moves an entry to the only mutant with its text in its function', () => {
    const { entries, problems } = anchorEquivalents([entry(20, 5, 'parseArguments')], [site(33, 9), site(61, 3)], undefined);
    assert.deepEqual(problems, []);
    assert.deepEqual(entries, [entry(33, 9, 'parseArguments')]);
  });

  it('moves an entry to the mutant with its text in its column on the nearest line, when no other is as near', () => {
    const { entries, problems } = anchorEquivalents([entry(30, 9, 'parseArguments'), entry(40, 9, 'parseArguments')], [site(32, 9), site(42, 9), site(32, 20)], undefined);
    assert.deepEqual(problems, []);
    assert.deepEqual(entries, [entry(32, 9, 'parseArguments'), entry(42, 9, 'parseArguments')]);
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
