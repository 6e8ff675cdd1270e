import type { CommandUsage } from './command-usage';

export const UPDATE_USAGE = {
  name: 'update',
  synopses: [['agent-skills update [NAME…] [--to DIR] [--yes]']],
  summary: 'Install the newest version of each locked skill, or of each NAME.',
  options: { to: 'value', yes: 'flag' },
  description: `Install the newest version of each locked skill (or each NAME) from the branch or tag
             it was added from; a commit pin stays. Asks before replacing a skill edited since install.`,
} as const satisfies CommandUsage;
