// `agent-skills mcp --http`: the skills served to many clients over the SDK's Streamable HTTP
// transport at /mcp, each client in its own session with its own server over one shared registry,
// so a change on disk reaches every session. In front of the transport: GET /healthz for
// orchestration, the Host/Origin allow-list against DNS rebinding (403), and the bearer token (401).

import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, validateHostHeader, validateOriginHeader, WebStandardStreamableHTTPServerTransport } from './libraries';
import { errorMessage } from '../../core/util/errors';
import { plural } from '../io';
import { urlHost, type ListenAddress } from './http-options';
import { DirectAnswers, isPlainRequest, takesPost, type PlainAnswer } from './direct-answers';
import type { SkillsService } from './mcp-command';
import type { SkillsServer } from './skills-server';

export const MCP_PATH = '/mcp';
export const HEALTH_PATH = '/healthz';
/** The methods each path serves; the Allow header of a 405 lists them. */
const MCP_METHODS = ['GET', 'POST', 'DELETE'];
const HEALTH_METHODS = ['GET', 'HEAD'];

export interface HttpServeOptions {
  address: ListenAddress;
  /** Every request to /mcp must carry `Authorization: Bearer <token>` when set. */
  token?: string;
  /** Host names a request's Host and Origin may name (any port). */
  allowedHostnames: readonly string[];
  /** Resolves to stop serving: sessions are closed, then the listener. */
  stop: Promise<void>;
  /** Sessions idle this long are closed (default DEFAULT_IDLE_SESSION_MS). */
  idleSessionMs?: number;
  /** Told the endpoint's URL once listening (the port is known then, also when 0 was asked for). */
  onListening?(url: string): void;
  log(message: string): void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: SkillsServer;
  direct: DirectAnswers;
  /** When its last request came or its last notification stream closed. */
  lastSeen: number;
  /** Notification streams (GET) open now: a client holding one is not idle, however quiet. */
  streams: number;
}

/** A session without a request or an open stream for this long is closed: its client went away without ending it. */
export const DEFAULT_IDLE_SESSION_MS = 30 * 60 * 1000;

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') === true;
}

