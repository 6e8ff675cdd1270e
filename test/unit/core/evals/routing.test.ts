import * as assert from 'node:assert/strict';
import { escapeXml, junitXml } from '../../../../src/core/evals/junit';
import { describeTaken, NO_SKILL, queriesTakenBy, routedTo, routingReport } from '../../../../src/core/evals/routing';
import type { RunOutcome } from '../../../../src/core/evals/verdict';

const ran = (...loaded: string[]): RunOutcome => ({ kind: 'completed', triggered: false, loaded, firstLine: '' });
const errored: RunOutcome = { kind: 'errored', message: 'HTTP 500' };

describe('routing across the set', () => {
  it('counts a run for the expected skill when it loaded it at all, else for the first skill it loaded, else for none', () => {
    assert.equal(routedTo({ kind: 'completed', triggered: true, loaded: ['docx', 'pdf'], firstLine: '' }, 'pdf'), 'pdf');
    assert.equal(routedTo({ kind: 'completed', triggered: false, loaded: ['docx', 'xlsx'], firstLine: '' }, 'pdf'), 'docx');
    assert.equal(routedTo({ kind: 'completed', triggered: false, loaded: [], firstLine: '' }, 'pdf'), NO_SKILL);
  });

  it('builds rows, columns and cells, the worst confusions first, and lists should-not queries that fired', () => {
    const report = routingReport([
      { skill: 'pdf', query: 'fill the form', shouldTrigger: true, outcomes: [ran('pdf'), ran('docx'), ran('docx')] },
      { skill: 'pdf', query: 'merge two pdfs', shouldTrigger: true, outcomes: [ran(), ran('pdf'), errored] },
      { skill: 'docx', query: 'edit the letter', shouldTrigger: true, outcomes: [ran('docx'), ran('docx')] },
      { skill: 'docx', query: 'open a pdf', shouldTrigger: false, outcomes: [ran('docx'), ran('pdf'), ran()] },
      { skill: 'pdf', query: 'write a poem', shouldTrigger: false, outcomes: [ran(), ran()] },
    ]);
    assert.deepEqual(report.rows, [
      { expected: 'pdf', runs: 5, rate: 2 / 5 },
      { expected: 'docx', runs: 2, rate: 1 },
    ]);
    assert.deepEqual(report.columns, ['docx', 'pdf', NO_SKILL]);
    assert.deepEqual(
      report.confusions.map(({ expected, loaded, runs, queries }) => ({ expected, loaded, runs, queries })),
      [
        { expected: 'pdf', loaded: 'docx', runs: 2, queries: [{ query: 'fill the form', runs: 2 }] },
        { expected: 'pdf', loaded: NO_SKILL, runs: 1, queries: [{ query: 'merge two pdfs', runs: 1 }] },
      ],
    );
    assert.deepEqual(report.falseTriggers, [{ skill: 'docx', query: 'open a pdf', runs: 1 }]);
    assert.deepEqual(
      queriesTakenBy(report, 'docx').map((cell) => cell.expected),
      ['pdf'],
    );
    assert.deepEqual(queriesTakenBy(report, 'pdf'), []);
    assert.equal(describeTaken(report.confusions[0]), `took 2 runs of pdf's queries ("fill the form")`);
    assert.equal(describeTaken(report.confusions[1]), `took 1 run of pdf's queries ("merge two pdfs")`);
  });
  it('orders confusions by runs, then by expected and loaded skill, and names every query behind one', () => {
    const report = routingReport([
      { skill: 'xlsx', query: 'sum the column', shouldTrigger: true, outcomes: [ran('csv')] },
      { skill: 'pdf', query: 'fill the form', shouldTrigger: true, outcomes: [ran('docx'), ran('zip')] },
      { skill: 'pdf', query: 'sign it', shouldTrigger: true, outcomes: [ran('docx'), ran()] },
      { skill: 'docx', query: 'edit the letter', shouldTrigger: true, outcomes: [ran('pdf')] },
    ]);
    assert.deepEqual(
      report.confusions.map(({ expected, loaded, runs }) => `${expected} → ${loaded}: ${runs}`),
      ['pdf → docx: 2', 'docx → pdf: 1', 'pdf → (none): 1', 'pdf → zip: 1', 'xlsx → csv: 1'],
    );
    assert.equal(describeTaken(report.confusions[0]), `took 2 runs of pdf's queries ("fill the form", "sign it")`);
  });
});

describe('JUnit XML', () => {
  it('has a suite per skill and a case per query, with failures and errors counted and escaped', () => {
    const xml = junitXml('run "1"', [
      { skill: 'pdf', query: 'fill <the> "form" & sign', verdict: { kind: 'passed', rate: 1, triggeredRuns: 3, runs: 3, message: 'ok' }, seconds: 1.5 },
      { skill: 'pdf', query: 'merge', verdict: { kind: 'failed', rate: 0, triggeredRuns: 0, runs: 3, message: 'Triggered pdf in 0 of 3 runs.\nInstead: none' }, seconds: 0.25 },
      { skill: 'docx', query: 'edit', verdict: { kind: 'errored', message: 'HTTP 500' }, seconds: 0 },
    ]);
    assert.equal(
      xml,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="run &quot;1&quot;" tests="3" failures="1" errors="1" time="1.750">',
        '  <testsuite name="pdf" tests="2" failures="1" errors="0" time="1.750">',
        '    <testcase classname="pdf" name="fill &lt;the&gt; &quot;form&quot; &amp; sign" time="1.500"/>',
        '    <testcase classname="pdf" name="merge" time="0.250">',
        '      <failure message="Triggered pdf in 0 of 3 runs.&#10;Instead: none"/>',
        '    </testcase>',
        '  </testsuite>',
        '  <testsuite name="docx" tests="1" failures="0" errors="1" time="0.000">',
        '    <testcase classname="docx" name="edit" time="0.000">',
        '      <error message="HTTP 500"/>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('drops characters XML cannot carry', () => {
    assert.equal(escapeXml('a\u0000b\u001bc\td'), 'abc\td');
  });
});
