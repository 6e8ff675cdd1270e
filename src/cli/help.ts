// The text of `agent-skills --help`, and the version printed by `--version`.

import { version } from '../../package.json';
import { MAX_FIND_MATCHES } from '../core/use/find';
import { DEFAULT_CATALOG_BUDGET_CHARS, DEFAULT_CONTEXT_TOKENS, MAX_TUNE_ROUNDS, USAGE_LOG_ENV } from '../core/defaults';
import { DEFAULT_MAX_SESSIONS, MIN_TOKEN_LENGTH, TOKEN_ENV } from './mcp/http-options';
import { DEFAULT_CONCURRENCY, DEFAULT_RUNS } from '../core/evals/verdict';
import { HOST_IDS } from '../core/hosts/profiles';

export const VERSION = version;

export const USAGE = `agent-skills ${VERSION}: check, list and try Agent Skills (folders holding a SKILL.md) outside the editor.

Usage:
  agent-skills validate [--strict] [--json] [--target ID]… [--context TOKENS] [--project DIR] [PATH…]
  agent-skills list [--json] [--project DIR] [ROOT…]
  agent-skills catalog [--budget-chars N] [--verbose] [--target ID]… [--context TOKENS] [--project DIR] [ROOT…]
  agent-skills activate ROOT NAME [ARGS…]
  agent-skills find [--json] [--limit N] [--project DIR] QUERY [ROOT…]
  agent-skills eval --endpoint URL --model ID [--api openai|anthropic] [--runs N] [--concurrency N]
                    [--junit FILE] [--json] [--baseline GIT-REF] ROOT…
  agent-skills tune NAME --endpoint URL --model ID [--api openai|anthropic] [--runs N] [--rounds N]
                    [--seed N] [--concurrency N] [--write] [--project DIR] [ROOT…]
  agent-skills audit [--json | --sarif] [PATH…]
  agent-skills add SOURCE [--skill NAME]… [--to DIR] [--yes]
  agent-skills update [NAME…] [--to DIR] [--yes]
  agent-skills check [NAME…] [--to DIR] [--json]
  agent-skills remove NAME… [--to DIR] [--yes]
  agent-skills install [--frozen] [--to DIR] [--yes]
  agent-skills publish --out DIR [--legacy] [--allow PATTERN]… [--project DIR] [ROOT…]
  agent-skills mcp [--no-user] [--no-builtin] [--allow PATTERN]… [--budget-chars N] [--project DIR] [ROOT…]
  agent-skills mcp --http [HOST:]PORT [--token-file FILE] [--allow-host NAME]… [--max-sessions N]
                   [--user] [--builtin] [mcp options] [ROOT…]
  agent-skills --help | --version | help [COMMAND]

PATH is a skill folder, its SKILL.md, or a folder of skill folders. ROOT is a folder of skill
folders, like .agent/skills; with several ROOTs, an earlier one wins for a skill name.

--project DIR discovers DIR as the editor discovers a workspace folder: the locations in its
.vscode/settings.json (agentSkills.locations, default .agent/skills), then the same locations in its
sub-projects (packages/web/.agent/skills, up to 3 folders deep, skipping node_modules, hidden and
git-ignored folders; off with "agentSkills.nestedLocations": false), nearer ones winning a name.
Its skills come before those of any ROOT. validate, list, catalog, find and audit without PATH or
ROOT use --project . (the current folder).

Commands:
  validate   Check each skill in full: frontmatter fields, name, description, body length and links,
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
                          comma-separated: ${HOST_IDS.join(', ')}); without it no host is checked
               --context TOKENS  context size the hosts' list budgets are taken at (default ${DEFAULT_CONTEXT_TOKENS})
  list       List every skill with its status (available, shadowed, invalid...), source ROOT and
             description, or why it cannot be used.
               --json     print {"skills":[...],"problems":[...]} instead of a table
  catalog    Print the exact <available_skills> block a chat model is given. Skills that do not fit
             the budget are listed by name only, and counted on stderr.
               --budget-chars N   character budget (default ${DEFAULT_CATALOG_BUDGET_CHARS})
               --verbose          also name the skills past the budget on stderr
               --target ID        print host ID's list of the skills instead, at its own budget rule,
                                  and name on stderr what it shortens, lists by name only or leaves out
               --context TOKENS   the context size for that budget (default ${DEFAULT_CONTEXT_TOKENS})
  activate   Print exactly what the activation tool returns to a chat model for skill NAME: its body
             with ARGS substituted for $ARGUMENTS, $0, $1…, its folder and its resource files.
             It activates as the model does; a skill that sets disable-model-invocation is activated
             as the user's /use would.
  find       Rank the skills a chat model may invoke for QUERY, best first, as the find tool does:
             by name and description, forgiving other word forms, prefixes and typos.
               --limit N  show at most N matches (default ${MAX_FIND_MATCHES})
               --json     print {"matches":[{"name","description","score","path"}]} instead, best first
  eval       Run the skills' trigger tests (evals/triggers.json) against a chat endpoint: each query
             sent as @skills's first turn (the whole catalog, the same tools), several runs each,
             passing by trigger rate; prints each verdict and the routing (which skill took which
             query). The key comes from OPENAI_API_KEY or ANTHROPIC_API_KEY (local servers need none).
               --endpoint URL     the API's base URL, e.g. http://localhost:11434/v1 (Ollama),
                                  https://api.openai.com/v1, https://api.anthropic.com
               --api NAME         openai (chat completions, the default) or anthropic (messages)
               --runs N           runs per query (default: the file's "runs", else ${DEFAULT_RUNS})
               --concurrency N    requests at a time (default ${DEFAULT_CONCURRENCY})
               --junit FILE       also write JUnit XML: a test suite per skill, a test case per query
               --json             print the results as JSON, routing included
               --baseline REF     run the same queries with the descriptions at git REF too, and
                                  fail when a skill passes fewer of them now
             Exit 1 when a query fails, a trigger file has errors or the baseline shows a regression;
             3 when some queries got no verdict (every request errored) and none failed.
  tune       Improve skill NAME's description against its trigger tests: the queries are split
             about 60/40 into train and test (both kinds on each side, shuffled by --seed), the
             model proposes a description from the train queries that failed (never seeing a test
             query), each proposal is measured on both, up to --rounds rounds (default and most
             ${MAX_TUNE_ROUNDS}); the pick is the best test score, ties to the shorter, and only if it beats
             the current description. Prints the scores per round and the change as a diff; with
             --project or no ROOT, the current folder's skills.
               --write    write the picked description into SKILL.md (else asks on a terminal)
               --endpoint, --model, --api, --runs, --concurrency: as for eval
  audit      Look for what a skill could do against its user, in each skill at or under PATH
             (without PATH, the project's skills):
             high: invisible or direction-changing characters, download-and-run instructions,
             native binaries, links to the user's own files, hidden Markdown asking for
             credentials or a web address, secrets in link addresses, install hooks (.pth,
             npm install scripts), archive entries that unpack outside their folder; medium:
             unrestricted shell in allowed-tools, long base64/hex blobs (pictures aside),
             archives, hard links, files over the size caps, links to neighbouring folders; low
             (heuristic): text asking the model to ignore its instructions or keep something
             from the user; info: scripts and their interpreter. Exit 1 when a finding is high.
               --json     print {"skills":[{"path","verdict","findings":[{"severity","code",
                          "message","file","line","column"}]}]} instead
               --sarif    print SARIF 2.1.0 (for GitHub code scanning) instead
  add        Install skills from SOURCE into DIR (default .agent/skills) and pin them in the working
             folder's skills-lock.json (the format npx skills writes; ref is the exact commit).
             SOURCE is a git URL (https://, ssh://, git@host:, file://), a local repository or
             folder, or GitHub's owner/repo[/sub/path], each with an optional #REF[:SUB/PATH]; or
             a site publishing the Agent Skills discovery index, https://HOST[/PATH] (http:// on
             this machine only), each artifact checked against its digest and size limits before
             anything is written (a URL with no index there is read as git).
             Git runs as the user's own git, shallow. Lists the skills SOURCE holds and asks which
             to install, with each one's audit verdict; a skill with a high finding, replacing a
             folder not installed from SOURCE, or one edited since, asks first.
               --skill NAME  install this one (repeatable; * for all) without asking
               --to DIR      the folder skills go in
               --yes         install all without --skill, and replace without asking (scripts, CI)
  update     Install the newest version of each locked skill (or each NAME) from the branch or tag
             it was added from; a commit pin stays. Asks before replacing a skill edited since install.
  check      Compare each locked skill with its folder (INSTALLED: unchanged, edited, missing) and
             its source (SOURCE: current, outdated, pinned, gone, unreachable), and with a
             skills-trust.json verify again each signature it requires. Exit 1 when a skill was
             edited, is missing, outdated, gone, cannot be checked, or its signature does not verify.
               --json     print {"skills":[{"name","installed","source","origin","path",
                          "latestCommit","problem","signature"}]} instead
  remove     Delete installed skills and their lock entries; asks before deleting one edited since install.
  install    Install every skill skills-lock.json lists, as npm ci does: each missing one at the
             commit the lock pins (a lock without one: at its ref), audited, and only when its copy
             hashes to the lock's computedHash; one already as locked is left alone; a folder that
             differs (edited, a file added or removed) is replaced only once confirmed. The lock is
             never written; skill folders it does not list are left as they are, and named.
               --frozen   write nothing: exit 1 naming each skill missing or different, and
                          whether install could restore it; 0 when the folder is exactly the lock
               --to DIR   the folder skills go in, inside the project (default .agent/skills)
               --yes      replace folders that differ, and install past a high audit finding
             add, update and install verify what skills-trust.json requires of a source:
             {"version": 1, "sources": [{"match": "team/*", "require": "signed", "allowedSigners":
             "PATH"}]}, the first entry whose pattern matches the source (* for any run of
             characters) naming a file in git's allowed-signers format (SSH keys). The commit (or
             the tag asked for) must be signed by a key it lists; else nothing is written.
  publish    Write the skills of each ROOT (with --project or no ROOT, the current folder's) as a
             static site in DIR: .well-known/agent-skills/index.json (the Agent Skills discovery
             index 0.2.0) and each skill's artifact, its SKILL.md alone or a .tar.gz of its files,
             with its sha256 digest. Any static web server serves DIR; add https://HOST and
             npx skills add https://HOST install from it. Only usable skills, never evals/; the
             MCP server's limits per skill. The same skills give the same bytes, and unchanged
             files are not rewritten. Exit 1 when a skill could not be published.
               --out DIR        the site's folder (its .well-known/ is written, nothing else)
               --legacy         also write .well-known/skills/index.json and each skill's files,
                                for clients that only read the older index
               --allow PATTERN  publish only skills whose name matches (repeatable; * and ?)
  mcp        Serve skills to an MCP client over stdin/stdout until it disconnects: the skills of
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

Exit status: 0 done (warnings allowed); 1 a skill has an error, an input cannot be read, NAME
cannot be activated, a source cannot be fetched, check found something to look at, or audit a
high finding; 2 the command line is wrong; 3 (eval) no verdict; 70 internal error.

agent-skills help COMMAND (or COMMAND --help) prints one command's part of this text.
`;

