// The team server's hot path: which requests are answered without the SDK's HTTP transport, and
// how their answers are taken from the transport's send and written; which tool calls skip the
// server's dispatch, and that those answer exactly as the SDK's tools/call does; which 2026-07-28
// tool calls skip the SDK's stateless handler, and that those answer exactly as it does; which
// calls of a stdio connection skip the SDK's stdio transport and dispatch, and that those answer in
// the bytes the SDK writes.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { answerStatelessToolCall, DirectAnswers, isPlainRequest, StdioToolCalls, takesPost, type SessionServer, type StatelessServer } from '../../../../src/cli/mcp/direct-answers';
import {
  classifyInboundRequest,
  createMcpHandler,
  serveStdio,
  StdioServerTransport,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type Transport,
} from '../../../../src/cli/mcp/libraries';
import { startSkillsService } from '../../../../src/cli/mcp/mcp-command';
import type { SkillsService } from '../../../../src/cli/mcp/skills-service';
import { SkillsServer, type ToolCall } from '../../../../src/cli/mcp/skills-server';
import { SnapshotTextsCache } from '../../../../src/core/mcp/server-texts';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { ENVELOPE, STATELESS_REVISION } from './envelope';
import { waitFor } from './wait';

/**
 * A transport that records what reaches its own send and its server, with a server on it that
 * answers each request at once (after a notification about it), or never.
 */
function fakeTransport(answerRequests = true): { transport: Transport; sent: JSONRPCMessage[]; received: JSONRPCMessage[]; closeHandlerRuns: () => number } {
  const sent: JSONRPCMessage[] = [];
  const received: JSONRPCMessage[] = [];
  let closeHandlerRuns = 0;
  const transport: Transport = {
    sessionId: 'session-1',
    start: () => Promise.resolve(),
    close: () => Promise.resolve(transport.onclose?.()),
    send: (message) => {
      sent.push(message);
      return Promise.resolve();
    },
  };
  transport.onclose = () => void closeHandlerRuns++;
  transport.onmessage = (message) => {
    received.push(message);
    const request = message as { id: string | number; method: string };
    if (answerRequests) {
      void transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, { relatedRequestId: request.id });
      void transport.send({ jsonrpc: '2.0', id: request.id, result: { method: request.method } } as JSONRPCMessage);
    }
  };
  return { transport, sent, received, closeHandlerRuns: () => closeHandlerRuns };
}

/** A session's server with the tools `calls` (recording their arguments), on the protocol revision `version` (null: before initialize). */
function fakeServer(calls: Record<string, ToolCall> = {}, version: string | null = '2025-11-25'): SessionServer & StatelessServer & { called: unknown[] } {
  const called: unknown[] = [];
  return {
    called,
    info: { name: 'agent-skills', version: '1.0.0' },
    toolCall: (name) => {
      const call = Object.hasOwn(calls, name) ? calls[name] : undefined;
      return (
        call &&
        ((input) => {
          called.push(input);
          return call(input);
        })
      );
    },
    negotiatedVersion: () => version ?? undefined,
  };
}

const FOUND = { content: [{ type: 'text' as const, text: 'pdf-report: Build a PDF report.' }] };

