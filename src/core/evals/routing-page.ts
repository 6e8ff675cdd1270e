// The routing report's page: the matrix of expected skill × loaded skill over the last trigger-test
// run, shaded by share of the row's runs, the worst confusions first, and behind each cell the
// queries that landed there. Pure HTML for a webview: theme colours only through VS Code's CSS
// variables, nothing remote, and a Content-Security-Policy that runs only the nonce's style and script.

import { plural } from '../util/text';
import { escapeXml } from './junit';
import { NO_SKILL, type RoutingCell, type RoutingReport } from './routing';

/** How the run's queries fared, each as the Testing view marks it. */
export interface QueryCounts {
  passed: number;
  failed: number;
  errored: number;
  /** Cancelled or not sent. */
  skipped: number;
}

export interface RoutingRunInfo {
  report: RoutingReport;
  /** The model's name, as the Testing view's output names it. */
  model: string;
  /** When the run ended, as epoch milliseconds. */
  endedAt: number;
  queries: QueryCounts;
}

/** "20 of 22 queries passed, 2 failed": the run's queries as the Testing view counts them. */
export function describeQueryCounts(counts: QueryCounts): string {
  const total = counts.passed + counts.failed + counts.errored + counts.skipped;
  const others = [counts.failed > 0 ? `${counts.failed} failed` : '', counts.errored > 0 ? `${counts.errored} errored` : '', counts.skipped > 0 ? `${counts.skipped} not run` : ''].filter(Boolean);
  return [`${counts.passed} of ${plural(total, 'query', 'queries')} passed`, ...others].join(', ');
}

export interface RoutingPageOptions {
  /** A fresh random value per page: the only style and script that run carry it. */
  nonce: string;
  /** The last run's routing; undefined until a run reached a model. */
  run?: RoutingRunInfo;
}

/** Messages the page posts to the extension; `ready` once it has loaded (also when VS Code reloads a hidden page). */
export type RoutingPageMessage = { type: 'ready' } | { type: 'runTriggerTests' } | { type: 'revealQuery'; skill: string; query: string };

/** The message the extension posts to an open page: the report drawn anew in place, the page itself staying. */
export interface RoutingPageUpdate {
  type: 'showReport';
  /** What renderRoutingReport gives. */
  body: string;
}

/** The element of the page that holds the report. */
const REPORT_ID = 'report';

/** Shading steps: the share of a row's runs in a cell, rounded up to the next fifth. */
const HEAT_STEPS = 5;

const html = (text: string): string => escapeXml(text);
const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** The shading class of a cell with `runs` of its row's `rowRuns` (at least one): heat-0 (none) to heat-5 (every run of the row). */
export function heatStep(runs: number, rowRuns: number): number {
  return Math.ceil((runs / rowRuns) * HEAT_STEPS);
}

/**
 * Rows: the worst routed first. Columns: the rows' skills in the same order (so the right answers
 * run down the diagonal), then other skills that took queries, then the runs that loaded none.
 */
export function matrixAxes(report: RoutingReport): { rows: string[]; columns: string[] } {
  const rows = [...report.rows].sort((a, b) => a.rate - b.rate || a.expected.localeCompare(b.expected)).map((row) => row.expected);
  const others = report.columns.filter((name) => name !== NO_SKILL && !rows.includes(name));
  return { rows, columns: [...rows, ...others, ...(report.columns.includes(NO_SKILL) ? [NO_SKILL] : [])] };
}

const cellId = (index: number): string => `cell-${index}`;

function cellLabel(cell: RoutingCell, rowRuns: number): string {
  const where = cell.loaded === NO_SKILL ? 'loaded no skill' : cell.loaded === cell.expected ? 'loaded it' : `loaded ${cell.loaded}`;
  return `${cell.expected}: ${plural(cell.runs, 'run')} of ${rowRuns} ${where} (${percent(cell.runs / rowRuns)})`;
}

function kindOf(cell: RoutingCell): string {
  return cell.loaded === cell.expected ? 'right' : cell.loaded === NO_SKILL ? 'missed' : 'wrong';
}

