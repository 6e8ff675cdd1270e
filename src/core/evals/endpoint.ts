// Trigger tests outside the editor: the first turn of @skills sent to an OpenAI-compatible
// chat-completions endpoint (OpenAI, Azure, Ollama, LM Studio, vLLM, llama.cpp's server) or to the
// Anthropic Messages API. Rate limits and server errors are retried with backoff and counted, never
// taken for a verdict; any other refusal is an error that names the endpoint and what it said.
// The API key goes to the endpoint's own origin only, and whatever comes back has it taken out
// before anything reads it, so no message, report or file can repeat it.

import type { ModelToolDefinition } from '../chat/tool-definitions';
import type { PromptMessage } from '../chat/conversation';
import { redactSecrets } from '../util/redact';
import type { ModelAnswer, ModelToolCall, TriggerModel } from './run';

export type EndpointApi = 'openai' | 'anthropic';
export const ENDPOINT_APIS: readonly EndpointApi[] = ['openai', 'anthropic'];

/** Where each API's key is read from; local servers need none. */
export const API_KEY_VARIABLES: Readonly<Record<EndpointApi, string>> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Backoff doubles from here; a server's Retry-After replaces it when given. */
export const FIRST_RETRY_DELAY_MS = 1_000;
/** No wait is longer than this, whatever Retry-After asks. */
export const MAX_RETRY_DELAY_MS = 60_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Redirects followed per request (a proxy's move to https, a gateway's new path), no more. */
const MAX_REDIRECTS = 5;
/** The headers that carry the key: never sent to an origin other than the endpoint's. */
const KEY_HEADERS: readonly string[] = ['authorization', 'x-api-key'];
/** Enough for a tool call or a short answer: a trigger test reads nothing more. */
const MAX_OUTPUT_TOKENS = 1_024;
const ANTHROPIC_VERSION = '2023-06-01';

export interface EndpointOptions {
  api: EndpointApi;
  /** The base URL: `http://localhost:11434/v1`, `https://api.openai.com/v1`, `https://api.anthropic.com`. */
  endpoint: string;
  model: string;
  apiKey?: string;
  tools: readonly ModelToolDefinition[];
  /** Answers a tool call other than activation (a search, a file read). */
  answerTool(call: ModelToolCall): Promise<string>;
  maxAttempts?: number;
  firstRetryDelayMs?: number;
  requestTimeoutMs?: number;
  /** A request is sent again after this wait (a rate limit or a server error). */
  onRetry?(retry: RetryNotice): void;
  /** Tests replace the clock. */
  sleep?(ms: number): Promise<void>;
}

export interface RetryNotice {
  status: number | 'network';
  attempt: number;
  delayMs: number;
  detail: string;
}

/** A refusal or a failure of the endpoint, in one line that names it. */
export class EndpointError extends Error {}

export function endpointTriggerModel(options: EndpointOptions): TriggerModel {
  const request = options.api === 'anthropic' ? anthropicRequest : openAiRequest;
  return {
    async send(messages) {
      const { url, headers, body, read } = request(options, messages);
      const json = await postWithRetries(options, url, headers, body);
      return read(json);
    },
    answerTool: (call) => options.answerTool(call),
  };
}

/** The URL a request goes to, for messages: the base with the API's path, without doubling `/v1`. */
export function endpointUrl(api: EndpointApi, endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  if (api === 'openai') {
    return `${base}/chat/completions`;
  }
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  read(json: unknown): ModelAnswer;
}

function openAiRequest(options: EndpointOptions, messages: readonly PromptMessage[]): PreparedRequest {
  const wire: unknown[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = textOf(message);
      const calls = message.parts.flatMap((part) => (part.kind === 'toolCall' ? [{ id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input) } }] : []));
      wire.push({ role: 'assistant', content: text === '' ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    for (const part of message.parts) {
      if (part.kind === 'toolResult') {
        wire.push({ role: 'tool', tool_call_id: part.callId, content: part.text });
      }
    }
    const text = textOf(message);
    if (text !== '') {
      wire.push({ role: 'user', content: text });
    }
  }
  return {
    url: endpointUrl(options.api, options.endpoint),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    body: {
      model: options.model,
      messages: wire,
      // A request offering no tool (a tuning proposal) leaves the fields out: endpoints refuse an empty list.
      ...(options.tools.length > 0
        ? { tools: options.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })), tool_choice: 'auto' }
        : {}),
      max_tokens: MAX_OUTPUT_TOKENS,
    },
    read: (json) => readOpenAiAnswer(json, options.endpoint),
  };
}

function readOpenAiAnswer(json: unknown, endpoint: string): ModelAnswer {
  const message = (json as { choices?: { message?: { content?: unknown; tool_calls?: unknown } }[] } | undefined)?.choices?.[0]?.message;
  if (!message) {
    throw new EndpointError(`${endpoint} answered without choices[0].message: ${preview(JSON.stringify(json))}`);
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return {
    text: typeof message.content === 'string' ? message.content : '',
    calls: calls.flatMap((call: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, index) =>
      typeof call.function?.name === 'string' ? [{ callId: typeof call.id === 'string' ? call.id : `call-${index}`, name: call.function.name, input: parseArguments(call.function.arguments) }] : [],
    ),
  };
}

/** Tool arguments arrive as JSON text; a model that writes broken JSON asked for nothing usable. */
function parseArguments(value: unknown): object {
  if (typeof value === 'object' && value !== null) {
    return value;
  }
  try {
    // Anything but JSON text of an object (a number, true, null, nothing) reads as no arguments.
    const parsed: unknown = JSON.parse(String(value));
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

function anthropicRequest(options: EndpointOptions, messages: readonly PromptMessage[]): PreparedRequest {
  const wire = messages.map((message) => ({
    role: message.role,
    content: message.parts.map((part) => {
      switch (part.kind) {
        case 'text':
          return { type: 'text', text: part.text };
        case 'toolCall':
          return { type: 'tool_use', id: part.callId, name: part.name, input: part.input };
        case 'toolResult':
          return { type: 'tool_result', tool_use_id: part.callId, content: part.text };
      }
    }),
  }));
  return {
    url: endpointUrl(options.api, options.endpoint),
    headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}) },
    body: {
      model: options.model,
      max_tokens: MAX_OUTPUT_TOKENS,
      messages: wire,
      ...(options.tools.length > 0 ? { tools: options.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })) } : {}),
    },
    read: (json) => readAnthropicAnswer(json, options.endpoint),
  };
}

