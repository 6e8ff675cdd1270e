// `agent-skills mcp --http`: the skills served to many clients over Streamable HTTP at /mcp, on both
// protocol revisions. A 2025-11-25 client gets a session of its own (the SDK's sessionful
// transport), with its own server over the one shared registry, so a change on disk reaches every
// session; sessions are capped (503 past the cap) and closed when left idle. A 2026-07-28 request
// is served by the SDK's stateless handler, each by a server of its own: nothing of it outlives
// the request but a change subscription (`subscriptions/listen`), so any replica of the server can
// answer any such request. The hot paths of both (calls of the server's own tools, a session's
// plain requests) skip the SDK's transport and dispatch (direct-answers.ts). In front of both: GET /healthz for orchestration, the Host/Origin
// allow-list against DNS rebinding (403), the bearer token (401), and JSON-RPC batches refused
// (400), which neither revision has; refusals are logged summed up per client (refusal-log.ts).

import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  classifyInboundRequest,
  isInitializeRequest,
  validateHostHeader,
  validateOriginHeader,
  WebStandardStreamableHTTPServerTransport,
  type InboundClassificationOutcome,
  type McpHttpHandler,
} from './libraries';
import { errorMessage } from '../../core/util/errors';
import { collapseWhitespace, plural } from '../../core/util/text';
import { DEFAULT_MAX_SESSIONS } from '../../core/defaults';
import { urlHost, type ListenAddress } from './http-options';
import { answerStatelessToolCall, DirectAnswers, isPlainRequest, takesPost, type PlainAnswer } from './direct-answers';
import type { SkillsService } from './skills-service';
import type { SkillsServer } from './skills-server';
import { DEFAULT_REFUSAL_INTERVAL_MS, RefusalLog } from './refusal-log';
import { BATCHES_UNSUPPORTED } from './wire';

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
  /** Sessions (2025-11-25) open at once, and change subscriptions (2026-07-28); one more is refused with 503 (default DEFAULT_MAX_SESSIONS). */
  maxSessions?: number;
  /**
   * This replica's name: each session id it hands out is `NAME.` and a random UUID, so a load
   * balancer can send a 2025-11-25 session's requests back to the replica that holds it.
   */
  replicaName?: string;
  /** Sessions idle this long are closed (default DEFAULT_IDLE_SESSION_MS). */
  idleSessionMs?: number;
  /** How often the refused requests of each client are summed up in the log (default 60 s). */
  refusalIntervalMs?: number;
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
export const DEFAULT_IDLE_SESSION_MS = 5 * 60 * 1000;

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') === true;
}

