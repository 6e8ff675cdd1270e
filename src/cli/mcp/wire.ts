// What the server owes every message on the wire, beyond what the SDK does on its own: a JSON-RPC
// 2.0 error for each line that is not a message it can take (the SDK drops those in silence, and
// a line over its buffer closes the session), params errors as -32602 sentences rather than a
// dump of the SDK's schema errors (and params of the Skills extension's methods checked so), and the `resultType` the Skills extension requires of a
// directory read, which the SDK adds on 2026-07-28 only (skills/list and skills/get carry their
// fields from their handlers, skills-server.ts).

import { PassThrough, type Readable } from 'node:stream';
import type { JSONRPCMessage, StandardSchemaV1, Transport } from './libraries';
import { isPlainObject } from '../../core/util/objects';

/** The longest line (one JSON-RPC message) the server reads; a longer one is answered and dropped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
/** What a JSON-RPC batch (an array of messages) is answered with, before the transport's hint: neither protocol revision has batches. */
export const BATCHES_UNSUPPORTED = 'Batches are not supported';
/** Where a request's id can be read without parsing the line: `{"jsonrpc":"2.0","id":…` as clients write it. */
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")/;
const ID_SNIFF_BYTES = 4096;
/** Requests a client cancelled are never answered: bound what is kept of them. */
const MAX_TRACKED_REQUESTS = 10_000;

type RequestId = string | number;
type ErrorAnswer = { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string } };

