// Skill servers the client tests start themselves, scripted to answer exactly what a test needs: a
// Node script run over stdio (one program, told what to do by a plan on its command line) and an
// in-process HTTP server on 127.0.0.1 that records every request.

import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, SKILLS_EXTENSION_ID, type SkillServerTransport } from '../../../../src/core/servers/mcp-client';
import { temporaryFolder } from './served-fixtures';
import { isPlainObject } from '../../../../src/core/util/objects';

/** What `initialize` answers with by default: a server that offers the Skills extension. */
export const SKILLS_SERVER_INITIALIZE = { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } }, serverInfo: { name: 'stand-in', version: '1' } };
/** What `server/discover` answers with on a server of the 2026-07-28 revision that offers the Skills extension. */
export const SKILLS_SERVER_DISCOVER = {
  resultType: 'complete',
  supportedVersions: [MODERN_PROTOCOL_VERSION],
  capabilities: { resources: { listChanged: true }, extensions: { [SKILLS_EXTENSION_ID]: {} } },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'stand-in', version: '1' } },
};
/** What a 2025 server answers a request that comes before `initialize` with (the MCP SDK's words). */
const NOT_INITIALIZED = { code: -32601, message: 'Method not found' };

/** One thing the stdio stand-in does when a message arrives. `$id` in a `send` is replaced by the request's id. */
export type StdioStep =
  | { result: unknown }
  | { error: unknown }
  | { send: unknown }
  | { stdout: string }
  | { stderr: string }
  | { exit: number }
  | { kill: NodeJS.Signals }
  /** Closes its input, so that what the client writes next fails. */
  | { closeInput: true }
  /** Starts a process that shares the server's stdout and stderr and outlives it by this long. */
  | { leaveChildMs: number }
  | { waitMs: number };

export interface StdioPlan {
  /**
   * Steps per method, taken in turn by the method's successive messages (the last list repeats).
   * Unless planned, `initialize` answers as a skills server and `server/discover` as a 2025 server does.
   */
  on?: Record<string, StdioStep[][]>;
  /** Steps on start, before any message. */
  start?: StdioStep[];
  /** Keeps running after its input ends (stopped only by a signal). */
  ignoreInputEnd?: boolean;
}

/** The line the stdio stand-in logs when its input ends. */
const INPUT_ENDED = 'input ended';

// Plain JavaScript, run by the test's own Node with two file names: its plan (JSON), and where it
// logs every message it reads, one JSON line each.
const STDIO_SCRIPT = `
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const log = process.argv[3];
const seen = {};
const INPUT_ENDED = ${JSON.stringify(INPUT_ENDED)};
const write = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
// Destroying process.stdin leaves its file open: close it, so that the client's writes fail.
function closeInput() {
  process.stdin.destroy();
  try {
    fs.closeSync(0);
  } catch {}
}
function take(step, id) {
  if ('result' in step) write({ jsonrpc: '2.0', id, result: step.result });
  else if ('error' in step) write({ jsonrpc: '2.0', id, error: step.error });
  else if ('send' in step) write(JSON.parse(JSON.stringify(step.send).split('"$id"').join(JSON.stringify(id))));
  else if ('stdout' in step) process.stdout.write(step.stdout);
  else if ('stderr' in step) process.stderr.write(step.stderr);
  // Exits once what it wrote has left: a long write to a pipe is partly queued, and exit drops the queue.
  else if ('exit' in step) process.stdout.write('', () => process.stderr.write('', () => process.exit(step.exit)));
  else if ('kill' in step) process.kill(process.pid, step.kill);
  else if ('closeInput' in step) closeInput();
  else if ('leaveChildMs' in step) spawn(process.execPath, ['-e', 'setTimeout(() => undefined, ' + step.leaveChildMs + ')'], { stdio: ['ignore', 'inherit', 'inherit'] }).unref();
  else if ('waitMs' in step) return new Promise((resolve) => setTimeout(resolve, step.waitMs));
}
// Steps run one after the other, across messages too, so that a wait delays what follows it.
let queue = Promise.resolve();
const run = (steps, id) => (queue = queue.then(() => steps.reduce((done, step) => done.then(() => take(step, id)), Promise.resolve())));
const defaults = { initialize: [[{ result: ${JSON.stringify(SKILLS_SERVER_INITIALIZE)} }]], 'server/discover': [[{ error: ${JSON.stringify(NOT_INITIALIZED)} }]] };
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let newline = buffer.indexOf('\\n'); newline >= 0; newline = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    fs.appendFileSync(log, JSON.stringify(message) + '\\n');
    const key = message.method ?? 'answers';
    const turns = (plan.on ?? {})[key] ?? defaults[key] ?? [[]];
    seen[key] = (seen[key] ?? 0) + 1;
    run(turns[Math.min(seen[key], turns.length) - 1], message.id);
  }
});
process.stdin.on('end', () => fs.appendFileSync(log, INPUT_ENDED + '\\n'));
if (plan.ignoreInputEnd) setInterval(() => undefined, 60000);
run(plan.start ?? [], null);
`;

