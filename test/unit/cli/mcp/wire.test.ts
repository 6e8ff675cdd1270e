// The server's line guard and answer refinements on their own: every line that is no JSON-RPC 2.0
// message gets the error the specification names, and a line over the limit is answered without
// being kept.

import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { guardLines, invalidMessage } from '../../../../src/cli/mcp/wire';
import { BAD_LINE_ANSWERS, BAD_LINES, paddedPing } from './bad-lines';

async function guarded(text: string, maxBytes = 64): Promise<{ passed: string[]; answers: unknown[] }> {
  const input = new PassThrough();
  const answers: unknown[] = [];
  const lines = guardLines(input, (answer) => answers.push(answer), maxBytes);
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
