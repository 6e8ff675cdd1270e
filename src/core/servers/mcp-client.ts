// The few parts of a Model Context Protocol client a skill server needs: connect over stdio (a
// command this extension starts) or Streamable HTTP (a URL, with a bearer token), check that the
// server offers the Skills extension, list its skills (`skills/list`), read a file
// (`resources/read`) and hear when the list changes. Written here rather than taken from the SDK,
// whose client would more than double the size of the extension's package for these four calls.

import { spawn } from 'node:child_process';
import { checkServedSkill, type ServedSkill } from './served-skill';
import type { RefusedEntry } from './server-cache';
import type { SkillFileSource } from './served-content';
import { errorMessage } from '../util/errors';
import { isPlainObject } from '../util/objects';

export type SkillServerTransport = { kind: 'http'; url: string } | { kind: 'stdio'; command: string; args: readonly string[] };

export const PROTOCOL_VERSION = '2025-11-25';
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const MAX_LIST_PAGES = 64;
const MAX_STDERR_CHARS = 2000;
const STOP_GRACE_MS = 2000;
/** Notifications after which the skills are listed again. */
const LIST_CHANGED = new Set(['notifications/resources/list_changed', 'notifications/skills/list_changed']);

export interface SkillServerConnection extends SkillFileSource {
  /** Every page of `skills/list`; entries that fail their check are returned apart, with the reason. */
  listSkills(): Promise<{ skills: ServedSkill[]; refused: RefusedEntry[] }>;
  onListChanged(listener: () => void): void;
  /** Resolves with the reason once the connection is gone (process exited, stream ended, closed). */
  readonly closed: Promise<string>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Sent as `Authorization: Bearer …` over HTTP. */
  token?: string;
  clientVersion: string;
  /** How long a request waits for its answer; 30 s unless set. */
  requestTimeoutMs?: number;
}

export class McpError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'McpError';
  }
}

type JsonObject = Record<string, unknown>;

interface Wire {
  send(message: JsonObject): Promise<void>;
  /** After the handshake: HTTP starts listening for the server's notifications. */
  initialized?(protocolVersion: string): void;
  close(): Promise<void>;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

class Connection implements SkillServerConnection {
  wire!: Wire;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listChangedListeners: (() => void)[] = [];
  private endReason: string | undefined;
  private resolveClosed!: (reason: string) => void;
  readonly closed = new Promise<string>((resolve) => (this.resolveClosed = resolve));

  constructor(private readonly requestTimeoutMs: number) {}

  receive(message: unknown): void {
    if (!isPlainObject(message)) {
      return;
    }
    if (typeof message.method === 'string') {
      if (message.id !== undefined && message.id !== null) {
        // Requests from the server: only ping is answered; this client offers nothing else.
        const reply = message.method === 'ping' ? { result: {} } : { error: { code: -32601, message: `${message.method} is not supported by this client` } };
        this.wire.send({ jsonrpc: '2.0', id: message.id, ...reply }).catch(() => undefined);
      } else if (LIST_CHANGED.has(message.method)) {
        this.listChangedListeners.forEach((listener) => listener());
      }
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) {
      return;
    }
    this.pending.delete(message.id as number);
    clearTimeout(pending.timer);
    if (isPlainObject(message.error)) {
      pending.reject(new McpError(String(message.error.message ?? 'the server answered with an error'), typeof message.error.code === 'number' ? message.error.code : undefined));
    } else {
      pending.resolve(message.result);
    }
  }