/** The synopses under "Usage:", one per form, a form's continued lines joined by a space. */
export function usageSynopses(): string[] {
  const lines = USAGE.split('\n');
  const synopses: string[] = [];
  for (const line of lines.slice(lines.indexOf('Usage:') + 1, lines.indexOf('', lines.indexOf('Usage:')))) {
    if (line.startsWith('  agent-skills ')) {
      synopses.push(line.trim());
    } else {
      synopses[synopses.length - 1] += ` ${line.trim()}`;
    }
  }
  return synopses;
}

/** A paragraph of USAGE: the lines from the one starting with `opening` up to the next blank line. */
function paragraph(lines: readonly string[], opening: string): string[] {
  const start = lines.findIndex((line) => line.startsWith(opening));
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end);
}

/**
 * The help of one command, cut from USAGE so the two never disagree: its usage lines, what PATH,
 * ROOT and --project mean when it takes them, its entry under Commands, and the exit status.
 * Undefined for a name that is no command.
 */
export function commandHelp(name: string): string | undefined {
  const lines = USAGE.split('\n');
  const usage: string[] = [];
  for (const [index, line] of lines.entries()) {
    const continues = usage.length > 0 && lines[index - 1] === usage[usage.length - 1] && /^ {4,}\S/.test(line) && !line.trimStart().startsWith('agent-skills');
    if (line.startsWith(`  agent-skills ${name} `) || line === `  agent-skills ${name}` || continues) {
      usage.push(line);
    }
  }
  const entryStart = lines.findIndex((line) => new RegExp(`^  ${name} {2,}\\S`).test(line));
  if (usage.length === 0 || entryStart === -1) {
    return undefined;
  }
  const entryEnd = lines.findIndex((line, index) => index > entryStart && (line === '' || /^ {2}[a-z]+ {2,}\S/.test(line)));
  const takes = usage.join('\n');
  return [
    `agent-skills ${name}: one command of agent-skills ${VERSION} (all of them: agent-skills help).`,
    '',
    'Usage:',
    ...usage,
    '',
    ...(/\b(PATH|ROOT)\b/.test(takes) ? [...paragraph(lines, 'PATH is'), ''] : []),
    ...(takes.includes('--project') ? [...paragraph(lines, '--project DIR'), ''] : []),
    ...lines.slice(entryStart, entryEnd),
    '',
    ...paragraph(lines, 'Exit status:'),
    '',
  ].join('\n');
}
