// Trigger tests at the size of a real skill's file: 30 queries × 3 runs against a model that answers
// every request in 200 ms. The ideal is what the concurrency limit allows (every slot busy from
// start to end: ceil(requests / limit) × 200 ms); the figures say how close a run gets to it.
// - in VS Code: the Testing view's run handler with the scripted model behind VS Code's language
//   model API (test/integration/suites/triggers-bench), the median of several runs in one window;
// - the core scheduler alone with an in-process model of the same latency, for comparison.
//
// Figures (sections.triggers in bench-results.json): queries, runsPerQuery, modelLatencyMs,
// concurrency, requests, idealMs, editorElapsedMs, editorVsIdealRatio, coreElapsedMs,
// coreVsIdealRatio, and the editorVsIdealGoal verdict (goal ≤ 1.25).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileIntegrationTests } from '../../scripts/harness/compile-tests';
import { runSuite } from '../../scripts/harness/launcher';
import { repositoryRoot } from '../../scripts/harness/repository';
import { triggerTestPrompt } from '../../src/core/evals/request';
import { DEFAULT_CONCURRENCY } from '../../src/core/defaults';
import { runTriggerJobs, type TriggerJob, type TriggerModel } from '../../src/core/evals/run';
import { median } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';
import type { TriggersBenchFigures } from '../triggers-figures';

const GOAL_RATIO = 1.25;

export async function run(): Promise<BenchFigures> {
  const editor = await measureInVsCode();
  const requests = editor.queries * editor.runsPerQuery;
  if (editor.requests !== requests) {
    throw new Error(`the scripted model received ${editor.requests} requests, expected ${requests}`);
  }
  const idealMs = Math.ceil(requests / editor.concurrency) * editor.modelLatencyMs;
  const editorElapsedMs = median(editor.elapsedMs);
  const coreElapsedMs = await measureCore(editor.queries, editor.runsPerQuery, editor.modelLatencyMs);
  printFigure(`${editor.queries} queries × ${editor.runsPerQuery} runs, ${editor.modelLatencyMs} ms a request, ${editor.concurrency} at a time`, requests, ' requests');
  printFigure('ideal for the concurrency limit', idealMs, ' ms');
  printFigure(`in VS Code, run handler start to end (median of ${editor.elapsedMs.length})`, editorElapsedMs, ' ms');
  printFigure('core scheduler alone, in-process model', coreElapsedMs, ' ms');
  printFigure('  core ÷ ideal', coreElapsedMs / idealMs, '×');
  const ratio = editorElapsedMs / idealMs;
  return {
    queries: editor.queries,
    runsPerQuery: editor.runsPerQuery,
    modelLatencyMs: editor.modelLatencyMs,
    concurrency: editor.concurrency,
    requests,
    idealMs,
    editorElapsedMs: round(editorElapsedMs, 1),
    editorVsIdealRatio: round(ratio, 3),
    coreElapsedMs: round(coreElapsedMs, 1),
    coreVsIdealRatio: round(coreElapsedMs / idealMs, 3),
    editorVsIdealGoal: checkGoal({ label: 'trigger-test run in VS Code, elapsed ÷ ideal', value: ratio, unit: '×', target: GOAL_RATIO, better: 'lower' }),
  };
}

async function measureInVsCode(): Promise<TriggersBenchFigures> {
  const build = spawnSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error('npm run build failed; the triggers benchmark needs dist/extension.js');
  }
  const compiledTestsFolder = await compileIntegrationTests();
  const scratch = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-triggers-bench-')));
  const outputFile = path.join(scratch, 'figures.json');
  const lines: string[] = [];
  try {
    const result = await runSuite(
      {
        name: 'triggers-bench',
        workspaces: ['triggers'],
        trusted: true,
        env: { AGENT_SKILLS_BENCH_OUTPUT: outputFile },
        settings: { 'agentSkills.builtinSkills': false, 'agentSkills.triggerTests.model': 'scripted', 'agentSkills.triggerTests.confirmAbove': 1000 },
      },
      { compiledTestsFolder, log: (line) => lines.push(line) },
    );
    if (result.exitCode !== 0 || result.passed !== 1) {
      console.log(lines.slice(-40).join('\n'));
      throw new Error(`the triggers-bench suite failed (${result.problem ?? `${result.failed} failed, ${result.pending} skipped`})`);
    }
    return JSON.parse(await fs.readFile(outputFile, 'utf8')) as TriggersBenchFigures;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The same run through core's scheduler with an in-process model of the same latency. */
async function measureCore(queries: number, runs: number, latencyMs: number): Promise<number> {
  const jobs: TriggerJob[] = Array.from({ length: queries }, (_, index) => ({
    skill: 'sheets',
    query: {
      query: index % 2 === 0 ? `chart spreadsheet number ${index}` : `write a limerick number ${index}`,
      shouldTrigger: index % 2 === 0,
      range: { start: { line: index, column: 0 }, end: { line: index, column: 0 } },
    },
    runs,
    threshold: 0.5,
  }));
  const model: TriggerModel = {
    async send(messages) {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const query =
        messages
          .at(-1)
          ?.parts.map((part) => (part.kind === 'text' ? part.text : ''))
          .join('') ?? '';
      return query.includes('spreadsheet') ? { text: '', calls: [{ callId: 'c1', name: 'skills_activate', input: { name: 'sheets' } }] } : { text: 'No skill needed.', calls: [] };
    },
    answerTool: async () => '',
  };
  const catalogText = '<available_skills>\n<skill name="sheets">Builds charts from spreadsheets.</skill>\n</available_skills>';
  const started = performance.now();
  const summary = await runTriggerJobs(jobs, { prompt: (query) => triggerTestPrompt(catalogText, 0, query), model, concurrency: DEFAULT_CONCURRENCY, token: { isCancellationRequested: false } });
  const elapsed = performance.now() - started;
  if (summary.verdicts.size !== queries) {
    throw new Error(`the core run gave ${summary.verdicts.size} verdicts for ${queries} queries`);
  }
  return elapsed;
}
