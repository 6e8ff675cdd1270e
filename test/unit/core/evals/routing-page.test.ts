import * as assert from 'node:assert/strict';
import { NO_SKILL, routingReport, type RoutedQuery } from '../../../../src/core/evals/routing';
import { describeQueryCounts, heatStep, matrixAxes, parseRoutingPageMessage, renderRoutingPage, renderRoutingReport } from '../../../../src/core/evals/routing-page';
import type { RunOutcome } from '../../../../src/core/evals/verdict';

const ran = (...loaded: string[]): RunOutcome => ({ kind: 'completed', triggered: false, loaded, firstLine: '' });
const NONCE = 'bm9uY2Utb2YtdGVzdA==';

const queries: RoutedQuery[] = [
  { skill: 'pdf', query: 'fill the form', shouldTrigger: true, outcomes: [ran('pdf'), ran('docx'), ran('docx')] },
  { skill: 'pdf', query: 'merge two pdfs', shouldTrigger: true, outcomes: [ran(), ran('pdf'), ran('pdf')] },
  { skill: 'docx', query: 'edit the letter', shouldTrigger: true, outcomes: [ran('docx'), ran('docx')] },
  { skill: 'docx', query: 'open a pdf', shouldTrigger: false, outcomes: [ran('docx'), ran()] },
  { skill: 'pdf', query: 'write a poem', shouldTrigger: false, outcomes: [ran()] },
];
const run = { report: routingReport(queries), model: 'Scripted Model', endedAt: Date.UTC(2026, 10, 26, 18, 5), queries: { passed: 3, failed: 2, errored: 0, skipped: 0 } };

/** The text a cell's button shows, by row and column, read back from the page. */
function matrix(page: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) =>
      cell
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

