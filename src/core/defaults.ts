// Defaults and limits the user is told about (the command line's help quotes each), in a module
// that imports nothing: quoting them loads none of the code that applies them, so `--help` does
// not start the schema and YAML libraries.

/** The catalog's character budget when none is given. */
export const DEFAULT_CATALOG_BUDGET_CHARS = 16_000;

/** Bounds of the runs per query of trigger tests (a file's `runs`, `--runs`, the setting): each run is a model request per query. */
export const MAX_RUNS = 20;

/** Matches shown by the find tool (and `find` without --limit); a narrower query reaches the rest. */
export const MAX_FIND_MATCHES = 20;

/** Runs per query of trigger tests, and the share of them that must trigger the skill. */
export const DEFAULT_RUNS = 3;
export const DEFAULT_THRESHOLD = 0.5;
/** Requests of a trigger-test run in flight at once. */
export const DEFAULT_CONCURRENCY = 4;

/** The most rounds description tuning runs. */
export const MAX_TUNE_ROUNDS = 5;

/** The context size, in tokens, at which host listings are estimated when none is given. */
export const DEFAULT_CONTEXT_TOKENS = 200_000;

/** The environment variable naming the file an MCP server appends its activations to. */
export const USAGE_LOG_ENV = 'AGENT_SKILLS_USAGE_LOG';

/** The environment variable holding the bearer token of `mcp --http`. */
export const TOKEN_ENV = 'AGENT_SKILLS_MCP_TOKEN';
/** Sessions `mcp --http` holds at once unless --max-sessions says otherwise: enough for a team's editors and agents, each holding a session or two. */
export const DEFAULT_MAX_SESSIONS = 500;
/** The shortest token `mcp --http` takes beyond this machine (`openssl rand -hex 32` makes one of 64). */
export const MIN_TOKEN_LENGTH = 32;
