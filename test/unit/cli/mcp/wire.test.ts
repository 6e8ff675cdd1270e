// The server's line guard and answer refinements on their own: every line that is no JSON-RPC 2.0
// message gets the error the specification names, and a line over the limit is answered without
// being kept.

import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage, Transport } from '../../../../src/cli/mcp/libraries';
import { guardLines, invalidMessage, refineAnswers } from '../../../../src/cli/mcp/wire';
import { BAD_LINE_ANSWERS, BAD_LINES, paddedPing } from './bad-lines';

async function guarded(text: string, maxBytes = 64, take?: (message: unknown) => boolean): Promise<{ passed: string[]; answers: unknown[] }> {
  const input = new PassThrough();
  const answers: unknown[] = [];
  const lines = guardLines(input, (answer) => answers.push(answer), maxBytes, take);
  const passed: string[] = [];
  lines.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
  const ended = new Promise((resolve) => lines.on('end', resolve));
  // In small pieces, as a pipe delivers them: lines are split across chunks.
  for (let index = 0; index < text.length; index += 7) {
    input.write(text.slice(index, index + 7));
  }
  input.end();
  await ended;
  return { passed, answers };
}

describe('the MCP server’s line guard', () => {
  it('passes JSON-RPC 2.0 requests, notifications and responses on, one line per chunk', async () => {
    const messages = ['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":"a","result":{}}'];
    const { passed, answers } = await guarded(`${messages.join('\r\n')}\n\n`, 1024);
    assert.deepEqual(
      passed,
      messages.map((message) => `${message}\n`),
    );
    assert.deepEqual(answers, []);
  });

  it('passes on no message that was taken, and offers every message, parsed, to be taken', async () => {
    const messages = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_skills"}}',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ];
    const offered: unknown[] = [];
    const take = (message: unknown): boolean => offered.push(message) > 0 && (message as { method: string }).method === 'tools/call';
    const { passed, answers } = await guarded(`${messages.join('\n')}\nnot json\n`, 1024, take);
    assert.deepEqual(passed, [`${messages[1]}\n`, `${messages[2]}\n`]);
    assert.deepEqual(
      offered,
      messages.map((message) => JSON.parse(message) as unknown),
      'a line that is no message is answered, not offered',
    );
    assert.equal(answers.length, 1);
  });

  it('answers what is not a JSON-RPC 2.0 message with -32700 or -32600, with the id when it can be read', async () => {
    const { passed, answers } = await guarded(`${BAD_LINES.join('\n')}\n`, 1024);
    assert.deepEqual(passed, []);
    assert.deepEqual(
      (answers as { id: unknown; error: { code: number } }[]).map((answer) => [answer.id, answer.error.code]),
      BAD_LINE_ANSWERS,
    );
  });

  it('takes a line of exactly the limit, and answers one byte more with the limit and the leading id, then goes on', async () => {
    const { passed, answers } = await guarded(`${paddedPing(1, 64)}\n${paddedPing(2, 65)}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n`);
    assert.deepEqual(passed, [`${paddedPing(1, 64)}\n`, '{"jsonrpc":"2.0","id":3,"method":"ping"}\n']);
    assert.equal(answers.length, 1);
    const [answer] = answers as { id: unknown; error: { code: number; message: string } }[];
    assert.equal(answer.id, 2);
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /longer than .*\(64 bytes\), the most this server reads in one line; it was dropped\./);
  });

  it('answers an over-long line whose id does not lead with id null', async () => {
    const { answers } = await guarded(`{"method":"ping","params":{"pad":"${'x'.repeat(100)}"},"id":5}\n`);
    assert.equal((answers[0] as { id: unknown }).id, null);
  });

  it('knows a message from what is not one', () => {
    assert.equal(invalidMessage({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }), undefined);
    assert.equal(invalidMessage({ jsonrpc: '2.0', method: 'x' }), undefined);
    assert.equal(invalidMessage({ jsonrpc: '2.0', id: 1.5, method: 'x' }), undefined);
    assert.equal(invalidMessage({ jsonrpc: '2.0', id: true, method: 'x' })?.id, null);
    assert.equal(invalidMessage({ jsonrpc: '2.0', result: {} })?.error.code, -32600);
  });
});

