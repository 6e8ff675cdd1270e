// The MCP server (`agent-skills mcp`), run as a client runs it: the production bundle of the CLI in
// its own Node process over stdio, at both protocol revisions. Start-up is timed from spawning the
// process to the answer of the first tools/list (after initialize on 2025-11-25, after
// server/discover on 2026-07-28), at 10 and 1,000 skills, next to spawning `node -e 0` in the same
// run (the floor any Node server pays). Then find_skills at about 500 skills under 10 concurrent
// calls, measured by a third-party client: the MCP Inspector's load mode. Then the team server
// (`mcp --http`) at 1,000 skills under 50 clients at once (bench/mcp/http-load.ts);
// AGENT_SKILLS_BENCH_SOAK=1 adds the 5-minute memory soak.
//
// Figures (sections.mcp in bench-results.json), those of 2026-07-28 with the prefix `stateless`
// (statelessStartToToolsListMs10, statelessFindP50Ms500, statelessHttpFindP99Ms1000…):
// nodeStartMs, startToToolsListMs10, startToToolsListMs1000, startVsNodeRatio10,
// startVsNodeRatio1000, findP50Ms500, findP99Ms500, findCalls500, findErrors500, findP99Goal,
// findErrorsGoal, httpFindP50Ms1000, httpFindP99Ms1000, httpFindCalls1000, httpFindErrors1000,
// httpFindP99Goal, httpFindErrorsGoal, httpServerCpuMsPerCall, httpClientCpuMsPerCall,
// httpLoadAverage, httpRssMb, and with the soak soakSettledRssMb, soakEndRssMb, soakRssRatio,
// soakCalls, soakErrors, soakRssGoal.

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { median } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';
import { findOverHttp, type ProtocolRevision } from '../mcp/http-load';
import { bundleCli } from '../mcp/cli-bundle';

const START_RUNS = 7;
const FIND_SKILLS = 500;
const FIND_CONCURRENCY = 10;
const FIND_SECONDS = 5;
const FIND_P99_GOAL_MS = 25;
const HTTP_SKILLS = 1000;
const HTTP_CLIENTS = 50;
const HTTP_SECONDS = 20;
const HTTP_P99_GOAL_MS = 50;
const SOAK_SECONDS = 300;
const SOAK_RSS_RATIO_GOAL = 1.1;
const INSPECTOR = path.join(repositoryRoot, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

/** Milliseconds from spawning `args` to the moment `done(stdout)` holds (or the process exits, without `done`). */
function timeProcess(args: string[], input?: string, done?: (stdout: string) => boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    let settled = false;
    const finish = (): void => {
      if (!settled) {
        settled = true;
        resolve(Number(process.hrtime.bigint() - start) / 1e6);
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

/** What a client sends first, up to its first tools/list (id 2), at each revision. */
const FIRST_TOOLS_LIST: Readonly<Record<ProtocolRevision, string>> = {
  '2025-11-25': [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((message) => JSON.stringify(message))
    .join('\n'),
  '2026-07-28': [
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } },
  ]
    .map((message) => JSON.stringify(message))
    .join('\n'),
};

async function startUp(cli: string, roots: Record<string, string>, revision: ProtocolRevision): Promise<BenchFigures> {
  const times: Record<string, number[]> = { node: [] };
  for (const name of Object.keys(roots)) {
    times[name] = [];
  }
  // Alternating runs, so load on the machine affects each alike.
  for (let run = 0; run <= START_RUNS; run++) {
    const node = await timeProcess(['-e', '0']);
    const started: Record<string, number> = {};
    for (const [name, root] of Object.entries(roots)) {
      started[name] = await timeProcess([cli, 'mcp', '--no-user', '--no-builtin', root], `${FIRST_TOOLS_LIST[revision]}\n`, (stdout) => stdout.includes('"id":2'));
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

async function findUnderLoad(cli: string, root: string, revision: ProtocolRevision): Promise<BenchFigures> {
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
      'find_skills',
      '--tool-arg',
      'query=generate a pdf report from a spreadsheet',
      '--load',
      '--load-concurrency',
      String(FIND_CONCURRENCY),
      '--load-duration',
      String(FIND_SECONDS),
      '--',
      process.execPath,
      cli,
      'mcp',
      '--no-user',
      '--no-builtin',
      root,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const summary = JSON.parse(stdout) as LoadSummary;
  const errors = summary.errors + summary.toolErrors;
  printFigure(`find_skills calls in ${FIND_SECONDS} s, ${FIND_CONCURRENCY} at a time, ${FIND_SKILLS} skills, ${revision}`, summary.requests, '');
  printFigure('find_skills latency p50', summary.latencyMs.p50, ' ms');
  const figures: BenchFigures = {
    findP50Ms500: summary.latencyMs.p50,
    findP99Ms500: summary.latencyMs.p99,
    findCalls500: summary.requests,
    findErrors500: errors,
    findP99Goal: checkGoal({ label: `find_skills latency p99 (MCP Inspector load, ${revision})`, value: summary.latencyMs.p99, unit: ' ms', target: FIND_P99_GOAL_MS, better: 'lower' }),
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
    const roots = { '10': path.join(folder, 'skills-10'), '1000': path.join(folder, 'skills-1000'), '500': path.join(folder, 'skills-500') };
    await writeSyntheticSkills(roots['10'], 10);
    await writeSyntheticSkills(roots['1000'], 1000);
    await writeSyntheticSkills(roots['500'], FIND_SKILLS);
    let figures: BenchFigures = {};
    for (const revision of REVISIONS) {
      figures = {
        ...figures,
        ...(await startUp(cli, { '10': roots['10'], '1000': roots['1000'] }, revision)),
        ...(await findUnderLoad(cli, roots['500'], revision)),
        ...(await teamServer(cli, roots['1000'], revision)),
      };
    }
    return figures;
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
