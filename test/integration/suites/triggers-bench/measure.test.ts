// Measurements for bench/sections/triggers.ts, taken inside a real VS Code; not part of
// `npm run test:integration` (the suite is not in registry.ts). The bench section launches it with
// AGENT_SKILLS_BENCH_OUTPUT naming the file the figures go to.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TriggersBenchFigures } from '../../../../bench/triggers-figures';
import { productApi } from '../../chat-helpers';
import { workspaceSkillsFolder } from '../../editor-helpers';
import { findItem, runItems, triggerTests } from '../../trigger-helpers';
import { scriptedModel, scriptedChatModel } from '../../util';

const QUERIES = 30;
const RUNS = 3;
const MODEL_LATENCY_MS = 200;
const REPETITIONS = 3;
const outputFile = process.env.AGENT_SKILLS_BENCH_OUTPUT;

describe('trigger tests benchmark', function () {
  before(function () {
    if (!outputFile) {
      this.skip();
    }
  });

  it(`runs ${QUERIES} queries × ${RUNS} runs against a model answering in ${MODEL_LATENCY_MS} ms`, async () => {
    const file = path.join(workspaceSkillsFolder(), 'sheets', 'evals', 'triggers.json');
    const queries = Array.from({ length: QUERIES }, (_, index) =>
      index % 2 === 0 ? { query: `chart spreadsheet number ${index}`, should_trigger: true } : { query: `write a limerick number ${index}`, should_trigger: false },
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ runs: RUNS, queries }, null, 2));
    const api = await productApi();
    await scriptedChatModel();
    const controller = await triggerTests();
    const skill = await (async () => {
      for (let attempt = 0; attempt < 100; attempt++) {
        await api.whenIdle();
        try {
          const item = findItem(controller, 'sheets');
          if (item.children.size === QUERIES) {
            return item;
          }
        } catch {
          // Not listed yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the benchmark queries were not listed');
    })();
    const model = await scriptedModel();
    const elapsedMs: number[] = [];
    let requests = 0;
    for (let repetition = 0; repetition < REPETITIONS; repetition++) {
      model.reset();
      model.answerByRules({ rules: [{ keywords: ['spreadsheet'], activate: 'sheets' }], otherwise: 'No skill needed.', delayMs: MODEL_LATENCY_MS });
      const started = performance.now();
      const results = await runItems(controller, [skill]);
      elapsedMs.push(performance.now() - started);
      requests = model.requests().length;
      assert.equal(results.size, QUERIES);
      assert.ok([...results.values()].every((result) => result.verdict.kind === 'passed'));
    }
    const concurrency = vscode.workspace.getConfiguration('agentSkills.triggerTests').get<number>('concurrency', 4);
    const figures: TriggersBenchFigures = { queries: QUERIES, runsPerQuery: RUNS, modelLatencyMs: MODEL_LATENCY_MS, concurrency, requests, elapsedMs };
    fs.writeFileSync(outputFile!, JSON.stringify(figures));
  });
});
