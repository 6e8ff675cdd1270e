// Run as `node out/bench/mcp/floor-server.js ANSWERS`, its bundle: the floor of a stdio tool call.
// A server with no SDK and no search, which answers each request with the result agent-skills gave
// to the same method (ANSWERS, a JSON object of results by method, taken from the product server by
// bench/sections/mcp.ts), its id put in and the whole encoded anew, as any server encodes its answer.
// What a client's load measures against it is the client, the pipe and Node: no stdio server
// answering the same bytes can be faster. Notifications are read and left unanswered.

import * as fs from 'node:fs';

function main([answersFile]: string[]): void {
  const results = JSON.parse(fs.readFileSync(answersFile, 'utf8')) as Record<string, unknown>;
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      const message = line.trim() === '' ? undefined : (JSON.parse(line) as { id?: unknown; method?: string });
      if (message?.id !== undefined && message.method !== undefined) {
        process.stdout.write(`${JSON.stringify({ result: results[message.method] ?? {}, jsonrpc: '2.0', id: message.id })}\n`);
      }
    }
  });
}

main(process.argv.slice(2));