describe('the MCP server’s line guard, what a client reads', () => {
  it('names what is wrong with each line in the error message', async () => {
    const { answers } = await guarded(`${BAD_LINES.join('\n')}\n{"jsonrpc":"2.0","id":1e400,"method":"ping"}\n`, 1024);
    assert.deepEqual(
      (answers as { jsonrpc: string; error: { message: string } }[]).map((answer) => [answer.jsonrpc, answer.error.message.replace(/: .*/, ': …')]),
      [
        ['2.0', 'The line is not JSON: …'],
        ['2.0', 'A JSON-RPC message must be a JSON object.'],
        ['2.0', 'Batches are not supported: …'],
        ['2.0', 'Only JSON-RPC 2.0 is spoken here: …'],
        ['2.0', 'The "id" of a JSON-RPC message must be a string or a number.'],
        ['2.0', 'A JSON-RPC message needs a "method" (a request or notification), or a "result" or "error" with an "id" (a response).'],
        ['2.0', 'The "id" of a JSON-RPC message must be a string or a number.'],
      ],
    );
    assert.match((answers[0] as { error: { message: string } }).error.message, /^The line is not JSON: Unexpected token/);
    assert.equal((answers[2] as { error: { message: string } }).error.message, 'Batches are not supported: send each JSON-RPC message on its own line.');
    assert.equal((answers[3] as { error: { message: string } }).error.message, 'Only JSON-RPC 2.0 is spoken here: set "jsonrpc": "2.0".');
  });

  it('passes a line on as written, taking off only the carriage return that ends it, and skips blank lines', async () => {
    const message = '{"jsonrpc":"2.0",\r"id":1,\t"method":"ping"}';
    const { passed, answers } = await guarded(`${message}\r\n \t \n\r\n`, 1024);
    assert.deepEqual(passed, [`${message}\n`]);
    assert.deepEqual(answers, []);
  });

  it('states the limit in MiB and bytes', async () => {
    const limit = 1024 * 1024;
    const { answers } = await guarded(`${paddedPing(4, limit + 1)}\n`, limit);
    assert.equal((answers[0] as { error: { message: string } }).error.message, 'The message is longer than 1 MiB (1,048,576 bytes), the most this server reads in one line; it was dropped.');
  });

  it('lets go of the input when its lines are no longer read, and fails with the input', async () => {
    const input = new PassThrough();
    const lines = guardLines(input, () => undefined);
    lines.resume();
    lines.destroy();
    await new Promise((resolve) => lines.once('close', resolve));
    assert.deepEqual(
      ['data', 'end', 'error'].map((event) => input.listenerCount(event)),
      [0, 0, 0],
    );
    assert.equal(input.isPaused(), true);

    const failing = new PassThrough();
    const failed = guardLines(failing, () => undefined);
    const error = new Promise<Error>((resolve) => failed.once('error', resolve));
    failing.destroy(new Error('the pipe broke'));
    assert.equal((await error).message, 'the pipe broke');
  });
});