/** A JSON-RPC error as the SDK's transport answers one over HTTP (id null: no request was read). */
function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** The 2025-11-25 sessions of one endpoint, by id; a request without one may open a new session. */
class HttpSessions {
  private readonly open = new Map<string, Session>();
  /** Initialize requests being served: each may open a session. */
  private opening = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly service: SkillsService,
    private readonly log: (message: string) => void,
    private readonly idleMs: number,
    private readonly maxSessions: number,
    private readonly replicaName: string | undefined,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(idleMs, 60_000)).unref();
  }

  /** The answer to `message`, POSTed with these headers, that an open session takes directly (see DirectAnswers); undefined when the transport must handle it. */
  answerDirectly(headers: IncomingHttpHeaders, message: unknown): Promise<PlainAnswer> | undefined {
    const id = headers['mcp-session-id'];
    const session = typeof id === 'string' ? this.open.get(id) : undefined;
    if (!session || !takesPost(headers) || !isPlainRequest(message)) {
      return undefined;
    }
    const answer = session.direct.take(message);
    if (answer) {
      session.lastSeen = Date.now();
    }
    return answer;
  }

  /**
   * Undefined while one more session may open; when the sessions are at their cap (idle ones
   * closed first), the seconds until one may: when the first idle one is to be closed.
   */
  async retryAfterWhenFull(): Promise<number | undefined> {
    if (this.open.size + this.opening < this.maxSessions) {
      return undefined;
    }
    await this.closeIdle();
    if (this.open.size + this.opening < this.maxSessions) {
      return undefined;
    }
    const idleable = [...this.open.values()].filter((session) => session.streams === 0).map((session) => session.lastSeen);
    const until = idleable.length === 0 ? this.idleMs : Math.min(...idleable) + this.idleMs - Date.now();
    return Math.max(1, Math.ceil(until / 1000));
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
    this.opening++;
    try {
      return await this.start(request);
    } finally {
      this.opening--;
    }
  }

  /** Serves the request on a new session's transport; only an initialize request keeps the session. */
  private async start(request: Request): Promise<Response> {
    const server = this.service.openServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => (this.replicaName === undefined ? randomUUID() : `${this.replicaName}.${randomUUID()}`),
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
    const direct = new DirectAnswers(transport, server);
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
        this.log(`session ${id} closed after ${describeDuration(this.idleMs)} without a request (${this.open.size} open).`);
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

function describeDuration(ms: number): string {
  return ms >= 60_000 ? plural(Math.round(ms / 60_000), 'minute') : plural(Math.round(ms / 100) / 10, 'second');
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

/** A request header's value, the first when it was sent several times. */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** How the SDK classifies a POST of `message` with these headers. */
function classify(headers: IncomingHttpHeaders, message: unknown): InboundClassificationOutcome {
  return classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(headers, 'mcp-protocol-version'),
    mcpMethodHeader: header(headers, 'mcp-method'),
    mcpNameHeader: header(headers, 'mcp-name'),
    body: message,
  });
}

/**
 * Whether a POST classified as `route` is the stateless revision's to answer: a 2026-07-28
 * request, or one refused by that revision's rules (a malformed envelope, headers that disagree
 * with the body). A body that is no JSON-RPC message at all stays with the sessions, which answer
 * it as before.
 */
function isStateless(route: InboundClassificationOutcome): boolean {
  return route.kind === 'modern' || (route.kind === 'reject' && route.rung !== 'jsonrpc-shape');
}

/** Who the refusals the SDK reports are counted under: it does not say which client made the request. */
const STATELESS_CLIENTS = '2026-07-28 requests';

/** The value of a body that is JSON; undefined for one that is not. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What the SDK's report of a 2026-07-28 request it refused is counted under: the rule the request broke, else the kind of error. */
function refusalKind(error: Error): string {
  return /^Rejected inbound request \(([\w-]+)\)/.exec(error.message)?.[1] ?? error.name;
}

/**
 * The SDK's handler of the stateless 2026-07-28 revision (it refuses 2025-11-25 requests, which
 * the sessions serve): a server of its own for each request; each change of a list is told to the
 * subscriptions that asked for it. What it reports (requests it refused) goes to the refusal log,
 * which knows no client here. Beside it, the server whose tools run the calls answered without it
 * (direct-answers.ts), made with the first such call and following every change from then on.
 */
function statelessHandler(service: SkillsService, maxSubscriptions: number, refusals: RefusalLog): { handler: McpHttpHandler; toolServer(): SkillsServer; close(): Promise<void> } {
  let toolServer: SkillsServer | undefined;
  const handler = createMcpHandler(() => service.requestServer().mcp, {
    legacy: 'reject',
    maxSubscriptions,
    onerror: (error) => refusals.refused(STATELESS_CLIENTS, refusalKind(error), collapseWhitespace(errorMessage(error))),
  });
  const subscription = service.onListsChanged((lists) => {
    if (lists.tools) {
      handler.notify.toolsChanged();
    }
    if (lists.prompts) {
      handler.notify.promptsChanged();
    }
    if (lists.resources) {
      handler.notify.resourcesChanged();
    }
  });
  return {
    handler,
    toolServer: () => (toolServer ??= service.openServer()),
    close: async () => {
      subscription.dispose();
      await handler.close();
    },
  };
}