  request(method: string, params: JsonObject): Promise<unknown> {
    if (this.endReason !== undefined) {
      return Promise.reject(new McpError(`the connection is closed: ${this.endReason}`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new McpError(`${method} got no answer within ${this.requestTimeoutMs / 1000} s`));
      }, this.requestTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.wire.send({ jsonrpc: '2.0', id, method, params }).catch((error: unknown) => {
        if (this.pending.delete(id)) {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new McpError(errorMessage(error)));
        }
      });
    });
  }

  notify(method: string): Promise<void> {
    return this.wire.send({ jsonrpc: '2.0', method });
  }

  /** The connection is gone: every request waiting fails with the reason. */
  end(reason: string): void {
    if (this.endReason !== undefined) {
      return;
    }
    this.endReason = reason;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new McpError(`the connection closed: ${reason}`));
    }
    this.pending.clear();
    this.resolveClosed(reason);
  }

  onListChanged(listener: () => void): void {
    this.listChangedListeners.push(listener);
  }

  async listSkills(): Promise<{ skills: ServedSkill[]; refused: RefusedEntry[] }> {
    const skills: ServedSkill[] = [];
    const refused: RefusedEntry[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.request('skills/list', { cursor }); // none on the first page: JSON leaves an undefined field out
      if (!isPlainObject(result) || !Array.isArray(result.skills)) {
        throw new McpError('skills/list answered without a list of skills');
      }
      for (const entry of result.skills) {
        const check = checkServedSkill(entry);
        if (check.ok) {
          skills.push(check.skill);
        } else {
          refused.push({ uri: check.uri, reason: check.reason });
        }
      }
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor === undefined) {
        return { skills, refused };
      }
    }
    throw new McpError(`skills/list has more than ${MAX_LIST_PAGES} pages`);
  }

  async readFile(uri: string): Promise<Uint8Array> {
    const result = await this.request('resources/read', { uri });
    const contents = isPlainObject(result) && Array.isArray(result.contents) ? result.contents.filter(isPlainObject) : [];
    const content = contents.find((item) => item.uri === uri) ?? contents[0];
    if (content && typeof content.text === 'string') {
      return Buffer.from(content.text, 'utf8');
    }
    if (content && typeof content.blob === 'string') {
      return Buffer.from(content.blob, 'base64');
    }
    throw new McpError(`resources/read of ${uri} returned no content`);
  }

  async close(): Promise<void> {
    this.end('closed by this client');
    await this.wire.close();
  }
}

function lastLine(text: string): string {
  const trimmed = text.trim();
  return trimmed.slice(trimmed.lastIndexOf('\n') + 1);
}

/**
 * Reads text arriving in chunks as complete lines (without their \n or \r\n). An unfinished line is
 * kept as its chunks and joined once its end arrives, so a long line is not copied again with each
 * chunk (a 16 MiB answer in 64 KiB chunks: 70 ms rather than 5 s).
 */
function lineReader(): (chunk: string) => string[] {
  let unfinished: string[] = [];
  return (chunk) => {
    const end = chunk.lastIndexOf('\n') + 1;
    if (end === 0) {
      unfinished.push(chunk);
      return [];
    }
    const text = unfinished.join('') + chunk.slice(0, end);
    unfinished = [chunk.slice(end)];
    return text.split(/\r?\n/).slice(0, -1);
  };
}

function stdioWire(transport: Extract<SkillServerTransport, { kind: 'stdio' }>, connection: Connection): Wire {
  const child = spawn(transport.command, [...transport.args], { windowsHide: true });
  const readLines = lineReader();
  let stderr = '';
  let exited = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const line of readLines(chunk)) {
      try {
        // Trimmed: a server may start its output with a byte order mark.
        connection.receive(JSON.parse(line.trim()));
      } catch {
        // A line that is not JSON (a blank one included) is not a message; the server's diagnostics belong on stderr.
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS);
  });
  child.stdin.on('error', () => undefined); // Writing to a process that just exited; its exit says why.
  child.on('error', (error) => connection.end(`cannot start ${transport.command}: ${error.message}`));
  child.on('exit', (code, signal) => {
    exited = true;
    const said = lastLine(stderr);
    connection.end(`the server process exited (${signal ?? `code ${code}`})${said ? `: ${said}` : ''}`);
  });
  return {
    send: (message) =>
      new Promise((resolve, reject) => {
        child.stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
      }),
    close: async () => {
      // A program that could not start has an exit code but never emits 'exit'.
      if (exited || child.exitCode !== null) {
        return;
      }
      child.stdin.end(); // A stdio server stops when its input ends; one that does not is stopped.
      const timer = setTimeout(() => child.kill(), STOP_GRACE_MS);
      await new Promise<void>((resolve) => child.once('exit', () => resolve()));
      clearTimeout(timer);
    },
  };
}

