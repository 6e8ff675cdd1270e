import { DEFAULT_CATALOG_BUDGET_CHARS, DEFAULT_CONTEXT_TOKENS } from '../../core/defaults';
import { PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const CATALOG_USAGE = {
  name: 'catalog',
  synopses: [['agent-skills catalog [--budget-chars N] [--verbose] [--target ID]… [--context TOKENS] [--project DIR] [ROOT…]']],
  summary: 'Print the exact <available_skills> block a chat model is given.',
  options: { 'budget-chars': 'value', verbose: 'flag', target: 'repeated', context: 'value', ...PROJECT_OPTION },
  description: `Print the exact <available_skills> block a chat model is given. Skills that do not fit
             the budget are listed by name only, and counted on stderr.
               --budget-chars N   character budget (default ${DEFAULT_CATALOG_BUDGET_CHARS})
               --verbose          also name the skills past the budget on stderr
               --target ID        print host ID's list of the skills instead, at its own budget rule,
                                  and name on stderr what it shortens, lists by name only or leaves out
               --context TOKENS   the context size for that budget (default ${DEFAULT_CONTEXT_TOKENS})`,
} as const satisfies CommandUsage;
