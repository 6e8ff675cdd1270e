// An independent skill server for the client's tests: the Skills extension's reference SDK
// (@olaservo/ext-skills, on the official MCP server SDK) serving a folder, through the script in
// test/fixtures, over stdio or over HTTP on 127.0.0.1. It speaks the 2026-07-28 revision.

import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { SkillServerTransport } from '../../../../src/core/servers/mcp-client';
import { REPOSITORY } from '../../cli/bundle';

const SCRIPT = path.join(REPOSITORY, 'test', 'fixtures', 'ext-skills-server.mjs');
const LISTEN_TIMEOUT_MS = 20_000;

export function referenceStdioServer(root: string): SkillServerTransport {
  return { kind: 'stdio', command: process.execPath, args: [SCRIPT, root] };
}

export interface ReferenceHttpServer {
  url: string;
  stop(): Promise<void>;
}

/** Serves `root` over HTTP on a free port of 127.0.0.1; resolves once it listens. */
export async function startReferenceHttpServer(root: string): Promise<ReferenceHttpServer> {
  const child = spawn(process.execPath, [SCRIPT, root, '--http'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the reference server did not listen within ${LISTEN_TIMEOUT_MS / 1000} s:\n${stderr}`)), LISTEN_TIMEOUT_MS);
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
      reject(new Error(`the reference server exited:\n${stderr}`));
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
