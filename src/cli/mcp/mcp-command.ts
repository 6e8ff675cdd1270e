// `agent-skills mcp [--no-user] [--no-builtin] [--allow PATTERN]… [--budget-chars N] [--project DIR] [ROOT…]`:
// serves the skills of the project and ROOTs, ~/.agent/skills, AGENT_SKILLS_PATH and the built-in skills (in that
// precedence) over MCP on stdin/stdout until the client disconnects or the process is stopped.
// Stdout carries only protocol messages; everything said to a person goes to stderr. With
// `--http [HOST:]PORT` it serves many clients over Streamable HTTP instead (http-server.ts).

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from './libraries';
import { ListenError, serveSkillsOverHttp } from './http-server';
import { guardLines, MAX_MESSAGE_BYTES } from './wire';
import { StdioToolCalls } from './direct-answers';
import { RootsCatchUp } from '../../core/discovery/change-coalescer';
import { projectRoots } from '../../core/discovery/project';
import { SkillRegistry, type SkillChange } from '../../core/discovery/registry';
import { buildSkillRoots, SKILLS_PATH_ENV } from '../../core/discovery/roots';
import { DEFAULT_CATALOG_BUDGET_CHARS } from '../../core/use/catalog';
import type { SkillRoot } from '../../core/model/types';
import { parseArguments, positiveInteger } from '../args';
import { MCP_USAGE } from '../usage/mcp';
import { VERSION } from '../help';
import { projectFromArguments, watchedRootsFromArguments } from '../inputs';
import { ExitCode, InputError, PROGRAM, UsageError, type CliIo } from '../io';
import { allowedHostnames, parseListenAddress, parseReplicaName, readBearerToken, requireTokenBeyondLoopback } from './http-options';
import { ProjectWatcher } from './project-watcher';
import { RootWatcher } from './root-watcher';
import { SkillsServer, type ListChanges } from './skills-server';
import type { SkillsService } from './skills-service';
import { Emitter } from '../../core/model/event';
import { errorMessage } from '../../core/util/errors';
import { PublishedSkills } from '../../core/mcp/published-skills';
import { USAGE_LOG_ENV, UsageLogWriter, type LoggedActivation } from '../../core/use/usage-log';
import { SnapshotTextsCache } from '../../core/mcp/server-texts';

export interface SkillsServiceOptions {
  /** With `project`, its roots (kind `workspace`) first. */
  roots: readonly SkillRoot[];
  /** A project folder (`--project`) whose sub-projects' locations are followed as they appear and go. */
  project?: string;
  allowlist: readonly string[];
  catalogBudgetChars: number;
  /** A file to append each activation to, for the editor that started the server (usage-log.ts). */
  usageLog?: string;
  log(message: string): void;
}

export interface McpServeOptions extends SkillsServiceOptions {
  input: Readable;
  output: Writable;
  /** Resolves to stop serving (a signal); the server also stops when the input ends. */
  stop?: Promise<void>;
}

/** Request servers kept for later requests: as many as are likely to run at once. */
const MAX_IDLE_REQUEST_SERVERS = 32;

export async function startSkillsService(options: SkillsServiceOptions): Promise<SkillsService> {
  const registry = new SkillRegistry({ allowlist: options.allowlist, keepValidFiles: true });
  await registry.setRoots(options.roots);
  for (const problem of registry.snapshot.problems) {
    options.log(`${problem.severity}: ${problem.message} [${problem.code}]`);
  }
  const published = new PublishedSkills(registry, { onProblem: (message) => options.log(message) });
  const usageLog = options.usageLog === undefined ? undefined : new UsageLogWriter(options.usageLog, options.log);
  const onActivated = usageLog && ((activation: Omit<LoggedActivation, 'at'>): void => void usageLog.record({ ...activation, at: Date.now() }));
  const texts = new SnapshotTextsCache(options.catalogBudgetChars);
  const servers = new Set<SkillsServer>();
  const listsChanged = new Emitter<ListChanges>((error) => options.log(`internal error: ${errorMessage(error)}`));
  /** Request servers that served their request, built for the current snapshot. */
  let idle: SkillsServer[] = [];
  let shown = texts.of(registry.snapshot);
  const registryChanged = registry.onDidChange((snapshot) => {
    published.forgetUnserved();
    idle = [];
    const next = texts.of(snapshot);
    const lists = { tools: next.tools !== shown.tools, prompts: next.prompts !== shown.prompts, resources: true };
    shown = next;
    listsChanged.fire(lists);
  });
  const onChanges = (changes: SkillChange[]): void => {
    // Entries holding changed files are rebuilt on the next request; every client is told.
    if (published.invalidate(changes.map((change) => change.path))) {
      listsChanged.fire({ tools: false, prompts: false, resources: true });
    }
    void registry.apply(changes);
  };
  const watcher = new RootWatcher(
    options.roots.map((root) => root.path),
    onChanges,
    options.log,
  );
  const project = options.project === undefined ? undefined : followProject(options.project, options, registry, watcher, onChanges);
  const serverOptions = { version: VERSION, log: options.log, published, texts, onActivated };
  return {
    registry,
    published,
    watcher,
    ...(project ? { projectWatched: project.ready } : {}),
    onListsChanged: listsChanged.event,
    openServer() {
      const server = new SkillsServer(registry, { ...serverOptions, changes: listsChanged.event });
      servers.add(server);
      const closed = server.mcp.server.onclose;
      server.mcp.server.onclose = () => {
        servers.delete(server);
        server.dispose();
        closed?.();
      };
      return server;
    },
    requestServer() {
      const reused = idle.pop();
      if (reused) {
        return reused;
      }
      const server = new SkillsServer(registry, serverOptions);
      const builtFor = registry.snapshot;
      server.mcp.server.onclose = () => {
        if (registry.snapshot === builtFor && idle.length < MAX_IDLE_REQUEST_SERVERS) {
          idle.push(server);
        }
      };
      return server;
    },
    async close() {
      await Promise.all([watcher.dispose(), project?.dispose()]);
      await Promise.all([...servers].map((server) => server.mcp.close()));
      // Servers never connected have no transport to close.
      for (const server of servers) {
        server.dispose();
      }
      servers.clear();
      registryChanged.dispose();
      listsChanged.dispose();
      registry.dispose();
      await usageLog?.settled();
    },
  };
}

