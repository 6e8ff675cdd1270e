import type { CommandUsage } from './command-usage';

export const ACTIVATE_USAGE = {
  name: 'activate',
  synopses: [['agent-skills activate ROOT NAME [ARGS…]']],
  summary: 'Print what the activation tool returns to a chat model for skill NAME.',
  options: {},
  description: `Print exactly what the activation tool returns to a chat model for skill NAME: its body
             with ARGS substituted for $ARGUMENTS, $0, $1…, its folder and its resource files.
             It activates as the model does; a skill that sets disable-model-invocation is activated
             as the user's /use would.`,
} as const satisfies CommandUsage;