const STYLE = `
body { background: var(--vscode-editor-background); color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); padding: 0 16px 16px; line-height: 1.4; }
h1 { font-size: 1.4em; font-weight: 600; margin: 16px 0 4px; }
h2 { font-size: 1.1em; font-weight: 600; margin: 20px 0 6px; }
p, li { overflow-wrap: anywhere; }
.summary { color: var(--vscode-descriptionForeground); margin-top: 0; }
button { font: inherit; color: inherit; }
.action { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; padding: 4px 12px; cursor: pointer; }
.action:hover { background: var(--vscode-button-hoverBackground); }
.link { vertical-align: top; background: none; border: none; padding: 0; color: var(--vscode-textLink-foreground); cursor: pointer; text-align: left; }
.link:hover { text-decoration: underline; }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--vscode-editorWidget-border, var(--vscode-panel-border)); padding: 0; text-align: center; }
thead th { font-weight: 600; padding: 4px 6px; writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; max-height: 12em; white-space: nowrap; }
thead th.corner { writing-mode: horizontal-tb; transform: none; white-space: normal; vertical-align: bottom; color: var(--vscode-descriptionForeground); font-weight: normal; }
tbody th { text-align: left; padding: 4px 8px; font-weight: 600; }
td.rate { padding: 4px 8px; }
td.cell button { display: block; width: 100%; min-width: 2.6em; padding: 6px 2px; background: none; border: 2px solid transparent; cursor: pointer; }
td.cell button[aria-pressed="true"] { border-color: var(--vscode-focusBorder); }
td.cell .share { display: block; font-size: 0.85em; }
.right { --heat: var(--vscode-charts-green, var(--vscode-testing-iconPassed)); }
.wrong { --heat: var(--vscode-charts-red, var(--vscode-errorForeground)); }
.missed { --heat: var(--vscode-charts-orange, var(--vscode-editorWarning-foreground)); }
.heat-1 { background: color-mix(in srgb, var(--heat) 14%, var(--vscode-editor-background)); }
.heat-2 { background: color-mix(in srgb, var(--heat) 26%, var(--vscode-editor-background)); }
.heat-3 { background: color-mix(in srgb, var(--heat) 38%, var(--vscode-editor-background)); }
.heat-4 { background: color-mix(in srgb, var(--heat) 50%, var(--vscode-editor-background)); }
.heat-5 { background: color-mix(in srgb, var(--heat) 62%, var(--vscode-editor-background)); }
body.vscode-high-contrast td.cell:not(.heat-0), body.vscode-high-contrast-light td.cell:not(.heat-0) { outline: 2px solid var(--heat); outline-offset: -3px; }
.legend { color: var(--vscode-descriptionForeground); font-size: 0.9em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: -0.1em; border: 1px solid var(--vscode-editorWidget-border, transparent); }
.detail { border-left: 3px solid var(--vscode-textBlockQuote-border); padding: 2px 12px; margin: 8px 0; background: var(--vscode-textBlockQuote-background); }
.detail h3 { font-size: 1em; margin: 6px 0; }
.detail ul { padding-left: 18px; }
.runs { color: var(--vscode-descriptionForeground); }
`;

// Runs in the page: selects a cell (its queries shown, the others hidden), posts the actions, and
// draws the report the extension sends in place. Clicks are handled on the document, so a report
// drawn anew needs no handlers of its own.
const SCRIPT = `
const vscode = acquireVsCodeApi();
window.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'showReport') document.getElementById('${REPORT_ID}').innerHTML = event.data.body;
});
function select(id) {
  for (const section of document.querySelectorAll('.detail')) section.hidden = section.id !== id;
  for (const button of document.querySelectorAll('[data-cell]')) button.setAttribute('aria-pressed', String(button.dataset.cell === id));
  document.getElementById('no-selection').hidden = true;
  document.getElementById(id).scrollIntoView({ block: 'nearest' });
}
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button') : null;
  if (!target) return;
  if (target.dataset.cell) select(target.dataset.cell);
  else if (target.dataset.action === 'run') vscode.postMessage({ type: 'runTriggerTests' });
  else if (target.dataset.skill !== undefined) vscode.postMessage({ type: 'revealQuery', skill: target.dataset.skill, query: target.dataset.query });
});
vscode.postMessage({ type: 'ready' });
`;

