// The built command line serving over HTTP as a real process (`dist/cli.js mcp --http 127.0.0.1:0`),
// for the tests that check it from outside: its URL once it listens, its stderr, its exit.

import { spawn } from 'node:child_process';
import { BUNDLE, REPOSITORY } from '../bundle';

export interface HttpProcess {
  /** The endpoint, http://127.0.0.1:PORT/mcp. */
  url: string;
  stderr(): string;
  signal(name: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

/** Starts `agent-skills mcp --http 127.0.0.1:0 ARGS…` and resolves once it listens. */
export async function startHttpProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<HttpProcess> {
  const child = spawn(process.execPath, [BUNDLE, 'mcp', '--http', '127.0.0.1:0', ...args], { cwd: REPOSITORY, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (listening) {
        resolve(listening[1]);
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${stderr}`)));
  });
  return { url, stderr: () => stderr, signal: (name) => child.kill(name), exited };
}