/**
 * Finds the project's roots again when its folders change, as at start, and serves them in place of
 * the earlier ones: a location in a new sub-project is read and watched, one that went is dropped.
 * A new root is read once more when its watcher has surely started (what was written meanwhile).
 */
function followProject(
  folder: string,
  options: SkillsServiceOptions,
  registry: SkillRegistry,
  watcher: RootWatcher,
  onChanges: (changes: SkillChange[]) => void,
): { ready: Promise<void>; dispose(): Promise<void> } {
  let roots = options.roots;
  const catchUp = new RootsCatchUp(
    (change) => onChanges([change]),
    () => roots.map((root) => root.path),
  );
  catchUp.watchersRestarted();
  let update = Promise.resolve();
  const locationDepth = Math.max(1, ...roots.filter((root) => root.kind === 'workspace').map((root) => (root.location ?? '').split(/[\\/]/).filter(Boolean).length));
  const followRoots = (): void => {
    update = update.then(async () => {
      const next = [...(await projectRoots(folder)).roots, ...roots.filter((root) => root.kind !== 'workspace')];
      if (next.length === roots.length && next.every((root, index) => root.path === roots[index].path)) {
        return;
      }
      const added = next.filter((root) => !roots.some((known) => known.path === root.path));
      const gone = roots.filter((root) => !next.some((known) => known.path === root.path));
      roots = next;
      options.log(`project locations: ${[...added.map((root) => `+${root.path}`), ...gone.map((root) => `-${root.path}`)].join(', ')}.`);
      watcher.setRoots(roots.map((root) => root.path));
      catchUp.watchersRestarted();
      await registry.setRoots(roots);
    });
  };
  const projectWatcher = new ProjectWatcher(folder, locationDepth, followRoots, options.log);
  return {
    ready: projectWatcher.ready,
    dispose: async () => {
      catchUp.dispose();
      await projectWatcher.dispose();
      await update;
    },
  };
}

/** The folder of built-in skills: `skills/` beside the package's package.json, found from this file up. */
export function builtinSkillsDir(start = __dirname): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'skills'))) {
      return path.join(dir, 'skills');
    }
    if (path.dirname(dir) === dir) {
      return undefined;
    }
  }
}

/**
 * Serves until the client disconnects or `stop` resolves; then releases the watchers. The client's
 * first message picks the protocol revision (the SDK's serveStdio): `initialize` opens 2025-11-25,
 * `server/discover` or a request naming 2026-07-28 in its `_meta` the stateless revision.
 */
export async function serveSkills(options: McpServeOptions): Promise<void> {
  const service = await startSkillsService(options);
  const write = (line: string): void => void options.output.write(line);
  /** The server the SDK made last: the one it pinned the connection to, or is about to (a probe it discards is never asked to agree on 2025-11-25). */
  let latest: SkillsServer | undefined;
  const toolCalls = new StdioToolCalls(() => latest, write);
  // Lines that are no JSON-RPC message are answered here; the SDK's buffer then never sees one over the limit.
  const lines = guardLines(
    options.input,
    (answer) => write(`${JSON.stringify(answer)}\n`),
    MAX_MESSAGE_BYTES,
    (message) => toolCalls.take(message),
  );
  const transport = new StdioServerTransport(lines, options.output, { maxBufferSize: 2 * (MAX_MESSAGE_BYTES + 1) });
  try {
    const connection = serveStdio(
      () => {
        latest = service.openServer();
        return latest.mcp;
      },
      { transport, onerror: (error) => options.log(errorMessage(error)) },
    );
    const closed = new Promise<void>((resolve) => {
      const released = transport.onclose;
      transport.onclose = () => {
        toolCalls.close();
        released?.();
        resolve();
      };
    });
    await Promise.race([closed, options.stop ?? closed]);
    await connection.close();
  } finally {
    await service.close();
    lines.destroy();
  }
}