function page(nonce: string, body: string): string {
  const policy = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${html(policy)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Routing Report</title>',
    `<style nonce="${html(nonce)}">${STYLE}</style>`,
    '</head>',
    '<body>',
    `<main id="${REPORT_ID}">`,
    body,
    '</main>',
    `<script nonce="${html(nonce)}">${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const RUN_BUTTON = (label: string): string => `<button class="action" data-action="run">${html(label)}</button>`;

/** The whole page, around the report. */
export function renderRoutingPage({ nonce, run }: RoutingPageOptions): string {
  return page(nonce, renderRoutingReport(run));
}

/** The report: the empty state before any run, else summary, worst confusions, matrix and the queries behind each cell. */
export function renderRoutingReport(run: RoutingRunInfo | undefined): string {
  if (!run || run.report.rows.length === 0) {
    return [
      '<h1>Routing report</h1>',
      '<p>Run trigger tests to see routing: which skill the model loaded for each query meant for a skill, across all your skills.</p>',
      `<p class="summary">${run ? 'The last run had no should-trigger query that reached the model.' : 'No trigger-test run has reached a model in this window yet.'} Queries live in each skill's <code>evals/triggers.json</code>.</p>`,
      `<p>${RUN_BUTTON('Run trigger tests')}</p>`,
    ].join('\n');
  }
  const { report } = run;
  const { rows, columns } = matrixAxes(report);
  // Every cell's expected skill has a row.
  const rowOf = new Map(report.rows.map((row) => [row.expected, row]));
  const runsOfRow = (expected: string): number => rowOf.get(expected)!.runs;
  const cells = report.cells;
  const indexOf = new Map(cells.map((cell, index) => [cell, index]));
  const right = report.rows.reduce((sum, row) => sum + Math.round(row.rate * row.runs), 0);
  const total = report.rows.reduce((sum, row) => sum + row.runs, 0);
  const ended = new Date(run.endedAt).toISOString().replace('T', ' ').slice(0, 16);

  const parts = [
    '<h1>Routing report</h1>',
    // The queries first, as the Testing view counts them; then the routing, which looks at should-trigger queries only.
    `<p class="summary">Last trigger-test run, ${html(run.model)}, ended ${ended} UTC: ${describeQueryCounts(run.queries)}. Runs of queries that should trigger: ${plural(right, 'run')} of ${total} loaded the expected skill (${percent(total === 0 ? 0 : right / total)}) over ${plural(rows.length, 'skill')}. ${RUN_BUTTON('Run again')}</p>`,
    '<h2>Worst confusions</h2>',
  ];
  if (report.confusions.length === 0 && report.falseTriggers.length > 0) {
    parts.push(
      `<p>None among the queries that should trigger, but ${plural(report.falseTriggers.length, 'query', 'queries')} that should not trigger loaded ${report.falseTriggers.length === 1 ? 'its' : 'their'} skill: see “Should not trigger, but did” below.</p>`,
    );
  } else if (report.confusions.length === 0) {
    parts.push('<p>None: every run of a should-trigger query loaded its skill.</p>');
  } else {
    parts.push('<ol>');
    for (const cell of report.confusions) {
      const rowTotal = runsOfRow(cell.expected);
      const to = cell.loaded === NO_SKILL ? 'no skill' : cell.loaded;
      parts.push(
        `<li><button class="link" data-cell="${cellId(indexOf.get(cell) ?? 0)}">${html(cell.expected)} → ${html(to)}: ${plural(cell.runs, 'run')} of ${rowTotal} (${percent(cell.runs / rowTotal)})</button></li>`,
      );
    }
    parts.push('</ol>');
  }

  parts.push(
    '<h2>Expected × loaded</h2>',
    '<p class="legend">Each row is a skill whose should-trigger queries ran; each column the skill a run loaded. Cells give runs and the share of the row; select one for its queries. ' +
      '<span class="swatch right heat-5"></span> loaded the expected skill · <span class="swatch wrong heat-5"></span> loaded another skill · <span class="swatch missed heat-5"></span> loaded none</p>',
    '<div class="scroll"><table>',
    `<thead><tr><th class="corner" scope="col">expected ↓ · loaded →</th>${columns.map((name) => `<th scope="col">${html(name)}</th>`).join('')}<th class="corner" scope="col">routed right</th></tr></thead>`,
    '<tbody>',
  );
  for (const expected of rows) {
    const row = rowOf.get(expected)!;
    const { runs } = row;
    const tds = columns.map((loaded) => {
      const cell = cells.find((candidate) => candidate.expected === expected && candidate.loaded === loaded);
      if (!cell) {
        return '<td class="cell heat-0"></td>';
      }
      const id = cellId(indexOf.get(cell) ?? 0);
      return `<td class="cell ${kindOf(cell)} heat-${heatStep(cell.runs, runs)}"><button data-cell="${id}" aria-pressed="false" title="${html(cellLabel(cell, runs))}">${cell.runs}<span class="share">${percent(cell.runs / runs)}</span></button></td>`;
    });
    parts.push(`<tr><th scope="row">${html(expected)}</th>${tds.join('')}<td class="rate">${percent(row.rate)} <span class="runs">(${Math.round(row.rate * runs)} of ${runs})</span></td></tr>`);
  }
  parts.push('</tbody></table></div>', '<h2>Queries</h2>', '<p class="summary" id="no-selection">Select a cell or a confusion to see its queries.</p>');
  cells.forEach((cell, index) => {
    const runs = runsOfRow(cell.expected);
    const items = cell.queries.map(
      (entry) =>
        `<li>“${html(entry.query)}” <span class="runs">${plural(entry.runs, 'run')}</span> <button class="link" data-skill="${html(cell.expected)}" data-query="${html(entry.query)}">Show in Testing view</button></li>`,
    );
    parts.push(`<section class="detail" id="${cellId(index)}" hidden><h3>${html(cellLabel(cell, runs))}</h3><ul>${items.join('')}</ul></section>`);
  });
  if (report.falseTriggers.length > 0) {
    parts.push('<h2>Should not trigger, but did</h2>', '<ul>');
    for (const entry of report.falseTriggers) {
      parts.push(
        `<li>${html(entry.skill)}: “${html(entry.query)}” <span class="runs">${plural(entry.runs, 'run')}</span> <button class="link" data-skill="${html(entry.skill)}" data-query="${html(entry.query)}">Show in Testing view</button></li>`,
      );
    }
    parts.push('</ul>');
  }
  return parts.join('\n');
}

/** A message from the page, checked: anything else is ignored. */
export function parseRoutingPageMessage(message: unknown): RoutingPageMessage | undefined {
  // Anything but an object reads as one without fields.
  const { type, skill, query } = Object(message) as Record<string, unknown>;
  if (type === 'ready' || type === 'runTriggerTests') {
    return { type };
  }
  if (type === 'revealQuery' && typeof skill === 'string' && typeof query === 'string') {
    return { type, skill, query };
  }
  return undefined;
}