/** A JSON-RPC error as the SDK's transport answers one over HTTP (id null: no request was read). */
function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** The sessions of one endpoint, by id; a request without one may open a new session. */
class HttpSessions {
  private readonly open = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly service: SkillsService,
    private readonly log: (message: string) => void,
    private readonly idleMs: number,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(idleMs, 60_000)).unref();
  }

  /** The answer to a POST of `body` that an open session takes directly (see DirectAnswers); undefined when the transport must handle it. */
  answerDirectly(headers: IncomingHttpHeaders, body: string): Promise<PlainAnswer> | undefined {
    const id = headers['mcp-session-id'];
    const session = typeof id === 'string' ? this.open.get(id) : undefined;
    if (!session || !takesPost(headers)) {
      return undefined;
    }
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return undefined;
    }
    const answer = isPlainRequest(message) ? session.direct.take(message) : undefined;
    if (answer) {
      session.lastSeen = Date.now();
    }
    return answer;
  }

  async handle(request: Request): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.open.get(id);
      if (!session) {
        return jsonRpcError(404, -32001, 'Session not found');
      }
      session.lastSeen = Date.now();
      const response = await session.transport.handleRequest(request);
      if (request.method === 'GET' && isEventStream(response)) {
        // It ends when its client goes away (or the session closes).
        session.streams++;
        request.signal.addEventListener('abort', () => {
          session.streams--;
          session.lastSeen = Date.now();
        });
      }
      return response;
    }
    if (request.method !== 'POST') {
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    return this.start(request);
  }

  /** Serves the request on a new session's transport; only an initialize request keeps the session. */
  private async start(request: Request): Promise<Response> {
    const server = this.service.openServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Answers are JSON: no call of this server reports progress before its result, and one
      // write per answer is cheaper than a stream. Notifications go on the client's GET stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.open.set(id, { transport, server, direct, lastSeen: Date.now(), streams: 0 });
        this.log(`session ${id} opened (${this.open.size} open).`);
      },
      onsessionclosed: (id) => {
        this.open.delete(id);
        this.log(`session ${id} closed by its client (${this.open.size} open).`);
      },
    });
    const direct = new DirectAnswers(transport, {
      toolCall: (name) => server.toolCall(name),
      // Deprecated for handlers, which read it from their request's context; these calls have none.
      negotiatedVersion: () => server.mcp.server.getNegotiatedProtocolVersion(),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) {
      await server.mcp.close();
    }
    return response;
  }

  private async closeIdle(): Promise<void> {
    const idleSince = Date.now() - this.idleMs;
    for (const [id, session] of this.open) {
      if (session.streams === 0 && session.lastSeen < idleSince) {
        this.open.delete(id);
        this.log(`session ${id} closed after ${Math.round(this.idleMs / 60_000)} minutes without a request (${this.open.size} open).`);
        await session.server.mcp.close();
      }
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const sessions = [...this.open.values()];
    this.open.clear();
    await Promise.all(sessions.map((session) => session.server.mcp.close()));
    this.log(`stopped: closed ${plural(sessions.length, 'session')}.`);
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests, so the time taken says nothing about how much of the token matched. */
function tokenMatches(header: string | undefined, tokenDigest: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(sha256(match[1]), tokenDigest);
}

/**
 * The path of a request's target (the endpoint's own, as clients send it, without parsing a URL);
 * undefined for a target no URL has (`//`, `http://[`).
 */
function pathOf(target: string): string | undefined {
  return target === MCP_PATH ? MCP_PATH : URL.canParse(target, 'http://localhost') ? new URL(target, 'http://localhost').pathname : undefined;
}

/** The client closed its connection before the whole body arrived: nobody is left to answer. */
class ClientGoneError extends Error {}

/** A request's body, read whole; undefined once it is longer than `maxBytes` (the rest is left unread). */
function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(request.headers['content-length']) > maxBytes) {
      resolve(undefined);
      return;
    }
    const parts: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length > maxBytes) {
        request.off('data', onData).off('end', onEnd).pause();
        resolve(undefined);
        return;
      }
      parts.push(chunk);
    };
    const onEnd = (): void => resolve(parts.length === 1 ? parts[0] : Buffer.concat(parts, length));
    const announced = request.headers['content-length'];
    const onError = (): void => reject(new ClientGoneError(`the client went away after ${length} ${announced === undefined ? '' : `of ${announced} `}bytes of the body`));
    request.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

/**
 * The request as the SDK's transport takes it, with the body already read. Node's typings leave
 * out what its server always sets: the target and method of each request, a list for each header.
 */
function toWebRequest(request: IncomingMessage, body: string | undefined, signal: AbortSignal | undefined): Request {
  const headers = new Headers();
  for (const [name, values] of Object.entries(request.headersDistinct) as [string, string[]][]) {
    for (const value of values) {
      headers.append(name, value);
    }
  }
  return new Request(new URL(request.url!, 'http://localhost'), { method: request.method!, headers, body, signal });
}

/**
 * Writes the response: a JSON answer whole, in one write with its length; an event stream (the
 * notification stream a client opens with GET) as it comes, until it ends or the client goes away.
 */
async function sendResponse(response: Response | PlainAnswer, reply: ServerResponse): Promise<void> {
  if (!(response instanceof Response)) {
    reply.writeHead(response.status, { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) }).end(response.body);
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (!response.body || !isEventStream(response)) {
    const body = Buffer.from(await response.arrayBuffer());
    reply.writeHead(response.status, { ...headers, 'content-length': String(body.length) }).end(body);
    return;
  }
  reply.writeHead(response.status, headers).flushHeaders();
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  reply.once('close', cancel);
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      reply.write(chunk.value);
    }
  } finally {
    reply.off('close', cancel);
    reply.end();
  }
}

function plainResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}

/**
 * The address cannot be listened on: the user's input, not a fault. This module is bundled with the
 * MCP libraries, apart from the command line's InputError, so the command turns it into one.
 */
export class ListenError extends Error {}

function listen(server: Server, address: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EADDRNOTAVAIL' ? 'no interface of this machine has that address' : errorMessage(error);
      reject(new ListenError(`mcp: cannot listen on ${urlHost(address.host)}:${address.port}: ${reason}.`));
    });
    server.listen(address.port, address.host, () => {
      const bound = server.address();
      resolve(typeof bound === 'object' && bound !== null ? bound.port : address.port);
    });
  });
}

