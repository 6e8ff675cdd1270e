// The MCP server (`agent-skills mcp`), run as a client runs it: the production bundle of the CLI in
// its own Node process over stdio, at both protocol revisions. Start-up is timed from spawning the
// process to the answer of the first tools/list (after initialize on 2025-11-25, after
// server/discover on 2026-07-28), at 10 and 1,000 skills, next to spawning `node -e 0` in the same
// run (the floor any Node server pays). Then find_skills under 10 concurrent calls, measured by a
// third-party client, the MCP Inspector's load mode, over real skills: the public collections
// checked out at AGENT_SKILLS_BENCH_CORPUS (default /work/corpus; without them, 500 generated
// skills, and the bench says so). Beside it, in the same server and the same run, a tool that
// answers the same bytes without searching (bench/mcp/replay-server.ts): find_skills' throughput
// over that one's is what the search costs. And the floor: a server with no SDK and no search
// answering the same bytes (bench/mcp/floor-server.ts), so find_skills' p99 is shown against the
// p99 the client, the pipe and Node give any server on this machine. Then the team server (`mcp
// --http`) at 1,000 skills under 50 clients at once (bench/mcp/http-load.ts);
// AGENT_SKILLS_BENCH_SOAK=1 adds the 5-minute memory soak.
//
// Figures (sections.mcp in bench-results.json), those of 2026-07-28 with the prefix `stateless`
// (statelessStartToToolsListMs10, statelessFindP50Ms, statelessHttpFindP99Ms1000…): nodeStartMs,
// startToToolsListMs10, startToToolsListMs1000, startVsNodeRatio10, startVsNodeRatio1000,
// findSkills, findP50Ms, findP99Ms, findCalls, findErrors, findP99Goal, findErrorsGoal,
// findCallsPerSecond, replayCallsPerSecond, findVsReplayThroughput, findVsReplayGoal, floorP50Ms,
// floorP99Ms, findVsFloorP99, httpFindP50Ms1000, httpFindP99Ms1000, httpFindCalls1000,
// httpFindErrors1000, httpFindP99Goal, httpFindErrorsGoal, httpServerCpuMsPerCall,
// httpServerCpuGoal, httpClientCpuMsPerCall, httpLoadAverage, httpRssMb, and with the soak
// soakSettledRssMb, soakEndRssMb, soakRssRatio, soakCalls, soakErrors, soakRssGoal; findCorpus says
// which skills find_skills searched.

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { median } from '../measure';
import { checkGoal, formatNumber, printFigure, round, type BenchFigures } from '../section';
import { findOverHttp, type ProtocolRevision } from '../mcp/http-load';
import { REPLAY_TOOL_NAME } from '../mcp/replay';
import { bundleCli } from '../mcp/cli-bundle';
import { nodeArguments } from '../paths';

const START_RUNS = 7;
/** Where the public skill collections are checked out; their skills are what find_skills searches. */
const REAL_SKILLS_FOLDER = process.env.AGENT_SKILLS_BENCH_CORPUS ?? '/work/corpus';
/** Generated skills find_skills searches when the collections are absent. */
const GENERATED_FIND_SKILLS = 500;
const FIND_CONCURRENCY = 10;
const FIND_SECONDS = 5;
/** Inspector runs per tool, find_skills and the replay alternating (find, replay, replay, find…). */
const FIND_ROUNDS = 3;
const FIND_P99_GOAL_MS = 10;
const CONNECT_TIMEOUT_MS = 120_000;
/** find_skills' calls per second ÷ those of the tool answering the same bytes without searching. */
const FIND_VS_REPLAY_GOAL = 0.6;
const HTTP_SKILLS = 1000;
const HTTP_CLIENTS = 50;
const HTTP_SECONDS = 20;
const HTTP_P99_GOAL_MS = 25;
/** The server's CPU time per find_skills call over HTTP, on either revision: what a call costs it, however loaded the machine. */
const HTTP_SERVER_CPU_GOAL_MS = 0.5;
const SOAK_SECONDS = 300;
const SOAK_RSS_RATIO_GOAL = 1.1;
const INSPECTOR = path.join(repositoryRoot, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

/** Milliseconds from spawning `args` to the moment `done(stdout)` holds (or the process exits, without `done`), and the stdout by then. */
function timeProcess(args: readonly string[], input?: string, done?: (stdout: string) => boolean): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    let settled = false;
    const finish = (): void => {
      if (!settled) {
        settled = true;
        resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, stdout });
        child.stdin.end();
      }
    };
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (done?.(stdout)) {
        finish();
      }
    });
    child.on('exit', () => (done ? settled || reject(new Error(`the server exited before answering:\n${stdout}`)) : finish()));
    if (input) {
      child.stdin.write(input);
    }
  });
}

