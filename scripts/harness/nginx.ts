// nginx (Debian's package) as the load balancer in front of replicas of `agent-skills mcp --http`,
// run from a folder of its own: `daemon off`, its pid, logs and temporary files inside the folder,
// a free port on 127.0.0.1. It runs the configuration docs/mcp-server.md shows ("Several
// replicas"), with only the addresses and the TLS lines changed, so what users copy is what the
// tests and the benchmark run. The access log names the replica that answered each request.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { repositoryRoot } from './repository';

const DOCUMENTED_IN = path.join(repositoryRoot, 'docs', 'mcp-server.md');
/** The replica addresses the documented configuration names, in the order of its replicas a, b. */
const DOCUMENTED_REPLICAS = ['10.0.0.11:8080', '10.0.0.12:8080'];
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;

/** The nginx binary: Debian's, or the first on PATH; undefined when nginx is not installed. */
export function findNginx(): string | undefined {
  const folders = ['/usr/sbin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  return folders
    .map((folder) => path.join(folder, 'nginx'))
    .find((candidate) => {
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The `nginx` code block of docs/mcp-server.md. */
export function documentedNginxConfig(): string {
  const block = /^```nginx\n([\s\S]*?)^```$/m.exec(fs.readFileSync(DOCUMENTED_IN, 'utf8'));
  if (!block) {
    throw new Error(`${DOCUMENTED_IN} has no nginx code block.`);
  }
  return block[1];
}

/**
 * The documented configuration pointed at these replicas (host:port, for the documented replicas
 * a and b in turn; one replica stands for both) and listening on `port` without TLS.
 */
export function localNginxConfig(documented: string, replicas: readonly string[], port: number): string {
  let config = documented.replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`).replace(/^\s*ssl_certificate(_key)? .*\n/gm, '');
  DOCUMENTED_REPLICAS.forEach((address, index) => {
    config = config.replaceAll(address, replicas[Math.min(index, replicas.length - 1)]);
  });
  if (config.includes('ssl') || DOCUMENTED_REPLICAS.some((address) => config.includes(address))) {
    throw new Error(`The configuration in ${DOCUMENTED_IN} no longer has the shape this harness adapts:\n${config}`);
  }
  return config;
}

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  /** http://127.0.0.1:PORT */
  base: string;
  /** Each request answered so far: the replicas tried (`$upstream_addr`, "a, b" when it moved on), the status sent, the request's Mcp-Session-Id ('' without). */
  answered(): { upstream: string; status: number; uri: string; session: string }[];
  errorLog(): string;
  stop(): Promise<void>;
}

/** Starts `nginx` with the documented configuration in front of `replicas` (host:port); resolves once it answers /healthz. */
export async function startNginx(nginx: string, replicas: readonly string[]): Promise<RunningNginx> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-nginx-'));
  // Its workers may run as another user (nginx started as root): they read and write in here.
  fs.chmodSync(folder, 0o755);
  const port = await freePort();
  const inside = (name: string): string => path.join(folder, name);
  fs.writeFileSync(
    inside('nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${inside('nginx.pid')};`,
      `error_log ${inside('error.log')} notice;`,
      'events { worker_connections 512; }',
      'http {',
      "  log_format replicas '$upstream_addr|$status|$uri|$http_mcp_session_id';",
      `  access_log ${inside('access.log')} replicas;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${inside(kind)};`),
      localNginxConfig(documentedNginxConfig(), replicas, port),
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(nginx, ['-p', folder, '-c', inside('nginx.conf'), '-e', inside('error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (name: string): string => (fs.existsSync(inside(name)) ? fs.readFileSync(inside(name), 'utf8') : '');
  const base = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      const why = `${stderr}${read('error.log')}`;
      await stop();
      throw new Error(`nginx exited at start:\n${why}`);
    }
    const healthy = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) {
      break;
    }
    if (Date.now() > deadline) {
      const why = read('error.log');
      await stop();
      throw new Error(`nginx did not answer /healthz within ${START_TIMEOUT_MS / 1000} s:\n${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    answered: () =>
      read('access.log')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [upstream, status, uri, session] = line.split('|');
          return { upstream, status: Number(status), uri, session: session === '-' ? '' : session };
        }),
    errorLog: () => read('error.log'),
    stop,
  };
}
