// Lines a client may send that are no JSON-RPC 2.0 message, with the id and error code each must
// be answered with; shared by the tests of the line guard and of the server process.

export const BAD_LINES: readonly string[] = [
  'this is not json',
  '42',
  '[{"jsonrpc":"2.0","id":7,"method":"ping"}]',
  '{"jsonrpc":"1.0","id":8,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
  '{"jsonrpc":"2.0","id":9}',
];

export const BAD_LINE_ANSWERS: readonly (readonly [number | null, number])[] = [
  [null, -32700],
  [null, -32600],
  [null, -32600],
  [8, -32600],
  [null, -32600],
  [9, -32600],
];

/** A ping request of exactly `bytes` bytes (without its newline). */
export function paddedPing(id: number, bytes: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"pad":"`;
  return `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
}
