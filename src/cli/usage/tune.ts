import { MAX_TUNE_ROUNDS } from '../../core/defaults';
import { ENDPOINT_OPTIONS, PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const TUNE_USAGE = {
  name: 'tune',
  synopses: [['agent-skills tune NAME --endpoint URL --model ID [--api openai|anthropic] [--runs N] [--rounds N]', '[--seed N] [--concurrency N] [--write] [--project DIR] [ROOT…]']],
  summary: "Improve skill NAME's description against its trigger tests.",
  options: { ...ENDPOINT_OPTIONS, ...PROJECT_OPTION, runs: 'value', rounds: 'value', seed: 'value', write: 'flag' },
  description: `Improve skill NAME's description against its trigger tests: the queries are split
             about 60/40 into train and test (both kinds on each side, shuffled by --seed), the
             model proposes a description from the train queries that failed (never seeing a test
             query), each proposal is measured on both, up to --rounds rounds (default and most
             ${MAX_TUNE_ROUNDS}); the pick is the best test score, ties to the shorter, and only if it beats
             the current description. Prints the scores per round and the change as a diff; with
             --project or no ROOT, the current folder's skills.
               --write    write the picked description into SKILL.md (else asks on a terminal)
               --endpoint, --model, --api, --runs, --concurrency: as for eval`,
} as const satisfies CommandUsage;
