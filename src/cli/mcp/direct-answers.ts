// The hot path of the team server: a JSON-RPC request on an established session, answered on the
// HTTP reply without the SDK's Web-standard transport. The transport costs a call more than the
// call itself (a Request with its AbortSignal and Headers, a schema parse of the message, a
// Response and its stream, read back into bytes); here the message goes straight to the session's
// server, which validates it as always, and its answer is written as JSON. Only what the transport
// would take unchanged comes this way: the same header checks, a single request with no fields
// beyond JSON-RPC's own; everything else (initialize, notifications, batches, responses, GET and
// DELETE, any doubt) goes through the transport as before.
//
// A call of one of the server's own tools skips the server's request dispatch too (a schema parse
// of the request and of the result, a context with its AbortController, the handler's wrappers,
// about half the server's time on a find_skills call): the tool's own call runs, the one the SDK's
// tools/call runs, and its result is the answer. Only a call the SDK would take as it is comes this
// way: a tool the server offers now, by name, with arguments that are a JSON object, on a protocol
// revision whose results the SDK sends unchanged; anything else goes to the server, which answers it
// in its own words.
//
// A 2026-07-28 request has no session: the SDK's stateless handler answers each with a server of
// its own, through a per-request transport and the whole dispatch (a Request, the era's checks, a
// Response), many times what a 2025-11-25 call costs. A tools/call of one of the server's own
// tools is run here instead, once the SDK has classified the request as that revision's and every
// header it checks is exactly what it requires; the result carries what the SDK stamps on it for
// that revision (resultType, the server's name and version). Anything else, including any doubt,
// goes to the SDK's handler as before.

import type { IncomingHttpHeaders } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InboundClassificationOutcome,
  type JSONRPCMessage,
  type Transport,
} from './libraries';
import type { ToolCall, ToolResult } from './skills-server';
import { isPlainObject } from '../../core/util/objects';

/** An HTTP answer written as it is. */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type RequestId = string | number;

interface PlainRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

const REQUEST_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const TOOL_CALL_KEYS: ReadonlySet<string> = new Set(['name', 'arguments']);
/**
 * The first protocol revision (2026-07-28) whose results the SDK encodes with fields of their own
 * (resultType…): on it, and on any later one, a session's tool calls go through the server.
 */
const FIRST_ENCODED_REVISION = '2026-07-28';
/** The stateless revision whose tool calls are run directly (see the file's head). */
const STATELESS_REVISION = '2026-07-28';
const STATELESS_TOOL_CALL_KEYS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
/** What a 2026-07-28 request's `_meta` may hold to be run directly: its envelope, nothing more (a progress token or a log level goes to the SDK). */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);
/** The same on stdio, where a log level changes nothing of a tool's answer (over HTTP it may turn the answer into a stream). */
const STDIO_ENVELOPE_KEYS: ReadonlySet<string> = new Set([...ENVELOPE_KEYS, LOG_LEVEL_META_KEY]);

/** What the direct answers take from a session's server. */
export interface SessionServer {
  /** Its tool `name` as its tools/call runs it; undefined for a name it offers no tool under now. */
  toolCall(name: string): ToolCall | undefined;
  /** The protocol revision it agreed on with its client; undefined until initialize. */
  negotiatedVersion(): string | undefined;
}

/** One JSON-RPC 2.0 request with a string or integer id, params (if any) an object, and no fields beyond JSON-RPC's own. */
function isSingleRequest(message: unknown): message is PlainRequest {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return false;
  }
  const { id, params } = message;
  const idOk = typeof id === 'string' || Number.isSafeInteger(id);
  return idOk && (params === undefined || isPlainObject(params)) && Object.keys(message).every((key) => REQUEST_KEYS.has(key));
}

/**
 * A request the SDK's transport would pass on as it is: a single request (see isSingleRequest)
 * other than initialize, without `_meta` in its params (whose schema the transport checks).
 */
export function isPlainRequest(message: unknown): message is PlainRequest {
  return isSingleRequest(message) && message.method !== 'initialize' && message.params?._meta === undefined;
}

/**
 * The call of one of `server`'s tools that `params` asks for, when the SDK's tools/call would run
 * it as it is: a tool it offers now, by name, with arguments that are a JSON object (none are an
 * empty object to the SDK; null is refused), and no fields in `params` but `keys`.
 */
function ownToolCall(params: Record<string, unknown> | undefined, keys: ReadonlySet<string>, server: Pick<SessionServer, 'toolCall'>): (() => Promise<ToolResult>) | undefined {
  const args = params?.arguments === undefined ? {} : params.arguments;
  if (typeof params?.name !== 'string' || !isPlainObject(args) || !Object.keys(params).every((key) => keys.has(key))) {
    return undefined;
  }
  const call = server.toolCall(params.name);
  return call && (() => call(args));
}