describe('direct answers of the HTTP server', () => {
  it('takes single JSON-RPC requests with nothing the transport alone checks', () => {
    assert.ok(isPlainRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_skills', arguments: { query: 'x' } } }));
    assert.ok(isPlainRequest({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }));
    const others: unknown[] = [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1.5, method: 'tools/list' },
      { jsonrpc: '2.0', id: null, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 1 } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', extra: 1 },
      { jsonrpc: '2.0', id: 1, method: 5 },
      { jsonrpc: '2.0', id: 1 },
      null,
      'tools/list',
    ];
    for (const other of others) {
      assert.equal(isPlainRequest(other), false, JSON.stringify(other));
    }
  });

  it('takes a POST only with the headers the transport accepts', () => {
    const good = { accept: 'application/json, text/event-stream', 'content-type': 'application/json; charset=utf-8', 'mcp-protocol-version': '2025-11-25' };
    assert.ok(takesPost(good));
    assert.ok(takesPost({ ...good, 'mcp-protocol-version': undefined }));
    assert.equal(takesPost({ ...good, accept: 'application/json' }), false);
    assert.equal(takesPost({ ...good, accept: 'text/event-stream' }), false);
    assert.equal(takesPost({ ...good, accept: undefined }), false);
    assert.equal(takesPost({ ...good, 'content-type': undefined }), false);
    assert.equal(takesPost({ ...good, 'content-type': 'text/plain' }), false);
    assert.equal(takesPost({ ...good, 'mcp-protocol-version': '1999-01-01' }), false);
  });

  it("answers a request with its server's answer as JSON, and leaves the transport's send to everything else", async () => {
    const { transport, sent } = fakeTransport();
    const direct = new DirectAnswers(transport, fakeServer());
    const answer = await direct.take({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    assert.deepEqual(answer, {
      status: 200,
      headers: { 'content-type': 'application/json', 'mcp-session-id': 'session-1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, result: { method: 'tools/list' } }),
    });
    assert.deepEqual(sent, [], "the answer and the request's notification never reach the transport");
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await transport.send({ jsonrpc: '2.0', id: 4, result: {} } as JSONRPCMessage);
    assert.equal(sent.length, 2, 'messages about no pending request go on to the transport');
  });

  it("sends the server's own requests on the transport, also one whose id is that of a pending request", async () => {
    const { transport, sent } = fakeTransport(false);
    const direct = new DirectAnswers(transport, fakeServer());
    let settled = false;
    const pending = direct.take({ jsonrpc: '2.0', id: 7, method: 'tools/list' })!;
    void pending.then(() => (settled = true));
    // The server numbers its requests on its own: the same id is no answer to the client's request.
    const ping = { jsonrpc: '2.0', id: 7, method: 'ping' } as JSONRPCMessage;
    await transport.send(ping);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([sent, settled], [[ping], false]);
    await transport.send({ jsonrpc: '2.0', id: 7, result: { tools: [] } } as JSONRPCMessage);
    assert.deepEqual(JSON.parse((await pending).body), { jsonrpc: '2.0', id: 7, result: { tools: [] } });
  });

  it('names no session in the answer of a transport that has none', async () => {
    const { transport } = fakeTransport();
    transport.sessionId = undefined;
    const answer = await new DirectAnswers(transport, fakeServer()).take({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.deepEqual(answer?.headers, { 'content-type': 'application/json' });
  });

  it('leaves to the transport a request whose id is pending, and everything once closed', async () => {
    const { transport, closeHandlerRuns } = fakeTransport(false);
    const direct = new DirectAnswers(transport, fakeServer());
    const pending = direct.take({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: {} });
    assert.ok(pending);
    assert.equal(direct.take({ jsonrpc: '2.0', id: 'slow', method: 'tools/list' }), undefined);
    await transport.close();
    assert.equal(closeHandlerRuns(), 1, 'the close handler set before it still runs');
    const answer = await pending;
    assert.equal(answer.status, 404);
    assert.deepEqual(JSON.parse(answer.body), { jsonrpc: '2.0', id: 'slow', error: { code: -32001, message: 'Session not found' } });
    assert.equal(direct.take({ jsonrpc: '2.0', id: 5, method: 'tools/list' }), undefined);
  });

  it("runs a call of the server's own tool itself, and hands every other tools/call to the server", async () => {
    const { transport, sent, received } = fakeTransport();
    const server = fakeServer({ find_skills: () => Promise.resolve(FOUND) });
    const direct = new DirectAnswers(transport, server);
    const answer = await direct.take({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_skills', arguments: { query: 'pdf' } } });
    assert.deepEqual(answer, {
      status: 200,
      headers: { 'content-type': 'application/json', 'mcp-session-id': 'session-1' },
      body: `{"result":${JSON.stringify(FOUND)},"jsonrpc":"2.0","id":1}`,
    });
    await direct.take({ jsonrpc: '2.0', id: 'no-arguments', method: 'tools/call', params: { name: 'find_skills' } });
    assert.deepEqual(server.called, [{ query: 'pdf' }, {}], 'no arguments are an empty object, as the SDK hands them to a tool');
    assert.deepEqual([received, sent], [[], []], 'neither the server nor the transport saw those calls');

    const others: (Record<string, unknown> | undefined)[] = [
      { name: 'nope', arguments: {} },
      { name: 5, arguments: {} },
      { arguments: { query: 'pdf' } },
      { name: 'find_skills', arguments: [] },
      { name: 'find_skills', arguments: 'pdf' },
      { name: 'find_skills', arguments: null },
      { name: 'find_skills', arguments: {}, task: { ttl: 1000 } },
      undefined,
    ];
    for (const [index, params] of others.entries()) {
      const request = { jsonrpc: '2.0' as const, id: 100 + index, method: 'tools/call', ...(params === undefined ? {} : { params }) };
      const handed = await direct.take(request);
      assert.deepEqual(JSON.parse(handed!.body), { jsonrpc: '2.0', id: request.id, result: { method: 'tools/call' } }, JSON.stringify(params));
      assert.deepEqual(received.at(-1), request, JSON.stringify(params));
    }
    await direct.take({ jsonrpc: '2.0', id: 200, method: 'tools/list', params: { name: 'find_skills' } });
    assert.equal(received.length, others.length + 1);
    assert.equal(server.called.length, 2, 'the tool ran for none of them');
  });

  it('hands tool calls to the server before initialize and on a revision whose results the SDK encodes', async () => {
    const outcomes: Record<string, 'direct' | 'server'> = {};
    for (const version of [null, '2024-11-05', '2025-11-25', '2026-07-28', '2027-01-01']) {
      const { transport, received } = fakeTransport();
      const direct = new DirectAnswers(transport, fakeServer({ find_skills: () => Promise.resolve(FOUND) }, version));
      await direct.take({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_skills', arguments: { query: 'pdf' } } });
      outcomes[String(version)] = received.length === 0 ? 'direct' : 'server';
    }
    assert.deepEqual(outcomes, { null: 'server', '2024-11-05': 'direct', '2025-11-25': 'direct', '2026-07-28': 'server', '2027-01-01': 'server' });
  });

  it('keeps the id of a tool call it runs pending until it answers, and answers it as not found once the session closes', async () => {
    const { transport, received } = fakeTransport();
    let finish!: (result: typeof FOUND) => void;
    const direct = new DirectAnswers(transport, fakeServer({ activate_skill: () => new Promise((resolve) => (finish = resolve)) }));
    const running = direct.take({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'activate_skill', arguments: { name: 'pdf-report' } } });
    assert.ok(running);
    assert.equal(direct.take({ jsonrpc: '2.0', id: 'slow', method: 'tools/list' }), undefined, 'the same id again goes to the transport');
    await transport.close();
    const answer = await running;
    assert.equal(answer.status, 404);
    assert.deepEqual(JSON.parse(answer.body), { jsonrpc: '2.0', id: 'slow', error: { code: -32001, message: 'Session not found' } });
    finish(FOUND);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(received, []);
  });
});

/** A 2026-07-28 tools/call of `params` (with the envelope in its _meta), and the headers that revision asks for; `headers` replace or (undefined) drop them. */
function statelessCall(id: string | number, params: Record<string, unknown>, headers: Record<string, string | undefined> = {}): { headers: IncomingHttpHeaders; message: Record<string, unknown> } {
  const standard: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': STATELESS_REVISION,
    'mcp-method': 'tools/call',
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(standard).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { headers: sent, message: { jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: ENVELOPE, ...params } } };
}

/** The direct answer to a POST of `message` with `headers`, classified as the HTTP server classifies it; undefined when the SDK's handler takes it. */
function answerStatelessly(headers: IncomingHttpHeaders, message: unknown, server: StatelessServer): ReturnType<typeof answerStatelessToolCall> {
  const first = (name: string): string | undefined => headers[name] as string | undefined;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: first('mcp-protocol-version'),
    mcpMethodHeader: first('mcp-method'),
    mcpNameHeader: first('mcp-name'),
    body: message,
  });
  return answerStatelessToolCall(headers, route, () => server);
}

/** A server with the tool find_skills (recording its arguments), named as the SDK stamps on each result. */
function fakeStatelessServer(): StatelessServer & { called: unknown[] } {
  return { ...fakeServer({ find_skills: () => Promise.resolve(FOUND) }), info: { name: 'agent-skills', version: '9.9.9' } };
}

describe('direct answers of 2026-07-28 tool calls', () => {
  it("runs a call of the server's own tool and answers as the SDK encodes that revision's results", async () => {
    const server = fakeStatelessServer();
    const { headers, message } = statelessCall(3, { name: 'find_skills', arguments: { query: 'pdf' } });
    const answer = await answerStatelessly(headers, message, server);
    assert.deepEqual(answer, {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `{"result":{"content":${JSON.stringify(FOUND.content)},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"agent-skills","version":"9.9.9"}}},"jsonrpc":"2.0","id":3}`,
    });
    const withoutArguments = statelessCall('none', { name: 'find_skills' });
    await answerStatelessly(withoutArguments.headers, withoutArguments.message, server);
    assert.deepEqual(server.called, [{ query: 'pdf' }, {}], 'no arguments are an empty object, as the SDK hands them to a tool');
  });

  it("leaves to the SDK's handler every request it would not serve as it is: other headers, other _meta, other shapes, other tools", () => {
    const server = fakeStatelessServer();
    const find = { name: 'find_skills', arguments: { query: 'pdf' } };
    const others: [string, { headers: IncomingHttpHeaders; message: unknown }][] = [
      ['no MCP-Protocol-Version header', statelessCall(1, find, { 'mcp-protocol-version': undefined })],
      ['a version header with spaces', statelessCall(1, find, { 'mcp-protocol-version': `${STATELESS_REVISION} ` })],
      ['a 2025-11-25 version header', statelessCall(1, find, { 'mcp-protocol-version': '2025-11-25' })],
      ['no Mcp-Method header', statelessCall(1, find, { 'mcp-method': undefined })],
      ['another Mcp-Method', statelessCall(1, find, { 'mcp-method': 'tools/list' })],
      ['no Mcp-Name header', statelessCall(1, find, { 'mcp-name': undefined })],
      ['Mcp-Name with spaces', statelessCall(1, find, { 'mcp-name': ' find_skills' })],
      ['Mcp-Name in Base64', statelessCall(1, find, { 'mcp-name': `=?base64?${Buffer.from('find_skills').toString('base64')}?=` })],
      ['another Mcp-Name', statelessCall(1, find, { 'mcp-name': 'activate_skill' })],
      ['a body that is not JSON to its Content-Type', statelessCall(1, find, { 'content-type': 'text/plain' })],
      ['no Content-Type', statelessCall(1, find, { 'content-type': undefined })],
      ['a progress token', statelessCall(1, { ...find, _meta: { ...ENVELOPE, progressToken: 1 } })],
      ['a log level', statelessCall(1, { ...find, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' } })],
      ['no envelope (2025-11-25)', statelessCall(1, { ...find, _meta: undefined })],
      ['an envelope of another revision', statelessCall(1, { ...find, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } })],
      ['a task', statelessCall(1, { ...find, task: { ttl: 1000 } })],
      ['a tool it does not have', statelessCall(1, { name: 'no_such_tool', arguments: {} })],
      ['arguments that are no object', statelessCall(1, { name: 'find_skills', arguments: ['pdf'] })],
      ['null arguments', statelessCall(1, { name: 'find_skills', arguments: null })],
      ['an id that is no integer', statelessCall(1.5, find)],
    ];
    const withMessage = (base: { headers: IncomingHttpHeaders; message: Record<string, unknown> }, change: Record<string, unknown>) => ({
      headers: base.headers,
      message: { ...base.message, ...change },
    });
    others.push(
      ['another method', withMessage(statelessCall(1, find, { 'mcp-method': 'tools/list' }), { method: 'tools/list' })],
      ['a field beyond JSON-RPC', withMessage(statelessCall(1, find), { extra: true })],
      ['a notification', { headers: statelessCall(1, find).headers, message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: ENVELOPE, requestId: 1 } } }],
    );
    for (const [what, { headers, message }] of others) {
      assert.equal(answerStatelessly(headers, message, server), undefined, what);
    }
    assert.deepEqual(server.called, [], 'the tool ran for none of them');
  });
});

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The lines written on `stream` so far, each with its newline, kept up to date as they complete. */
function linesOf(stream: Readable): string[] {
  const lines: string[] = [];
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n')) {
      lines.push(text.slice(0, end + 1));
      text = text.slice(end + 1);
    }
  });
  return lines;
}

/** A tools/call of find_skills with the id `id`, as a stdio client sends it. */
function findCall(id: number | string): { jsonrpc: '2.0'; id: number | string; method: string; params: Record<string, unknown> } {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'find_skills', arguments: { query: 'pdf' } } };
}