/** Serves `service` until `stop` resolves; then closes every session, the listener and the service. */
export async function serveSkillsOverHttp(service: SkillsService, options: HttpServeOptions): Promise<void> {
  const { log, token } = options;
  const tokenDigest = token === undefined ? undefined : sha256(token);
  const allowed = [...options.allowedHostnames];
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessions = new HttpSessions(service, log, options.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS, maxSessions, options.replicaName);
  const refusals = new RefusalLog(log, options.refusalIntervalMs ?? DEFAULT_REFUSAL_INTERVAL_MS);
  const stateless = statelessHandler(service, maxSessions, refusals);
  let serving = true;

  const route = async (request: IncomingMessage, reply: ServerResponse): Promise<Response | PlainAnswer> => {
    const path = pathOf(request.url!);
    if (path === undefined) {
      return plainResponse(400, `Bad request: ${request.url} is not a path.`);
    }
    const client = request.socket.remoteAddress ?? 'an unknown address';
    const refuse = (status: number, reason: string, detail: string): void => refusals.refused(client, `${status} ${reason}`, `${status} for ${request.method} ${path} from ${client}: ${detail}`);
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
      refuse(403, 'Host or Origin not allowed', `${origin.message} (allowed host names: ${allowed.join(', ')}; add one with --allow-host).`);
      return jsonRpcError(403, -32000, `Forbidden: ${origin.message}`);
    }
    if (tokenDigest !== undefined && !tokenMatches(request.headers.authorization, tokenDigest)) {
      const reason = request.headers.authorization === undefined ? 'no bearer token' : 'the bearer token does not match';
      refuse(401, reason, `${reason}.`);
      return jsonRpcError(401, -32000, 'Unauthorized: this server needs an Authorization: Bearer token.', { 'www-authenticate': 'Bearer realm="agent-skills"' });
    }
    if (!MCP_METHODS.includes(request.method!)) {
      // As the SDK's transport answers a session's PUT; TRACE and CONNECT, which no fetch Request may carry, too.
      return jsonRpcError(405, -32000, 'Method not allowed.', { allow: MCP_METHODS.join(', ') });
    }
    // A stream (a session's GET, a subscription's POST) ends when its client goes away; an answered request has nothing left to cancel.
    const aborted = new AbortController();
    const whenGone = (): void => void (reply.writableFinished || aborted.abort());
    if (request.method !== 'POST') {
      reply.once('close', whenGone);
      return sessions.handle(toWebRequest(request, undefined, aborted.signal));
    }
    // The transport's own limit, answered as it answers it; the rest of the body is left unread.
    const body = await readBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (body === undefined) {
      return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`, { connection: 'close' });
    }
    const text = body.toString('utf8');
    const message = parseJson(text);
    if (Array.isArray(message)) {
      return jsonRpcError(400, -32600, `${BATCHES_UNSUPPORTED}: send each JSON-RPC message in a request of its own.`);
    }
    const direct = sessions.answerDirectly(request.headers, message);
    if (direct) {
      return direct;
    }
    const route = message === undefined ? undefined : classify(request.headers, message);
    const directCall = route && answerStatelessToolCall(request.headers, route, stateless.toolServer);
    if (directCall) {
      return directCall;
    }
    reply.once('close', whenGone);
    const webRequest = toWebRequest(request, text, aborted.signal);
    if (route && isStateless(route)) {
      return stateless.handler.fetch(webRequest, { parsedBody: message });
    }
    const retryAfter = isInitializeRequest(message) ? await sessions.retryAfterWhenFull() : undefined;
    if (retryAfter !== undefined) {
      refuse(503, 'sessions at their cap', `${plural(maxSessions, 'session')} open, the most this server holds (--max-sessions); told to retry after ${retryAfter} s.`);
      return jsonRpcError(503, -32000, `Service unavailable: the server holds as many sessions as it may; retry after ${retryAfter} s.`, { 'retry-after': String(retryAfter) });
    }
    return sessions.handle(webRequest);
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
    await Promise.all([sessions.closeAll(), stateless.close()]);
    refusals.dispose();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await service.close();
  }
}