const REVISIONS: readonly ProtocolRevision[] = ['2025-11-25', '2026-07-28'];
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/** Where a revision's figures are stored: 2025-11-25 under the names they always had, 2026-07-28 with a prefix. */
function figureName(revision: ProtocolRevision, name: string): string {
  return revision === '2025-11-25' ? name : `stateless${name[0].toUpperCase()}${name.slice(1)}`;
}

interface Message {
  jsonrpc: '2.0';
  id?: number;
  method: string;
  params?: Record<string, unknown>;
}

/** What a client sends first, up to its first tools/list (id 2), at each revision. */
const FIRST_MESSAGES: Readonly<Record<ProtocolRevision, readonly Message[]>> = {
  '2025-11-25': [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ],
  '2026-07-28': [
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } },
  ],
};

const lines = (messages: readonly Message[]): string => `${messages.map((message) => JSON.stringify(message)).join('\n')}\n`;

async function startUp(cli: string, roots: Record<string, string>, revision: ProtocolRevision): Promise<BenchFigures> {
  const times: Record<string, number[]> = { node: [] };
  for (const name of Object.keys(roots)) {
    times[name] = [];
  }
  // Alternating runs, so load on the machine affects each alike.
  for (let run = 0; run <= START_RUNS; run++) {
    const { ms: node } = await timeProcess(['-e', '0']);
    const started: Record<string, number> = {};
    for (const [name, root] of Object.entries(roots)) {
      started[name] = (await timeProcess([cli, 'mcp', '--no-user', '--no-builtin', root], lines(FIRST_MESSAGES[revision]), (stdout) => stdout.includes('"id":2'))).ms;
    }
    if (run === 0) {
      continue;
    } // Warm-up: file-system caches.
    times.node.push(node);
    for (const [name, ms] of Object.entries(started)) {
      times[name].push(ms);
    }
  }
  const nodeMs = median(times.node);
  printFigure('node -e 0, spawn to exit (median)', nodeMs, ' ms');
  const figures: BenchFigures = { [figureName(revision, 'nodeStartMs')]: round(nodeMs, 1) };
  for (const name of Object.keys(roots)) {
    const ms = median(times[name]);
    printFigure(`start to first tools/list, ${name} skills, ${revision} (median)`, ms, ' ms');
    printFigure(`  … against node -e 0`, ms / nodeMs, '×');
    figures[figureName(revision, `startToToolsListMs${name}`)] = round(ms, 1);
    figures[figureName(revision, `startVsNodeRatio${name}`)] = round(ms / nodeMs, 2);
  }
  return figures;
}

interface LoadSummary {
  requests: number;
  ok: number;
  errors: number;
  toolErrors: number;
  latencyMs: { p50: number; p99: number };
}

/** One MCP Inspector load run: `tool` called with `query`, FIND_CONCURRENCY at a time for FIND_SECONDS, over stdio. */
async function inspectorLoad(server: readonly string[], tool: string, query: string, revision: ProtocolRevision): Promise<LoadSummary> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      '-q',
      '--protocol-era',
      revision === '2025-11-25' ? 'legacy' : 'modern',
      '--method',
      'tools/call',
      '--tool-name',
      tool,
      '--tool-arg',
      `query=${query}`,
      '--load',
      '--load-concurrency',
      String(FIND_CONCURRENCY),
      '--load-duration',
      String(FIND_SECONDS),
      // A loaded machine starts the server slowly; the load is measured once it is connected.
      '--connect-timeout',
      String(CONNECT_TIMEOUT_MS),
      '--',
      process.execPath,
      ...server,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as LoadSummary;
}

