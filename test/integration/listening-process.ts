// An HTTP server the tests start as a process of its own, which says on stderr where it listens
// ("listening on http://127.0.0.1:PORT/mcp"): this product's `agent-skills mcp --http`, or the
// Skills extension's reference SDK. Used by the integration suites and the unit tests alike, so it
// imports nothing of VS Code.

import { spawn } from 'node:child_process';

const LISTEN_TIMEOUT_MS = 20_000;

export interface ListeningProcess {
  /** The endpoint it said it listens on. */
  url: string;
  /** Stops it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts `command args…` and resolves once it says where it listens, or rejects when it exits or takes 20 s. */
export async function startListeningProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ListeningProcess> {
  const child = spawn(command, [...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not listen within ${LISTEN_TIMEOUT_MS / 1000} s:\n${stderr}`)), LISTEN_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited:\n${stderr}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
