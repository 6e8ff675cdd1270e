import { PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const PUBLISH_USAGE = {
  name: 'publish',
  synopses: [['agent-skills publish --out DIR [--legacy] [--allow PATTERN]… [--project DIR] [ROOT…]']],
  summary: 'Write the skills as a static site of the Agent Skills discovery index.',
  options: { out: 'value', legacy: 'flag', allow: 'repeated', ...PROJECT_OPTION },
  description: `Write the skills of each ROOT (with --project or no ROOT, the current folder's) as a
             static site in DIR: .well-known/agent-skills/index.json (the Agent Skills discovery
             index 0.2.0) and each skill's artifact, its SKILL.md alone or a .tar.gz of its files,
             with its sha256 digest. Any static web server serves DIR; add https://HOST and
             npx skills add https://HOST install from it. Only usable skills, never evals/; the
             MCP server's limits per skill. The same skills give the same bytes, and unchanged
             files are not rewritten. Exit 1 when a skill could not be published.
               --out DIR        the site's folder (its .well-known/ is written, nothing else)
               --legacy         also write .well-known/skills/index.json and each skill's files,
                                for clients that only read the older index
               --allow PATTERN  publish only skills whose name matches (repeatable; * and ?)`,
} as const satisfies CommandUsage;
