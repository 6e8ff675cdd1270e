import * as assert from 'node:assert/strict';
import { alikeDescriptionDiagnostics, descriptionRange, overlapDiagnostics, queryOverlaps } from '../../../../src/core/evals/overlap';
import { alikeDescriptions, DescriptionIndex, similarDescriptions } from '../../../../src/core/evals/description-index';
import { parseTriggerTests } from '../../../../src/core/evals/trigger-file';
import { findSkills, stem, STOP_WORDS, tokenize } from '../../../../src/core/use/find';
import type { SkillRecord } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const forms = fakeRecord('pdf-forms', 'Fill in and flatten interactive PDF forms: checkboxes, signatures, form fields from data.');
const extract = fakeRecord('pdf-extract', 'Extract text, tables and images from PDF documents, scanned pages included.');
const notes = fakeRecord('release-notes', 'Draft release notes from merged pull requests.');
const records = [forms, extract, notes];
const find = (query: string) => findSkills(records, query);

/**
 * The similar-descriptions check done the plain way, every pair: TF-IDF vectors over the
 * descriptions of the skills the model may invoke, each pair's dot product (and each length)
 * summed over the terms in the order of their text.
 */
function everyPairSimilar(records: readonly SkillRecord[], threshold: number): Array<[string, string, number]> {
  const visible = records.filter((record) => !record.metadata!.disableModelInvocation);
  const counts = visible.map((record) => {
    const counted = new Map<string, number>();
    for (const token of tokenize(record.metadata!.description).filter((word) => !STOP_WORDS.has(word))) {
      const term = stem(token);
      counted.set(term, (counted.get(term) ?? 0) + 1);
    }
    return counted;
  });
  const holding = new Map<string, number>();
  counts.forEach((counted) => counted.forEach((_, term) => holding.set(term, (holding.get(term) ?? 0) + 1)));
  const vectors = counts.map((counted) => {
    const terms = [...counted.keys()].sort();
    const weights = new Map(terms.map((term) => [term, counted.get(term)! * Math.log(1 + visible.length / holding.get(term)!)]));
    return { terms, weights, norm: Math.sqrt(terms.reduce((sum, term) => sum + weights.get(term)! * weights.get(term)!, 0)) };
  });
  const pairs: Array<[string, string, number]> = [];
  for (let i = 0; i < visible.length; i++) {
    for (let j = i + 1; j < visible.length; j++) {
      let dot = 0;
      for (const term of vectors[i].terms) {
        if (vectors[j].weights.has(term)) {
          dot += vectors[i].weights.get(term)! * vectors[j].weights.get(term)!;
        }
      }
      const similarity = dot / (vectors[i].norm * vectors[j].norm);
      if (similarity >= threshold) {
        pairs.push([visible[i].name, visible[j].name, similarity]);
      }
    }
  }
  return pairs.sort((x, y) => y[2] - x[2]);
}

/** A seeded set of skills: descriptions drawn from a vocabulary, many near-copies of another, some hidden from the model. */
function randomSkills(seed: number, count: number, vocabulary: number): SkillRecord[] {
  let state = seed;
  const next = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const below = (limit: number): number => Math.floor(next() * limit);
  // Few common words and many rare ones, as in real descriptions; stop words and word endings included.
  const words = Array.from({ length: vocabulary }, (_, index) => `word${index}${['', 's', 'ing', 'ed'][index % 4]}`).concat('the', 'use', 'when');
  const word = (): string => words[Math.floor(words.length * next() ** 3)];
  const descriptions: string[] = [];
  for (let index = 0; index < count; index++) {
    const copied = descriptions.length > 0 && next() < 0.3 ? descriptions[below(descriptions.length)].split(' ') : undefined;
    const text = copied ? copied.map((original) => (next() < 0.15 ? word() : original)) : Array.from({ length: 1 + below(30) }, word);
    descriptions.push(text.join(' '));
  }
  return descriptions.map((description, index) => fakeRecord(`skill-${index}`, description, { disableModelInvocation: next() < 0.05 }));
}

function testsOf(record: typeof forms, entries: [string, boolean][]) {
  const file = `/skills/${record.name}/evals/triggers.json`;
  const text = `[\n${entries.map(([query, shouldTrigger]) => `  { "query": "${query}", "should_trigger": ${shouldTrigger} }`).join(',\n')}\n]`;
  return { record, tests: parseTriggerTests(text, file).tests! };
}