/** The skills find_skills searches: the roots holding them, how many the server serves, and what they are. */
interface FindCorpus {
  roots: string[];
  skills: number;
  description: string;
}

/**
 * Every folder of REAL_SKILLS_FOLDER that holds skill folders (a folder with a SKILL.md), hidden
 * ones included (collections keep skills under .github/ and .curated/); undefined when it is absent.
 */
async function realSkillRoots(): Promise<string[] | undefined> {
  const entries = await fs.readdir(REAL_SKILLS_FOLDER, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (!entries) {
    return undefined;
  }
  const roots = new Set<string>();
  for (const entry of entries) {
    const folder = entry.parentPath;
    if (entry.isFile() && entry.name.toLowerCase() === 'skill.md' && !folder.split(path.sep).some((part) => part === 'node_modules' || part === '.git')) {
      roots.add(path.dirname(folder));
    }
  }
  return roots.size > 0 ? [...roots].sort() : undefined;
}

async function findCorpus(cli: string, generatedRoot: string): Promise<FindCorpus> {
  const roots = await realSkillRoots();
  if (!roots) {
    console.log(`  (no skill collections at ${REAL_SKILLS_FOLDER}: find_skills searches ${GENERATED_FIND_SKILLS} generated skills; AGENT_SKILLS_BENCH_CORPUS names another folder)`);
    await writeSyntheticSkills(generatedRoot, GENERATED_FIND_SKILLS);
    return { roots: [generatedRoot], skills: GENERATED_FIND_SKILLS, description: 'generated' };
  }
  // The skills the server serves of them, as `list` counts them: shadowed and invalid ones left out.
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'list', '--json', ...roots], { maxBuffer: 64 * 1024 * 1024 });
  const listed = JSON.parse(stdout) as { skills: { status: string }[] };
  const skills = listed.skills.filter((skill) => skill.status === 'available').length;
  console.log(`  (find_skills searches the ${skills} skills of the collections at ${REAL_SKILLS_FOLDER}, ${roots.length} folders of skills)`);
  return { roots, skills, description: REAL_SKILLS_FOLDER };
}

/**
 * The results `server` gives to a client's first requests and to one find_skills call of `query`,
 * by method: what the floor server (bench/mcp/floor-server.ts) answers with, written to `file`.
 */
async function productAnswers(server: readonly string[], query: string, revision: ProtocolRevision, file: string): Promise<void> {
  const params = { name: 'find_skills', arguments: { query }, ...(revision === '2026-07-28' ? { _meta: ENVELOPE } : {}) };
  const messages: Message[] = [...FIRST_MESSAGES[revision], { jsonrpc: '2.0', id: 3, method: 'tools/call', params }];
  const { stdout } = await timeProcess(server, lines(messages), (output) => output.includes('"id":3'));
  const results: Record<string, unknown> = {};
  for (const answer of stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id?: number; result?: unknown })) {
    const method = messages.find((message) => message.id !== undefined && message.id === answer.id)?.method;
    if (method && answer.result) {
      results[method] = answer.result;
    }
  }
  await fs.writeFile(file, JSON.stringify(results));
}

/**
 * find_skills under the Inspector's load, and beside it, in the same server build, the replay tool
 * answering the same bytes without searching, and the floor server answering them with no SDK and
 * no search: runs alternate, each FIND_ROUNDS times. The latency figures are medians over the runs.
 */
