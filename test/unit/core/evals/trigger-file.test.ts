import * as assert from 'node:assert/strict';
import syncFs from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadTriggerTests, loadTriggerTestsBlocking, MAX_TRIGGER_FILE_BYTES, parseTriggerTests, TRIGGER_DIAGNOSTIC_CODES } from '../../../../src/core/evals/trigger-file';
import type { SkillDiagnostic } from '../../../../src/core/model/types';
import { makeNamedPipe, printedByChild } from '../../named-pipe';

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
    assert.deepEqual(
      ['"pdf"', '{ "runs": 2 }'].map((text) => parseTriggerTests(text, FILE).diagnostics[0].message),
      [
        'Trigger tests are an array of { "query": "…", "should_trigger": true } (or an object with such a "queries" array).',
        'The object form needs a "queries" array of { "query": "…", "should_trigger": true }.',
      ],
    );
  });

  it('names the first syntax error of an empty file', () => {
    const [diagnostic] = parseTriggerTests('', FILE).diagnostics;
    assert.equal(diagnostic.message, 'triggers.json is not valid JSON: value expected. Expected an array of { "query": "…", "should_trigger": true }.');
    assert.deepEqual(diagnostic.range, { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } });
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
    assert.deepEqual(
      parsed.diagnostics.map((diagnostic) => diagnostic.message),
      [
        'Each entry must be an object: { "query": "…", "should_trigger": true }.',
        '"query" is empty: write what a user would ask.',
        '"query" must be a string: what a user would ask.',
        '"query" must be a string: what a user would ask.',
        '"should_trigger" must be true or false: whether this query should load the skill.',
        'Unknown field "note" (an entry has "query" and "should_trigger"); it is ignored.',
      ],
    );
    // Entries with errors are not tests; the others still are.
    assert.deepEqual(
      parsed.tests?.queries.map((query) => query.query),
      ['rotate pages'],
    );
  });

  it('takes a query of only spaces for an empty one', () => {
    const text = '[{ "query": "  \\t ", "should_trigger": true }]';
    assert.deepEqual(described(text, parseTriggerTests(text, FILE).diagnostics), ['error triggers-empty-query @1:13 "  \\t "']);
  });

  it('places a problem at the start of a line in that line, at column 1', () => {
    const text = '[\n"x"\n]';
    assert.deepEqual(parseTriggerTests(text, FILE).diagnostics[0].range, { start: { line: 1, column: 0 }, end: { line: 1, column: 3 } });
  });

  it('reports a duplicate query (case and spaces aside) on the repeat, naming the first line', () => {
    const text = '[\n  { "query": "Merge PDFs", "should_trigger": true },\n  { "query": " merge pdfs ", "should_trigger": false }\n]';
    const parsed = parseTriggerTests(text, FILE);
    assert.deepEqual(described(text, parsed.diagnostics), ['error triggers-duplicate-query @3:14 " merge pdfs "']);
    assert.match(parsed.diagnostics[0].message, /also on line 2/);
    assert.equal(parsed.tests?.queries.length, 1);
  });

  it('tells queries apart by their lower-case text, so ß and ss stay different', () => {
    const text = '[\n  { "query": "Straße", "should_trigger": true },\n  { "query": "STRASSE", "should_trigger": true }\n]';
    const parsed = parseTriggerTests(text, FILE);
    assert.deepEqual(parsed.diagnostics, []);
    assert.deepEqual(
      parsed.tests?.queries.map((query) => query.query),
      ['Straße', 'STRASSE'],
    );
  });

  it('checks the per-file settings', () => {
    const text = '{ "runs": 0, "threshold": 1.5, "model": "x", "queries": [] }';
    assert.deepEqual(described(text, parseTriggerTests(text, FILE).diagnostics), [
      'error triggers-runs @1:11 0',
      'error triggers-threshold @1:27 1.5',
      'warning triggers-unknown-field @1:32 "model"',
      'warning triggers-no-queries @1:57 []',
    ]);
    assert.deepEqual(
      parseTriggerTests(text, FILE).diagnostics.map((diagnostic) => diagnostic.message),
      [
        '"runs" must be a whole number from 1 to 20.',
        '"threshold" must be a number from 0 to 1 (the share of runs that must trigger).',
        'Unknown field "model" (expected "queries", "runs" or "threshold"); it is ignored.',
        'No queries to test yet. Add { "query": "…", "should_trigger": true } entries, or run Skills: Draft Trigger Tests….',
      ],
    );
  });

  /** A per-file setting as read from `value`, with the codes of the problems reported. */
  function setting(field: 'runs' | 'threshold', value: string): [number | undefined, string[]] {
    const parsed = parseTriggerTests(`{ "${field}": ${value}, "queries": [{ "query": "a", "should_trigger": true }] }`, FILE);
    return [parsed.tests?.[field], parsed.diagnostics.map((diagnostic) => diagnostic.code)];
  }

  it('takes runs from 1 to 20, whole numbers only', () => {
    assert.deepEqual(setting('runs', '1'), [1, []]);
    assert.deepEqual(setting('runs', '20'), [20, []]);
    for (const wrong of ['0', '21', '2.5', '"3"', 'true']) {
      assert.deepEqual(setting('runs', wrong), [undefined, ['triggers-runs']], wrong);
    }
  });

  it('takes a threshold from 0 to 1, numbers only', () => {
    assert.deepEqual(setting('threshold', '0'), [0, []]);
    assert.deepEqual(setting('threshold', '1'), [1, []]);
    assert.deepEqual(setting('threshold', '0.25'), [0.25, []]);
    for (const wrong of ['-0.5', '1.01', '"0.5"', 'true', 'null']) {
      assert.deepEqual(setting('threshold', wrong), [undefined, ['triggers-threshold']], wrong);
    }
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
    assert.equal(loadTriggerTestsBlocking(path.join(dir, 'none')), undefined);
  });

  it('is undefined when a file stands where the evals folder would be', async () => {
    const skill = path.join(dir, 'flat');
    await fs.mkdir(skill, { recursive: true });
    await fs.writeFile(path.join(skill, 'evals'), 'not a folder');
    assert.equal(await loadTriggerTests(skill), undefined);
    assert.equal(loadTriggerTestsBlocking(skill), undefined);
  });

  it('reading blocking, tries no open of a file that is not there (a failed open throws, which thousands of skills notice)', async () => {
    const opened: string[] = [];
    const openSync = syncFs.openSync;
    syncFs.openSync = (...args: Parameters<typeof openSync>) => {
      opened.push(String(args[0]));
      return openSync(...args);
    };
    try {
      assert.equal(loadTriggerTestsBlocking(path.join(dir, 'none')), undefined);
    } finally {
      syncFs.openSync = openSync;
    }
    assert.deepEqual(opened, []);
  });

  it('reading blocking on its own, answers at once what the asynchronous read answers', async () => {
    const skill = path.join(dir, 'both-ways');
    await fs.mkdir(path.join(skill, 'evals'), { recursive: true });
    await fs.writeFile(path.join(skill, 'evals', 'triggers.json'), '[{ "query": "fill the form", "should_trigger": true }, { "query": "", "should_trigger": 1 }]');
    for (const folder of [skill, path.join(dir, 'none')]) {
      const blocking = loadTriggerTestsBlocking(folder);
      assert.ok(!(blocking instanceof Promise));
      assert.deepEqual(blocking, await loadTriggerTests(folder));
    }
    assert.deepEqual(
      loadTriggerTestsBlocking(skill)?.diagnostics.map((diagnostic) => diagnostic.code),
      ['triggers-should-trigger-type', 'triggers-empty-query'],
    );
  });

  it('reports a file it cannot read as an error at its start', async () => {
    const skill = path.join(dir, 'folder-file');
    const file = path.join(skill, 'evals', 'triggers.json');
    await fs.mkdir(file, { recursive: true });
    for (const load of [loadTriggerTests, loadTriggerTestsBlocking]) {
      const loaded = await load(skill);
      assert.equal(loaded?.tests, undefined);
      assert.equal(loaded?.diagnostics.length, 1);
      const [diagnostic] = loaded!.diagnostics;
      assert.deepEqual({ ...diagnostic, message: '' }, { code: 'triggers-unreadable', severity: 'error', message: '', file, range: { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } } });
      assert.ok(diagnostic.message.startsWith(`${file} cannot be read: EISDIR`), diagnostic.message);
    }
  });

  it('refuses a file over the size limit unread, saying how large it is', async () => {
    const skill = path.join(dir, 'huge');
    const file = path.join(skill, 'evals', 'triggers.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const entry = '{ "query": "fill a form", "should_trigger": true },';
    const text = `[${entry.repeat(Math.ceil(MAX_TRIGGER_FILE_BYTES / entry.length))}{ "query": "last", "should_trigger": false }]`;
    await fs.writeFile(file, text);
    for (const load of [loadTriggerTests, loadTriggerTestsBlocking]) {
      const loaded = await load(skill);
      assert.equal(loaded?.tests, undefined);
      assert.deepEqual(
        loaded?.diagnostics.map(({ code, severity, message }) => [code, severity, message]),
        [
          [
            'triggers-too-large',
            'error',
            `${file} is ${Buffer.byteLength(text)} bytes, over the ${MAX_TRIGGER_FILE_BYTES}-byte (1 MiB) limit for trigger tests; it was not read. Keep it to the queries that test the skill.`,
          ],
        ],
      );
    }
    // At the limit it is read.
    await fs.writeFile(file, text.slice(0, MAX_TRIGGER_FILE_BYTES));
    assert.equal(
      (await loadTriggerTests(skill))?.diagnostics.some((diagnostic) => diagnostic.code === 'triggers-too-large'),
      false,
    );
  });

  it('reads a named pipe in its place without waiting for a writer, in both ways of reading', async function () {
    if (process.platform === 'win32') {
      this.skip();
    }
    const skill = path.join(dir, 'pipe');
    await fs.mkdir(path.join(skill, 'evals'), { recursive: true });
    makeNamedPipe(path.join(skill, 'evals', 'triggers.json'));
    const triggerFile = JSON.stringify(require.resolve('../../../../src/core/evals/trigger-file'));
    const printed = printedByChild(
      `const triggers = require(${triggerFile}); Promise.all([triggers.loadTriggerTests(${JSON.stringify(skill)}), triggers.loadTriggerTestsBlocking(${JSON.stringify(skill)})]).then((loaded) => process.stdout.write(JSON.stringify(loaded.map((tests) => tests.diagnostics.map((diagnostic) => diagnostic.code)))));`,
    );
    // Nothing to read: what an empty file says.
    const empty = parseTriggerTests('', path.join(skill, 'evals', 'triggers.json')).diagnostics.map((diagnostic) => diagnostic.code);
    assert.deepEqual(JSON.parse(printed), [empty, empty]);
    assert.ok(empty.length > 0);
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