/**
 * The call `request` makes of one of `server`'s own tools, when the server would answer it with the
 * tool's result as it is: a tools/call the SDK runs as it is (see ownToolCall) on a session that
 * agreed on a revision whose results the SDK sends unchanged. Undefined for anything else.
 */
function plainToolCall(request: PlainRequest, server: SessionServer): (() => Promise<ToolResult>) | undefined {
  const version = request.method === 'tools/call' ? server.negotiatedVersion() : undefined;
  return version !== undefined && version < FIRST_ENCODED_REVISION ? ownToolCall(request.params, TOOL_CALL_KEYS, server) : undefined;
}

/** The SDK's answer to the tools/call `id` that resulted in `result`, its keys in the SDK's order, so either way the same bytes go out. */
function toolAnswer(id: RequestId, result: ToolResult): { result: ToolResult; jsonrpc: '2.0'; id: RequestId } {
  return { result, jsonrpc: '2.0', id };
}

/** Whether the SDK's transport takes a POST with these headers (it answers 406, 415 or 400 otherwise). */
export function takesPost(headers: IncomingHttpHeaders): boolean {
  const { accept } = headers;
  const version = headers['mcp-protocol-version'];
  return (
    accept !== undefined &&
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    isJsonContentType(headers['content-type'] ?? null) &&
    (version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
  );
}

/**
 * Requests of one session answered directly. Set up before the session's server connects to its
 * transport: it takes the answers to its own requests from the transport's `send` (the server's
 * other messages go on as before), and answers what is still pending when the transport closes.
 */
export class DirectAnswers {
  private readonly pending = new Map<RequestId, (answer: PlainAnswer) => void>();
  private closed = false;

  constructor(
    private readonly transport: Transport,
    private readonly server: SessionServer,
  ) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const answered = 'id' in message && !('method' in message) ? message.id : undefined;
      if (answered !== undefined && this.reply(answered, message)) {
        return Promise.resolve();
      }
      // Notifications about a request answered here are dropped, as the transport drops them for JSON answers.
      return options?.relatedRequestId !== undefined && this.pending.has(options.relatedRequestId) ? Promise.resolve() : send(message, options);
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      onclose?.();
      this.close();
    };
  }

  /**
   * Runs `request` when it calls one of the server's tools, else hands it to the session's server;
   * resolves to the answer. Undefined when the transport must take it.
   */
  take(request: PlainRequest): Promise<PlainAnswer> | undefined {
    if (this.closed || this.pending.has(request.id) || !this.transport.onmessage) {
      return undefined;
    }
    const call = plainToolCall(request, this.server);
    return new Promise((resolve) => {
      this.pending.set(request.id, resolve);
      if (call) {
        void call().then((result) => this.reply(request.id, toolAnswer(request.id, result)));
      } else {
        this.transport.onmessage!(request as JSONRPCMessage);
      }
    });
  }

  /** Answers the pending request `id` with `message`; false when none is pending. */
  private reply(id: RequestId, message: unknown): boolean {
    const reply = this.pending.get(id);
    if (reply) {
      this.pending.delete(id);
      reply(this.answer(200, message));
    }
    return reply !== undefined;
  }

  private answer(status: number, message: unknown): PlainAnswer {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.transport.sessionId !== undefined) {
      headers['mcp-session-id'] = this.transport.sessionId;
    }
    return { status, headers, body: JSON.stringify(message) };
  }

  private close(): void {
    this.closed = true;
    for (const [id, reply] of this.pending) {
      reply(this.answer(404, { jsonrpc: '2.0', id, error: { code: -32001, message: 'Session not found' } }));
    }
    this.pending.clear();
  }
}

/** What a 2026-07-28 tool call answered directly takes from a server over the lists as they are now. */
export interface StatelessServer {
  /** Its tool `name` as its tools/call runs it; undefined for a name it offers no tool under now. */
  toolCall(name: string): ToolCall | undefined;
  /** Its name and version, which the SDK puts in the `_meta` of every 2026-07-28 result. */
  readonly info: { name: string; version: string };
}

/**
 * The answer to a POST with these headers that the SDK classified as `route`, when it is a
 * 2026-07-28 tools/call of one of the tools of `server()` (asked for only then) that the SDK's
 * handler would serve as it is (see the file's head): run here, the result as that handler sends
 * it. Undefined for anything else.
 */
export function answerStatelessToolCall(headers: IncomingHttpHeaders, route: InboundClassificationOutcome, server: () => StatelessServer): Promise<PlainAnswer> | undefined {
  if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== STATELESS_REVISION) {
    return undefined;
  }
  const request: unknown = route.message;
  if (!isSingleRequest(request) || !isJsonContentType(headers['content-type'] ?? null)) {
    return undefined;
  }
  // The standard headers exactly as the SDK requires them: any other spelling is the SDK's to judge.
  const headersAgree = headers['mcp-protocol-version'] === STATELESS_REVISION && headers['mcp-method'] === request.method && headers['mcp-name'] === request.params?.name;
  const call = headersAgree ? statelessToolCall(request, ENVELOPE_KEYS, server) : undefined;
  return call && call().then((answer) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) }));
}

