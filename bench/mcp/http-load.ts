// `agent-skills mcp --http` under a team's load: many clients at once, each in its own session
// (the official SDK's Streamable HTTP client), calling find_skills back to back against one
// server process. Latency is measured by the clients, call to answer; the server's resident
// memory is read from outside (/proc or ps) once a second. The soak keeps the same load going for
// minutes and compares the memory at the end with where it settled after the first minute.

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { percentile } from '../measure';

export interface HttpLoadOptions {
  /** The bundled command line. */
  cli: string;
  root: string;
  clients: number;
  /** How long the latency is measured. */
  seconds: number;
  /** How long the soak runs after that, 0 for none. */
  soakSeconds: number;
  query: string;
}

export interface HttpLoadResult {
  calls: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's CPU time per call in the measured run (Linux; NaN elsewhere): what a call costs, whatever else the machine runs. */
  serverCpuMsPerCall: number;
  /** Resident memory once the measured run ended. */
  rssAfterRunMb: number;
  /** With a soak: resident memory after its first minute, at its end, and the ratio. */
  soak?: { settledRssMb: number; endRssMb: number; ratio: number; calls: number; errors: number };
}

const TOKEN = 'bench-token-0123456789';
const SETTLE_SECONDS = 60;

/** Resident memory of a process in megabytes. */
async function residentMb(pid: number): Promise<number> {
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)]);
    return Number(stdout.trim()) / 1024;
  }
}

/** CPU time (user + system) a process has used, in milliseconds; NaN where /proc is missing. */
async function cpuMs(pid: number): Promise<number> {
  try {
    const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Calls find_skills on every client back to back until `until`; the latencies and the number of failed calls. */
async function load(clients: readonly Client[], query: string, until: number): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < until) {
        const start = process.hrtime.bigint();
        try {
          const result = await client.callTool({ name: 'find_skills', arguments: { query } });
          if (result.isError) {
            errors++;
          }
        } catch {
          errors++;
        }
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }),
  );
  return { latencies, errors };
}

export async function findOverHttp(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const server = spawn(process.execPath, [options.cli, 'mcp', '--no-user', '--no-builtin', '--http', '127.0.0.1:0', options.root], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AGENT_SKILLS_MCP_TOKEN: TOKEN },
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      server.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const listening = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
        if (listening) {
          resolve(listening[1]);
        }
      });
      void exited.then(() => reject(new Error(`the server exited before listening:\n${stderr}`)));
    });
    const clients: Client[] = [];
    for (let index = 0; index < options.clients; index++) {
      const client = new Client({ name: `bench-${index}`, version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      clients.push(client);
    }
    await load(clients, options.query, Date.now() + 2000); // Warm-up: JIT, file-system caches, the find index.
    const cpuBefore = await cpuMs(server.pid!);
    const measured = await load(clients, options.query, Date.now() + options.seconds * 1000);
    const cpuUsed = (await cpuMs(server.pid!)) - cpuBefore;
    const sorted = measured.latencies.sort((a, b) => a - b);
    const result: HttpLoadResult = {
      serverCpuMsPerCall: cpuUsed / sorted.length,
      calls: sorted.length,
      errors: measured.errors,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      rssAfterRunMb: await residentMb(server.pid!),
    };
    if (options.soakSeconds > 0) {
      const samples: { atSeconds: number; mb: number }[] = [];
      const started = Date.now();
      const sampler = setInterval(() => void residentMb(server.pid!).then((mb) => samples.push({ atSeconds: (Date.now() - started) / 1000, mb })), 1000);
      const soaked = await load(clients, options.query, started + options.soakSeconds * 1000);
      clearInterval(sampler);
      // Where memory settled: the mean of the first minute's last 10 s; the end: the mean of the last 10 s.
      const mean = (from: number, to: number): number => {
        const window = samples.filter((sample) => sample.atSeconds >= from && sample.atSeconds < to).map((sample) => sample.mb);
        return window.reduce((sum, mb) => sum + mb, 0) / window.length;
      };
      const settledRssMb = mean(SETTLE_SECONDS - 10, SETTLE_SECONDS);
      const endRssMb = mean(options.soakSeconds - 10, options.soakSeconds + 1);
      result.soak = { settledRssMb, endRssMb, ratio: endRssMb / settledRssMb, calls: soaked.latencies.length, errors: soaked.errors };
    }
    await Promise.all(clients.map((client) => client.close()));
    return result;
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}
