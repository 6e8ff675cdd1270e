import { MAX_FIND_MATCHES } from '../../core/defaults';
import { PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const FIND_USAGE = {
  name: 'find',
  synopses: [['agent-skills find [--json] [--limit N] [--project DIR] QUERY [ROOT…]']],
  summary: 'Rank the skills a chat model may invoke for QUERY, as the find tool does.',
  options: { json: 'flag', limit: 'value', ...PROJECT_OPTION },
  description: `Rank the skills a chat model may invoke for QUERY, best first, as the find tool does:
             by name and description, forgiving other word forms, prefixes and typos.
               --limit N  show at most N matches (default ${MAX_FIND_MATCHES})
               --json     print {"matches":[{"name","description","score","path"}]} instead, best first`,
} as const satisfies CommandUsage;