describe('routing report page', () => {
  it('allows nothing but its own nonced style and script, and puts the nonce on every script and style', () => {
    for (const page of [renderRoutingPage({ nonce: NONCE }), renderRoutingPage({ nonce: NONCE, run })]) {
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1];
      assert.equal(policy, `default-src 'none'; style-src 'nonce-${NONCE}'; script-src 'nonce-${NONCE}'`);
      const scripts = [...page.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
      assert.deepEqual(scripts, [`<script nonce="${NONCE}">`]);
      assert.deepEqual(
        [...page.matchAll(/<style\b[^>]*>/g)].map(([tag]) => tag),
        [`<style nonce="${NONCE}">`],
      );
      // Nothing remote, no inline handlers or style attributes (the policy would block them silently).
      assert.doesNotMatch(page, /https?:\/\/|\bsrc=|\son\w+=|\sstyle=/);
    }
  });

  it('holds the report in one element, which the page redraws from the extension’s message, and says when it is ready', () => {
    for (const report of [undefined, run]) {
      const page = renderRoutingPage({ nonce: NONCE, run: report });
      assert.ok(page.includes(`<main id="report">\n${renderRoutingReport(report)}\n</main>`));
    }
    const script = /<script[^>]*>([\s\S]*)<\/script>/.exec(renderRoutingPage({ nonce: NONCE }))?.[1] ?? '';
    assert.match(script, /event\.data\.type === 'showReport'\) document\.getElementById\('report'\)\.innerHTML = event\.data\.body;/);
    assert.match(script, /\nvscode\.postMessage\(\{ type: 'ready' \}\);\n$/);
    // Clicks are handled on the document, so buttons of a report drawn anew work.
    assert.match(script, /document\.addEventListener\('click'/);
  });

  it('shows the empty state with a run button before any run', () => {
    const page = renderRoutingPage({ nonce: NONCE });
    assert.match(page, /Run trigger tests to see routing/);
    assert.match(page, /<button class="action" data-action="run">Run trigger tests<\/button>/);
    assert.doesNotMatch(page, /<table>/);
  });

  it('draws the matrix with the worst-routed skill first and the right answers on the diagonal, with shares and rates', () => {
    const page = renderRoutingPage({ nonce: NONCE, run });
    assert.deepEqual(matrix(page), [
      // pdf: 6 runs, 3 right; docx took 2, none 1.
      ['pdf', '3 50%', '2 33%', '1 17%', '50% (3 of 6)'],
      ['docx', '', '2 100%', '', '100% (2 of 2)'],
    ]);
    assert.match(page, /<thead><tr><th class="corner" scope="col">expected ↓ · loaded →<\/th><th scope="col">pdf<\/th><th scope="col">docx<\/th><th scope="col">\(none\)<\/th>/);
    assert.match(
      page,
      /Scripted Model, ended 2026-11-26 18:05 UTC: 3 of 5 queries passed, 2 failed\. Runs of queries that should trigger: 5 runs of 8 loaded the expected skill \(63%\) over 2 skills\./,
    );
  });

  it('shades each cell by its share of the row, green when right, red when another skill, orange when none', () => {
    const page = renderRoutingPage({ nonce: NONCE, run });
    const classes = [...page.matchAll(/<td class="cell ([^"]*)">/g)].map(([, names]) => names);
    assert.deepEqual(classes, ['right heat-3', 'wrong heat-2', 'missed heat-1', 'heat-0', 'right heat-5', 'heat-0']);
    assert.equal(heatStep(0, 6), 0);
    assert.equal(heatStep(1, 100), 1);
    assert.equal(heatStep(21, 100), 2);
    assert.equal(heatStep(100, 100), 5);
    // Theme colours only, from VS Code's variables.
    assert.match(page, /\.wrong \{ --heat: var\(--vscode-charts-red, var\(--vscode-errorForeground\)\); \}/);
    assert.match(page, /color-mix\(in srgb, var\(--heat\) 62%, var\(--vscode-editor-background\)\)/);
  });

  it('lists the worst confusions first, each selecting the cell whose queries it opens', () => {
    const page = renderRoutingPage({ nonce: NONCE, run });
    const confusions = [...page.matchAll(/<li><button class="link" data-cell="(cell-\d+)">([^<]*)<\/button><\/li>/g)].map(([, id, text]) => [id, text]);
    assert.deepEqual(
      confusions.map(([, text]) => text),
      ['pdf → docx: 2 runs of 6 (33%)', 'pdf → no skill: 1 run of 6 (17%)'],
    );
    const [id] = confusions[0];
    // The matrix cell opens the same section, which lists the query behind it.
    assert.match(page, new RegExp(`<button data-cell="${id}" aria-pressed="false" title="pdf: 2 runs of 6 loaded docx \\(33%\\)">2`));
    const section = new RegExp(`<section class="detail" id="${id}" hidden>(.*?)</section>`).exec(page)?.[1] ?? '';
    assert.match(section, /<h3>pdf: 2 runs of 6 loaded docx \(33%\)<\/h3>/);
    assert.match(section, /“fill the form” <span class="runs">2 runs<\/span> <button class="link" data-skill="pdf" data-query="fill the form">Show in Testing view<\/button>/);
    assert.doesNotMatch(section, /merge two pdfs/);
  });

  it('lists should-not-trigger queries that fired their skill', () => {
    const page = renderRoutingPage({ nonce: NONCE, run });
    assert.match(page, /<h2>Should not trigger, but did<\/h2>\n<ul>\n<li>docx: “open a pdf” <span class="runs">1 run<\/span>/);
    assert.doesNotMatch(page, /write a poem/);
  });

  it('escapes every text it shows from skills, queries and the model name', () => {
    const hostile = '<img src=x onerror="alert(1)">&';
    const report = routingReport([{ skill: 'pdf', query: hostile, shouldTrigger: true, outcomes: [ran('a"b<c>')] }]);
    const page = renderRoutingPage({ nonce: NONCE, run: { ...run, report, model: '</script><script>alert(2)</script>', endedAt: 0 } });
    assert.doesNotMatch(page, /<img|<script>alert|data-skill="pdf" data-query="<|a"b/);
    assert.match(page, /“&lt;img src=x onerror=&quot;alert\(1\)&quot;&gt;&amp;”/);
    assert.match(page, /<th scope="col">a&quot;b&lt;c&gt;<\/th>/);
    assert.match(page, /&lt;\/script&gt;&lt;script&gt;alert\(2\)/);
  });

  it('orders columns as the rows, then other skills that took queries, then none', () => {
    const report = routingReport([
      { skill: 'b', query: 'q1', shouldTrigger: true, outcomes: [ran('zeta'), ran('b')] },
      { skill: 'a', query: 'q2', shouldTrigger: true, outcomes: [ran('a'), ran()] },
      { skill: 'c', query: 'q3', shouldTrigger: true, outcomes: [ran('c')] },
    ]);
    assert.deepEqual(matrixAxes(report), { rows: ['a', 'b', 'c'], columns: ['a', 'b', 'c', 'zeta', NO_SKILL] });
  });

  it('accepts only the messages it posts', () => {
    assert.deepEqual(parseRoutingPageMessage({ type: 'runTriggerTests' }), { type: 'runTriggerTests' });
    assert.deepEqual(parseRoutingPageMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseRoutingPageMessage({ type: 'revealQuery', skill: 'pdf', query: 'q' }), { type: 'revealQuery', skill: 'pdf', query: 'q' });
    assert.equal(parseRoutingPageMessage({ type: 'revealQuery', skill: 'pdf' }), undefined);
    assert.equal(parseRoutingPageMessage('runTriggerTests'), undefined);
    assert.equal(parseRoutingPageMessage(null), undefined);
    assert.equal(parseRoutingPageMessage({ type: 'revealQuery', skill: 1, query: 'q' }), undefined);
    assert.equal(parseRoutingPageMessage({ type: 'revealQuery', query: 'q' }), undefined);
    assert.equal(parseRoutingPageMessage({ type: 'showReport', skill: 'pdf', query: 'q' }), undefined);
    assert.equal(parseRoutingPageMessage(undefined), undefined);
  });

  it('names the right cell as loading the skill itself, in its title and its queries', () => {
    const page = renderRoutingPage({ nonce: NONCE, run });
    assert.match(page, /title="pdf: 3 runs of 6 loaded it \(50%\)">3<span class="share">50%<\/span>/);
    assert.match(page, /<h3>docx: 2 runs of 2 loaded it \(100%\)<\/h3><ul><li>“edit the letter” <span class="runs">2 runs<\/span>/);
    assert.match(page, /<h3>pdf: 1 run of 6 loaded no skill \(17%\)<\/h3>/);
    assert.ok(
      page.includes(
        '<h3>pdf: 3 runs of 6 loaded it (50%)</h3><ul>' +
          '<li>“fill the form” <span class="runs">1 run</span> <button class="link" data-skill="pdf" data-query="fill the form">Show in Testing view</button></li>' +
          '<li>“merge two pdfs” <span class="runs">2 runs</span> <button class="link" data-skill="pdf" data-query="merge two pdfs">Show in Testing view</button></li></ul>',
      ),
    );
  });

  it('says when the last run reached the model with no query meant to trigger, and when none of its runs completed', () => {
    const none = renderRoutingReport({ ...run, report: routingReport([{ skill: 'pdf', query: 'write a poem', shouldTrigger: false, outcomes: [ran()] }]) });
    assert.match(none, /<p class="summary">The last run had no should-trigger query that reached the model\. Queries live in each skill's <code>evals\/triggers\.json<\/code>\.<\/p>/);
    assert.doesNotMatch(renderRoutingReport(undefined), /The last run/);
    const errored = renderRoutingReport({ ...run, report: routingReport([{ skill: 'pdf', query: 'fill the form', shouldTrigger: true, outcomes: [{ kind: 'errored', message: 'HTTP 500' }] }]) });
    assert.match(errored, /: 0 runs of 0 loaded the expected skill \(0%\) over 1 skill\./);
    assert.deepEqual(matrix(errored), [['pdf', '', '0% (0 of 0)']]);
    assert.match(errored, /<p>None: every run of a should-trigger query loaded its skill\.<\/p>/);
    assert.doesNotMatch(errored, /Should not trigger, but did/);
  });

  it('heads the report with the queries as the Testing view counts them, and never says no confusion without the false triggers', () => {
    // Every should-trigger run loaded its skill, yet 2 of 22 queries failed: they should not have triggered.
    const routed: RoutedQuery[] = [
      ...Array.from({ length: 20 }, (_, index): RoutedQuery => ({ skill: 'pdf', query: `fill form ${index}`, shouldTrigger: true, outcomes: [ran('pdf')] })),
      { skill: 'pdf', query: 'write a poem', shouldTrigger: false, outcomes: [ran('pdf')] },
      { skill: 'pdf', query: 'merge two letters', shouldTrigger: false, outcomes: [ran('pdf')] },
    ];
    const page = renderRoutingReport({ ...run, report: routingReport(routed), queries: { passed: 20, failed: 2, errored: 0, skipped: 0 } });
    assert.match(page, /UTC: 20 of 22 queries passed, 2 failed\. Runs of queries that should trigger: 20 runs of 20 loaded the expected skill \(100%\) over 1 skill\./);
    assert.match(
      page,
      /<h2>Worst confusions<\/h2>\n<p>None among the queries that should trigger, but 2 queries that should not trigger loaded their skill: see “Should not trigger, but did” below\.<\/p>/,
    );
    assert.doesNotMatch(page, /None: every run/);
    assert.equal(describeQueryCounts({ passed: 1, failed: 0, errored: 2, skipped: 3 }), '1 of 6 queries passed, 2 errored, 3 not run');
    assert.equal(describeQueryCounts({ passed: 1, failed: 0, errored: 0, skipped: 0 }), '1 of 1 query passed');
  });

  it('orders rows routed alike by name, and leaves out the none column when every run loaded a skill', () => {
    const report = routingReport([
      { skill: 'zeta', query: 'q1', shouldTrigger: true, outcomes: [ran('zeta'), ran('alpha')] },
      { skill: 'alpha', query: 'q2', shouldTrigger: true, outcomes: [ran('zeta'), ran('alpha')] },
      { skill: 'mid', query: 'q3', shouldTrigger: true, outcomes: [ran('mid')] },
    ]);
    assert.deepEqual(matrixAxes(report), { rows: ['alpha', 'zeta', 'mid'], columns: ['alpha', 'zeta', 'mid'] });
    const page = renderRoutingReport({ ...run, report });
    assert.deepEqual(matrix(page), [
      ['alpha', '1 50%', '1 50%', '', '50% (1 of 2)'],
      ['zeta', '1 50%', '1 50%', '', '50% (1 of 2)'],
      ['mid', '', '', '1 100%', '100% (1 of 1)'],
    ]);
    assert.match(page, /3 runs of 5 loaded the expected skill \(60%\) over 3 skills\./);
  });

  it('is a whole HTML document titled Routing Report around the report', () => {
    const page = renderRoutingPage({ nonce: NONCE })
      .replace(/(<style nonce="[^"]*">)[\s\S]*?<\/style>/, '$1…</style>')
      .replace(/(<script nonce="[^"]*">)[\s\S]*?<\/script>/, '$1…</script>');
    assert.equal(
      page,
      [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${NONCE}'; script-src 'nonce-${NONCE}'">`,
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>Routing Report</title>',
        `<style nonce="${NONCE}">…</style>`,
        '</head>',
        '<body>',
        '<main id="report">',
        '<h1>Routing report</h1>',
        '<p>Run trigger tests to see routing: which skill the model loaded for each query meant for a skill, across all your skills.</p>',
        `<p class="summary">No trigger-test run has reached a model in this window yet. Queries live in each skill's <code>evals/triggers.json</code>.</p>`,
        '<p><button class="action" data-action="run">Run trigger tests</button></p>',
        '</main>',
        `<script nonce="${NONCE}">…</script>`,
        '</body>',
        '</html>',
        '',
      ].join('\n'),
    );
  });

  it('draws a small run in full: summary, confusions, matrix, the queries of each cell, the false triggers', () => {
    const small = routingReport([
      { skill: 'pdf', query: 'fill the form', shouldTrigger: true, outcomes: [ran('pdf'), ran('docx')] },
      { skill: 'docx', query: 'edit the letter', shouldTrigger: true, outcomes: [ran('docx')] },
      { skill: 'docx', query: 'open a pdf', shouldTrigger: false, outcomes: [ran('docx')] },
    ]);
    const reveal = (skill: string, query: string): string => `<button class="link" data-skill="${skill}" data-query="${query}">Show in Testing view</button>`;
    assert.equal(
      renderRoutingReport({ ...run, report: small }),
      [
        '<h1>Routing report</h1>',
        '<p class="summary">Last trigger-test run, Scripted Model, ended 2026-11-26 18:05 UTC: 3 of 5 queries passed, 2 failed. Runs of queries that should trigger: 2 runs of 3 loaded the expected skill (67%) over 2 skills. <button class="action" data-action="run">Run again</button></p>',
        '<h2>Worst confusions</h2>',
        '<ol>',
        '<li><button class="link" data-cell="cell-1">pdf → docx: 1 run of 2 (50%)</button></li>',
        '</ol>',
        '<h2>Expected × loaded</h2>',
        '<p class="legend">Each row is a skill whose should-trigger queries ran; each column the skill a run loaded. Cells give runs and the share of the row; select one for its queries. <span class="swatch right heat-5"></span> loaded the expected skill · <span class="swatch wrong heat-5"></span> loaded another skill · <span class="swatch missed heat-5"></span> loaded none</p>',
        '<div class="scroll"><table>',
        '<thead><tr><th class="corner" scope="col">expected ↓ · loaded →</th><th scope="col">pdf</th><th scope="col">docx</th><th class="corner" scope="col">routed right</th></tr></thead>',
        '<tbody>',
        '<tr><th scope="row">pdf</th>' +
          '<td class="cell right heat-3"><button data-cell="cell-0" aria-pressed="false" title="pdf: 1 run of 2 loaded it (50%)">1<span class="share">50%</span></button></td>' +
          '<td class="cell wrong heat-3"><button data-cell="cell-1" aria-pressed="false" title="pdf: 1 run of 2 loaded docx (50%)">1<span class="share">50%</span></button></td>' +
          '<td class="rate">50% <span class="runs">(1 of 2)</span></td></tr>',
        '<tr><th scope="row">docx</th>' +
          '<td class="cell heat-0"></td>' +
          '<td class="cell right heat-5"><button data-cell="cell-2" aria-pressed="false" title="docx: 1 run of 1 loaded it (100%)">1<span class="share">100%</span></button></td>' +
          '<td class="rate">100% <span class="runs">(1 of 1)</span></td></tr>',
        '</tbody></table></div>',
        '<h2>Queries</h2>',
        '<p class="summary" id="no-selection">Select a cell or a confusion to see its queries.</p>',
        `<section class="detail" id="cell-0" hidden><h3>pdf: 1 run of 2 loaded it (50%)</h3><ul><li>“fill the form” <span class="runs">1 run</span> ${reveal('pdf', 'fill the form')}</li></ul></section>`,
        `<section class="detail" id="cell-1" hidden><h3>pdf: 1 run of 2 loaded docx (50%)</h3><ul><li>“fill the form” <span class="runs">1 run</span> ${reveal('pdf', 'fill the form')}</li></ul></section>`,
        `<section class="detail" id="cell-2" hidden><h3>docx: 1 run of 1 loaded it (100%)</h3><ul><li>“edit the letter” <span class="runs">1 run</span> ${reveal('docx', 'edit the letter')}</li></ul></section>`,
        '<h2>Should not trigger, but did</h2>',
        '<ul>',
        `<li>docx: “open a pdf” <span class="runs">1 run</span> ${reveal('docx', 'open a pdf')}</li>`,
        '</ul>',
      ].join('\n'),
    );
  });
});