export interface StdioStandIn {
  transport: Extract<SkillServerTransport, { kind: 'stdio' }>;
  /** Every message the server read from the client so far. */
  received(): Record<string, unknown>[];
  /** Whether the server saw its input end. */
  inputEnded(): boolean;
}

let stdioScript: string | undefined;

export function stdioStandIn(plan: StdioPlan): StdioStandIn {
  const folder = temporaryFolder();
  if (!stdioScript) {
    stdioScript = path.join(folder, 'stand-in-server.js');
    fs.writeFileSync(stdioScript, STDIO_SCRIPT);
  }
  const planFile = path.join(folder, 'plan.json');
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const log = path.join(folder, 'received.jsonl');
  fs.writeFileSync(log, '');
  const logLines = (): string[] =>
    fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  return {
    transport: { kind: 'stdio', command: process.execPath, args: [stdioScript, planFile, log] },
    received: () =>
      logLines()
        .filter((line) => line !== INPUT_ENDED)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    inputEnded: () => logLines().includes(INPUT_ENDED),
  };
}

/** One request the HTTP stand-in got, with the JSON-RPC message of its body, and the response to write. */
export interface HttpExchange {
  method: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed body of a POST. */
  message: Record<string, unknown> | undefined;
  request: http.IncomingMessage;
  response: http.ServerResponse;
}

export interface HttpStandIn {
  url: string;
  exchanges: HttpExchange[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 (on `port`, or a free one) that hands each request, once its body is read, to `handle`. */
export async function startHttpStandIn(handle: (exchange: HttpExchange) => void, port = 0): Promise<HttpStandIn> {
  const exchanges: HttpExchange[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const exchange = { method: request.method ?? '', headers: request.headers, message: body === '' ? undefined : (JSON.parse(body) as Record<string, unknown>), request, response };
      exchanges.push(exchange);
      handle(exchange);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function answerJson(response: http.ServerResponse, body: unknown, status = 200, headers: http.OutgoingHttpHeaders = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * Starts an event stream and writes `chunks` as they are (the test writes the event syntax), each
 * after `pauseMs` so that they reach the client apart; ends the stream unless `keepOpen`.
 */
export async function answerEvents(response: http.ServerResponse, chunks: readonly (string | Uint8Array)[], { pauseMs = 0, keepOpen = false } = {}): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.flushHeaders();
  for (const chunk of chunks) {
    if (pauseMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    response.write(chunk);
  }
  if (!keepOpen) {
    response.end();
  }
}

/**
 * Answers as a plain Streamable HTTP skills server of the 2025-11-25 revision: `server/discover` as
 * the MCP SDK does before `initialize` (400, not initialized), `initialize` (with a session id
 * unless it is null), each request with its result from `results` by method, notifications and
 * answers with 202, GET with 405 (no stream), DELETE with 200.
 */
export function answerAsServer(exchange: HttpExchange, results: Record<string, unknown> = {}, sessionId: string | null = 'session-1'): void {
  const { method, message, response } = exchange;
  if (method === 'GET') {
    response.writeHead(405).end();
  } else if (method === 'DELETE') {
    response.writeHead(200).end();
  } else if (message?.method === 'server/discover' && !('server/discover' in results)) {
    answerJson(response, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } }, 400);
  } else if (message && typeof message.method === 'string' && message.id !== undefined) {
    const result = message.method === 'initialize' ? (results.initialize ?? SKILLS_SERVER_INITIALIZE) : results[message.method];
    answerJson(response, { jsonrpc: '2.0', id: message.id, result }, 200, message.method === 'initialize' && sessionId !== null ? { 'mcp-session-id': sessionId } : {});
  } else {
    response.writeHead(202).end();
  }
}

/**
 * Answers as a Streamable HTTP skills server of the 2026-07-28 revision: `server/discover`, each
 * request with its result from `results` by method (with `resultType`), `subscriptions/listen` with
 * its acknowledgement on an event stream kept open (the exchange is handed to `onListen`), GET and
 * DELETE with 405.
 */
export function answerAsModernServer(exchange: HttpExchange, results: Record<string, unknown> = {}, onListen?: (exchange: HttpExchange) => void): void {
  const { method, message, response } = exchange;
  if (method !== 'POST' || !message || typeof message.method !== 'string') {
    response.writeHead(405).end();
  } else if (message.method === 'subscriptions/listen') {
    const acknowledged = {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourcesListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': message.id } },
    };
    void answerEvents(response, [`data: ${JSON.stringify(acknowledged)}\n\n`], { keepOpen: true });
    onListen?.(exchange);
  } else {
    const result = message.method === 'server/discover' ? (results['server/discover'] ?? SKILLS_SERVER_DISCOVER) : results[message.method];
    answerJson(response, { jsonrpc: '2.0', id: message.id, result: isPlainObject(result) ? { resultType: 'complete', ...result } : result });
  }
}