function readAnthropicAnswer(json: unknown, endpoint: string): ModelAnswer {
  const content = (json as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) {
    throw new EndpointError(`${endpoint} answered without a content list: ${preview(JSON.stringify(json))}`);
  }
  const answer: ModelAnswer = { text: '', calls: [] };
  for (const block of content as { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown }[]) {
    if (block.type === 'text' && typeof block.text === 'string') {
      answer.text += block.text;
    } else if (block.type === 'tool_use' && typeof block.name === 'string') {
      answer.calls.push({ callId: typeof block.id === 'string' ? block.id : `call-${answer.calls.length}`, name: block.name, input: parseArguments(block.input) });
    }
  }
  return answer;
}

function textOf(message: PromptMessage): string {
  return message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Statuses worth waiting for: rate limits, overload and other server errors. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  // A blank value is neither seconds nor a date (Date.parse gives NaN), so it needs no test here.
  if (value === null) {
    return undefined;
  }
  if (/^\d+(\.\d+)?$/.test(value.trim())) {
    return Number(value) * 1000;
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function postWithRetries(options: EndpointOptions, url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const sleep = options.sleep ?? sleepFor;
  const hideKey = (text: string): string => redactSecrets(text, [options.apiKey]);
  let delay = options.firstRetryDelayMs ?? FIRST_RETRY_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await postFollowingRedirects(url, headers, JSON.stringify(body), options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof EndpointError) {
        throw new EndpointError(hideKey(error.message));
      }
      // A key fetch refuses as a header value (a line break in it) is quoted in fetch's message: never show it.
      const detail = hideKey(describeFetchError(error, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
      if (attempt >= maxAttempts) {
        throw new EndpointError(`${url}: ${detail} (${attempt} attempts).`);
      }
      options.onRetry?.({ status: 'network', attempt, delayMs: delay, detail });
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      continue;
    }
    // Taken out before anything reads the answer: an endpoint may echo the key in an error or a reply.
    // In JSON, from each string it holds, so a key that looks like a number or a name cannot break it.
    const raw = await response.text();
    if (response.ok) {
      try {
        return JSON.parse(raw, (_name, value: unknown) => (typeof value === 'string' ? hideKey(value) : value));
      } catch {
        throw new EndpointError(`${url} answered ${response.status} with text that is not JSON: ${preview(hideKey(raw))}`);
      }
    }
    const text = hideKey(raw);
    const detail = `HTTP ${response.status}${errorText(text)}`;
    if (!retryable(response.status)) {
      throw new EndpointError(`${url} refused the request: ${detail}${response.status === 401 || response.status === 403 ? ` (check ${API_KEY_VARIABLES[options.api]})` : ''}`);
    }
    if (attempt >= maxAttempts) {
      throw new EndpointError(`${url}: ${detail}, still after ${attempt} attempts.`);
    }
    // The server knows best how long it needs; without its word, back off exponentially.
    const wait = Math.min(retryAfterMs(response.headers.get('retry-after')) ?? delay, MAX_RETRY_DELAY_MS);
    options.onRetry?.({ status: response.status, attempt, delayMs: wait, detail });
    await sleep(wait);
    delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
  }
}

/**
 * POSTs `body` to `url`, following redirects that keep the method and body (307, 308) up to
 * MAX_REDIRECTS; a redirect to another origin goes without the key's headers. Other redirects would
 * turn the request into a GET, which no chat endpoint answers: an EndpointError names where they lead.
 */
async function postFollowingRedirects(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Response> {
  const origin = new URL(url).origin;
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const sameOrigin = new URL(target).origin === origin;
    const sent = Object.fromEntries(Object.entries(headers).filter(([name]) => sameOrigin || !KEY_HEADERS.includes(name.toLowerCase())));
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sent },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      return response;
    }
    const next = new URL(location, target).href;
    if (response.status !== 307 && response.status !== 308) {
      throw new EndpointError(`${url} answered HTTP ${response.status}, a redirect to ${next}: give that as the endpoint.`);
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new EndpointError(`${url}: redirected more than ${MAX_REDIRECTS} times.`);
    }
    await response.body?.cancel();
    target = next;
  }
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const { name, cause } = Object(error) as { name?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError') {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code ? `cannot connect (${code})` : `request failed (${error instanceof Error ? error.message : String(error)})`;
}

/** The error an API put in its body (`{"error":{"message"}}` for both APIs), or a preview of it. */
function errorText(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } | string }).error;
    const said = typeof message === 'string' ? message : message?.message;
    if (typeof said === 'string' && said !== '') {
      return `: ${preview(said)}`;
    }
  } catch {
    // Not JSON: show the text itself.
  }
  return text.trim() === '' ? '' : `: ${preview(text)}`;
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
