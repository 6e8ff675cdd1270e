// The team server's log of refused requests: the first of each kind per client and interval in
// full, the rest summed up per client when the interval ends, and a bounded number of clients.

import * as assert from 'node:assert/strict';
import { MAX_CLIENTS_PER_INTERVAL, RefusalLog } from '../../../../src/cli/mcp/refusal-log';

describe('the log of refused requests', () => {
  let lines: string[];
  let log: RefusalLog;

  beforeEach(() => {
    lines = [];
    // An interval no test reaches: each ends it with flush().
    log = new RefusalLog((line) => void lines.push(line), 3_600_000);
  });

  afterEach(() => {
    log.dispose();
  });

  it('writes 15,007 bad attempts from one client as one line at once and one at the end of the interval', () => {
    for (let attempt = 0; attempt < 15_007; attempt++) {
      log.refused('203.0.113.9', '401 no bearer token', `401 for POST /mcp from 203.0.113.9: no bearer token (attempt ${attempt}).`);
    }
    assert.deepEqual(lines, ['401 for POST /mcp from 203.0.113.9: no bearer token (attempt 0).']);
    log.flush();
    assert.equal(lines.length, 2);
    assert.match(lines[1], /^203\.0\.113\.9: 15,006 more requests refused in the last 0 s \(401 no bearer token: 15,006\)\.$/);
  });

  it('writes the first refusal of each kind from each client, and sums up each client on its own line', () => {
    log.refused('a', '401 no bearer token', 'a: first 401');
    log.refused('a', '403 Host or Origin not allowed', 'a: first 403');
    log.refused('b', '401 no bearer token', 'b: first 401');
    log.refused('a', '401 no bearer token', 'a: second 401');
    log.refused('a', '401 no bearer token', 'a: third 401');
    log.refused('a', '403 Host or Origin not allowed', 'a: second 403');
    assert.deepEqual(lines, ['a: first 401', 'a: first 403', 'b: first 401']);
    log.flush();
    assert.deepEqual(lines.slice(3), ['a: 3 more requests refused in the last 0 s (401 no bearer token: 2; 403 Host or Origin not allowed: 1).']);
  });

  it('says nothing at the end of an interval without a refusal beyond the first of each kind, and starts the next interval afresh', () => {
    log.refused('a', '401 no bearer token', 'a: first 401');
    log.flush();
    log.flush();
    assert.deepEqual(lines, ['a: first 401']);
    log.refused('a', '401 no bearer token', 'a: first 401 of the next interval');
    assert.deepEqual(lines, ['a: first 401', 'a: first 401 of the next interval']);
  });

  it('counts the refusals of clients beyond the first thousand of an interval together', () => {
    for (let client = 0; client < MAX_CLIENTS_PER_INTERVAL + 500; client++) {
      log.refused(`2001:db8::${client.toString(16)}`, '401 no bearer token', `first from client ${client}`);
      log.refused(`2001:db8::${client.toString(16)}`, '401 no bearer token', `second from client ${client}`);
    }
    assert.equal(lines.length, MAX_CLIENTS_PER_INTERVAL + 1, 'each known client once, and the first of the others');
    assert.equal(lines.at(-1), `first from client ${MAX_CLIENTS_PER_INTERVAL}`);
    log.flush();
    assert.equal(lines.at(-1), 'other clients: 999 more requests refused in the last 0 s (401 no bearer token: 999).');
  });

  it('sums up what is left when it is disposed', () => {
    log.refused('a', '503 sessions at their cap', 'a: first 503');
    log.refused('a', '503 sessions at their cap', 'a: second 503');
    log.dispose();
    assert.deepEqual(lines, ['a: first 503', 'a: 1 more request refused in the last 0 s (503 sessions at their cap: 1).']);
  });
});
