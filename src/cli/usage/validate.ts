import { DEFAULT_CONTEXT_TOKENS } from '../../core/defaults';
import { TARGET_IDS } from '../../core/targets/profiles';
import { PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const VALIDATE_USAGE = {
  name: 'validate',
  synopses: [['agent-skills validate [--strict] [--json] [--target ID]… [--context TOKENS] [--project DIR] [PATH…]']],
  summary: 'Check each skill in full: frontmatter, name, description, body, links, rivals.',
  options: { strict: 'flag', json: 'flag', target: 'repeated', context: 'value', ...PROJECT_OPTION },
  description: `Check each skill in full: frontmatter fields, name, description, body length and links,
             and warn about skills competing for the same queries (alike descriptions, trigger
             queries another skill ranks first for).
             Prints one line per problem, "path:line:column: severity: message [code]", then a summary.
               --strict   apply the Agent Skills specification alone, as its reference validator does:
                          extension fields, over-long names and a name differing from the folder are
                          errors; competing skills are not checked
               --json     print {"skills":[{"path","name","valid","diagnostics":[{"severity","code",
                          "message","line","column"}]}]} instead (line and column count from 1)
               --target ID  also warn about what host ID does with each skill: a folder it does
                          not read, a field it ignores, a description its list cuts (repeatable or
                          comma-separated: ${TARGET_IDS.join(', ')}); without it no host is checked
               --context TOKENS  context size the hosts' list budgets are taken at (default ${DEFAULT_CONTEXT_TOKENS})`,
} as const satisfies CommandUsage;
