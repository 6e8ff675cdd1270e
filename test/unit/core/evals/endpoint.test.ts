import * as assert from 'node:assert/strict';
import { endpointTriggerModel, endpointUrl, retryAfterMs, type EndpointOptions, type RetryNotice } from '../../../../src/core/evals/endpoint';
import { SKILL_TOOL_DEFINITIONS } from '../../../../src/core/chat/tool-definitions';
import { triggerTestPrompt } from '../../../../src/core/evals/request';
import { startFakeEndpoint, type FakeEndpoint } from '../../fake-endpoint';

describe('chat endpoints for trigger tests', () => {
  let endpoint: FakeEndpoint;
  const prompt = triggerTestPrompt('<available_skills>\nSkills: …\npdf-report: Make PDF reports from data.\n</available_skills>', 0, 'make a pdf report of sales');

  beforeEach(async () => {
    endpoint = await startFakeEndpoint();
  });
  afterEach(() => endpoint.close());

  function model(overrides: Partial<EndpointOptions> = {}): ReturnType<typeof endpointTriggerModel> {
    return endpointTriggerModel({ api: 'openai', endpoint: endpoint.url, model: 'm', tools: SKILL_TOOL_DEFINITIONS, answerTool: async () => '', ...overrides });
  }

  it("builds each API's URL from its base, without doubling /v1", () => {
    assert.equal(endpointUrl('openai', 'http://localhost:11434/v1/'), 'http://localhost:11434/v1/chat/completions');
    assert.equal(endpointUrl('anthropic', 'https://api.anthropic.com'), 'https://api.anthropic.com/v1/messages');
    assert.equal(endpointUrl('anthropic', 'https://proxy.example/v1'), 'https://proxy.example/v1/messages');
    assert.equal(endpointUrl('openai', 'http://localhost:11434/v1//'), 'http://localhost:11434/v1/chat/completions');
  });

  it('reads Retry-After in seconds or as a date, and nothing else', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs('0.5'), 500);
    assert.equal(retryAfterMs('Thu, 26 Nov 2026 10:00:05 GMT', Date.parse('Thu, 26 Nov 2026 10:00:00 GMT')), 5000);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs(null), undefined);
    assert.equal(retryAfterMs('12'), 12000);
    assert.equal(retryAfterMs('1.25'), 1250);
    assert.equal(retryAfterMs('x5'), undefined);
    assert.equal(retryAfterMs('5 s'), undefined);
  });

  it('turns an OpenAI tool call and an Anthropic tool use into the same answer', async () => {
    assert.deepEqual(await model().send(prompt), { text: '', calls: [{ callId: 'call-1', name: 'skills_activate', input: { name: 'pdf-report' } }] });
    assert.deepEqual(await model({ api: 'anthropic', endpoint: endpoint.origin }).send(prompt), { text: '', calls: [{ callId: 'call-2', name: 'skills_activate', input: { name: 'pdf-report' } }] });
  });

  it("sends tool calls and their results back in each API's shape", async () => {
    const followUp = [
      ...prompt,
      { role: 'assistant' as const, parts: [{ kind: 'toolCall' as const, callId: 'c1', name: 'skills_find', input: { query: 'pdf' } }] },
      { role: 'user' as const, parts: [{ kind: 'toolResult' as const, callId: 'c1', text: '1 skill matches' }] },
    ];
    await model().send(followUp);
    await model({ api: 'anthropic', endpoint: endpoint.origin }).send(followUp);
    const [openai, anthropic] = endpoint.requests.map((request) => (request.body.messages as unknown[]).slice(2));
    assert.deepEqual(openai, [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'skills_find', arguments: '{"query":"pdf"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '1 skill matches' },
    ]);
    assert.deepEqual(anthropic, [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'skills_find', input: { query: 'pdf' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: '1 skill matches' }] },
    ]);
  });

  it('backs off exponentially on 5xx without Retry-After, and gives up after the last attempt', async () => {
    endpoint.failNext({ status: 500 }, { status: 502 }, { status: 503 });
    const waits: number[] = [];
    const notices: RetryNotice[] = [];
    await assert.rejects(
      model({ maxAttempts: 3, firstRetryDelayMs: 100, sleep: async (ms) => void waits.push(ms), onRetry: (notice) => notices.push(notice) }).send(prompt),
      /\/v1\/chat\/completions: HTTP 503: scripted 503, still after 3 attempts\./,
    );
    assert.deepEqual(waits, [100, 200]);
    assert.deepEqual(
      notices.map((notice) => [notice.status, notice.attempt]),
      [
        [500, 1],
        [502, 2],
      ],
    );
  });

  it('says when the endpoint is slow, unreachable, or answers something else', async () => {
    endpoint.failNext({ delayMs: 400 });
    await assert.rejects(model({ maxAttempts: 1, requestTimeoutMs: 50 }).send(prompt), /no answer within 0\.05 s \(1 attempts\)\./);
    await endpoint.close();
    await assert.rejects(model({ maxAttempts: 1 }).send(prompt), /cannot connect \(ECONNREFUSED\)/);
    endpoint = await startFakeEndpoint();
    endpoint.failNext({ status: 401, body: '{"error":{"message":"bad key"}}' });
    await assert.rejects(model().send(prompt), /refused the request: HTTP 401: bad key \(check OPENAI_API_KEY\)$/);
  });

  it("sends each API's headers and body: the key, the version, the model, a token limit, and tools only when offered", async () => {
    await model({ apiKey: 'k1' }).send(prompt);
    await model({ tools: [] }).send(prompt);
    await model({ api: 'anthropic', endpoint: endpoint.origin, apiKey: 'k2' }).send(prompt);
    await model({ api: 'anthropic', endpoint: endpoint.origin, tools: [] }).send(prompt);
    const [openai, openaiBare, anthropic, anthropicBare] = endpoint.requests;
    const [tool] = SKILL_TOOL_DEFINITIONS;
    assert.equal(openai.headers.authorization, 'Bearer k1');
    assert.equal(openai.headers['content-type'], 'application/json');
    assert.equal(openai.body.model, 'm');
    assert.equal(openai.body.max_tokens, 1024);
    assert.equal(openai.body.tool_choice, 'auto');
    assert.deepEqual((openai.body.tools as unknown[])[0], { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } });
    assert.equal(openaiBare.headers.authorization, undefined);
    assert.deepEqual(Object.keys(openaiBare.body).sort(), ['max_tokens', 'messages', 'model']);
    assert.equal(anthropic.headers['anthropic-version'], '2023-06-01');
    assert.equal(anthropic.headers['x-api-key'], 'k2');
    assert.equal(anthropic.headers.authorization, undefined);
    assert.equal(anthropic.body.max_tokens, 1024);
    assert.deepEqual((anthropic.body.tools as unknown[])[0], { name: tool.name, description: tool.description, input_schema: tool.inputSchema });
    assert.equal(anthropicBare.headers['x-api-key'], undefined);
    assert.deepEqual(Object.keys(anthropicBare.body).sort(), ['max_tokens', 'messages', 'model']);
  });

  it("sends an assistant's text as its content, and the user's text after its tool results", async () => {
    const turn = [
      ...prompt,
      {
        role: 'assistant' as const,
        parts: [
          { kind: 'text' as const, text: 'Looking. ' },
          { kind: 'toolCall' as const, callId: 'c1', name: 'skills_find', input: {} },
        ],
      },
      {
        role: 'user' as const,
        parts: [
          { kind: 'toolResult' as const, callId: 'c1', text: 'none' },
          { kind: 'text' as const, text: 'and now?' },
        ],
      },
    ];
    await model().send(turn);
    assert.deepEqual((endpoint.requests[0].body.messages as unknown[]).slice(2), [
      { role: 'assistant', content: 'Looking. ', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'skills_find', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'none' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('reads an OpenAI answer: its text, each named call with its id or its place, arguments as JSON text or an object, anything else as no arguments', async () => {
    const calls = [
      { function: { name: 'a', arguments: '{"x":1}' } },
      { id: 'i2', function: { name: 'b', arguments: { y: 2 } } },
      { function: { name: 'c', arguments: 'not json' } },
      { function: { arguments: '{}' } },
      { id: 'i5', function: { name: 'd', arguments: '3' } },
      { id: 'i6', function: { name: 'e' } },
    ];
    endpoint.failNext(
      { status: 200, body: JSON.stringify({ choices: [{ message: { content: 'hi', tool_calls: calls } }] }) },
      { status: 200, body: JSON.stringify({ choices: [{ message: { content: null } }] }) },
    );
    assert.deepEqual(await model().send(prompt), {
      text: 'hi',
      calls: [
        { callId: 'call-0', name: 'a', input: { x: 1 } },
        { callId: 'i2', name: 'b', input: { y: 2 } },
        { callId: 'call-2', name: 'c', input: {} },
        { callId: 'i5', name: 'd', input: {} },
        { callId: 'i6', name: 'e', input: {} },
      ],
    });
    assert.deepEqual(await model().send(prompt), { text: '', calls: [] });
  });

  it('reads an Anthropic answer: its text blocks joined, each named tool use with its id or its place, other blocks left out', async () => {
    const content = [
      { type: 'text', text: 'a' },
      { type: 'tool_use', name: 'x', input: { q: 1 } },
      { type: 'image' },
      { type: 'text', text: 'b' },
      { type: 'tool_use', id: 't', name: 'y', input: '{"r":2}' },
      { type: 'tool_use', input: {} },
      { type: 'tool_use', name: 'z', input: null },
    ];
    endpoint.failNext({ status: 200, body: JSON.stringify({ content }) });
    assert.deepEqual(await model({ api: 'anthropic', endpoint: endpoint.origin }).send(prompt), {
      text: 'ab',
      calls: [
        { callId: 'call-0', name: 'x', input: { q: 1 } },
        { callId: 't', name: 'y', input: { r: 2 } },
        { callId: 'call-2', name: 'z', input: {} },
      ],
    });
  });

  it('says what an answer lacks, or that it is not JSON', async () => {
    endpoint.failNext({ status: 200, body: '{"nope":1}' }, { status: 200, body: '{"nope":2}' }, { status: 200, body: 'hello there' });
    await assert.rejects(model().send(prompt), (error: Error) => error.message === `${endpoint.url} answered without choices[0].message: {"nope":1}`);
    await assert.rejects(model({ api: 'anthropic', endpoint: endpoint.origin }).send(prompt), (error: Error) => error.message === `${endpoint.origin} answered without a content list: {"nope":2}`);
    await assert.rejects(model().send(prompt), (error: Error) => error.message === `${endpoint.url}/chat/completions answered 200 with text that is not JSON: hello there`);
  });

  it('waits as Retry-After says, never over a minute, and retries 408 and 429 but no other refusal', async () => {
    endpoint.failNext({ status: 429, retryAfter: '2' }, { status: 429, retryAfter: '3600' }, { status: 408 });
    const waits: number[] = [];
    const notices: RetryNotice[] = [];
    const answer = await model({ firstRetryDelayMs: 10, sleep: async (ms) => void waits.push(ms), onRetry: (notice) => notices.push(notice) }).send(prompt);
    assert.equal(answer.calls[0]?.name, 'skills_activate');
    // Retry-After replaces the backoff, which goes on doubling beneath it.
    assert.deepEqual(waits, [2000, 60000, 40]);
    assert.deepEqual(
      notices.map(({ status, attempt, delayMs, detail }) => [status, attempt, delayMs, detail]),
      [
        [429, 1, 2000, 'HTTP 429: scripted 429'],
        [429, 2, 60000, 'HTTP 429: scripted 429'],
        [408, 3, 40, 'HTTP 408: scripted 408'],
      ],
    );
    endpoint.failNext({ status: 404, body: '' });
    await assert.rejects(model({ sleep: async () => assert.fail('no wait') }).send(prompt), (error: Error) => error.message === `${endpoint.url}/chat/completions refused the request: HTTP 404`);
    endpoint.failNext({ status: 403, body: '{"error":"no access"}' });
    await assert.rejects(model({ api: 'anthropic', endpoint: endpoint.origin }).send(prompt), /refused the request: HTTP 403: no access \(check ANTHROPIC_API_KEY\)$/);
  });

  it('doubles the wait after each failure up to a minute, a timeout included', async () => {
    endpoint.failNext({ status: 500 }, { status: 500 }, { status: 500 });
    const waits: number[] = [];
    await model({ firstRetryDelayMs: 40_000, sleep: async (ms) => void waits.push(ms) }).send(prompt);
    assert.deepEqual(waits, [40_000, 60_000, 60_000]);
    endpoint.failNext({ delayMs: 400 }, { delayMs: 400 });
    const timeouts: RetryNotice[] = [];
    await model({ firstRetryDelayMs: 10, requestTimeoutMs: 50, sleep: async () => undefined, onRetry: (notice) => timeouts.push(notice) }).send(prompt);
    assert.deepEqual(timeouts, [
      { status: 'network', attempt: 1, delayMs: 10, detail: 'no answer within 0.05 s' },
      { status: 'network', attempt: 2, delayMs: 20, detail: 'no answer within 0.05 s' },
    ]);
  });

  it("shows an error body's message, else the body itself, in one line of at most 200 characters", async () => {
    const long = `${'word '.repeat(60)}end`;
    endpoint.failNext({ status: 400, body: '{"error":{"message":""}}' }, { status: 400, body: `  several\n  lines  ` }, { status: 400, body: JSON.stringify({ error: { message: long } }) });
    await assert.rejects(model().send(prompt), /HTTP 400: \{"error":\{"message":""\}\}$/);
    await assert.rejects(model().send(prompt), /HTTP 400: several lines$/);
    await assert.rejects(model().send(prompt), (error: Error) => error.message.endsWith(`HTTP 400: ${long.slice(0, 199)}…`));
  });

  it('reads Retry-After with spaces around it, and a date already past as no wait', () => {
    assert.equal(retryAfterMs(' 3 '), 3000);
    assert.equal(retryAfterMs('   '), undefined);
    assert.equal(retryAfterMs('Thu, 26 Nov 2026 10:00:00 GMT', Date.parse('Thu, 26 Nov 2026 10:00:05 GMT')), 0);
  });

  it('sends an assistant message without calls as its text alone', async () => {
    await model().send([...prompt, { role: 'assistant', parts: [{ kind: 'text', text: 'Which report?' }] }, { role: 'user', parts: [{ kind: 'text', text: 'sales' }] }]);
    assert.deepEqual((endpoint.requests[0].body.messages as unknown[]).slice(2), [
      { role: 'assistant', content: 'Which report?' },
      { role: 'user', content: 'sales' },
    ]);
  });

  it('says an answer lacks its message when it is null or has no choice', async () => {
    endpoint.failNext({ status: 200, body: 'null' }, { status: 200, body: '{"choices":[]}' }, { status: 200, body: 'null' });
    await assert.rejects(model().send(prompt), (error: Error) => error.message === `${endpoint.url} answered without choices[0].message: null`);
    await assert.rejects(model().send(prompt), (error: Error) => error.message === `${endpoint.url} answered without choices[0].message: {"choices":[]}`);
    await assert.rejects(model({ api: 'anthropic', endpoint: endpoint.origin }).send(prompt), (error: Error) => error.message === `${endpoint.origin} answered without a content list: null`);
  });

  it('leaves out calls without a function, arguments that are null, and blocks that are neither text nor a tool use', async () => {
    endpoint.failNext(
      { status: 200, body: JSON.stringify({ choices: [{ message: { content: '', tool_calls: [{ id: 'x' }, { id: 'n', function: { name: 'skills_find', arguments: 'null' } }] } }] }) },
      {
        status: 200,
        body: JSON.stringify({
          content: [{ type: 'text' }, { type: 'citation', text: 'quoted' }, { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} }, { type: 'text', text: 'done' }],
        }),
      },
    );
    assert.deepEqual(await model().send(prompt), { text: '', calls: [{ callId: 'n', name: 'skills_find', input: {} }] });
    assert.deepEqual(await model({ api: 'anthropic', endpoint: endpoint.origin }).send(prompt), { text: 'done', calls: [] });
  });

  it('retries a request that timed out without anyone to tell, and says why a request could not be sent', async () => {
    endpoint.failNext({ delayMs: 400 });
    const answer = await model({ firstRetryDelayMs: 10, requestTimeoutMs: 50, sleep: async () => undefined }).send(prompt);
    assert.equal(answer.calls[0]?.name, 'skills_activate');
    // A key with a line break inside (two lines pasted) cannot be sent; the message says so without showing it.
    await assert.rejects(
      model({ apiKey: 'sk-secret\nsk-other', maxAttempts: 1 }).send(prompt),
      (error: Error) => error.message === `${endpoint.url}/chat/completions: request failed (Headers.append: "Bearer ***" is an invalid header value.) (1 attempts).`,
    );
  });

  it('says a refusal with a blank body as its status alone, and shows an error of 200 characters whole', async () => {
    const exactly = 'x'.repeat(200);
    endpoint.failNext({ status: 400, body: ' \n ' }, { status: 400, body: JSON.stringify({ error: { message: exactly } }) });
    await assert.rejects(model().send(prompt), (error: Error) => error.message === `${endpoint.url}/chat/completions refused the request: HTTP 400`);
    await assert.rejects(model().send(prompt), (error: Error) => error.message.endsWith(`HTTP 400: ${exactly}`));
  });

  it('never repeats the key an endpoint echoes back: in a refusal, a retry notice, an answer, or cut short in a preview', async () => {
    const key = 'sk-live-0123456789abcdef';
    const said = (text: string): string => JSON.stringify({ error: { message: text } });
    endpoint.failNext(
      { status: 500, body: said(`overloaded for ${key}`) },
      { status: 401, body: said(`Incorrect API key provided: ${key}; header was "Bearer ${key}", escaped ${JSON.stringify(key + '"')}, encoded ${encodeURIComponent(key)}`) },
      { status: 400, body: `${'x'.repeat(190)}${key}` },
    );
    const notices: RetryNotice[] = [];
    const keyed = model({ apiKey: key, sleep: async () => undefined, onRetry: (notice) => notices.push(notice) });
    await assert.rejects(keyed.send(prompt), (error: Error) => {
      assert.equal(
        error.message,
        `${endpoint.url}/chat/completions refused the request: HTTP 401: Incorrect API key provided: ***; header was "Bearer ***", escaped "***\\"", encoded *** (check OPENAI_API_KEY)`,
      );
      return true;
    });
    assert.equal(notices[0].detail, 'HTTP 500: overloaded for ***');
    await assert.rejects(keyed.send(prompt), (error: Error) => !error.message.includes(key.slice(0, 8)) && error.message.endsWith(`${'x'.repeat(190)}***`));
    endpoint.failNext({ status: 200, body: JSON.stringify({ choices: [{ message: { content: `Your key is ${key}.` } }] }) });
    assert.equal((await keyed.send(prompt)).text, 'Your key is ***.');
    // A key a local server takes anything for, which the answer's structure happens to hold, breaks nothing.
    endpoint.failNext({ status: 200, body: JSON.stringify({ created: 1712345, choices: [{ index: 0, message: { content: 'Answer 12345.' } }] }) });
    assert.equal((await model({ apiKey: '12345' }).send(prompt)).text, 'Answer ***.');
  });

  it('sends the key to the endpoint only: a redirect to another origin goes without it, one on the same origin keeps it', async () => {
    const other = await startFakeEndpoint();
    try {
      endpoint.failNext({ status: 307, headers: { location: `${other.url}/chat/completions` } });
      assert.equal((await model({ apiKey: 'sk-openai' }).send(prompt)).calls[0]?.name, 'skills_activate');
      endpoint.failNext({ status: 308, headers: { location: `${other.origin}/v1/messages` } });
      assert.equal((await model({ api: 'anthropic', endpoint: endpoint.origin, apiKey: 'sk-anthropic' }).send(prompt)).calls[0]?.name, 'skills_activate');
      const [openai, anthropic] = other.requests;
      assert.deepEqual([openai.headers.authorization, openai.body.model], [undefined, 'm']);
      assert.deepEqual([anthropic.headers['x-api-key'], anthropic.headers.authorization, anthropic.headers['anthropic-version']], [undefined, undefined, '2023-06-01']);

      endpoint.failNext({ status: 307, headers: { location: '/v1/chat/completions?again' } });
      await model({ apiKey: 'sk-openai' }).send(prompt);
      const [redirected, again] = endpoint.requests.slice(-2);
      assert.deepEqual([redirected.path, again.path, again.headers.authorization, again.body.model], ['/v1/chat/completions', '/v1/chat/completions?again', 'Bearer sk-openai', 'm']);
    } finally {
      await other.close();
    }
  });

  it('follows at most five redirects, and no redirect that would turn the request into a GET', async () => {
    const self = { status: 307, headers: { location: '/v1/chat/completions' } };
    endpoint.failNext(self, self, self, self, self, self);
    await assert.rejects(model().send(prompt), (error: Error) => error.message === `${endpoint.url}/chat/completions: redirected more than 5 times.`);
    endpoint.failNext({ status: 302, headers: { location: 'https://elsewhere.example/v1/chat/completions' } });
    await assert.rejects(
      model().send(prompt),
      (error: Error) => error.message === `${endpoint.url}/chat/completions answered HTTP 302, a redirect to https://elsewhere.example/v1/chat/completions: give that as the endpoint.`,
    );
  });
});
