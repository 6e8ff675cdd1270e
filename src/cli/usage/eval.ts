import { DEFAULT_CONCURRENCY, DEFAULT_RUNS } from '../../core/defaults';
import { ENDPOINT_OPTIONS } from './shared-options';
import type { CommandUsage } from './command-usage';

export const EVAL_USAGE = {
  name: 'eval',
  synopses: [['agent-skills eval --endpoint URL --model ID [--api openai|anthropic] [--runs N] [--concurrency N]', '[--junit FILE] [--json] [--baseline GIT-REF] ROOT…']],
  summary: "Run the skills' trigger tests against a chat endpoint, with the routing.",
  options: { ...ENDPOINT_OPTIONS, runs: 'value', junit: 'value', json: 'flag', baseline: 'value' },
  description: `Run the skills' trigger tests (evals/triggers.json) against a chat endpoint: each query
             sent as @skills's first turn (the whole catalog, the same tools), several runs each,
             passing by trigger rate; prints each verdict and the routing (which skill took which
             query). The key comes from OPENAI_API_KEY or ANTHROPIC_API_KEY (local servers need none).
               --endpoint URL     the API's base URL, e.g. http://localhost:11434/v1 (Ollama),
                                  https://api.openai.com/v1, https://api.anthropic.com
               --api NAME         openai (chat completions, the default) or anthropic (messages)
               --runs N           runs per query (default: the file's "runs", else ${DEFAULT_RUNS})
               --concurrency N    requests at a time (default ${DEFAULT_CONCURRENCY})
               --junit FILE       also write JUnit XML: a test suite per skill, a test case per query
               --json             print the results as JSON, routing included
               --baseline REF     run the same queries with the descriptions at git REF too, and
                                  fail when a skill passes fewer of them now
             Exit 1 when a query fails, a trigger file has errors or the baseline shows a regression;
             3 when some queries got no verdict (every request errored) and none failed.`,
} as const satisfies CommandUsage;