describe('skills that compete for queries, without a model', () => {
  it('warns on a should-trigger query that the search ranks another skill first for, at the query', () => {
    const diagnostics = queryOverlaps(
      [
        testsOf(forms, [
          ['fill the pdf form with my data', true],
          ['extract the tables from this pdf', true],
          ['extract tables from a scanned pdf', false],
          ['draft release notes', true],
        ]),
      ],
      find,
    );
    assert.deepEqual(
      diagnostics.map(({ code, severity, message, range }) => ({ code, severity, message, line: range.start.line })),
      [
        {
          code: 'overlap-query',
          severity: 'warning',
          message:
            '"extract the tables from this pdf" ranks pdf-extract above pdf-forms in the skill search (pdf-forms comes 2nd): a model may load pdf-extract for it. Say in pdf-forms\'s description what sets it apart, or reword the query.',
          line: 2,
        },
        {
          code: 'overlap-query',
          severity: 'warning',
          message:
            '"draft release notes" ranks release-notes above pdf-forms in the skill search (pdf-forms does not match it at all): a model may load release-notes for it. Say in pdf-forms\'s description what sets it apart, or reword the query.',
          line: 4,
        },
      ],
    );
  });

  it('finds descriptions that are copies with a word changed, and not siblings that differ in task', () => {
    const aws = fakeRecord('aws-review', 'Review a cloud architecture against the well-architected framework pillars for AWS workloads and report the risks.');
    const azure = fakeRecord('azure-review', 'Review a cloud architecture against the well-architected framework pillars for Azure workloads and report the risks.');
    const pairs = similarDescriptions([...records, aws, azure]);
    assert.deepEqual(
      pairs.map(({ a, b }) => [a.name, b.name]),
      [['aws-review', 'azure-review']],
    );
    assert.ok(pairs[0].similarity > 0.8 && pairs[0].similarity < 1, String(pairs[0].similarity));
    assert.deepEqual(similarDescriptions([aws, { ...azure, metadata: { ...azure.metadata!, disableModelInvocation: true } }]), [], 'a skill hidden from the model competes with nothing');
  });

  it('finds exactly the pairs, and the similarities, that comparing every pair finds', () => {
    let pairsSeen = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const records = randomSkills(seed, 20 + ((seed * 37) % 120), [5, 40, 400, 4000][seed % 4]);
      const threshold = [0.8, 0.5, 0.95, 0.3, 1][seed % 5];
      const expected = everyPairSimilar(records, threshold);
      const found = similarDescriptions(records, threshold).map(({ a, b, similarity }): [string, string, number] => [a.name, b.name, similarity]);
      assert.deepEqual(found, expected, `seed ${seed}`);
      pairsSeen += expected.length;
    }
    assert.ok(pairsSeen > 500, `the sets hold similar pairs to find (${pairsSeen})`);
  });

  it('names, in a one-off check, the same closest alike skills and counts as a kept index does', () => {
    const described = (found: ReturnType<typeof alikeDescriptions>) =>
      found.map(({ record, closest, more }) => [record.name, closest.map(({ record: other, similarity }) => [other.name, similarity]), more]);
    let named = 0;
    for (let seed = 1; seed <= 16; seed++) {
      // Small vocabularies make skills alike to many others, so that more than the closest three are counted.
      const records = randomSkills(seed, 40 + ((seed * 53) % 160), [6, 12, 40, 400][seed % 4]);
      const threshold = [0.8, 0.5, 0.95, 1][seed % 4];
      const limit = [3, 1, 5][seed % 3];
      const index = new DescriptionIndex(threshold);
      index.update(records);
      const kept = described(index.allAlike(limit));
      assert.deepEqual(described(alikeDescriptions(records, limit, threshold)), kept, `seed ${seed}`);
      named += kept.filter(([, , more]) => (more as number) > 0).length;
    }
    assert.ok(named > 100, `skills with more alike than named (${named})`);
  });

  it('finds copies of a one-word description, however many skills share it', () => {
    const copies = ['deploy-aws', 'deploy-gcp', 'deploy-azure'].map((name) => fakeRecord(name, 'Deploys.'));
    assert.deepEqual(
      similarDescriptions(copies.slice(0, 2)).map(({ a, b, similarity }) => [a.name, b.name, similarity]),
      [['deploy-aws', 'deploy-gcp', 1]],
    );
    assert.deepEqual(
      similarDescriptions(copies).map(({ a, b }) => [a.name, b.name]),
      [
        ['deploy-aws', 'deploy-gcp'],
        ['deploy-aws', 'deploy-azure'],
        ['deploy-gcp', 'deploy-azure'],
      ],
    );
  });

  it('lists pairs equally alike in the order of the skills', () => {
    // One skill charting both, two charting one of its subjects each, and many charting others: every description says "charts".
    const others = ['apple', 'banana', 'cherry', 'grape', 'lemon', 'mango', 'melon', 'olive', 'peach', 'pear', 'plum', 'quince', 'raisin', 'walnut', 'almond', 'hazel', 'fig'];
    const records = [
      fakeRecord('both', 'Charts sales and stock.'),
      fakeRecord('stock', 'Charts stock.'),
      fakeRecord('sales', 'Charts sales.'),
      ...others.map((word) => fakeRecord(`chart-${word}`, `Charts ${word}.`)),
    ];
    const pairs = similarDescriptions(records, 0.5);
    assert.deepEqual(
      pairs.map(({ a, b }) => [a.name, b.name]),
      [
        ['both', 'stock'],
        ['both', 'sales'],
      ],
    );
    assert.equal(pairs[0].similarity, pairs[1].similarity);
  });

  it('never compares a skill with itself: a folder reached by two paths counts once', () => {
    const copy = fakeRecord('aws-review', 'Review a cloud architecture for AWS workloads and report the risks.');
    const sameFolder = { ...copy, dir: '/other/aws-review', file: '/other/aws-review/SKILL.md' };
    assert.deepEqual(similarDescriptions([copy, sameFolder, forms]), []);
  });

  it('names the three closest alike skills and counts the others, on each description', async () => {
    // Each a copy of the one before with one more word: the further apart in the list, the less alike.
    const base = 'Deploys the web service to the cloud region, checks health, rolls back failed releases, pages the team, and writes the incident report';
    const extra = ['', 'alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const copies = ['a', 'b', 'c', 'd', 'e', 'f'].map((name, index) => fakeRecord(`deploy-${name}`, `${base} ${extra.slice(1, index + 1).join(' ')}.`));
    const found = await overlapDiagnostics([...copies, forms], [], find, async () => undefined);
    // deploy-d is alike to all five others: c (94%), e (92%), b (90%), a (86%), f (81%).
    const ofMiddle = found.filter((diagnostic) => diagnostic.file === copies[3].file).map((diagnostic) => diagnostic.message);
    assert.equal(ofMiddle.length, 3);
    assert.match(ofMiddle[0], /^The description of deploy-d is 94% alike to deploy-c's/, 'the closest first');
    assert.match(ofMiddle[1], /^The description of deploy-d is 92% alike to deploy-e's: .* the other is not\.$/);
    assert.match(ofMiddle[2], /^The description of deploy-d is 90% alike to deploy-b's: .* 2 more skills are as alike \(80% or more\) to deploy-d\.$/);
    // deploy-f, alike to e and d only, gets two; the other four three each.
    assert.equal(found.filter((diagnostic) => diagnostic.file === copies[5].file).length, 2);
    assert.equal(found.length, 5 * 3 + 2);
  });

  it('keeps its pairs exactly those of comparing every pair, through random edits, additions and removals', () => {
    for (let seed = 1; seed <= 12; seed++) {
      let state = seed * 7919;
      const next = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      const pool = randomSkills(seed, 140, [12, 60, 400][seed % 3]);
      let current = pool.slice(0, 80);
      const index = new DescriptionIndex(0.8, [0.02, 0.1, 0][seed % 3]);
      let before = new Map<string, string>();
      const describe = (): Map<string, string> =>
        new Map(index.allAlike(3).map(({ record, closest, more }) => [record.file, JSON.stringify([closest.map(({ record: other, similarity }) => [other.name, similarity]), more])]));
      for (let step = 0; step < 60; step++) {
        const changed = new Set(index.update(current));
        const expected = similarDescriptions(current).map(({ a, b, similarity }) => [a.name, b.name, similarity]);
        assert.deepEqual(
          index.pairs().map(({ a, b, similarity }) => [a.name, b.name, similarity]),
          expected,
          `seed ${seed}, step ${step}`,
        );
        const after = describe();
        for (const file of new Set([...before.keys(), ...after.keys()])) {
          if (before.get(file) !== after.get(file)) {
            assert.ok(changed.has(file), `seed ${seed}, step ${step}: ${file} changed unannounced`);
          }
        }
        before = after;
        const at = Math.floor(next() * current.length);
        const roll = next();
        if (roll < 0.6) {
          // A reworded description: a word swapped for one of another skill's.
          const words = current[at].metadata!.description.split(' ');
          const donor = pool[Math.floor(next() * pool.length)].metadata!.description.split(' ');
          words[Math.floor(next() * words.length)] = donor[Math.floor(next() * donor.length)];
          current = current.map((record, position) => (position === at ? fakeRecord(record.name, words.join(' ')) : record));
        } else if (roll < 0.75) {
          current = current.filter((_, position) => position !== at);
        } else if (roll < 0.9) {
          const added = pool[Math.floor(next() * pool.length)];
          current = current.some((record) => record.name === added.name) ? current : [...current, added];
        } else {
          current = current.map((record, position) => (position === at ? { ...record, name: `${record.name}-renamed` } : record));
        }
      }
    }
  });

  it('follows records replaced in place as a fresh index over the same records does: reworded, renamed, moved, hidden, a second path to a folder', () => {
    /** What an index tells of each file: its alike skills, by file, and how many more. */
    const describeFile = (index: DescriptionIndex, file: string): string => {
      const alike = index.alikeTo(file, 3);
      return JSON.stringify(alike && [alike.record.file, alike.closest.map(({ record, similarity }) => [record.file, similarity]), alike.more]);
    };
    const pairsOf = (index: DescriptionIndex) => index.pairs().map(({ a, b, similarity }) => [a.file, b.file, similarity]);
    let replacedAlone = 0;
    for (let seed = 1; seed <= 10; seed++) {
      let state = seed * 104729;
      const next = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      const below = (limit: number): number => Math.floor(next() * limit);
      const pool = randomSkills(seed, 70, [12, 60, 400][seed % 3]);
      // Second paths to five folders, later in the list: each counts only while its folder's first path is hidden.
      const linked = pool.slice(0, 5).map((record) => ({ ...record, dir: `/links/${record.name}`, file: `/links/${record.name}/SKILL.md` }));
      let current: SkillRecord[] = [...pool.slice(0, 50), ...linked];
      const index = new DescriptionIndex(0.8, [0.02, 0.1, 0][seed % 3]);
      index.update(current);
      let files = new Set(current.map((record) => record.file));
      for (let step = 0; step < 40; step++) {
        const before = new Map([...files].map((file) => [file, describeFile(index, file)]));
        const roll = next();
        if (roll < 0.1) {
          current = current.filter((_, position) => position !== below(current.length));
        } else if (roll < 0.2) {
          current = [...current, pool[50 + below(20)]].filter((record, position, all) => all.findIndex((other) => other.file === record.file) === position);
        } else {
          replacedAlone++;
          current = [...current];
          for (let count = 1 + below(3); count > 0; count--) {
            const at = below(current.length);
            const record = current[at];
            const kind = next();
            if (kind < 0.5) {
              const words = record.metadata!.description.split(' ');
              const donor = pool[below(pool.length)].metadata!.description.split(' ');
              words[below(words.length)] = donor[below(donor.length)];
              current[at] = { ...record, metadata: { ...record.metadata!, description: words.join(' ') } };
            } else if (kind < 0.65) {
              current[at] = { ...record, name: `${record.name}-renamed` };
            } else if (kind < 0.8) {
              // The same folder reached by another path: another SKILL.md file.
              const moved = `/moved/${step}/${record.name}`;
              current[at] = { ...record, dir: moved, file: `${moved}/SKILL.md` };
            } else if (kind < 0.9) {
              current[at] = { ...record, metadata: { ...record.metadata!, disableModelInvocation: !record.metadata!.disableModelInvocation } };
            } else {
              current[at] = { ...record };
            }
          }
        }
        const changed = new Set(index.update(current));
        const fresh = new DescriptionIndex(0.8);
        fresh.update(current);
        assert.deepEqual(pairsOf(index), pairsOf(fresh), `seed ${seed}, step ${step}`);
        files = new Set([...files, ...current.map((record) => record.file)]);
        for (const file of files) {
          const now = describeFile(index, file);
          assert.equal(now, describeFile(fresh, file), `seed ${seed}, step ${step}: ${file}`);
          if (now !== before.get(file)) {
            assert.ok(changed.has(file), `seed ${seed}, step ${step}: ${file} changed unannounced`);
          }
        }
      }
    }
    assert.ok(replacedAlone > 250, `updates that only replaced records (${replacedAlone})`);
  });

  it('takes records as immutable, as the registry makes them: one met again at its place is not read again, a replaced one is', () => {
    const a = fakeRecord('a-one', 'Rotate the signing keys of the release pipeline.');
    const b = fakeRecord('b-two', 'Summarise the week of merged pull requests for the team.');
    const index = new DescriptionIndex();
    index.update([a, b, forms]);
    // Changed where it lies, the record is taken as it was: only a new record says it changed.
    b.metadata!.description = a.metadata!.description;
    assert.deepEqual(index.update([a, b, forms]), []);
    assert.deepEqual(index.pairs(), []);
    const reworded = { ...b };
    assert.deepEqual(index.update([a, reworded, forms]).sort(), [a.file, b.file].sort());
    assert.deepEqual(
      index.pairs().map(({ a: first, b: second }) => [first.name, second.name]),
      [['a-one', 'b-two']],
    );
  });

  it('takes only a positive threshold', () => {
    assert.throws(() => similarDescriptions(records, 0), /threshold must be positive, not 0/);
  });

  it("puts a pair's warning on each description, naming the other skill", () => {
    const a = fakeRecord('a-one', 'Same words here.');
    const b = fakeRecord('b-two', 'Same words here.');
    const text = '---\nname: a-one\ndescription: Same words here.\n---\nBody\n';
    const [first] = alikeDescriptionDiagnostics({ record: a, closest: [{ record: b, similarity: 1 }], more: 0 }, descriptionRange(text));
    assert.deepEqual(first.range, { start: { line: 2, column: 13 }, end: { line: 2, column: 29 } });
    assert.equal(first.message, "The description of a-one is 100% alike to b-two's: a model has little to choose between them by. Say what each is for that the other is not.");
    const [second] = alikeDescriptionDiagnostics({ record: b, closest: [{ record: a, similarity: 1 }], more: 0 }, undefined);
    assert.equal(second.file, b.file);
    assert.deepEqual(second.range, { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } });
  });

  it('locates the description in the frontmatter only, whatever the line endings', () => {
    const a = fakeRecord('a-one', 'Same words here.');
    const b = fakeRecord('b-two', 'Same words here.');
    const crlf = '---\r\nname: a-one\r\ndescription:   Same words here.\r\n---\r\ndescription: in the body\r\n';
    const unclosed = 'name: b-two\n---\nname: b-two\ndescription: Same words here.';
    const [first] = alikeDescriptionDiagnostics({ record: a, closest: [{ record: b, similarity: 1 }], more: 0 }, descriptionRange(crlf));
    const [second] = alikeDescriptionDiagnostics({ record: b, closest: [{ record: a, similarity: 1 }], more: 0 }, descriptionRange(unclosed));
    assert.deepEqual(first.range, { start: { line: 2, column: 15 }, end: { line: 2, column: 31 } });
    assert.deepEqual(second.range, { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } }, 'the description is past the first closing fence');
  });

  it('locates the description only of skills in a pair', async () => {
    const located: string[] = [];
    const copy = fakeRecord('pdf-forms-copy', forms.metadata!.description);
    await overlapDiagnostics([...records, copy], [], find, async (file) => {
      located.push(file);
      return undefined;
    });
    assert.deepEqual(located.sort(), [copy.file, forms.file].sort());
  });

  it('says where the search ranks the skill itself, in words, and nothing when no skill matches', () => {
    const others = Array.from({ length: 120 }, (_, index) => fakeRecord(`other-${index}`, 'Something else.'));
    const placeOf = (place: number): string => {
      const ranked = [...others.slice(0, place - 1), forms, ...others.slice(place - 1)];
      const [diagnostic] = queryOverlaps([testsOf(forms, [['fill the form', true]])], () => ranked.map((record, index) => ({ record, score: 100 - index, matchedWords: 1, nameMatch: false })));
      return /pdf-forms comes (\w+)\)/.exec(diagnostic.message)?.[1] ?? diagnostic.message;
    };
    assert.deepEqual([2, 3, 4, 10, 11, 12, 13, 20, 21, 22, 23, 101, 111, 112, 113].map(placeOf), [
      '2nd',
      '3rd',
      '4th',
      '10th',
      '11th',
      '12th',
      '13th',
      '20th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
      '112th',
      '113th',
    ]);
    assert.deepEqual(
      queryOverlaps([testsOf(forms, [['fill the form', true]])], () => []),
      [],
    );
  });
});