describe('the MCP server’s answer refinements', () => {
  interface Sent {
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  }

  /** A transport that records what the server sends; `receive` delivers a client's message to the server. */
  function refinedTransport(): { sent: Sent[]; receive(message: object): void; transport: Transport } {
    const sent: Sent[] = [];
    const transport = refineAnswers({
      start: async () => undefined,
      close: async () => undefined,
      send: async (message: JSONRPCMessage) => void sent.push(message as Sent),
    } as Transport);
    transport.onmessage = () => undefined; // the server's handler
    return { sent, receive: (message) => transport.onmessage!(message as JSONRPCMessage), transport };
  }

  const SDK_PARAMS_ERROR = (issues: unknown): string => `MCP error -32602: Invalid arguments for tool activate_skill: ${JSON.stringify(issues, null, 2)}`;

  it('turns the SDK’s schema dump of a params error into one sentence per issue, code -32602', async () => {
    const { sent, receive, transport } = refinedTransport();
    receive({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
    receive({ jsonrpc: '2.0', id: 2, method: 'prompts/get' });
    await transport.send({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: SDK_PARAMS_ERROR([
          { path: ['arguments', 'name'], message: 'Invalid input: expected string, received number' },
          { path: [], message: 'Unrecognized key: "x"' },
        ]),
      },
    } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: SDK_PARAMS_ERROR([{ path: ['name'], message: 'Required' }]) } } as JSONRPCMessage);
    assert.deepEqual(
      sent.map((message) => message.error),
      [
        { code: -32602, message: 'Invalid params for tools/call: arguments.name: expected string, received number; the request: Unrecognized key: "x".' },
        { code: -32602, message: 'Invalid params for prompts/get: name: Required.' },
      ],
    );
  });

  it('leaves other errors as they are: other codes, and messages holding no list of schema issues', async () => {
    const { sent, receive, transport } = refinedTransport();
    const errors = [
      { code: -32601, message: SDK_PARAMS_ERROR([{ path: ['name'], message: 'Required' }]) },
      { code: -32602, message: 'Skill not found: x' },
      { code: -32602, message: 'Bad list [not json' },
      { code: -32602, message: 'Empty list []' },
      { code: -32603, message: 'Not issues [{"where":1}]' },
      { code: -32603, message: 'Half issues [{"path":["a"],"message":"m"},{"path":"a","message":"m"}]' },
      { code: -32603, message: 'No message [{"path":["a"]}]' },
    ];
    for (const [index, error] of errors.entries()) {
      receive({ jsonrpc: '2.0', id: index, method: 'tools/call' });
      await transport.send({ jsonrpc: '2.0', id: index, error } as JSONRPCMessage);
    }
    assert.deepEqual(
      sent.map((message) => message.error),
      errors,
    );
  });

  it('adds the resultType the Skills extension requires to a directory read, the server’s own field winning, and to no other result', async () => {
    const { sent, receive, transport } = refinedTransport();
    const requests = ['resources/directory/read', 'resources/directory/read', 'skills/list', 'tools/list'];
    requests.forEach((method, index) => receive({ jsonrpc: '2.0', id: `r${index}`, method }));
    for (const index of requests.keys()) {
      await transport.send({ jsonrpc: '2.0', id: `r${index}`, result: index === 1 ? { resultType: 'incomplete' } : {} } as JSONRPCMessage);
    }
    assert.deepEqual(
      sent.map((message) => message.result),
      [{ resultType: 'complete' }, { resultType: 'incomplete' }, {}, {}],
    );
  });

  it('refines only the answer to a request the client sent, once', async () => {
    const { sent, receive, transport } = refinedTransport();
    receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    receive({ jsonrpc: '2.0', id: true, method: 'resources/directory/read' });
    receive({ jsonrpc: '2.0', id: 7, method: 'resources/directory/read' });
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'roots/list' } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 7, result: {} } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 7, result: {} } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 8, result: {} } as JSONRPCMessage);
    assert.deepEqual(
      sent.map((message) => message.result),
      [undefined, { resultType: 'complete' }, {}, {}],
    );
  });

  it('forgets the oldest request beyond 10,000 in flight (cancelled requests are never answered)', async () => {
    const { sent, receive, transport } = refinedTransport();
    for (let id = 0; id <= 10_000; id++) {
      receive({ jsonrpc: '2.0', id, method: 'resources/directory/read' });
    }
    await transport.send({ jsonrpc: '2.0', id: 0, result: {} } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    assert.deepEqual(
      sent.map((message) => message.result),
      [{}, { resultType: 'complete' }],
    );
  });

  it('hands every message on to the server’s handler, and has none once it is removed', () => {
    const received: unknown[] = [];
    const transport = refineAnswers({ start: async () => undefined, close: async () => undefined, send: async () => undefined } as Transport);
    transport.onmessage = (message) => void received.push(message);
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    messages.forEach((message) => transport.onmessage!(message as JSONRPCMessage));
    assert.deepEqual(received, messages);
    transport.onmessage = undefined;
    assert.equal(transport.onmessage, undefined);
  });
});
