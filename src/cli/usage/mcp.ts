import { DEFAULT_CATALOG_BUDGET_CHARS, DEFAULT_MAX_SESSIONS, MIN_TOKEN_LENGTH, TOKEN_ENV, USAGE_LOG_ENV } from '../../core/defaults';
import { PROJECT_OPTION } from './shared-options';
import type { CommandUsage } from './command-usage';

export const MCP_USAGE = {
  name: 'mcp',
  synopses: [
    ['agent-skills mcp [--no-user] [--no-builtin] [--allow PATTERN]… [--budget-chars N] [--project DIR] [ROOT…]'],
    ['agent-skills mcp --http [HOST:]PORT [--token-file FILE] [--allow-host NAME]… [--max-sessions N]', '[--replica NAME] [--user] [--builtin] [mcp options] [ROOT…]'],
  ],
  summary: 'Serve skills to MCP clients over stdin/stdout, or over HTTP with --http.',
  options: {
    user: 'flag',
    'no-user': 'flag',
    builtin: 'flag',
    'no-builtin': 'flag',
    allow: 'repeated',
    'budget-chars': 'value',
    http: 'value',
    'token-file': 'value',
    'allow-host': 'repeated',
    'max-sessions': 'value',
    replica: 'value',
    ...PROJECT_OPTION,
  },
  description: `Serve skills to an MCP client over stdin/stdout until it disconnects: the skills of
             each ROOT, then ~/.agent/skills, the folders in AGENT_SKILLS_PATH and the built-in
             skills, an earlier one winning for a name. Instructions carry the catalog; tools
             activate_skill, find_skills and read_skill_resource; a prompt per skill; the MCP Skills
             extension (skills/list, skills/get, skill:// resources with SHA-256 digests). Changes
             on disk reach the client live. Protocol revisions 2025-11-25 and 2026-07-28. Logs go
             to stderr. With ${USAGE_LOG_ENV}=FILE (VS Code's extension sets it, to count usage),
             each activation is appended to FILE as a JSON line.
               --no-user         leave out ~/.agent/skills
               --no-builtin      leave out the built-in skills
               --allow PATTERN   serve only skills whose name matches (repeatable; * and ? wildcards)
               --budget-chars N  character budget of the catalog (default ${DEFAULT_CATALOG_BUDGET_CHARS})
               --http [HOST:]PORT  serve many clients at once over Streamable HTTP at /mcp instead
                                 (HOST defaults to 127.0.0.1; PORT 0 picks a free one): the ROOTs
                                 only, ~/.agent/skills and the built-in skills when asked with
                                 --user and --builtin; GET /healthz answers 200 while serving
               --token-file FILE require "Authorization: Bearer TOKEN", TOKEN being FILE's first line
                                 (or set ${TOKEN_ENV}); needed unless HOST is 127.0.0.1, ::1 or
                                 localhost, and then of at least ${MIN_TOKEN_LENGTH} characters
               --max-sessions N  2025-11-25 sessions (and 2026-07-28 change subscriptions) open at
                                 once; past it a client gets 503 (default ${DEFAULT_MAX_SESSIONS})
               --allow-host NAME also accept requests whose Host or Origin names NAME (repeatable;
                                 the bound host and localhost always are)
               --replica NAME    begin each 2025-11-25 session id with "NAME." so a load balancer
                                 can send the session's requests back to this replica`,
} as const satisfies CommandUsage;
