import type { CommandUsage } from './command-usage';

export const CHECK_USAGE = {
  name: 'check',
  synopses: [['agent-skills check [NAME…] [--to DIR] [--json]']],
  summary: 'Compare each locked skill with its folder, its source and its signature.',
  options: { to: 'value', json: 'flag' },
  description: `Compare each locked skill with its folder (INSTALLED: unchanged, edited, missing) and
             its source (SOURCE: current, outdated, pinned, gone, unreachable), and with a
             skills-trust.json verify again each signature it requires. Exit 1 when a skill was
             edited, is missing, outdated, gone, cannot be checked, or its signature does not verify.
               --json     print {"skills":[{"name","installed","source","origin","path",
                          "latestCommit","problem","signature"}]} instead`,
} as const satisfies CommandUsage;