/** The sources served beyond the roots given, named as on the command line. */
const OWN_SOURCES = { user: '~/.agent/skills', builtin: 'the built-in skills' } as const;

/**
 * Whether `source` is served: `--SOURCE` and `--no-SOURCE` say so; without either, stdio serves it
 * (the client is its own user's) and --http does not (a team server never shows one person's skills).
 */
function ownSourceServed(options: ReadonlyMap<string, unknown>, source: keyof typeof OWN_SOURCES, http: boolean): boolean {
  const served = options.has(source);
  if (served && options.has(`no-${source}`)) {
    throw new UsageError(`mcp: --${source} and --no-${source} contradict each other.`);
  }
  return served || (!options.has(`no-${source}`) && !http);
}

export async function mcpCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('mcp', args, MCP_USAGE.options);
  const { options, lists, operands } = parsed;
  const catalogBudgetChars = positiveInteger('mcp', 'budget-chars', options.get('budget-chars')) ?? DEFAULT_CATALOG_BUDGET_CHARS;
  const http = options.get('http');
  const httpOnly = ['token-file', 'allow-host', 'max-sessions', 'replica'].find((name) => options.has(name) || lists.has(name));
  if (http === undefined && httpOnly !== undefined) {
    throw new UsageError(`mcp: --${httpOnly} applies to --http only.`);
  }
  const address = typeof http === 'string' ? parseListenAddress(http) : undefined;
  const maxSessions = positiveInteger('mcp', 'max-sessions', options.get('max-sessions'));
  const replica = options.get('replica');
  const replicaName = typeof replica === 'string' ? parseReplicaName(replica) : undefined;
  const served = { user: ownSourceServed(options, 'user', address !== undefined), builtin: ownSourceServed(options, 'builtin', address !== undefined) };
  const tokenFile = options.get('token-file');
  const token = address && (await readBearerToken(typeof tokenFile === 'string' ? tokenFile : undefined, process.env, io.cwd));
  if (address) {
    requireTokenBeyondLoopback(address, token);
  }
  const project = await projectFromArguments(parsed, io);
  const typed = await watchedRootsFromArguments(operands, io);
  const roots = [
    ...project.roots,
    ...typed.roots,
    ...buildSkillRoots({
      workspaceFolders: [],
      homeDir: os.homedir(),
      userSkills: served.user,
      skillsPath: process.env[SKILLS_PATH_ENV],
      builtinDir: builtinSkillsDir(),
      builtinSkills: served.builtin,
    }),
  ];
  // Taken before the first line on stderr: a client may stop the server as soon as it sees one. Released
  // when the command ends, so that a process going on after it (runCli called again) keeps its own.
  let requestStop!: () => void;
  const stop = new Promise<void>((resolve) => (requestStop = resolve));
  process.once('SIGTERM', requestStop).once('SIGINT', requestStop);
  try {
    const log = (message: string): void => io.stderr(`${PROGRAM} mcp: ${message}\n`);
    project.problems.forEach((problem) => log(`${problem.severity}: ${problem.message} [${problem.code}]`));
    log(`serving skills from ${roots.map((root) => root.path).join(', ') || 'no folder'}.`);
    const askable = (Object.keys(OWN_SOURCES) as (keyof typeof OWN_SOURCES)[]).filter((source) => address && !served[source] && !options.has(`no-${source}`));
    if (askable.length > 0) {
      log(`not served over --http unless asked: ${askable.map((source) => `${OWN_SOURCES[source]} (--${source})`).join(' and ')}.`);
    }
    for (const arg of typed.missing) {
      log(`${arg} does not exist yet; its skills are served once it appears.`);
    }
    const serviceOptions = {
      roots,
      ...(project.folder === undefined ? {} : { project: project.folder }),
      // Set by the editor that starts the server, so that it counts these activations too.
      usageLog: process.env[USAGE_LOG_ENV] || undefined,
      allowlist: lists.get('allow') ?? [],
      catalogBudgetChars,
      log,
    };
    if (address) {
      const allowedHosts = allowedHostnames(address, lists.get('allow-host') ?? []);
      await serveSkillsOverHttp(await startSkillsService(serviceOptions), { address, token: token?.value, allowedHostnames: allowedHosts, maxSessions, replicaName, stop, log }).catch(
        (error: unknown) => {
          throw error instanceof ListenError ? new InputError(error.message) : error;
        },
      );
    } else {
      await serveSkills({ ...serviceOptions, input: process.stdin, output: process.stdout, stop });
    }
  } finally {
    process.off('SIGTERM', requestStop).off('SIGINT', requestStop);
  }
  return ExitCode.ok;
}
