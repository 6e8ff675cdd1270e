// The VS Code server process of a suite (or of the demo): its command line, start-up, output and
// a stop that leaves no process of its group behind.
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import { serverFolderArguments, type IntegrationSuite, type SuiteFolders } from './suite-folders';

const serverStartSeconds = 90;
const verbose = process.env.AGENT_SKILLS_TEST_VERBOSE === '1';

export function serverArguments(suite: IntegrationSuite, folders: SuiteFolders, port: number): string[] {
  return [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    // Without it the workbench ignores the extension-test payload in the URL.
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    ...serverFolderArguments(folders),
    ...(suite.trusted ? ['--disable-workspace-trust'] : []),
  ];
}

/** A VS Code server in its own process group, with the last lines of its output kept. */
export class ServerProcess {
  private readonly process: ChildProcess;
  private readonly exited: Promise<string>;
  private readonly output: string[] = [];
  private stopping: Promise<void> | undefined;

  constructor(
    nodeBinary: string,
    serverMain: string,
    args: string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
    private readonly log: (line: string) => void,
    private readonly prefix: string,
  ) {
    const server = spawn(nodeBinary, [serverMain, ...args], { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = server;
    const remember = (chunk: Buffer) => {
      for (const line of chunk
        .toString()
        .split('\n')
        .filter((text) => text.trim() !== '')) {
        this.output.push(line);
        if (this.output.length > 300) {
          this.output.shift();
        }
        if (verbose) {
          this.log(`[${this.prefix}:server] ${line}`);
        }
      }
    };
    server.stdout?.on('data', remember);
    server.stderr?.on('data', remember);
    this.exited = new Promise((resolve) => {
      server.on('error', (error) => resolve(`the VS Code server could not start: ${error.message}`));
      server.on('exit', (code, signal) => resolve(`the VS Code server exited early (code ${code}, signal ${signal})`));
    });
  }

  /** Resolves, with the reason, if the server ends (or fails to start). */
  exit(): Promise<string> {
    return this.exited;
  }

  async waitUntilListening(port: number): Promise<void> {
    const deadline = Date.now() + serverStartSeconds * 1000;
    while (Date.now() < deadline) {
      const listening = this.output.some((line) => line.includes('Extension host agent listening'));
      if (listening && (await answersHttp(port))) {
        return;
      }
      const exited = await Promise.race([this.exit(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200))]);
      if (exited) {
        throw new Error(exited);
      }
    }
    throw new Error(`the VS Code server did not answer on port ${port} within ${serverStartSeconds} s`);
  }

  printOutput(): void {
    if (!verbose && this.output.length > 0) {
      this.log(`[${this.prefix}] last lines of the VS Code server:`);
      for (const line of this.output.slice(-40)) {
        this.log(`[${this.prefix}:server] ${line}`);
      }
    }
  }

  /** Stops the server and everything in its process group (the extension host included). */
  stop(): Promise<void> {
    this.stopping ??= this.stopGroup();
    return this.stopping;
  }

  private async stopGroup(): Promise<void> {
    const server = this.process;
    if (server.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      killGroup(server.pid, 'SIGTERM');
      const exitedInTime = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5000))]);
      if (!exitedInTime) {
        killGroup(server.pid, 'SIGKILL');
      }
    }
    if (server.pid !== undefined) {
      // The extension host and other helpers share the server's group; make sure none stays.
      killGroup(server.pid, 'SIGKILL');
    }
  }
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

export function answersHttp(port: number, requestPath = '/'): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: requestPath, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}
