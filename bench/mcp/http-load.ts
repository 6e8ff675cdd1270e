// `agent-skills mcp --http` under a team's load: many clients at once, each in its own session,
// calling find_skills back to back against one server process. Latency is measured by the clients,
// call to answer; the server's resident memory is read from outside (/proc or ps) once a second.
// The soak keeps the same load going for minutes and compares the memory at the end with where it
// settled after the first minute.
//
// The load comes from plain HTTP clients (node:http, one kept-alive connection per client) that
// speak the protocol as the official SDK's client does, at either revision: on 2025-11-25,
// initialize, notifications/initialized, then tools/call in the session; on 2026-07-28 (no
// session), each tools/call with the revision and client capabilities in its _meta and the
// headers that revision asks for. The SDK's client costs several times what the server spends on a call (about
// 2.6 ms of CPU per call against the server's 1.6 ms, measured side by side on this 2-core
// machine), so with it the bench measured mostly its own clients. One SDK client still checks
// first that it gets exactly the answer the plain clients get, and the load generator's own CPU
// time per call is reported beside the server's.

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { percentile } from '../measure';

export type ProtocolRevision = '2025-11-25' | '2026-07-28';

export interface HttpLoadOptions {
  /** The bundled command line. */
  cli: string;
  revision: ProtocolRevision;
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
  /** The load generator's own CPU time per call (this process): it shares the machine's cores with the server. */
  clientCpuMsPerCall: number;
  /** The machine's 1-minute load average at the start and at the end of the measured run. */
  loadAverages: [number, number];
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

const FIND = 'find_skills';
const STATELESS: ProtocolRevision = '2026-07-28';
/** What a 2026-07-28 request carries in its _meta. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': STATELESS,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

interface OutgoingMessage {
  jsonrpc: '2.0';
  id?: number;
  method: string;
  params?: Record<string, unknown>;
}

/** One plain HTTP client on its own kept-alive connection: a session on 2025-11-25, none on 2026-07-28. */
export class PlainSession {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private sessionId: string | undefined;
  private nextId = 1;

  constructor(
    private readonly url: URL,
    private readonly revision: ProtocolRevision,
  ) {}

  /**
   * POSTs one JSON-RPC message; the answer's status, session id and body. A kept-alive connection
   * the server closed as idle just as it was reused is retried once on a new one, as Node advises.
   */
  private post(message: OutgoingMessage, retried = false): Promise<{ status: number; sessionId?: string; body: string }> {
    const stateless = this.revision === STATELESS;
    const data = JSON.stringify(stateless ? { ...message, params: { ...message.params, _meta: ENVELOPE } } : message);
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TOKEN}`,
      'content-length': Buffer.byteLength(data),
    };
    if (this.sessionId) {
      headers['mcp-session-id'] = this.sessionId;
      headers['mcp-protocol-version'] = this.revision;
    }
    if (stateless) {
      headers['mcp-protocol-version'] = this.revision;
      headers['mcp-method'] = message.method;
      if (typeof message.params?.name === 'string') {
        headers['mcp-name'] = message.params.name;
      }
    }
    return new Promise((resolve, reject) => {
      const request = http.request(this.url, { method: 'POST', agent: this.agent, headers }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () => {
          const sessionId = response.headers['mcp-session-id'];
          resolve({ status: response.statusCode ?? 0, sessionId: typeof sessionId === 'string' ? sessionId : undefined, body: Buffer.concat(parts).toString('utf8') });
        });
        response.on('error', reject);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) {
          resolve(this.post(message, true));
        } else {
          reject(error);
        }
      });
      request.end(data);
    });
  }

  /** Opens the session (2025-11-25); a 2026-07-28 client has none to open. */
  async open(): Promise<void> {
    if (this.revision === STATELESS) {
      return;
    }
    const initialized = await this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: this.revision, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
    if (initialized.status !== 200 || !initialized.sessionId) {
      throw new Error(`initialize answered ${initialized.status}: ${initialized.body}`);
    }
    this.sessionId = initialized.sessionId;
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** find_skills' text; throws on any other answer than a tool result that is not an error. */
  async find(query: string): Promise<string> {
    const answer = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name: FIND, arguments: { query } } });
    const result = answer.status === 200 ? (JSON.parse(answer.body) as { result?: { isError?: boolean; content?: { text?: string }[] } }).result : undefined;
    const text = result?.content?.[0]?.text;
    if (!result || result.isError || text === undefined) {
      throw new Error(`${FIND} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    }
    return text;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Calls find_skills on every session back to back until `until`; the latencies and the number of failed calls. */
export async function load(sessions: readonly PlainSession[], query: string, until: number): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    sessions.map(async (session) => {
      while (Date.now() < until) {
        const start = process.hrtime.bigint();
        try {
          await session.find(query);
        } catch {
          errors++;
        }
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }),
  );
  return { latencies, errors };
}