describe('direct answers of a stdio connection', () => {
  it("runs a call of the pinned server's own tool and writes its answer as one line, and leaves every other message to the SDK", async () => {
    const server = fakeServer({ find_skills: () => Promise.resolve(FOUND) });
    const written: string[] = [];
    const calls = new StdioToolCalls(
      () => server,
      (line) => written.push(line),
    );
    assert.equal(calls.take(findCall(1)), true);
    const others: unknown[] = [
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: {} },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 4, result: {} },
      { ...findCall(5), params: { name: 'no_such_tool', arguments: {} } },
      { ...findCall(6), params: { name: 'find_skills', arguments: { query: 'pdf' }, _meta: { progressToken: 6 } } },
      { ...findCall(7), extra: true },
      { ...findCall(8), id: 8.5 },
      [findCall(9)],
    ];
    for (const other of others) {
      assert.equal(calls.take(other), false, JSON.stringify(other));
    }
    await settled();
    assert.deepEqual(written, [`${JSON.stringify({ result: FOUND, jsonrpc: '2.0', id: 1 })}\n`]);
    assert.deepEqual(server.called, [{ query: 'pdf' }], 'only the call it took ran here');
  });

  it('leaves tool calls to the SDK until a server agreed on a revision, and on 2026-07-28 a call without its envelope', async () => {
    const tools = { find_skills: () => Promise.resolve(FOUND) };
    const servers = [undefined, fakeServer(tools, null), fakeServer(tools, STATELESS_REVISION)];
    const written: string[] = [];
    for (const server of servers) {
      assert.equal(
        new StdioToolCalls(
          () => server,
          (line) => written.push(line),
        ).take(findCall(1)),
        false,
      );
    }
    await settled();
    assert.deepEqual([written, servers.map((server) => server?.called.length ?? 0)], [[], [0, 0, 0]]);
  });

  it("leaves 2026-07-28 calls to the SDK until it pinned the connection to that revision, then runs those of the server's own tools with an envelope the SDK takes", async () => {
    const server = fakeServer({ find_skills: () => Promise.resolve(FOUND) }, STATELESS_REVISION);
    const written: string[] = [];
    const calls = new StdioToolCalls(
      () => server,
      (line) => written.push(line),
    );
    const stateless = (id: number, meta: Record<string, unknown> = ENVELOPE, method = 'tools/call'): unknown => ({ ...findCall(id), method, params: { ...findCall(id).params, _meta: meta } });
    assert.equal(calls.take(stateless(1, ENVELOPE, 'server/discover')), false, 'server/discover leaves the connection open to 2025-11-25');
    assert.equal(calls.take(stateless(2, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' })), false, 'a revision the SDK does not serve pins nothing');
    assert.equal(calls.take(stateless(3)), false, 'the first request beyond server/discover pins the connection, in the SDK');
    assert.equal(calls.take(stateless(4, { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' })), true);
    const others = [
      stateless(5, { ...ENVELOPE, progressToken: 5 }),
      stateless(6, { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'loudest' }),
      stateless(7, { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 'raw' }),
      stateless(8, ENVELOPE, 'tools/list'),
      findCall(9),
      { ...(stateless(10) as object), params: { name: 'no_such_tool', arguments: {}, _meta: ENVELOPE } },
    ];
    for (const other of others) {
      assert.equal(calls.take(other), false, JSON.stringify(other));
    }
    await settled();
    const answer = { result: { ...FOUND, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': server.info } }, jsonrpc: '2.0', id: 4 };
    assert.deepEqual(written, [`${JSON.stringify(answer)}\n`]);
    assert.equal(server.called.length, 1);
  });

  it('answers no call the client cancelled, leaves a request reusing a running id to the SDK, and answers nothing once the connection closed', async () => {
    const finish: (() => void)[] = [];
    const server = fakeServer({ find_skills: () => new Promise((resolve) => finish.push(() => resolve(FOUND))) });
    const written: string[] = [];
    const calls = new StdioToolCalls(
      () => server,
      (line) => written.push(line),
    );
    assert.equal(calls.take(findCall(1)), true);
    assert.equal(calls.take(findCall(1)), false, 'the SDK answers a second request with a running id in its own words');
    assert.equal(calls.take({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), false, 'the SDK is told too');
    assert.equal(calls.take(findCall('two')), true);
    assert.equal(calls.take(findCall(3)), true);
    finish[0]();
    finish[1]();
    await settled();
    assert.deepEqual(
      written.map((line) => (JSON.parse(line) as { id: unknown }).id),
      ['two'],
    );
    calls.close();
    assert.equal(calls.take(findCall(4)), false);
    finish[2]();
    await settled();
    assert.equal(written.length, 1, 'a call running when the connection closed is not answered');
  });
});

/** The tools/call requests compared below: each one's answer on the direct path and through the SDK, and which path takes it. */
const CALLS: { params: unknown; direct: boolean; says?: RegExp }[] = [
  { params: { name: 'find_skills', arguments: { query: 'pdf report' } }, direct: true },
  { params: { name: 'find_skills', arguments: { query: '' } }, direct: true },
  { params: { name: 'find_skills', arguments: { query: 'nothing like it' } }, direct: true },
  { params: { name: 'find_skills', arguments: {} }, direct: true, says: /"text":"find_skills needs \\"query\\" as a string.*"isError":true/ },
  { params: { name: 'find_skills' }, direct: true },
  { params: { name: 'find_skills', arguments: { query: 7 } }, direct: true },
  { params: { name: 'find_skills', arguments: { query: 'pdf', extra: [1, { deep: true }] } }, direct: true },
  { params: JSON.parse('{"name":"find_skills","arguments":{"__proto__":{"query":"pdf"}}}'), direct: true },
  { params: { name: 'activate_skill', arguments: { name: 'pdf-report', arguments: 'q3.csv' } }, direct: true },
  { params: { name: 'activate_skill', arguments: { name: 'pdf-reprot' } }, direct: true },
  {
    params: { name: 'activate_skill', arguments: { name: 'broken-log' } },
    direct: true,
    says: /^\{"result":\{"content":\[\{"type":"text","text":"the usage log cannot be written"\}\],"isError":true\}/,
  },
  { params: { name: 'activate_skill', arguments: { name: 'deploy' } }, direct: true },
  { params: { name: 'activate_skill', arguments: {} }, direct: true },
  { params: { name: 'read_skill_resource', arguments: { skill: 'pdf-report', path: 'references/guide.md' } }, direct: true },
  { params: { name: 'read_skill_resource', arguments: { skill: 'pdf-report', path: '../../etc/passwd' } }, direct: true },
  { params: { name: 'read_skill_resource', arguments: { skill: 'pdf-report' } }, direct: true },
  { params: { name: 'no_such_tool', arguments: {} }, direct: false },
  { params: { name: 42, arguments: {} }, direct: false },
  { params: { arguments: { query: 'pdf' } }, direct: false },
  { params: { name: 'find_skills', arguments: ['pdf'] }, direct: false },
  { params: { name: 'find_skills', arguments: 'pdf' }, direct: false },
  { params: { name: 'find_skills', arguments: null }, direct: false },
  { params: { name: 'find_skills', arguments: { query: 'pdf' }, task: { ttl: 1000 } }, direct: false },
];

describe("direct tool calls answer as the SDK's tools/call", function () {
  this.timeout(20_000);
  const serverOptions = {
    version: '1.0.0',
    log: () => undefined,
    texts: new SnapshotTextsCache(16_000),
    // An activation whose record fails: the failure is the tool's error result on either path.
    onActivated: ({ skill }: { skill: string }) => {
      if (skill === 'broken-log') {
        throw new Error('the usage log cannot be written');
      }
    },
  };
  let dir: string;
  let service: SkillsService;
  let server: SkillsServer;

  /** A session on `server`: its transport, its direct answers, the messages its server received, and its id. */
  async function openSession(on: SkillsServer): Promise<{ transport: WebStandardStreamableHTTPServerTransport; direct: DirectAnswers; received: unknown[]; id: string }> {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'session-1', enableJsonResponse: true });
    const direct = new DirectAnswers(transport, on);
    await on.connect(transport);
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'unit-test', version: '1' } } };
    await (await transport.handleRequest(sdkRequest(initialize))).text();
    const received: unknown[] = [];
    const receive = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      received.push(message);
      receive(message, extra);
    };
    return { transport, direct, received, id: transport.sessionId! };
  }

  function sdkRequest(message: unknown, session?: string): Request {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (session !== undefined) {
      headers['mcp-session-id'] = session;
      headers['mcp-protocol-version'] = '2025-11-25';
    }
    return new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(message) });
  }

  beforeEach(async () => {
    dir = await tempDir();
    const skills = path.join(dir, 'skills');
    await writeTree(skills, {
      'pdf-report': { 'SKILL.md': skillText('pdf-report', 'Build a PDF report from a CSV file.', 'Render $ARGUMENTS as PDF.'), references: { 'guide.md': '# Guide\n' } },
      deploy: { 'SKILL.md': skillText('deploy', 'Deploy the service.', 'DEPLOY', 'disable-model-invocation: true\n') },
      'broken-log': { 'SKILL.md': skillText('broken-log', 'Read a log.', 'LOG') },
    });
    service = await startSkillsService({ roots: [root(skills)], allowlist: [], catalogBudgetChars: 16_000, log: () => undefined });
    server = new SkillsServer(service.registry, serverOptions);
  });

  afterEach(async () => {
    await server.mcp.close();
    await service.close();
    await removeDir(dir);
  });

  it('gives the same bytes for the same call, calls its own tools itself and hands the rest to the server', async () => {
    const session = await openSession(server);
    for (const [index, { params, direct, says }] of CALLS.entries()) {
      const request = { jsonrpc: '2.0' as const, id: index + 1, method: 'tools/call', params: params as Record<string, unknown> };
      const before = session.received.length;
      const answer = await session.direct.take(request);
      assert.equal(session.received.length - before, direct ? 0 : 1, `${JSON.stringify(params)} ${direct ? 'runs directly' : 'goes to the server'}`);
      const sdk = await session.transport.handleRequest(sdkRequest({ ...request, id: `sdk-${index + 1}` }, session.id));
      assert.equal(answer?.status, sdk.status, JSON.stringify(params));
      assert.match(answer.body, says ?? /./);
      assert.equal(answer.body, (await sdk.text()).replace(`"id":"sdk-${index + 1}"`, `"id":${index + 1}`), JSON.stringify(params));
    }
  });

  it("gives the same bytes for the same 2026-07-28 call as the SDK's stateless handler, and leaves it every call it does not run", async () => {
    // As the HTTP server has it: the SDK's handler serves each request with a server of its own.
    const handler = createMcpHandler(() => new SkillsServer(service.registry, serverOptions).mcp, { legacy: 'reject' });
    try {
      for (const [index, { params, direct }] of CALLS.entries()) {
        const { headers, message } = statelessCall(index + 1, params as Record<string, unknown>);
        const answer = answerStatelessly(headers, message, server);
        assert.equal(answer !== undefined, direct, `${JSON.stringify(params)} ${direct ? 'runs directly' : 'goes to the SDK'}`);
        const sdk = await handler.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: headers as Record<string, string>, body: JSON.stringify(message) }), { parsedBody: message });
        const sdkBody = await sdk.text();
        if (answer) {
          const { status, headers: answered, body } = await answer;
          assert.deepEqual([status, answered['content-type'], body], [sdk.status, sdk.headers.get('content-type'), sdkBody], JSON.stringify(params));
        }
      }
    } finally {
      await handler.close();
    }
  });

  /** A stdio connection of the SDK's own to a server of the same skills: its input, and its answer to a request, as the line it wrote. */
  function sdkStdio(): { input: PassThrough; answer(id: number): Promise<string>; close(): Promise<void> } {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = linesOf(output);
    const connection = serveStdio(() => new SkillsServer(service.registry, serverOptions).mcp, { transport: new StdioServerTransport(input, output) });
    const line = (id: number): string | undefined => lines.find((text) => (JSON.parse(text) as { id?: unknown }).id === id);
    return {
      input,
      answer: async (id) => {
        await waitFor(() => line(id) !== undefined, `the SDK's answer to ${id}`);
        return line(id)!;
      },
      close: () => connection.close(),
    };
  }

  /**
   * Sends each of CALLS, with `meta` when given, both to `calls` and to the SDK's connection, and
   * compares the lines written for the calls `calls` takes (into `written`) with the SDK's.
   */
  async function compareCalls(calls: StdioToolCalls, written: string[], sdk: ReturnType<typeof sdkStdio>, meta?: Record<string, unknown>): Promise<void> {
    for (const [index, { params, direct: runsDirectly }] of CALLS.entries()) {
      const request = { jsonrpc: '2.0' as const, id: index + 1, method: 'tools/call', params: { ...(params as Record<string, unknown>), ...(meta ? { _meta: meta } : {}) } };
      assert.equal(calls.take(request), runsDirectly, `${JSON.stringify(params)} ${runsDirectly ? 'runs directly' : 'goes to the SDK'}`);
      sdk.input.write(`${JSON.stringify(request)}\n`);
      const expected = await sdk.answer(index + 1);
      if (runsDirectly) {
        await waitFor(() => written.length > 0, `the direct answer to ${JSON.stringify(params)}`);
        assert.equal(written.pop(), expected, JSON.stringify(params));
      }
    }
  }

  it('gives the bytes the SDK writes on stdio for the same call, and runs only the calls it takes', async () => {
    const sdk = sdkStdio();
    try {
      const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'unit-test', version: '1' } } };
      sdk.input.write(`${JSON.stringify(initialize)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
      await sdk.answer(0);
      await openSession(server);
      const written: string[] = [];
      await compareCalls(
        new StdioToolCalls(
          () => server,
          (line) => written.push(line),
        ),
        written,
        sdk,
      );
    } finally {
      await sdk.close();
    }
  });

  it("gives the bytes the SDK writes on a stdio connection pinned to 2026-07-28 for the same call, the client's log level included", async () => {
    const sdk = sdkStdio();
    const meta = { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' };
    try {
      const written: string[] = [];
      const calls = new StdioToolCalls(
        () => ({ toolCall: (name) => server.toolCall(name), info: server.info, negotiatedVersion: () => STATELESS_REVISION }),
        (line) => written.push(line),
      );
      for (const [id, method] of [
        [0, 'server/discover'],
        [-1, 'tools/list'],
      ] as const) {
        const opening = { jsonrpc: '2.0', id, method, params: { _meta: meta } };
        assert.equal(calls.take(opening), false);
        sdk.input.write(`${JSON.stringify(opening)}\n`);
        await sdk.answer(id);
      }
      await compareCalls(calls, written, sdk, meta);
    } finally {
      await sdk.close();
    }
  });

  it('hands a call of a tool the server does not offer now to the server, which refuses it in its words', async () => {
    const hidden = path.join(dir, 'hidden');
    await writeTree(hidden, { deploy: { 'SKILL.md': skillText('deploy', 'Deploy the service.', 'DEPLOY', 'disable-model-invocation: true\n') } });
    const other = await startSkillsService({ roots: [root(hidden)], allowlist: [], catalogBudgetChars: 16_000, log: () => undefined });
    const otherServer = other.openServer();
    try {
      assert.equal(otherServer.toolCall('activate_skill'), undefined, 'activate_skill is hidden while no skill can be activated');
      assert.ok(otherServer.toolCall('find_skills'));
      const session = await openSession(otherServer);
      const answer = await session.direct.take({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'activate_skill', arguments: { name: 'deploy' } } });
      assert.equal(session.received.length, 1);
      assert.deepEqual((JSON.parse(answer!.body) as { error: unknown }).error, { code: -32602, message: 'Tool activate_skill disabled' });
    } finally {
      await other.close();
    }
  });
});
