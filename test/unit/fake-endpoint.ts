// A chat endpoint on 127.0.0.1 for the eval tests: it speaks OpenAI's chat completions and
// Anthropic's messages, records every request, and answers by rules: a scripted failure (429 with
// Retry-After, 5xx, a refusal, a slow answer) when one is queued, else the skill whose catalog line
// shares the most words with the user's query (the way a model picks), as a tool call, or a
// proposed description for a tuning request.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isTuneRequest, pickSkill, proposeDescription } from '../integration/word-overlap-model';

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The last user text: the test query. */
  query: string;
  /** The first user text: the instructions with the catalog. */
  instructions: string;
}

/** A scripted answer other than the rules': a status (with Retry-After, other headers, a body), or a delay. */
export type ScriptedFailure = { status: number; retryAfter?: string; headers?: Record<string, string>; body?: string } | { delayMs: number };

export interface FakeEndpoint {
  /** Base URL for OpenAI (`…/v1`); Anthropic's base is `origin`. */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  /** Answers the next requests with these, in order, before the rules apply again. */
  failNext(...failures: ScriptedFailure[]): void;
  close(): Promise<void>;
}

function userTexts(body: Record<string, unknown>): string[] {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : (message.content as { type: string; text?: string }[])
            .filter((part) => part.type === 'text')
            .map((part) => part.text ?? '')
            .join(''),
    )
    .filter((text) => text !== '');
}

export async function startFakeEndpoint(): Promise<FakeEndpoint> {
  const requests: RecordedRequest[] = [];
  const queued: ScriptedFailure[] = [];
  let calls = 0;
  const server = http.createServer((request, response) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(data) as Record<string, unknown>;
      const texts = userTexts(body);
      const recorded: RecordedRequest = { path: request.url ?? '', headers: request.headers, body, query: texts[texts.length - 1] ?? '', instructions: texts[0] ?? '' };
      requests.push(recorded);
      const failure = queued.shift();
      if (failure && 'delayMs' in failure) {
        setTimeout(() => answer(recorded, response), failure.delayMs);
        return;
      }
      if (failure) {
        response.writeHead(failure.status, { 'content-type': 'application/json', ...(failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : {}), ...failure.headers });
        response.end(failure.body ?? JSON.stringify({ error: { message: `scripted ${failure.status}` } }));
        return;
      }
      answer(recorded, response);
    });
  });
  const answer = (recorded: RecordedRequest, response: http.ServerResponse): void => {
    const tuning = isTuneRequest(recorded.instructions);
    const skill = tuning ? undefined : pickSkill(recorded.instructions, recorded.query);
    const text = tuning ? proposeDescription(recorded.instructions) : 'No skill fits; answering directly.';
    const id = `call-${++calls}`;
    const anthropic = recorded.path.endsWith('/v1/messages');
    const payload = anthropic
      ? { content: skill ? [{ type: 'tool_use', id, name: 'skills_activate', input: { name: skill } }] : [{ type: 'text', text }] }
      : {
          choices: [
            {
              message: skill
                ? { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'skills_activate', arguments: JSON.stringify({ name: skill }) } }] }
                : { role: 'assistant', content: text },
            },
          ],
        };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(payload));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    failNext: (...failures) => queued.push(...failures),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
