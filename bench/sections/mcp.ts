// The MCP server (`agent-skills mcp`), run as a client runs it: the production bundle of the CLI in
// its own Node process over stdio. Start-up is timed from spawning the process to the answer of the
// first tools/list, at 10 and 1,000 skills, next to spawning `node -e 0` in the same run (the floor
// any Node server pays). Then find_skills at about 500 skills under 10 concurrent calls, measured
// by a third-party client: the MCP Inspector's load mode.
//
// Figures (sections.mcp in bench-results.json): nodeStartMs, startToToolsListMs10,
// startToToolsListMs1000, startVsNodeRatio10, startVsNodeRatio1000, findP50Ms500, findP99Ms500,
// findCalls500, findErrors500, findP99Goal, findErrorsGoal.

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { median } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

const START_RUNS = 7;
const FIND_SKILLS = 500;
const FIND_CONCURRENCY = 10;
const FIND_SECONDS = 5;
const FIND_P99_GOAL_MS = 25;
const INSPECTOR = path.join(repositoryRoot, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

/** The CLI bundled as it ships (scripts/build.mjs --production), into the bench's own folder. */
async function bundleCli(folder: string): Promise<string> {
  const esbuild = await import('esbuild');
  const outfile = path.join(folder, 'cli.js');
  await esbuild.build({
    entryPoints: [path.join(repositoryRoot, 'src', 'cli', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    logLevel: 'warning',
  });
  return outfile;
}

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

const FIRST_TOOLS_LIST = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => JSON.stringify(message))
  .join('\n');

async function startUp(cli: string, roots: Record<string, string>): Promise<BenchFigures> {
  const times: Record<string, number[]> = { node: [] };
  for (const name of Object.keys(roots)) {
    times[name] = [];
  }
  // Alternating runs, so load on the machine affects each alike.
  for (let run = 0; run <= START_RUNS; run++) {
    const node = await timeProcess(['-e', '0']);
    const started: Record<string, number> = {};
    for (const [name, root] of Object.entries(roots)) {
      started[name] = await timeProcess([cli, 'mcp', '--no-user', '--no-builtin', root], `${FIRST_TOOLS_LIST}\n`, (stdout) => stdout.includes('"id":2'));
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
  const figures: BenchFigures = { nodeStartMs: round(nodeMs, 1) };
  for (const name of Object.keys(roots)) {
    const ms = median(times[name]);
    printFigure(`start to first tools/list, ${name} skills (median)`, ms, ' ms');
    printFigure(`  … against node -e 0`, ms / nodeMs, '×');
    figures[`startToToolsListMs${name}`] = round(ms, 1);
    figures[`startVsNodeRatio${name}`] = round(ms / nodeMs, 2);
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

async function findUnderLoad(cli: string, root: string): Promise<BenchFigures> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      '-q',
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
  printFigure(`find_skills calls in ${FIND_SECONDS} s, ${FIND_CONCURRENCY} at a time, ${FIND_SKILLS} skills`, summary.requests, '');
  printFigure('find_skills latency p50', summary.latencyMs.p50, ' ms');
  return {
    findP50Ms500: summary.latencyMs.p50,
    findP99Ms500: summary.latencyMs.p99,
    findCalls500: summary.requests,
    findErrors500: errors,
    findP99Goal: checkGoal({ label: 'find_skills latency p99 (MCP Inspector load)', value: summary.latencyMs.p99, unit: ' ms', target: FIND_P99_GOAL_MS, better: 'lower' }),
    findErrorsGoal: checkGoal({ label: 'find_skills errors under load', value: errors, unit: '', target: 0, better: 'lower' }),
  };
}

export async function run(): Promise<BenchFigures> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-mcp-')));
  try {
    const cli = await bundleCli(folder);
    const roots = { '10': path.join(folder, 'skills-10'), '1000': path.join(folder, 'skills-1000'), '500': path.join(folder, 'skills-500') };
    await writeSyntheticSkills(roots['10'], 10);
    await writeSyntheticSkills(roots['1000'], 1000);
    await writeSyntheticSkills(roots['500'], FIND_SKILLS);
    return { ...(await startUp(cli, { '10': roots['10'], '1000': roots['1000'] })), ...(await findUnderLoad(cli, roots['500'])) };
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
