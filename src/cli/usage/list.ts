import { PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const LIST_USAGE = {
  name: 'list',
  synopses: [['agent-skills list [--json] [--project DIR] [ROOT…]']],
  summary: 'List every skill with its status, source ROOT and description.',
  options: { json: 'flag', ...PROJECT_OPTION },
  description: `List every skill with its status (available, shadowed, invalid...), source ROOT and
             description, or why it cannot be used.
               --json     print {"skills":[...],"problems":[...]} instead of a table`,
} as const satisfies CommandUsage;