function errorAnswer(id: RequestId | null, code: number, message: string): ErrorAnswer {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function describeBytes(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB (${bytes.toLocaleString('en-US')} bytes)`;
}

/** Why a parsed line is no JSON-RPC 2.0 message, with the id to answer with; undefined when it is one. */
export function invalidMessage(value: unknown): ErrorAnswer | undefined {
  if (Array.isArray(value)) {
    return errorAnswer(null, INVALID_REQUEST, `${BATCHES_UNSUPPORTED}: send each JSON-RPC message on its own line.`);
  }
  if (value === null || typeof value !== 'object') {
    return errorAnswer(null, INVALID_REQUEST, 'A JSON-RPC message must be a JSON object.');
  }
  const message = value as Record<string, unknown>;
  const hasId = 'id' in message;
  if (hasId && !isRequestId(message.id)) {
    return errorAnswer(null, INVALID_REQUEST, 'The "id" of a JSON-RPC message must be a string or a number.');
  }
  const id = hasId ? (message.id as RequestId) : null;
  if (message.jsonrpc !== '2.0') {
    return errorAnswer(id, INVALID_REQUEST, 'Only JSON-RPC 2.0 is spoken here: set "jsonrpc": "2.0".');
  }
  if (typeof message.method === 'string') {
    return undefined;
  }
  if (hasId && ('result' in message || 'error' in message)) {
    return undefined; // A response to a request of the server's.
  }
  return errorAnswer(id, INVALID_REQUEST, 'A JSON-RPC message needs a "method" (a request or notification), or a "result" or "error" with an "id" (a response).');
}

/**
 * The lines of `input` that are JSON-RPC 2.0 messages, one per chunk, for the SDK's stdio
 * transport; every other line gets its error through `answer` and goes no further, nor does a
 * message `take` took (answered without the SDK, given as parsed). A line over `maxBytes` is not
 * kept in memory: its head is, to answer with the request's id when it leads. Destroying the
 * returned stream lets go of `input`.
 */
export function guardLines(input: Readable, answer: (message: ErrorAnswer) => void, maxBytes = MAX_MESSAGE_BYTES, take: (message: unknown) => boolean = () => false): Readable {
  const lines = new PassThrough();
  let parts: Buffer[] = [];
  let length = 0;
  let oversized = false;

  const takeLine = (): void => {
    const line = Buffer.concat(parts);
    parts = [];
    length = 0;
    if (oversized) {
      oversized = false;
      const id = LEADING_ID.exec(line.toString('utf8'))?.[1];
      answer(
        errorAnswer(
          id === undefined ? null : (JSON.parse(id) as RequestId),
          INVALID_REQUEST,
          `The message is longer than ${describeBytes(maxBytes)}, the most this server reads in one line; it was dropped.`,
        ),
      );
      return;
    }
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') {
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      answer(errorAnswer(null, PARSE_ERROR, `The line is not JSON: ${(error as Error).message}`));
      return;
    }
    const invalid = invalidMessage(value);
    if (invalid) {
      answer(invalid);
    } else if (!take(value)) {
      lines.write(`${text}\n`);
    }
  };

  const keep = (chunk: Buffer): void => {
    if (oversized) {
      return;
    }
    if (length + chunk.length > maxBytes) {
      oversized = true;
      const head = Buffer.concat([...parts, chunk]).subarray(0, ID_SNIFF_BYTES);
      parts = [head];
      length = head.length;
      return;
    }
    parts.push(chunk);
    length += chunk.length;
  };

  const read = (chunk: Buffer): void => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      keep(chunk.subarray(start, end));
      takeLine();
      start = end + 1;
    }
    if (start < chunk.length) {
      keep(chunk.subarray(start));
    }
  };
  const end = (): void => void lines.end();
  const fail = (error: Error): void => void lines.destroy(error);
  input.on('data', read);
  input.once('end', end);
  input.once('error', fail);
  // Once the lines are no longer read, neither is the input: a paused stdin lets the process exit.
  lines.once('close', () => {
    input.off('data', read).off('end', end).off('error', fail);
    input.pause();
  });
  return lines;
}

/** The Skills extension's required result fields the SDK leaves out on 2025-11-25 (ext-skills, specification/stable/skills.mdx). */
const SKILLS_RESULT_FIELDS: Readonly<Record<string, Record<string, unknown>>> = {
  'resources/directory/read': { resultType: 'complete' },
};

/**
 * Params of string fields (`optional` ones may be left out), checked as the SDK checks the params of
 * a method of an extension (a Standard Schema): a refusal names the field.
 */
export function stringParams<Required extends string, Optional extends string = never>(
  required: readonly Required[],
  optional: readonly Optional[] = [],
): StandardSchemaV1<unknown, Record<Required, string> & Partial<Record<Optional, string>>> {
  const fields: readonly string[] = [...required, ...optional];
  return {
    '~standard': {
      version: 1,
      vendor: 'agent-skills',
      validate: (value) => {
        const params = isPlainObject(value) ? value : {};
        const wrong = fields.filter((key) => typeof params[key] !== 'string' && (params[key] !== undefined || (required as readonly string[]).includes(key)));
        if (wrong.length > 0) {
          return { issues: wrong.map((key) => ({ message: 'expected a string', path: [key] })) };
        }
        return { value: Object.fromEntries(fields.filter((key) => params[key] !== undefined).map((key) => [key, params[key]])) as Record<Required, string> & Partial<Record<Optional, string>> };
      },
    },
  };
}

interface SchemaIssue {
  path: (string | number)[];
  message: string;
}

/** The schema issues the SDK reports as the text of a params error, when that is what `message` holds. */
function schemaIssues(message: string): SchemaIssue[] | undefined {
  const start = message.indexOf('[');
  if (start < 0) {
    return undefined;
  }
  try {
    const issues = JSON.parse(message.slice(start)) as unknown;
    const valid = Array.isArray(issues) && issues.length > 0 && issues.every((issue: SchemaIssue) => Array.isArray(issue?.path) && typeof issue.message === 'string');
    return valid ? (issues as SchemaIssue[]) : undefined;
  } catch {
    return undefined;
  }
}

function describeIssue(issue: SchemaIssue): string {
  const where = issue.path.length === 0 ? 'the request' : issue.path.join('.');
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** A result or error as the server should send it for a request of `method`. */
function refineAnswer(message: JSONRPCMessage, method: string): JSONRPCMessage {
  const answer = message as { result?: Record<string, unknown>; error?: { code: number; message: string } };
  if (answer.error && (answer.error.code === INTERNAL_ERROR || answer.error.code === INVALID_PARAMS)) {
    const issues = schemaIssues(answer.error.message);
    if (issues) {
      return { ...message, error: { code: INVALID_PARAMS, message: `Invalid params for ${method}: ${issues.map(describeIssue).join('; ')}.` } } as JSONRPCMessage;
    }
  }
  const fields = SKILLS_RESULT_FIELDS[method];
  if (answer.result && fields) {
    return { ...message, result: { ...fields, ...answer.result } } as JSONRPCMessage;
  }
  return message;
}

/**
 * Makes `transport` send what the protocol asks of this server (see the file's head). It keeps
 * the method of each request in flight, by id, to know what its answer is for.
 */
export function refineAnswers(transport: Transport): Transport {
  const methods = new Map<RequestId, string>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const id = (message as { id?: RequestId }).id;
    const method = id !== undefined && !('method' in message) ? methods.get(id) : undefined;
    if (method === undefined) {
      return send(message, options);
    }
    methods.delete(id!);
    return send(refineAnswer(message, method), options);
  };
  let receive: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => receive,
    set: (handler: Transport['onmessage']) => {
      receive =
        handler &&
        ((message, extra) => {
          const request = message as { id?: unknown; method?: unknown };
          if (isRequestId(request.id) && typeof request.method === 'string') {
            methods.set(request.id, request.method);
            if (methods.size > MAX_TRACKED_REQUESTS) {
              methods.delete(methods.keys().next().value!);
            }
          }
          handler(message, extra);
        });
    },
  });
  return transport;
}