async function findUnderLoad(replayServer: string, corpus: FindCorpus, revision: ProtocolRevision, folder: string): Promise<BenchFigures> {
  const server = [replayServer, 'mcp', '--no-user', '--no-builtin', ...corpus.roots];
  const query = 'generate a pdf report from a spreadsheet';
  const answers = path.join(folder, `floor-answers-${revision}.json`);
  await productAnswers(server, query, revision, answers);
  const floorServer = [...nodeArguments('mcp/floor-server', []), answers];
  const runs: Record<'find' | 'replay' | 'floor', LoadSummary[]> = { find: [], replay: [], floor: [] };
  for (let round = 0; round < FIND_ROUNDS; round++) {
    const order = round % 2 === 0 ? (['find', 'replay', 'floor'] as const) : (['floor', 'replay', 'find'] as const);
    for (const run of order) {
      runs[run].push(await inspectorLoad(run === 'floor' ? floorServer : server, run === 'replay' ? REPLAY_TOOL_NAME : 'find_skills', query, revision));
    }
  }
  const total = (summaries: readonly LoadSummary[], pick: (summary: LoadSummary) => number) => summaries.reduce((sum, summary) => sum + pick(summary), 0);
  const seconds = FIND_ROUNDS * FIND_SECONDS;
  const findPerSecond = total(runs.find, (summary) => summary.requests) / seconds;
  const replayPerSecond = total(runs.replay, (summary) => summary.requests) / seconds;
  const errors = total([...runs.find, ...runs.replay, ...runs.floor], (summary) => summary.errors + summary.toolErrors);
  const p50 = median(runs.find.map((summary) => summary.latencyMs.p50));
  const p99 = median(runs.find.map((summary) => summary.latencyMs.p99));
  const floorP50 = median(runs.floor.map((summary) => summary.latencyMs.p50));
  const floorP99 = median(runs.floor.map((summary) => summary.latencyMs.p99));
  const skills = `${corpus.skills} ${corpus.description === 'generated' ? 'generated' : 'real'} skills`;
  printFigure(`find_skills calls per second, ${FIND_CONCURRENCY} at a time, ${skills}, ${revision}`, findPerSecond, '');
  printFigure(`${REPLAY_TOOL_NAME} (same bytes, no search) calls per second`, replayPerSecond, '');
  printFigure('find_skills latency p50', p50, ' ms');
  printFigure(
    `  ${REPLAY_TOOL_NAME} latency p50 / p99`,
    median(runs.replay.map((summary) => summary.latencyMs.p50)),
    ` / ${formatNumber(median(runs.replay.map((summary) => summary.latencyMs.p99)))} ms`,
  );
  printFigure('  floor server (same bytes, no SDK, no search) latency p50 / p99', floorP50, ` / ${formatNumber(floorP99)} ms`);
  printFigure("find_skills latency p99 ÷ the floor server's: what is the server's", p99 / floorP99, '×');
  console.log(`  (1-minute load average ${os.loadavg()[0].toFixed(2)} at the end, ${os.cpus().length} CPUs)`);
  const figures: BenchFigures = {
    findSkills: corpus.skills,
    findCorpus: corpus.description,
    findP50Ms: round(p50, 2),
    findP99Ms: round(p99, 2),
    findCalls: total(runs.find, (summary) => summary.requests),
    findErrors: errors,
    findCallsPerSecond: round(findPerSecond, 1),
    replayCallsPerSecond: round(replayPerSecond, 1),
    findVsReplayThroughput: round(findPerSecond / replayPerSecond, 3),
    floorP50Ms: round(floorP50, 2),
    floorP99Ms: round(floorP99, 2),
    findVsFloorP99: round(p99 / floorP99, 2),
    findLoadAverage: round(os.loadavg()[0], 2),
    findP99Goal: checkGoal({ label: `find_skills latency p99 (MCP Inspector load, ${revision})`, value: p99, unit: ' ms', target: FIND_P99_GOAL_MS, better: 'lower' }),
    findVsReplayGoal: checkGoal({
      label: `find_skills ÷ ${REPLAY_TOOL_NAME} throughput, ${revision}`,
      value: findPerSecond / replayPerSecond,
      unit: '×',
      target: FIND_VS_REPLAY_GOAL,
      better: 'higher',
    }),
    findErrorsGoal: checkGoal({ label: `find_skills errors under load, ${revision}`, value: errors, unit: '', target: 0, better: 'lower' }),
  };
  return Object.fromEntries(Object.entries(figures).map(([name, value]) => [figureName(revision, name), value]));
}

