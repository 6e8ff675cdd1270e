// The team server's hot path: which requests are answered without the SDK's HTTP transport, and
// how their answers are taken from the transport's send and written.

import * as assert from 'node:assert/strict';
import { DirectAnswers, isPlainRequest, takesPost } from '../../../../src/cli/mcp/direct-answers';
import type { JSONRPCMessage, Transport } from '../../../../src/cli/mcp/libraries';

/**
 * A transport that records what reaches its own send, with a server on it that answers each
 * request at once (after a notification about it), or never.
 */
function fakeTransport(answerRequests = true): { transport: Transport; sent: JSONRPCMessage[]; closeHandlerRuns: () => number } {
  const sent: JSONRPCMessage[] = [];
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
    const request = message as { id: string | number; method: string };
    if (answerRequests) {
      void transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, { relatedRequestId: request.id });
      void transport.send({ jsonrpc: '2.0', id: request.id, result: { method: request.method } } as JSONRPCMessage);
    }
  };
  return { transport, sent, closeHandlerRuns: () => closeHandlerRuns };
}

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
    assert.equal(takesPost({ ...good, 'content-type': 'text/plain' }), false);
    assert.equal(takesPost({ ...good, 'mcp-protocol-version': '1999-01-01' }), false);
  });

  it("answers a request with its server's answer as JSON, and leaves the transport's send to everything else", async () => {
    const { transport, sent } = fakeTransport();
    const direct = new DirectAnswers(transport);
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

  it('leaves to the transport a request whose id is pending, and everything once closed', async () => {
    const { transport, closeHandlerRuns } = fakeTransport(false);
    const direct = new DirectAnswers(transport);
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
});
