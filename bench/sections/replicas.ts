// The team server as several replicas behind nginx, with the configuration docs/mcp-server.md
// shows: find_skills calls answered in 15 s through nginx by one replica, then by two, under the
// same client load (64 plain 2026-07-28 clients back to back, split over two load-generating
// processes, bench/mcp/load-worker.ts), at 1,000 skills. With one replica, both of the
// configuration's upstream servers name it, so nginx does the same work in both runs.
//
// Measured only with at least 4 cores: two replicas, nginx and the load generators on fewer
// would take turns on the same cores, and the ratio would say how many cores the machine has,
// not how the server scales. Without nginx it is not measured either.
//
// Figures (sections.replicas): replicaCallsOne, replicaCallsTwo, replicaErrors,
// replicaThroughputRatio (two ÷ one; a "not measured (…)" text where it was not), replicaThroughputGoal.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { findNginx, startNginx } from '../../scripts/harness/nginx';
import { bundleCli } from '../mcp/cli-bundle';
import { startServer } from '../mcp/http-load';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { nodeArguments } from '../paths';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

const MIN_CORES = 4;
const SKILLS = 1000;
const CLIENTS = 64;
const LOAD_PROCESSES = 2;
const SECONDS = 15;
const WARM_UP_SECONDS = 3;
const RATIO_GOAL = 1.8;
const QUERY = 'generate a pdf report from a spreadsheet';
const RATIO_LABEL = 'find_skills throughput, two replicas ÷ one (nginx)';

interface Throughput {
  calls: number;
  errors: number;
}

/** The calls answered through nginx in front of `replicaCount` replicas, under the same client load each time. */
async function throughput(cli: string, root: string, nginxBinary: string, replicaCount: number): Promise<Throughput> {
  const servers = await Promise.all(['a', 'b'].slice(0, replicaCount).map((name) => startServer(cli, root, ['--replica', name])));
  try {
    const nginx = await startNginx(
      nginxBinary,
      servers.map((server) => new URL(server.url).host),
    );
    try {
      // One start for every load generator: each warms up until then, then counts.
      const startAt = Date.now() + WARM_UP_SECONDS * 1000;
      const workers = Array.from({ length: LOAD_PROCESSES }, () =>
        promisify(execFile)(process.execPath, [...nodeArguments('mcp/load-worker', []), `${nginx.base}/mcp`, String(CLIENTS / LOAD_PROCESSES), String(startAt), String(SECONDS), QUERY]),
      );
      const results = (await Promise.all(workers)).map(({ stdout }) => JSON.parse(stdout) as Throughput);
      return { calls: results.reduce((sum, each) => sum + each.calls, 0), errors: results.reduce((sum, each) => sum + each.errors, 0) };
    } finally {
      await nginx.stop();
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Why the ratio cannot be measured on this machine, or undefined when it can. */
function notMeasured(cores: number, nginxBinary: string | undefined): string | undefined {
  if (cores < MIN_CORES) {
    return `not measured (${cores} cores < ${MIN_CORES})`;
  }
  return nginxBinary === undefined ? 'not measured (nginx is not installed)' : undefined;
}

export async function run(): Promise<BenchFigures> {
  const nginxBinary = findNginx();
  const skipped = notMeasured(os.cpus().length, nginxBinary);
  if (skipped !== undefined) {
    console.log(`  ${RATIO_LABEL}: ${skipped}`);
    return { replicaThroughputRatio: skipped };
  }
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-replicas-')));
  try {
    const cli = await bundleCli(folder);
    const root = path.join(folder, 'skills');
    await writeSyntheticSkills(root, SKILLS);
    const one = await throughput(cli, root, nginxBinary!, 1);
    const two = await throughput(cli, root, nginxBinary!, 2);
    printFigure(`find_skills calls in ${SECONDS} s through nginx, one replica (${CLIENTS} clients)`, one.calls, '');
    printFigure(`find_skills calls in ${SECONDS} s through nginx, two replicas`, two.calls, '');
    const ratio = two.calls / one.calls;
    return {
      replicaCallsOne: one.calls,
      replicaCallsTwo: two.calls,
      replicaErrors: one.errors + two.errors,
      replicaThroughputRatio: round(ratio, 2),
      replicaThroughputGoal: checkGoal({ label: RATIO_LABEL, value: ratio, unit: '×', target: RATIO_GOAL, better: 'higher' }),
    };
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