/** Serves `service` until `stop` resolves; then closes every session, the listener and the service. */
export async function serveSkillsOverHttp(service: SkillsService, options: HttpServeOptions): Promise<void> {
  const { log, token } = options;
  const tokenDigest = token === undefined ? undefined : sha256(token);
  const allowed = [...options.allowedHostnames];
  const sessions = new HttpSessions(service, log, options.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS);
  let serving = true;

  const route = async (request: IncomingMessage, reply: ServerResponse): Promise<Response | PlainAnswer> => {
    const path = pathOf(request.url!);
    if (path === undefined) {
      return plainResponse(400, `Bad request: ${request.url} is not a path.`);
    }
    const who = (): string => `${request.method} ${path} from ${request.socket.remoteAddress ?? 'an unknown address'}`;
    if (path === HEALTH_PATH) {
      // Says nothing but whether the server is up: no token or host check, so probes need no setup.
      return HEALTH_METHODS.includes(request.method!)
        ? plainResponse(serving ? 200 : 503, serving ? 'ok' : 'stopping')
        : plainResponse(405, 'Method not allowed', { allow: HEALTH_METHODS.join(', ') });
    }
    if (path !== MCP_PATH) {
      return plainResponse(404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    }
    const host = validateHostHeader(request.headers.host, allowed);
    const origin = host.ok ? validateOriginHeader(request.headers.origin, allowed) : host;
    if (!origin.ok) {
      log(`403 for ${who()}: ${origin.message} (allowed host names: ${allowed.join(', ')}; add one with --allow-host).`);
      return jsonRpcError(403, -32000, `Forbidden: ${origin.message}`);
    }
    if (tokenDigest !== undefined && !tokenMatches(request.headers.authorization, tokenDigest)) {
      log(`401 for ${who()}: ${request.headers.authorization === undefined ? 'no bearer token' : 'the bearer token does not match'}.`);
      return jsonRpcError(401, -32000, 'Unauthorized: this server needs an Authorization: Bearer token.', { 'www-authenticate': 'Bearer realm="agent-skills"' });
    }
    if (!MCP_METHODS.includes(request.method!)) {
      // As the SDK's transport answers a session's PUT; TRACE and CONNECT, which no fetch Request may carry, too.
      return jsonRpcError(405, -32000, 'Method not allowed.', { allow: MCP_METHODS.join(', ') });
    }
    if (request.method !== 'POST') {
      // A notification stream (GET) ends when its client goes away; an answered request has nothing left to cancel.
      const aborted = new AbortController();
      reply.once('close', () => reply.writableFinished || aborted.abort());
      return sessions.handle(toWebRequest(request, undefined, aborted.signal));
    }
    // The transport's own limit, answered as it answers it; the rest of the body is left unread.
    const body = await readBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (body === undefined) {
      return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`, { connection: 'close' });
    }
    const text = body.toString('utf8');
    return sessions.answerDirectly(request.headers, text) ?? sessions.handle(toWebRequest(request, text, undefined));
  };

  const http = createServer((request, reply) => {
    route(request, reply)
      .catch((error: unknown) => {
        if (error instanceof ClientGoneError) {
          log(`${request.method} ${request.url}: ${error.message}; nothing was answered.`);
          return undefined;
        }
        log(`internal error on ${request.method} ${request.url}: ${errorMessage(error)}`);
        return jsonRpcError(500, -32603, 'Internal error');
      })
      .then((response) => response && sendResponse(response, reply))
      .catch((error: unknown) => {
        log(`could not answer ${request.method} ${request.url}: ${errorMessage(error)}`);
        reply.destroy();
      });
  });

  try {
    const port = await listen(http, options.address);
    const url = `http://${urlHost(options.address.host)}:${port}${MCP_PATH}`;
    log(`listening on ${url}${token === undefined ? ' (no token: this machine only)' : ' (bearer token required)'}.`);
    options.onListening?.(url);
    await options.stop;
  } finally {
    serving = false;
    await sessions.closeAll();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await service.close();
  }
}
