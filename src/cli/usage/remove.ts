import type { CommandUsage } from './command-usage';

export const REMOVE_USAGE = {
  name: 'remove',
  synopses: [['agent-skills remove NAME… [--to DIR] [--yes]']],
  summary: 'Delete installed skills and their lock entries.',
  options: { to: 'value', yes: 'flag' },
  description: `Delete installed skills and their lock entries; asks before deleting one edited since install.`,
} as const satisfies CommandUsage;
