import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadTriggerTests, parseTriggerTests, TRIGGER_DIAGNOSTIC_CODES } from '../../../../src/core/evals/trigger-file';
import type { SkillDiagnostic } from '../../../../src/core/model/types';

const FILE = '/skills/pdf/evals/triggers.json';

/** Code, severity and the text the range covers, for compact assertions. */
function described(text: string, diagnostics: readonly SkillDiagnostic[]): string[] {
  const lines = text.split('\n');
  return diagnostics.map(({ code, severity, range }) => {
    const covered = range.start.line === range.end.line ? lines[range.start.line].slice(range.start.column, range.end.column) : `${lines[range.start.line].slice(range.start.column)}…`;
    return `${severity} ${code} @${range.start.line + 1}:${range.start.column + 1} ${covered}`;
  });
}

describe('parseTriggerTests', () => {
  it("reads the array form with each entry's range", () => {
    const text = '[\n  { "query": "fill in this PDF form", "should_trigger": true },\n  {\n    "query": "write a poem",\n    "should_trigger": false\n  }\n]\n';
    const parsed = parseTriggerTests(text, FILE);
    assert.deepEqual(parsed.diagnostics, []);
    assert.deepEqual(
      parsed.tests?.queries.map(({ query, shouldTrigger, range }) => [query, shouldTrigger, range.start.line, range.start.column, range.end.line, range.end.column]),
      [
        ['fill in this PDF form', true, 1, 2, 1, 62],
        ['write a poem', false, 2, 2, 5, 3],
      ],
    );
    assert.equal(parsed.tests?.runs, undefined);
    assert.equal(parsed.tests?.file, FILE);
  });

  it('reads the object form with its runs and threshold', () => {
    const parsed = parseTriggerTests('{ "runs": 5, "threshold": 0.8, "queries": [{ "query": "merge two PDFs", "should_trigger": true }] }', FILE);
    assert.deepEqual(parsed.diagnostics, []);
    assert.equal(parsed.tests?.runs, 5);
    assert.equal(parsed.tests?.threshold, 0.8);
    assert.deepEqual(
      parsed.tests?.queries.map((query) => query.query),
      ['merge two PDFs'],
    );
  });

  it('points at the first JSON syntax error and names the file', () => {
    const text = '[\n  { "query": "a", "should_trigger": true }\n  { "query": "b", "should_trigger": true }\n]';
    const parsed = parseTriggerTests(text, FILE);
    assert.equal(parsed.tests, undefined);
    assert.deepEqual(described(text, parsed.diagnostics), ['error triggers-json-syntax @3:3 {']);
    assert.match(parsed.diagnostics[0].message, /^triggers\.json is not valid JSON: comma expected\./);
  });

  it('refuses comments and trailing commas, which JSON does not have', () => {
    assert.equal(parseTriggerTests('[ // note\n]', FILE).diagnostics[0].code, 'triggers-json-syntax');
    assert.equal(parseTriggerTests('[{ "query": "a", "should_trigger": true },]', FILE).diagnostics[0].code, 'triggers-json-syntax');
  });

  it('reports a wrong shape on the value that has it', () => {
    assert.deepEqual(described('"pdf"', parseTriggerTests('"pdf"', FILE).diagnostics), ['error triggers-shape @1:1 "pdf"']);
    const objectText = '{ "queries": { "query": "a" } }';
    assert.deepEqual(described(objectText, parseTriggerTests(objectText, FILE).diagnostics), ['error triggers-shape @1:14 { "query": "a" }']);
    assert.deepEqual(described('{ "runs": 2 }', parseTriggerTests('{ "runs": 2 }', FILE).diagnostics), ['error triggers-shape @1:1 {']);
  });

  it('checks each entry: shape, query, should_trigger, unknown fields', () => {
    const text = [
      '[',
      '  "just a string",',
      '  { "query": "", "should_trigger": true },',
      '  { "query": 42, "should_trigger": true },',
      '  { "should_trigger": false },',
      '  { "query": "compress a pdf", "should_trigger": "yes" },',
      '  { "query": "rotate pages", "should_trigger": true, "note": "x" }',
      ']',
    ].join('\n');
    const parsed = parseTriggerTests(text, FILE);
    assert.deepEqual(described(text, parsed.diagnostics), [
      'error triggers-entry-shape @2:3 "just a string"',
      'error triggers-empty-query @3:14 ""',
      'error triggers-missing-query @4:14 42',
      'error triggers-missing-query @5:3 {',
      'error triggers-should-trigger-type @6:50 "yes"',
      'warning triggers-unknown-field @7:54 "note"',
    ]);
    // Entries with errors are not tests; the others still are.
    assert.deepEqual(
      parsed.tests?.queries.map((query) => query.query),
      ['rotate pages'],
    );
  });

  it('reports a duplicate query (case and spaces aside) on the repeat, naming the first line', () => {
    const text = '[\n  { "query": "Merge PDFs", "should_trigger": true },\n  { "query": " merge pdfs ", "should_trigger": false }\n]';
    const parsed = parseTriggerTests(text, FILE);
    assert.deepEqual(described(text, parsed.diagnostics), ['error triggers-duplicate-query @3:14 " merge pdfs "']);
    assert.match(parsed.diagnostics[0].message, /also on line 2/);
    assert.equal(parsed.tests?.queries.length, 1);
  });

  it('checks the per-file settings', () => {
    const text = '{ "runs": 0, "threshold": 1.5, "model": "x", "queries": [] }';
    assert.deepEqual(described(text, parseTriggerTests(text, FILE).diagnostics), [
      'error triggers-runs @1:11 0',
      'error triggers-threshold @1:27 1.5',
      'warning triggers-unknown-field @1:32 "model"',
      'warning triggers-no-queries @1:57 []',
    ]);
  });

  it('counts columns from the start of the line with CRLF line ends', () => {
    const text = '[\r\n  { "query": "", "should_trigger": true }\r\n]';
    assert.deepEqual(parseTriggerTests(text, FILE).diagnostics[0].range, { start: { line: 1, column: 13 }, end: { line: 1, column: 15 } });
  });

  it('uses only the documented codes', () => {
    const texts = ['x', '"a"', '[1]', '[{}]', '[{"query":""}]', '{"runs":"3","queries":[]}', '{"threshold":-1,"queries":[{"query":"a","should_trigger":true},{"query":"a","should_trigger":true}]}'];
    for (const text of texts) {
      for (const diagnostic of parseTriggerTests(text, FILE).diagnostics) {
        assert.ok((TRIGGER_DIAGNOSTIC_CODES as readonly string[]).includes(diagnostic.code), diagnostic.code);
        assert.equal(diagnostic.file, FILE);
      }
    }
  });
});

describe('loadTriggerTests', () => {
  let dir: string;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trigger-tests-'));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it('is undefined for a skill without the file', async () => {
    assert.equal(await loadTriggerTests(path.join(dir, 'none')), undefined);
  });

  it('reads and checks the file of a skill folder', async () => {
    const skill = path.join(dir, 'pdf');
    await fs.mkdir(path.join(skill, 'evals'), { recursive: true });
    await fs.writeFile(path.join(skill, 'evals', 'triggers.json'), '[{ "query": "fill a form", "should_trigger": true }]');
    const loaded = await loadTriggerTests(skill);
    assert.equal(loaded?.tests?.file, path.join(skill, 'evals', 'triggers.json'));
    assert.deepEqual(
      loaded?.tests?.queries.map((query) => query.query),
      ['fill a form'],
    );
  });
});