/**
 * The call a 2026-07-28 tools/call `request` makes of one of the tools of `server()` (asked for
 * only then), when its `_meta` holds nothing but `envelopeKeys` and the SDK would run it as it is
 * (see ownToolCall); it resolves to the SDK's answer on that revision: what it stamps on that
 * revision's results, its keys in the SDK's order.
 */
function statelessToolCall(
  request: PlainRequest,
  envelopeKeys: ReadonlySet<string>,
  server: () => StatelessServer,
): (() => Promise<{ result: Record<string, unknown>; jsonrpc: '2.0'; id: RequestId }>) | undefined {
  const meta = request.params?._meta;
  if (request.method !== 'tools/call' || !isPlainObject(meta) || !Object.keys(meta).every((key) => envelopeKeys.has(key))) {
    return undefined;
  }
  const tools = server();
  const call = ownToolCall(request.params, STATELESS_TOOL_CALL_KEYS, tools);
  return call && (async () => ({ result: { ...(await call()), resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: tools.info } }, jsonrpc: '2.0', id: request.id }));
}

/**
 * Tool calls of a stdio connection answered directly, as those of an HTTP session and of 2026-07-28
 * requests are: the SDK's stdio transport parses each line again and checks it against the
 * protocol's schemas, and its server dispatches the call through schema parses of the request and
 * the result, a context and an AbortController (and on 2026-07-28 the revision's codec), several
 * times the allocations of the call's own answer. The line is parsed once already (wire.ts
 * guardLines); a call of one of the connection's server's own tools that the SDK would run as it
 * is runs here, its answer written in the SDK's bytes for the revision the connection is pinned
 * to. Everything else goes on to the SDK, and so does every call before the SDK pinned the
 * connection: on 2025-11-25 until the server agreed on it, on 2026-07-28 until a request other
 * than server/discover went to the SDK (before that, an initialize still opens 2025-11-25).
 */
export class StdioToolCalls {
  /** Requests running here: an answer is written only while its id is still here. */
  private readonly running = new Set<RequestId>();
  /** Whether the SDK pinned the connection to 2026-07-28. */
  private statelessPinned = false;
  private closed = false;

  /**
   * @param server the server the SDK made last for the connection, which it pins the connection to
   * @param write writes one line of the connection's output
   */
  constructor(
    private readonly server: () => (SessionServer & StatelessServer) | undefined,
    private readonly write: (line: string) => void,
  ) {}

  /**
   * Whether `message` was taken: a call run here. A cancellation of one of those forgets it (it is
   * never answered, as the SDK answers no cancelled request) and goes on to the SDK all the same.
   */
  take(message: unknown): boolean {
    if (this.closed || !isSingleRequest(message)) {
      if (isPlainObject(message) && message.method === 'notifications/cancelled' && isPlainObject(message.params)) {
        this.running.delete(message.params.requestId as RequestId);
      }
      return false;
    }
    const server = this.server();
    if (!server || this.running.has(message.id)) {
      return false;
    }
    const answer = server.negotiatedVersion() === STATELESS_REVISION ? this.statelessCall(message, server) : this.plainCall(message, server);
    if (!answer) {
      return false;
    }
    const { id } = message;
    this.running.add(id);
    void answer().then((line) => {
      if (this.running.delete(id) && !this.closed) {
        this.write(line);
      }
    });
    return true;
  }

  /** Answers nothing more: the connection closed, and the SDK answers none of its requests in flight either. */
  close(): void {
    this.closed = true;
    this.running.clear();
  }

  private plainCall(request: PlainRequest, server: SessionServer): (() => Promise<string>) | undefined {
    const call = isPlainRequest(request) ? plainToolCall(request, server) : undefined;
    return call && (async () => `${JSON.stringify(toolAnswer(request.id, await call()))}\n`);
  }

  /**
   * A 2026-07-28 tools/call of one of `server`'s tools with an envelope the SDK takes (its log
   * level included: the tools log nothing), once the connection is pinned to that revision.
   */
  private statelessCall(request: PlainRequest, server: SessionServer & StatelessServer): (() => Promise<string>) | undefined {
    const route = classifyInboundRequest({ httpMethod: 'POST', body: request });
    if (route.kind !== 'modern' || route.classification.revision !== STATELESS_REVISION) {
      return undefined;
    }
    if (!this.statelessPinned) {
      // The SDK pins the connection to the revision on the first such request other than server/discover, which it takes itself.
      this.statelessPinned = request.method !== 'server/discover';
      return undefined;
    }
    const call = statelessToolCall(request, STDIO_ENVELOPE_KEYS, () => server);
    return call && (async () => `${JSON.stringify(await call())}\n`);
  }
}
