// The two ways the skill server client reaches a server: stdio (a command this extension starts,
// one JSON-RPC message per line) and Streamable HTTP (a URL, with a bearer token). Each carries
// messages both ways and says when the server is gone; what the messages mean is mcp-client.ts's.

import { spawn } from 'node:child_process';
import { errorMessage } from '../util/errors';
import { isPlainObject } from '../util/objects';

export type SkillServerTransport = { kind: 'http'; url: string } | { kind: 'stdio'; command: string; args: readonly string[] };

export type JsonObject = Record<string, unknown>;

/** An error the server answered with, or a failure to reach it. */
export class McpError extends Error {
  constructor(
    message: string,
    /** The JSON-RPC error code, when the server answered with an error. */
    readonly code?: number,
    readonly details: {
      /** The JSON-RPC error's `data`. */
      data?: unknown;
      /** The HTTP status of the answer that carried the error. */
      status?: number;
      /** No answer came in time. */
      timedOut?: boolean;
      /** The server could not be reached at all: the connection is over. */
      unreachable?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'McpError';
  }
}

/** What a wire needs of the connection it carries messages for. */
export interface WireEnds {
  /** A message from the server. */
  receive(message: unknown): void;
  /** The server is gone, for this reason: every request waiting fails with it. */
  end(reason: string): void;
  /** The stream that was to carry the answer to request `id` ended without it. */
  answerStreamEnded(id: unknown): void;
  /** HTTP headers the protocol revision in use asks for on this message (its version, method, …). */
  headersFor(message: JsonObject): Record<string, string>;
}

export interface Wire {
  send(message: JsonObject): Promise<void>;
  /** After a 2025 handshake: HTTP opens the stream the server's notifications come on. */
  initialized?(): void;
  close(): Promise<void>;
}

const MAX_STDERR_CHARS = 2000;
const STOP_GRACE_MS = 2000;

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

export function stdioWire(transport: Extract<SkillServerTransport, { kind: 'stdio' }>, ends: WireEnds): Wire {
  const child = spawn(transport.command, [...transport.args], { windowsHide: true });
  const readLines = lineReader();
  let stderr = '';
  let exited = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    for (const line of readLines(chunk)) {
      try {
        // Trimmed: a server may start its output with a byte order mark.
        ends.receive(JSON.parse(line.trim()));
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
  child.on('error', (error) => ends.end(`cannot start ${transport.command}: ${error.message}`));
  child.on('exit', (code, signal) => {
    exited = true;
    const said = lastLine(stderr);
    ends.end(`the server process exited (${signal ?? `code ${code}`})${said ? `: ${said}` : ''}`);
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

function receiveJson(ends: WireEnds, text: string): void {
  try {
    const parsed: unknown = JSON.parse(text);
    (Array.isArray(parsed) ? parsed : [parsed]).forEach((message) => ends.receive(message));
  } catch {
    // Not a message.
  }
}

async function httpFailure(response: Response): Promise<McpError> {
  const text = await response.text().catch(() => '');
  let detail = text.trim().slice(0, 300);
  let code: number | undefined;
  let data: unknown;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed) && isPlainObject(parsed.error) && typeof parsed.error.message === 'string') {
      detail = parsed.error.message;
      code = typeof parsed.error.code === 'number' ? parsed.error.code : undefined;
      data = parsed.error.data;
    }
  } catch {
    // Plain text, kept as it is.
  }
  const hint = response.status === 401 || response.status === 403 ? ' Set its token with "Skills: Set Skill Server Token…".' : '';
  return new McpError(`HTTP ${response.status}${detail ? `: ${detail}` : ''}${hint}`, code, { data, status: response.status });
}

/** Why a request could not reach the server, with the cause fetch keeps apart ("connect ECONNREFUSED …"). */
function unreachable(url: string, error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `cannot reach ${url}${cause || `: ${errorMessage(error)}`}`;
}

export function httpWire(url: string, token: string | undefined, ends: WireEnds): Wire {
  const aborted = new AbortController();
  let sessionId: string | undefined;
  const headers = (accept: string, message: JsonObject): Record<string, string> => ({
    accept,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    ...ends.headersFor(message),
  });
  const post = async (message: JsonObject): Promise<Response> => {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { ...headers('application/json, text/event-stream', message), 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: aborted.signal,
      });
    } catch (error) {
      throw aborted.signal.aborted ? error : new McpError(unreachable(url, error), undefined, { unreachable: true });
    }
  };
  const listen = async (): Promise<void> => {
    const response = await fetch(url, { method: 'GET', headers: headers('text/event-stream', {}), signal: aborted.signal });
    if (response.status === 405) {
      await response.body?.cancel();
      return; // The server sends no notifications outside answers; nothing to follow.
    }
    if (!response.ok || !response.body) {
      throw await httpFailure(response);
    }
    await readEventStream(response.body, (data) => receiveJson(ends, data)).catch((error: unknown) => {
      throw new McpError(`the server's event stream broke off: ${errorMessage(error)}`);
    });
    throw new McpError('the server ended its event stream');
  };
  return {
    async send(message) {
      const response = await post(message);
      sessionId = response.headers.get('mcp-session-id') ?? sessionId;
      if (!response.ok) {
        const failure = await httpFailure(response);
        if (response.status === 404 && sessionId !== undefined) {
          // A 2025 server that restarted forgets its sessions: this connection is over, a new one starts anew.
          ends.end('the server no longer knows this session (it may have restarted)');
        }
        throw failure;
      }
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream') && response.body) {
        const id = message.id;
        void readEventStream(response.body, (data) => receiveJson(ends, data)).then(
          () => ends.answerStreamEnded(id),
          () => ends.answerStreamEnded(id),
        );
      } else if (type.includes('application/json')) {
        receiveJson(ends, await response.text());
      } else {
        await response.body?.cancel();
      }
    },
    initialized() {
      // The server's notifications (list_changed) arrive on this stream; when it breaks, the server is gone.
      listen().then(
        () => undefined,
        // A close by this client has ended the connection with its own reason before aborting the stream.
        (error: unknown) => ends.end(errorMessage(error)),
      );
    },
    async close() {
      if (sessionId) {
        await fetch(url, { method: 'DELETE', headers: headers('application/json', {}), signal: AbortSignal.timeout(STOP_GRACE_MS) }).catch(() => undefined);
      }
      aborted.abort();
    },
  };
}