/** The official SDK's client gets what the plain clients get (the load speaks the protocol as real clients do). */
async function checkAgainstSdkClient(url: string, revision: ProtocolRevision, session: PlainSession, query: string): Promise<void> {
  const client = new Client({ name: 'bench-check', version: '1' }, revision === STATELESS ? { versionNegotiation: { mode: { pin: STATELESS } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  if (client.getNegotiatedProtocolVersion() !== revision) {
    throw new Error(`the SDK client speaks ${client.getNegotiatedProtocolVersion()}, not ${revision}`);
  }
  try {
    const result = await client.callTool({ name: FIND, arguments: { query } });
    const sdkText = (result.content as { text?: string }[])[0]?.text;
    if (result.isError || sdkText !== (await session.find(query))) {
      throw new Error(`the SDK client's ${FIND} answer differs from the plain client's`);
    }
  } finally {
    if (revision !== STATELESS) {
      await (client.transport as StreamableHTTPClientTransport).terminateSession();
    }
    await client.close();
  }
}

export interface ServerProcess {
  /** The endpoint it listens on, http://127.0.0.1:PORT/mcp. */
  url: string;
  pid: number;
  /** Stops it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** `agent-skills mcp --http 127.0.0.1:0 ARGS… ROOT` with the bench's token; resolves once it listens. */
export async function startServer(cli: string, root: string, args: readonly string[] = []): Promise<ServerProcess> {
  const server = spawn(process.execPath, [cli, 'mcp', '--no-user', '--no-builtin', '--http', '127.0.0.1:0', ...args, root], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AGENT_SKILLS_MCP_TOKEN: TOKEN },
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    server.kill('SIGTERM');
    await exited;
  };
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
    return { url, pid: server.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function findOverHttp(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const server = await startServer(options.cli, options.root);
  const { url } = server;
  try {
    const sessions = Array.from({ length: options.clients }, () => new PlainSession(new URL(url), options.revision));
    await Promise.all(sessions.map((session) => session.open()));
    await checkAgainstSdkClient(url, options.revision, sessions[0], options.query);
    await load(sessions, options.query, Date.now() + 2000); // Warm-up: JIT, file-system caches, the find index.
    const loadBefore = os.loadavg()[0];
    const cpuBefore = await cpuMs(server.pid);
    const ownCpuBefore = process.cpuUsage();
    const measured = await load(sessions, options.query, Date.now() + options.seconds * 1000);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const cpuUsed = (await cpuMs(server.pid)) - cpuBefore;
    const sorted = measured.latencies.sort((a, b) => a - b);
    const result: HttpLoadResult = {
      serverCpuMsPerCall: cpuUsed / sorted.length,
      clientCpuMsPerCall: (ownCpu.user + ownCpu.system) / 1000 / sorted.length,
      loadAverages: [loadBefore, os.loadavg()[0]],
      calls: sorted.length,
      errors: measured.errors,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      rssAfterRunMb: await residentMb(server.pid),
    };
    if (options.soakSeconds > 0) {
      const samples: { atSeconds: number; mb: number }[] = [];
      const started = Date.now();
      const sampler = setInterval(() => void residentMb(server.pid).then((mb) => samples.push({ atSeconds: (Date.now() - started) / 1000, mb })), 1000);
      const soaked = await load(sessions, options.query, started + options.soakSeconds * 1000);
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
    sessions.forEach((session) => session.close());
    return result;
  } finally {
    await server.stop();
  }
}
