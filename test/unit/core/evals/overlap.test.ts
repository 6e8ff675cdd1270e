import * as assert from 'node:assert/strict';
import { descriptionOverlapDiagnostics, overlapDiagnostics, queryOverlaps, similarDescriptions } from '../../../../src/core/evals/overlap';
import { parseTriggerTests } from '../../../../src/core/evals/trigger-file';
import { findSkills } from '../../../../src/core/use/find';
import { fakeRecord } from '../../../fixtures/trees/tree';

const forms = fakeRecord('pdf-forms', 'Fill in and flatten interactive PDF forms: checkboxes, signatures, form fields from data.');
const extract = fakeRecord('pdf-extract', 'Extract text, tables and images from PDF documents, scanned pages included.');
const notes = fakeRecord('release-notes', 'Draft release notes from merged pull requests.');
const records = [forms, extract, notes];
const find = (query: string) => findSkills(records, query);

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

  it("puts a pair's warning on each description, naming the other skill", () => {
    const a = fakeRecord('a-one', 'Same words here.');
    const b = fakeRecord('b-two', 'Same words here.');
    const text = '---\nname: a-one\ndescription: Same words here.\n---\nBody\n';
    const [first, second] = descriptionOverlapDiagnostics([{ a, b, similarity: 1 }], (record) => (record === a ? text : undefined));
    assert.deepEqual(first.range, { start: { line: 2, column: 13 }, end: { line: 2, column: 29 } });
    assert.match(first.message, /^The description of a-one is 100% alike to b-two's: a model has little to choose between them by\./);
    assert.equal(second.file, b.file);
    assert.deepEqual(second.range, { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } });
  });

  it('reads only the SKILL.md files of skills in a pair', async () => {
    const read: string[] = [];
    const copy = fakeRecord('pdf-forms-copy', forms.metadata!.description);
    await overlapDiagnostics([...records, copy], [], find, async (file) => {
      read.push(file);
      return undefined;
    });
    assert.deepEqual(read.sort(), [copy.file, forms.file].sort());
  });
});