/** The `data` of each server-sent event in a stream, until it ends. */
async function readEventStream(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const readLines = lineReader();
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    for (const line of readLines(decoder.decode(chunk, { stream: true }))) {
      if (line === '') {
        if (data.length > 0) {
          onData(data.join('\n'));
        }
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  }
}

function receiveJson(connection: Connection, text: string): void {
  try {
    const parsed: unknown = JSON.parse(text);
    (Array.isArray(parsed) ? parsed : [parsed]).forEach((message) => connection.receive(message));
  } catch {
    // Not a message.
  }
}

async function httpFailure(response: Response): Promise<McpError> {
  const text = await response.text().catch(() => '');
  let detail = text.trim().slice(0, 300);
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed) && isPlainObject(parsed.error) && typeof parsed.error.message === 'string') {
      detail = parsed.error.message;
    }
  } catch {
    // Plain text, kept as it is.
  }
  const hint = response.status === 401 || response.status === 403 ? ' Set its token with "Skills: Set Skill Server Token…".' : '';
  return new McpError(`HTTP ${response.status}${detail ? `: ${detail}` : ''}${hint}`);
}

function httpWire(url: string, token: string | undefined, connection: Connection): Wire {
  const aborted = new AbortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  const headers = (accept: string): Record<string, string> => ({
    accept,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
  });
  const listen = async (): Promise<void> => {
    const response = await fetch(url, { method: 'GET', headers: headers('text/event-stream'), signal: aborted.signal });
    if (response.status === 405) {
      await response.body?.cancel();
      return; // The server sends no notifications outside answers; nothing to follow.
    }
    if (!response.ok || !response.body) {
      throw await httpFailure(response);
    }
    await readEventStream(response.body, (data) => receiveJson(connection, data));
    throw new McpError('the server ended its event stream');
  };
  return {
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers('application/json, text/event-stream'), 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: aborted.signal,
      });
      sessionId = response.headers.get('mcp-session-id') ?? sessionId;
      if (!response.ok) {
        throw await httpFailure(response);
      }
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream') && response.body) {
        void readEventStream(response.body, (data) => receiveJson(connection, data)).catch(() => undefined);
      } else if (type.includes('application/json')) {
        receiveJson(connection, await response.text());
      } else {
        await response.body?.cancel();
      }
    },
    initialized(version) {
      protocolVersion = version;
      // The server's notifications (list_changed) arrive on this stream; when it breaks, the server is gone.
      listen().then(
        () => undefined,
        // A close by this client has ended the connection with its own reason before aborting the stream.
        (error: unknown) => connection.end(errorMessage(error)),
      );
    },
    async close() {
      if (sessionId) {
        await fetch(url, { method: 'DELETE', headers: headers('application/json'), signal: AbortSignal.timeout(STOP_GRACE_MS) }).catch(() => undefined);
      }
      aborted.abort();
    },
  };
}

/** Connects, and checks that the server offers skills; rejects with the reason when it cannot. */
export async function connectSkillServer(transport: SkillServerTransport, options: ConnectOptions): Promise<SkillServerConnection> {
  const connection = new Connection(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  connection.wire = transport.kind === 'http' ? httpWire(transport.url, options.token, connection) : stdioWire(transport, connection);
  try {
    const result = await connection.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } },
      clientInfo: { name: 'agent-skills-vscode', version: options.clientVersion },
    });
    if (!isPlainObject(result) || !isPlainObject(result.capabilities) || !isPlainObject(result.capabilities.extensions) || !isPlainObject(result.capabilities.extensions[SKILLS_EXTENSION_ID])) {
      throw new McpError(`it does not serve skills (its capabilities have no ${SKILLS_EXTENSION_ID} extension)`);
    }
    connection.wire.initialized?.(typeof result.protocolVersion === 'string' ? result.protocolVersion : PROTOCOL_VERSION);
    await connection.notify('notifications/initialized');
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  return connection;
}
