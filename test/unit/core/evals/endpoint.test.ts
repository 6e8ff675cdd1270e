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
  });

  it('reads Retry-After in seconds or as a date, and nothing else', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs('0.5'), 500);
    assert.equal(retryAfterMs('Thu, 26 Nov 2026 10:00:05 GMT', Date.parse('Thu, 26 Nov 2026 10:00:00 GMT')), 5000);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs(null), undefined);
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
});
