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

import type { IncomingHttpHeaders } from 'node:http';
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type Transport } from './libraries';
import type { ToolCall } from './skills-server';
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
 * (resultType…): on it, and on any later one, tool calls go through the server.
 */
const FIRST_ENCODED_REVISION = '2026-07-28';

/** What the direct answers take from a session's server. */
export interface SessionServer {
  /** Its tool `name` as its tools/call runs it; undefined for a name it offers no tool under now. */
  toolCall(name: string): ToolCall | undefined;
  /** The protocol revision it agreed on with its client; undefined until initialize. */
  negotiatedVersion(): string | undefined;
}

/**
 * A request the SDK's transport would pass on as it is: JSON-RPC 2.0, a string or integer id, a
 * method other than initialize, params an object without `_meta` (whose schema the transport checks).
 */
export function isPlainRequest(message: unknown): message is PlainRequest {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string' || message.method === 'initialize') {
    return false;
  }
  const { id, params } = message;
  const idOk = typeof id === 'string' || Number.isSafeInteger(id);
  const paramsOk = params === undefined || (isPlainObject(params) && params._meta === undefined);
  return idOk && paramsOk && Object.keys(message).every((key) => REQUEST_KEYS.has(key));
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
    const call = request.method === 'tools/call' ? this.ownToolCall(request.params) : undefined;
    return new Promise((resolve) => {
      this.pending.set(request.id, resolve);
      if (call) {
        // Keys in the order the SDK's answer has them, so either way the same bytes go out.
        void call().then((result) => this.reply(request.id, { result, jsonrpc: '2.0', id: request.id }));
      } else {
        this.transport.onmessage!(request as JSONRPCMessage);
      }
    });
  }

  /** The call `params` asks for, when the server's tools/call would run it as it is (see the file's head). */
  private ownToolCall(params: Record<string, unknown> | undefined): (() => Promise<unknown>) | undefined {
    // No arguments are an empty object to the SDK; null is refused.
    const args = params?.arguments === undefined ? {} : params.arguments;
    const version = this.server.negotiatedVersion();
    if (typeof params?.name !== 'string' || !isPlainObject(args) || !Object.keys(params).every((key) => TOOL_CALL_KEYS.has(key)) || version === undefined || version >= FIRST_ENCODED_REVISION) {
      return undefined;
    }
    const call = this.server.toolCall(params.name);
    return call && (() => call(args));
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