async function teamServer(cli: string, root: string, revision: ProtocolRevision): Promise<BenchFigures> {
  const soakSeconds = process.env.AGENT_SKILLS_BENCH_SOAK === '1' ? SOAK_SECONDS : 0;
  const query = 'generate a pdf report from a spreadsheet';
  const result = await findOverHttp({ cli, revision, root, clients: HTTP_CLIENTS, seconds: HTTP_SECONDS, soakSeconds, query });
  printFigure(`find_skills calls over HTTP in ${HTTP_SECONDS} s, ${HTTP_CLIENTS} clients, ${HTTP_SKILLS} skills, ${revision}`, result.calls, '');
  printFigure('find_skills latency over HTTP p50', result.p50Ms, ' ms');
  printFigure('server CPU time per find_skills call over HTTP', result.serverCpuMsPerCall, ' ms');
  printFigure("  … and the load generator's, on the same cores", result.clientCpuMsPerCall, ' ms');
  console.log(`  (1-minute load average ${result.loadAverages.map((value) => value.toFixed(2)).join(' → ')} over the run, ${os.cpus().length} CPUs: latency waits for a CPU when it is above that)`);
  printFigure('server resident memory after the run', result.rssAfterRunMb, ' MB');
  const figures: BenchFigures = {
    httpFindP50Ms1000: round(result.p50Ms, 2),
    httpFindP99Ms1000: round(result.p99Ms, 2),
    httpFindCalls1000: result.calls,
    httpFindErrors1000: result.errors,
    httpServerCpuMsPerCall: round(result.serverCpuMsPerCall, 2),
    httpClientCpuMsPerCall: round(result.clientCpuMsPerCall, 2),
    httpLoadAverage: round(Math.max(...result.loadAverages), 2),
    httpRssMb: round(result.rssAfterRunMb, 1),
    httpFindP99Goal: checkGoal({ label: `find_skills latency p99 over HTTP (${HTTP_CLIENTS} clients, ${revision})`, value: result.p99Ms, unit: ' ms', target: HTTP_P99_GOAL_MS, better: 'lower' }),
    httpFindErrorsGoal: checkGoal({ label: `find_skills errors over HTTP, ${revision}`, value: result.errors, unit: '', target: 0, better: 'lower' }),
    httpServerCpuGoal: checkGoal({
      label: `server CPU time per find_skills call over HTTP, ${revision}`,
      value: result.serverCpuMsPerCall,
      unit: ' ms',
      target: HTTP_SERVER_CPU_GOAL_MS,
      better: 'lower',
    }),
  };
  const named = (all: BenchFigures): BenchFigures => Object.fromEntries(Object.entries(all).map(([name, value]) => [figureName(revision, name), value]));
  if (!result.soak) {
    console.log('  (memory soak skipped: AGENT_SKILLS_BENCH_SOAK=1 runs it, 5 minutes)');
    return named(figures);
  }
  const { soak } = result;
  printFigure(`resident memory after the soak's first minute`, soak.settledRssMb, ' MB');
  printFigure(`resident memory after ${SOAK_SECONDS / 60} minutes (${soak.calls.toLocaleString('en-US')} calls, ${soak.errors} errors)`, soak.endRssMb, ' MB');
  return named({
    ...figures,
    soakSettledRssMb: round(soak.settledRssMb, 1),
    soakEndRssMb: round(soak.endRssMb, 1),
    soakRssRatio: round(soak.ratio, 3),
    soakCalls: soak.calls,
    soakErrors: soak.errors,
    soakRssGoal: checkGoal({ label: `resident memory, end of soak ÷ after its first minute, ${revision}`, value: soak.ratio, unit: '×', target: SOAK_RSS_RATIO_GOAL, better: 'lower' }),
  });
}

export async function run(): Promise<BenchFigures> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-mcp-')));
  try {
    const cli = await bundleCli(folder);
    const replayServer = await bundleCli(folder, 'bench/mcp/replay-server.ts', 'replay-server.js');
    const roots = { '10': path.join(folder, 'skills-10'), '1000': path.join(folder, 'skills-1000') };
    await writeSyntheticSkills(roots['10'], 10);
    await writeSyntheticSkills(roots['1000'], 1000);
    const corpus = await findCorpus(cli, path.join(folder, 'skills-find'));
    let figures: BenchFigures = {};
    for (const revision of REVISIONS) {
      figures = {
        ...figures,
        ...(await startUp(cli, { '10': roots['10'], '1000': roots['1000'] }, revision)),
        ...(await findUnderLoad(replayServer, corpus, revision, folder)),
        ...(await teamServer(cli, roots['1000'], revision)),
      };
    }
    return figures;
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
