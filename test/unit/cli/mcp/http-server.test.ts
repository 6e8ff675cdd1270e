// `agent-skills mcp --http` in-process, driven by the official SDK's Streamable HTTP client: two
// sessions at once told of the same edit, clients of both protocol revisions on the one endpoint,
// replicas answering any request of the stateless revision, the bearer token (401) and the
// Host/Origin allow-list (403) with their refusals summed up in the log, the session cap (503),
// batches (400), /healthz, unknown sessions and paths, and a clean stop that closes sessions.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { serveSkillsOverHttp, type HttpServeOptions } from '../../../../src/cli/mcp/http-server';
import { allowedHostnames } from '../../../../src/cli/mcp/http-options';
import { startSkillsService } from '../../../../src/cli/mcp/mcp-command';
import type { SkillsService } from '../../../../src/cli/mcp/skills-service';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { waitFor } from './wait';
import { ENVELOPE, STATELESS_REVISION } from './envelope';
import { connectClient, connectStatelessClient } from './http-clients';

const TOKEN = 'team-token-0123456789';

interface Running {
  url: string;
  base: string;
  logs: string[];
  service: SkillsService;
  stop(): Promise<void>;
}

/** Serves `skills`; `token` null serves without one. */
async function serve(skills: string, token: string | null = TOKEN, limits: Pick<HttpServeOptions, 'idleSessionMs' | 'maxSessions' | 'refusalIntervalMs' | 'replicaName'> = {}): Promise<Running> {
  const logs: string[] = [];
  const log = (message: string): void => void logs.push(message);
  const service = await startSkillsService({ roots: [root(skills)], allowlist: [], catalogBudgetChars: 16_000, log });
  await service.watcher.ready; // Tests edit files right away.
  let requestStop!: () => void;
  const stop = new Promise<void>((resolve) => (requestStop = resolve));
  const address = { host: '127.0.0.1', port: 0 };
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const served = serveSkillsOverHttp(service, {
    address,
    token: token ?? undefined,
    allowedHostnames: allowedHostnames(address, ['skills.example.com']),
    stop,
    log,
    onListening: listening,
    ...limits,
  });
  const endpoint = await Promise.race([url, served.then(() => Promise.reject(new Error('stopped before listening')))]);
  return {
    url: endpoint,
    base: endpoint.replace(/\/mcp$/, ''),
    logs,
    service,
    async stop() {
      requestStop();
      await served;
    },
  };
}

/** A 2026-07-28 request, with the headers that revision asks for. */
function statelessRequest(id: number, method: string, params: Record<string, unknown> = {}): { headers: Record<string, string>; body: string } {
  return {
    headers: { authorization: `Bearer ${TOKEN}`, 'mcp-protocol-version': STATELESS_REVISION, 'mcp-method': method },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } }),
  };
}

function sessionsOpened(logs: readonly string[]): number {
  return logs.filter((line) => /^session \S+ opened/.test(line)).length;
}

function initializeBody(): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, unless it is an event stream (left unread, the connection closed). */
  body: string;
}

/** A raw POST (an initialize request unless `body` is given) through node:http, which sends the Host header given (fetch would not). */
function post(url: string, headers: Record<string, string>, body: string | Buffer = initializeBody()): Promise<RawAnswer> {
  return send(url, 'POST', headers, [body]);
}

/** A raw request whose body is written in `parts` (several: chunked, with no length given). */
function send(url: string, method: string, headers: Record<string, string>, parts: readonly (string | Buffer)[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      if (response.headers['content-type']?.startsWith('text/event-stream')) {
        response.destroy();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
        return;
      }
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    parts.slice(0, -1).forEach((part) => request.write(part));
    request.end(parts.at(-1));
  });
}

/** Writes `head` on a raw connection, sends no body, and resolves to the head of the answer (status line and headers); fails after 5 s without one. */
function answerHead(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 5 s (received ${JSON.stringify(received)})`));
    }, 5000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.slice(0, received.indexOf('\r\n\r\n')));
      }
    });
    socket.on('error', reject);
  });
}

/** A ping request led by spaces to exactly `bytes` bytes (the request itself in its last bytes). */
function paddedPingBody(id: number, bytes: number): Buffer {
  const ping = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
  return Buffer.from(ping.padStart(bytes, ' '));
}

/** `body` cut into pieces of `size` bytes. */
function pieces(body: Buffer, size: number): Buffer[] {
  return Array.from({ length: Math.ceil(body.length / size) }, (_, index) => body.subarray(index * size, (index + 1) * size));
}

describe('agent-skills mcp --http, through the SDK client', function () {
  this.timeout(20_000);
  let dir: string;
  let skills: string;
  let running: Running | undefined;

  beforeEach(async () => {
    dir = await tempDir();
    skills = path.join(dir, 'skills');
    await writeTree(skills, { 'pdf-report': { 'SKILL.md': skillText('pdf-report', 'Build a PDF report from a CSV file.', 'PDF-BODY') } });
  });

  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await removeDir(dir);
  });

  it('serves two clients at once, each in its own session, and tells both of an edit on disk', async () => {
    running = await serve(skills);
    const clients = [await connectClient(running.url, TOKEN), await connectClient(running.url, TOKEN)];
    const sessionIds = clients.map((client) => (client.transport as StreamableHTTPClientTransport).sessionId);
    assert.equal(new Set(sessionIds).size, 2, 'two distinct sessions');
    for (const client of clients) {
      const found = await client.callTool({ name: 'find_skills', arguments: { query: 'pdf report' } });
      assert.match(JSON.stringify(found.content), /pdf-report/);
    }
    const told = clients.map(() => ({ tools: false, resources: false }));
    clients.forEach((client, index) => {
      client.setNotificationHandler('notifications/tools/list_changed', () => void (told[index].tools = true));
      client.setNotificationHandler('notifications/resources/list_changed', () => void (told[index].resources = true));
    });
    // Each client opens its notification stream (GET) after initializing; give both a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writeTree(path.join(skills, 'release-notes'), { 'SKILL.md': skillText('release-notes', 'Write release notes from the changelog.') });
    await waitFor(() => told.every((each) => each.tools && each.resources), `both sessions notified (${JSON.stringify(told)})`);
    for (const client of clients) {
      const activate = (await client.listTools()).tools.find((tool) => tool.name === 'activate_skill')!;
      assert.ok((activate.inputSchema.properties as Record<string, { enum: string[] }>).name.enum.includes('release-notes'));
    }
    await Promise.all(clients.map((client) => client.close()));
  });

  it('serves a 2026-07-28 client without a session beside a 2025-11-25 session on the same endpoint, and tells both of an edit on disk', async () => {
    running = await serve(skills);
    const sessionful = await connectClient(running.url, TOKEN);
    const stateless = await connectStatelessClient(running.url, TOKEN);
    assert.equal(sessionful.getNegotiatedProtocolVersion(), '2025-11-25');
    assert.equal(stateless.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal((stateless.transport as StreamableHTTPClientTransport).sessionId, undefined, 'no Mcp-Session-Id');
    assert.match(stateless.getInstructions() ?? '', /pdf-report/, 'the catalog in the instructions, from server/discover');
    for (const client of [sessionful, stateless]) {
      const found = await client.callTool({ name: 'find_skills', arguments: { query: 'pdf report' } });
      assert.match(JSON.stringify(found.content), /pdf-report/);
    }
    assert.equal(sessionsOpened(running.logs), 1, 'only the 2025-11-25 client holds a session');
    const told = [sessionful, stateless].map(() => ({ tools: false, prompts: false, resources: false }));
    [sessionful, stateless].forEach((client, index) => {
      client.setNotificationHandler('notifications/tools/list_changed', () => void (told[index].tools = true));
      client.setNotificationHandler('notifications/prompts/list_changed', () => void (told[index].prompts = true));
      client.setNotificationHandler('notifications/resources/list_changed', () => void (told[index].resources = true));
    });
    const subscription = await stateless.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    await new Promise((resolve) => setTimeout(resolve, 200)); // The 2025-11-25 client opens its notification stream (GET) after initializing.
    await writeTree(path.join(skills, 'release-notes'), { 'SKILL.md': skillText('release-notes', 'Write release notes from the changelog.') });
    await waitFor(() => told.every((each) => each.tools && each.prompts && each.resources), `both clients told (${JSON.stringify(told)})`);
    for (const client of [sessionful, stateless]) {
      const activate = (await client.listTools()).tools.find((tool) => tool.name === 'activate_skill')!;
      assert.ok((activate.inputSchema.properties as Record<string, { enum: string[] }>).name.enum.includes('release-notes'));
    }
    await subscription.close();
    await Promise.all([sessionful.close(), stateless.close()]);
  });

  it('answers any 2026-07-28 request from either of two replicas over the same folder: discovery, pages of skills, verified files, calls', async () => {
    const many: Record<string, { 'SKILL.md': string }> = {};
    for (let index = 0; index < 120; index++) {
      const name = `skill-${String(index).padStart(3, '0')}`;
      many[name] = { 'SKILL.md': skillText(name, `Skill number ${index}.`) };
    }
    await writeTree(skills, many);
    await writeTree(path.join(skills, 'pdf-report'), { references: { 'guide.md': '# Guide\n' } });
    running = await serve(skills);
    const replica = await serve(skills);
    try {
      const urls = [running.url, replica.url];
      const answeredBy = [0, 0];
      let turn = 0;
      // Each request goes to the next replica in turn, as a round-robin load balancer sends it.
      const roundRobin: FetchLike = (_url, init) => {
        const index = turn++ % 2;
        answeredBy[index]++;
        return fetch(urls[index], init);
      };
      const client = await connectStatelessClient(running.url, TOKEN, roundRobin);
      const skillsClient = new SkillsClient(client);
      const listing = await skillsClient.list(); // Two pages: the second page's cursor goes to the other replica.
      assert.deepEqual(listing.invalid, []);
      assert.equal(listing.skills.length, 121);
      const pdf = listing.skills.find((skill) => skill.uri === 'skill://pdf-report/SKILL.md')!;
      for (const resource of pdf.resources as { uri: string }[]) {
        assert.equal((await skillsClient.read(pdf, resource.uri)).verified, true, resource.uri); // Digest, size and frontmatter checked.
      }
      const found = await client.callTool({ name: 'find_skills', arguments: { query: 'skill number 119' } });
      assert.match(JSON.stringify(found.content), /skill-119/);
      // The same pages, digests included, from either replica; a cursor one handed out reads the same page on the other.
      const skillsPage = async (url: string, cursor?: string): Promise<{ skills: unknown[]; nextCursor?: string }> => {
        const { headers, body } = statelessRequest(9, 'skills/list', cursor === undefined ? {} : { cursor });
        return (JSON.parse((await post(url, headers, body)).body) as { result: { skills: unknown[]; nextCursor?: string } }).result;
      };
      const firstPage = await skillsPage(running.url);
      assert.deepEqual(await skillsPage(replica.url), firstPage);
      const secondPage = await skillsPage(replica.url, firstPage.nextCursor);
      assert.deepEqual([firstPage.skills.length, secondPage.skills.length, secondPage.nextCursor], [100, 21, undefined]);
      assert.deepEqual(await skillsPage(running.url, firstPage.nextCursor), secondPage);
      assert.ok(answeredBy[0] > 2 && answeredBy[1] > 2, `both replicas answered (${answeredBy.join(', ')})`);
      assert.equal(sessionsOpened([...running.logs, ...replica.logs]), 0, 'no replica holds anything of the client');
      await client.close();
    } finally {
      await replica.stop();
    }
  });

  it('answers a JSON-RPC batch with 400 and a JSON-RPC error, whatever it holds, with a session or without', async () => {
    running = await serve(skills);
    const session = (await post(running.url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const stateless = statelessRequest(3, 'tools/list');
    const batches: [Record<string, string>, string][] = [
      [{ authorization: `Bearer ${TOKEN}` }, `[${initializeBody()}]`],
      [
        { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
        ]),
      ],
      [stateless.headers, `[${stateless.body}]`],
      [{ authorization: `Bearer ${TOKEN}` }, '[]'],
    ];
    for (const [headers, body] of batches) {
      const answer = await post(running.url, headers, body);
      assert.equal(answer.status, 400, body);
      assert.equal(answer.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(answer.body), { jsonrpc: '2.0', error: { code: -32600, message: 'Batches are not supported: send each JSON-RPC message in a request of its own.' }, id: null });
    }
    assert.equal(sessionsOpened(running.logs), 1, 'the batched initialize opened no session');
  });

  it('refuses a session past its cap with 503 and Retry-After, serves 2026-07-28 requests meanwhile, and opens one once an idle session closed', async () => {
    running = await serve(skills, TOKEN, { maxSessions: 2, idleSessionMs: 1500 });
    const withToken = { authorization: `Bearer ${TOKEN}` };
    const first = (await post(running.url, withToken)).headers['mcp-session-id'] as string;
    assert.equal((await post(running.url, withToken)).status, 200);
    const refused = await post(running.url, withToken);
    assert.equal(refused.status, 503);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 2, `Retry-After ${refused.headers['retry-after']}`);
    assert.deepEqual(JSON.parse(refused.body), {
      jsonrpc: '2.0',
      error: { code: -32000, message: `Service unavailable: the server holds as many sessions as it may; retry after ${retryAfter} s.` },
      id: null,
    });
    assert.ok(running.logs.includes(`503 for POST /mcp from 127.0.0.1: 2 sessions open, the most this server holds (--max-sessions); told to retry after ${retryAfter} s.`), running.logs.join('\n'));
    const onSession = await post(running.url, { ...withToken, 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    assert.equal(onSession.status, 200, 'an open session is served');
    const { headers, body } = statelessRequest(3, 'tools/list');
    const stateless = await post(running.url, headers, body);
    assert.equal(stateless.status, 200, 'a 2026-07-28 request needs no session');
    assert.equal((JSON.parse(stateless.body) as { result: { tools: unknown[] } }).result.tools.length, 3);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    assert.equal((await post(running.url, withToken)).status, 200, 'a session opens once an idle one closed');
  });

  it('writes the first refusal of each kind from a client at once, and sums up the others at the end of each interval', async () => {
    running = await serve(skills, TOKEN, { refusalIntervalMs: 2000 });
    const attempts = [
      ...Array.from({ length: 20 }, () => ({})),
      ...Array.from({ length: 20 }, (_, index) => ({ authorization: `Bearer guess-${index}` })),
      ...Array.from({ length: 10 }, (_, index) => ({ authorization: `Bearer ${TOKEN}`, host: `attacker-${index}.example` })),
    ];
    for (const headers of attempts) {
      assert.ok([401, 403].includes((await post(running.url, headers)).status));
    }
    // 2026-07-28 requests the SDK refuses (headers that contradict the body) are summed up alike, though the SDK does not say from whom.
    for (let index = 0; index < 10; index++) {
      const { headers, body } = statelessRequest(index, 'tools/list');
      assert.equal((await post(running.url, { ...headers, 'mcp-method': 'prompts/list' }, body)).status, 400);
    }
    assert.equal(running.logs.filter((line) => line.startsWith('Rejected inbound request (method-header-mismatch): ')).length, 1, running.logs.join('\n'));
    const refusals = (): string[] => running!.logs.filter((line) => /^40[13] for /.test(line));
    assert.deepEqual(
      refusals().map((line) => line.replace(/ \(allowed host names: .*$/, '')),
      [
        '401 for POST /mcp from 127.0.0.1: no bearer token.',
        '401 for POST /mcp from 127.0.0.1: the bearer token does not match.',
        '403 for POST /mcp from 127.0.0.1: Invalid Host: attacker-0.example',
      ],
    );
    await waitFor(() => running!.logs.some((line) => line.startsWith('127.0.0.1: ')), 'the summary of the interval', 5000);
    assert.match(
      running.logs.find((line) => line.startsWith('127.0.0.1: '))!,
      /^127\.0\.0\.1: 47 more requests refused in the last \d+ s \(401 no bearer token: 19; 401 the bearer token does not match: 19; 403 Host or Origin not allowed: 9\)\.$/,
    );
    await waitFor(() => running!.logs.some((line) => line.startsWith('2026-07-28 requests: ')), 'the summary of the refused 2026-07-28 requests', 5000);
    assert.match(
      running.logs.find((line) => line.startsWith('2026-07-28 requests: '))!,
      /^2026-07-28 requests: 9 more requests refused in the last \d+ s \(method-header-mismatch: 9\)\.$/,
    );
    assert.equal((await post(running.url, {})).status, 401);
    assert.equal(refusals().length, 4, 'a new interval writes its first refusal again');
  });

  it('answers 401 without the bearer token or with another one, and logs the first refusal of each kind', async () => {
    running = await serve(skills);
    const missing = await post(running.url, {});
    assert.equal(missing.status, 401);
    assert.match(missing.headers['www-authenticate'] ?? '', /^Bearer/);
    const wrong = await post(running.url, { authorization: 'Bearer not-the-token' });
    assert.equal(wrong.status, 401);
    assert.ok(
      running.logs.some((line) => /^401 for POST \/mcp from .*: no bearer token\.$/.test(line)),
      running.logs.join('\n'),
    );
    assert.ok(
      running.logs.some((line) => /^401 for POST \/mcp from .*: the bearer token does not match\.$/.test(line)),
      running.logs.join('\n'),
    );
    await assert.rejects(connectClient(running.url, null));
    const accepted = await post(running.url, { authorization: `Bearer ${TOKEN}` });
    assert.equal(accepted.status, 200);
    assert.ok(accepted.headers['mcp-session-id']);
  });

  it('answers 403 to a Host or Origin outside the allow-list (DNS rebinding), and accepts the names it allows', async () => {
    running = await serve(skills, null);
    const foreignHost = await post(running.url, { host: 'attacker.example:80' });
    assert.equal(foreignHost.status, 403);
    assert.match((JSON.parse(foreignHost.body) as { error: { message: string } }).error.message, /attacker\.example/);
    const foreignOrigin = await post(running.url, { origin: 'http://attacker.example' });
    assert.equal(foreignOrigin.status, 403);
    assert.ok(
      running.logs.some((line) => line.startsWith('403 for POST /mcp') && line.includes('--allow-host')),
      running.logs.join('\n'),
    );
    const allowedHeaders: Record<string, string>[] = [{ host: 'skills.example.com' }, { origin: 'http://localhost:6274' }, {}];
    for (const headers of allowedHeaders) {
      const accepted = await post(running.url, headers);
      assert.equal(accepted.status, 200, JSON.stringify(headers));
    }
  });

  it('answers /healthz with 200 without a token, other paths with 404, and an unknown session with 404', async () => {
    running = await serve(skills);
    const health = await fetch(`${running.base}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(await health.text(), 'ok\n');
    assert.equal((await fetch(`${running.base}/healthz`, { method: 'POST' })).status, 405);
    const other = await fetch(`${running.base}/sse`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(other.status, 404);
    assert.match(await other.text(), /\/mcp/);
    const unknown = await fetch(running.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': 'no-such-session', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(unknown.status, 404);
    const lost = await fetch(running.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    assert.equal(lost.status, 400, 'a request other than initialize needs a session');
  });

  it('serves the endpoint and /healthz with a query string after the path, and refuses a wrong token there too', async () => {
    running = await serve(skills);
    const opened = await post(`${running.url}?client=raw`, { authorization: `Bearer ${TOKEN}` });
    assert.equal(opened.status, 200);
    assert.ok(opened.headers['mcp-session-id'], 'a session opened');
    assert.equal((await post(`${running.url}?client=raw`, { authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await fetch(`${running.base}/healthz?probe=1`)).status, 200);
  });

  it('answers refusals as JSON-RPC errors a client can read (code, message, id null), and plain text elsewhere', async () => {
    running = await serve(skills);
    const rpcError = async (response: Response): Promise<unknown> => {
      assert.equal(response.headers.get('content-type'), 'application/json');
      const text = await response.text();
      assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(text)), 'a JSON answer is sent whole, with its length');
      return JSON.parse(text);
    };
    const unauthorized = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: initializeBody() });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers.get('www-authenticate'), 'Bearer realm="agent-skills"');
    assert.deepEqual(await rpcError(unauthorized), { jsonrpc: '2.0', error: { code: -32000, message: 'Unauthorized: this server needs an Authorization: Bearer token.' }, id: null });
    const forbidden = await post(running.url, { host: 'attacker.example', authorization: `Bearer ${TOKEN}` });
    assert.equal(forbidden.status, 403);
    const forbiddenError = (JSON.parse(forbidden.body) as { error: { code: number; message: string } }).error;
    assert.equal(forbiddenError.code, -32000);
    assert.match(forbiddenError.message, /^Forbidden: /);
    const withToken = { authorization: `Bearer ${TOKEN}`, accept: 'application/json, text/event-stream' };
    const unknown = await fetch(running.url, { method: 'POST', headers: { ...withToken, 'mcp-session-id': 'no-such-session', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(unknown.status, 404);
    assert.deepEqual(await rpcError(unknown), { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    const streamWithoutSession = await fetch(running.url, { headers: withToken });
    assert.equal(streamWithoutSession.status, 400);
    assert.deepEqual(await rpcError(streamWithoutSession), { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: null });
    const elsewhere = await fetch(`${running.base}/sse`);
    assert.equal(elsewhere.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await elsewhere.text(), 'Not found: the MCP endpoint is /mcp.\n');
    const healthPost = await fetch(`${running.base}/healthz`, { method: 'POST' });
    assert.equal(healthPost.headers.get('allow'), 'GET, HEAD');
    assert.equal(await healthPost.text(), 'Method not allowed\n');
    assert.equal((await fetch(`${running.base}/healthz`, { method: 'HEAD' })).status, 200);
  });

  it('takes the bearer scheme in any case, with extra spaces around the token, and nothing else', async () => {
    running = await serve(skills);
    for (const authorization of [`bearer ${TOKEN}`, `BEARER   ${TOKEN}  `]) {
      assert.equal((await post(running.url, { authorization })).status, 200, authorization);
    }
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer${TOKEN}`, `xBearer ${TOKEN}`, `Bearer ${TOKEN} extra`, `Basic ${TOKEN}`]) {
      assert.equal((await post(running.url, { authorization })).status, 401, authorization);
    }
  });

  it('logs each session it opens with the number open', async () => {
    running = await serve(skills, null);
    const first = await post(running.url, {});
    const second = await post(running.url, {});
    assert.ok(running.logs.includes(`session ${first.headers['mcp-session-id'] as string} opened (1 open).`), running.logs.join('\n'));
    assert.ok(running.logs.includes(`session ${second.headers['mcp-session-id'] as string} opened (2 open).`), running.logs.join('\n'));
    assert.ok(
      running.logs.some((line) => /^listening on http:\/\/127\.0\.0\.1:\d+\/mcp \(no token: this machine only\)\.$/.test(line)),
      running.logs.join('\n'),
    );
  });

  it('begins each session id with the replica name it is given, so a proxy can route the session back, and uses the session by that id', async () => {
    running = await serve(skills, TOKEN, { replicaName: 'replica-b' });
    const client = await connectClient(running.url, TOKEN);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    assert.match(sessionId, /^replica-b\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'find_skills'));
    assert.match(JSON.stringify((await client.callTool({ name: 'find_skills', arguments: { query: 'pdf report' } })).content), /pdf-report/);
    await client.close();
    const unnamed = await serve(skills, null);
    try {
      assert.match((await post(unnamed.url, {})).headers['mcp-session-id'] as string, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'no name: a plain UUID');
    } finally {
      await unnamed.stop();
    }
  });

  it('closes every session and stops listening when stopped', async () => {
    running = await serve(skills);
    const client = await connectClient(running.url, TOKEN);
    const { base, logs } = running;
    await running.stop();
    running = undefined;
    assert.ok(logs.includes('stopped: closed 1 session.'), logs.join('\n'));
    await assert.rejects(fetch(`${base}/healthz`));
    await assert.rejects(client.listTools());
    await client.close();
  });

  it('ends a session on DELETE and forgets it', async () => {
    running = await serve(skills);
    const client = await connectClient(running.url, TOKEN);
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    const after = await fetch(running.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': sessionId, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(after.status, 404);
    assert.ok(running.logs.some((line) => line.includes(`session ${sessionId} closed by its client`)));
  });

  it('closes a session left without a request or an open notification stream, and keeps one whose client holds its stream', async () => {
    running = await serve(skills, TOKEN, { idleSessionMs: 300 });
    const held = await connectClient(running.url, TOKEN); // The SDK client opens its notification stream (GET) once initialized.
    const abandoned = await post(running.url, { authorization: `Bearer ${TOKEN}` });
    const abandonedId = abandoned.headers['mcp-session-id'] as string;
    const { logs } = running;
    await waitFor(() => logs.some((line) => line.startsWith(`session ${abandonedId} closed after`)), 'the abandoned session closed', 5000);
    assert.ok(logs.includes(`session ${abandonedId} closed after 0.3 seconds without a request (1 open).`), logs.join('\n'));
    const after = await fetch(running.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': abandonedId, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(after.status, 404);
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.ok((await held.listTools()).tools.length > 0, 'the session with an open stream is kept');
    await held.close();
  });

  it('keeps a session whose client keeps sending past the idle time, and closes one whose client dropped its stream', async () => {
    running = await serve(skills, TOKEN, { idleSessionMs: 600 });
    const { logs, url } = running;
    const busyId = (await post(url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const dropping = await connectClient(url, TOKEN);
    const droppingId = (dropping.transport as StreamableHTTPClientTransport).sessionId!;
    for (let request = 0; request < 10; request++) {
      const ping = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': busyId, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 10 + request, method: 'ping' }),
      });
      assert.equal(ping.status, 200, `request ${request} of a session in use`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    assert.ok(!logs.some((line) => line.startsWith(`session ${droppingId} closed`)), 'a session whose client holds its stream stays open');
    await dropping.close(); // Ends its notification stream without ending the session.
    await waitFor(() => logs.some((line) => line.startsWith(`session ${droppingId} closed after`)), 'the session whose stream was dropped to close');
  });

  it('names the client and the allowed host names when it refuses one', async () => {
    running = await serve(skills);
    await post(running.url, { host: 'attacker.example' });
    await post(running.url, {});
    assert.ok(
      running.logs.some(
        (line) => line.startsWith('403 for POST /mcp from 127.0.0.1: ') && line.endsWith('(allowed host names: localhost, 127.0.0.1, [::1], skills.example.com; add one with --allow-host).'),
      ),
      running.logs.join('\n'),
    );
    assert.ok(running.logs.includes('401 for POST /mcp from 127.0.0.1: no bearer token.'), running.logs.join('\n'));
  });

  it('answers the requests of a session as its transport does, whether or not they go through it', async () => {
    running = await serve(skills);
    const session = (await post(running.url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const headers = { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = (id: number, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const find = { name: 'find_skills', arguments: { query: 'pdf report' } };
    // Answered directly; with `_meta` (which only the transport checks) through the transport and the server's dispatch.
    for (const params of [find, { name: 'find_skills', arguments: {} }, { name: 'no_such_tool', arguments: {} }]) {
      const direct = await post(running.url, headers, call(7, params));
      const through = await post(running.url, headers, call(7, { ...params, _meta: {} }));
      assert.equal(direct.status, 200);
      assert.equal(direct.headers['content-type'], 'application/json');
      assert.equal(direct.headers['mcp-session-id'], session);
      assert.equal(direct.body, through.body);
    }
    assert.match((await post(running.url, headers, call(7, find))).body, /pdf-report/);
    const listed = await post(running.url, headers, JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }));
    assert.equal((JSON.parse(listed.body) as { id: string }).id, 'list');
    // What the transport refuses is refused as before.
    const refusals: [Record<string, string>, string, number, number][] = [
      [{ 'mcp-protocol-version': '1999-01-01' }, call(8, find), 400, -32000],
      [{ accept: 'application/json' }, call(9, find), 406, -32000],
      [{ 'content-type': 'text/plain' }, call(10, find), 415, -32000],
      [{}, '{"jsonrpc":"2.0","id":11,', 400, -32700],
      [{}, JSON.stringify({ jsonrpc: '2.0', id: 12.5, method: 'tools/list' }), 400, -32700],
      [{}, JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'tools/list', extra: true }), 400, -32700],
    ];
    for (const [extra, body, status, code] of refusals) {
      const refused = await post(running.url, { ...headers, ...extra }, body);
      assert.equal(refused.status, status, `${JSON.stringify(extra)} ${body}`);
      assert.equal((JSON.parse(refused.body) as { error: { code: number } }).error.code, code, body);
    }
    // A body over the transport's limit is answered unread, and the server goes on serving.
    const huge = await post(running.url, headers, Buffer.alloc(4 * 1024 * 1024 + 1, 0x20));
    assert.equal(huge.status, 413);
    assert.match(huge.body, /must not exceed 4194304 bytes/);
    assert.equal((await post(running.url, headers, call(14, find))).status, 200);
  });

  it("answers a 2026-07-28 call of the server's own tool without a server of its own, in the SDK's bytes, and follows the tools as the skills change", async () => {
    await writeTree(skills, { deploy: { 'SKILL.md': skillText('deploy', 'Deploy the service.', 'DEPLOY', 'disable-model-invocation: true\n') } });
    running = await serve(skills);
    const { service } = running;
    let serversBuilt = 0;
    const requestServer = service.requestServer.bind(service);
    service.requestServer = () => {
      serversBuilt++;
      return requestServer();
    };
    const url = running.url;
    const call = (params: { name: string; arguments: Record<string, unknown> }, meta: Record<string, unknown> = {}): Promise<RawAnswer> => {
      const { headers } = statelessRequest(5, 'tools/call', params);
      return post(url, { ...headers, 'mcp-name': params.name }, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { ...params, _meta: { ...ENVELOPE, ...meta } } }));
    };
    const find = { name: 'find_skills', arguments: { query: 'pdf report' } };
    const direct = await call(find);
    assert.equal(serversBuilt, 0, 'answered without a server of its own');
    // With a progress token, which the SDK's handler alone serves, the same call goes through it.
    const through = await call(find, { progressToken: 'p' });
    assert.equal(serversBuilt, 1);
    assert.deepEqual([direct.status, direct.headers['content-type'], direct.body], [through.status, through.headers['content-type'], through.body]);
    assert.match(direct.body, /pdf-report/);
    const activate = { name: 'activate_skill', arguments: { name: 'pdf-report' } };
    assert.match((await call(activate)).body, /PDF-BODY/);
    assert.equal(serversBuilt, 1);
    // Once no skill can be activated, the tool is hidden: the SDK refuses the call in its words.
    await fs.rm(path.join(skills, 'pdf-report'), { recursive: true });
    await waitFor(() => service.registry.snapshot.usable('pdf-report') === undefined, 'pdf-report to go');
    const hidden = JSON.parse((await call(activate)).body) as { error?: { code: number; message: string } };
    assert.deepEqual(hidden.error, { code: -32602, message: 'Tool activate_skill disabled' });
  });

  it('takes a body of exactly the size limit, whole or in chunks, and answers 413 (closing the connection) to one byte more, also before a body announced longer arrives', async () => {
    running = await serve(skills);
    const limit = 4 * 1024 * 1024;
    const session = (await post(running.url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const headers = { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const whole = await post(running.url, headers, paddedPingBody(1, limit));
    assert.equal(whole.status, 200, whole.body);
    assert.equal((JSON.parse(whole.body) as { id: number }).id, 1);
    const chunked = await send(running.url, 'POST', headers, pieces(paddedPingBody(2, limit), 64 * 1024));
    assert.equal(chunked.status, 200, chunked.body);
    assert.equal((JSON.parse(chunked.body) as { id: number }).id, 2, 'the body is read whole from its chunks');
    const over = await send(running.url, 'POST', headers, pieces(paddedPingBody(3, limit + 1), 64 * 1024));
    assert.equal(over.status, 413);
    assert.equal(over.headers.connection, 'close');
    assert.deepEqual(JSON.parse(over.body), { jsonrpc: '2.0', error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${limit} bytes` }, id: null });
    const announced = await answerHead(
      running.url,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nMcp-Session-Id: ${session}\r\nContent-Type: application/json\r\nContent-Length: ${limit + 1}\r\n\r\n`,
    );
    assert.match(announced, /^HTTP\/1\.1 413 /);
    assert.match(announced, /\r\nconnection: close(\r\n|$)/i);
  });

  it('answers a method the endpoint does not serve with 405 and the methods it does, with or without a session, as the transport answers a session’s PUT', async () => {
    running = await serve(skills);
    const session = (await post(running.url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const refusal = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
    for (const [method, headers] of [
      ['TRACE', {}],
      ['PUT', {}],
      ['PUT', { 'mcp-session-id': session }],
      ['PATCH', { 'mcp-session-id': session }],
    ] as const) {
      const answer = await send(running.url, method, { authorization: `Bearer ${TOKEN}`, ...headers }, []);
      assert.equal(answer.status, 405, `${method} ${JSON.stringify(headers)}`);
      assert.equal(answer.headers.allow, 'GET, POST, DELETE');
      assert.deepEqual(JSON.parse(answer.body), refusal);
    }
    assert.ok(!running.logs.some((line) => line.startsWith('internal error')), running.logs.join('\n'));
  });

  it('ends a notification stream when its session ends, and takes a new one once its client dropped the last', async () => {
    running = await serve(skills);
    const session = (await post(running.url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const headers = { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', accept: 'text/event-stream' };
    const dropped = new AbortController();
    const first = await fetch(running.url, { headers, signal: dropped.signal });
    assert.equal(first.status, 200);
    dropped.abort();
    // The server sees the client go shortly after; until then a second stream is refused (409).
    let second = await fetch(running.url, { headers });
    for (let attempt = 0; second.status === 409 && attempt < 40; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      second = await fetch(running.url, { headers });
    }
    assert.equal(second.status, 200, 'a new notification stream once the last was dropped');
    const streamEnded = second.text();
    const ended = await fetch(running.url, { method: 'DELETE', headers });
    assert.equal(ended.status, 200);
    const outcome = await Promise.race([streamEnded.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5000))]);
    assert.equal(outcome, 'ended');
  });

  it('closes an idle session whose client asked for a notification stream and was refused one', async () => {
    running = await serve(skills, TOKEN, { idleSessionMs: 300 });
    const { logs, url } = running;
    const session = (await post(url, { authorization: `Bearer ${TOKEN}` })).headers['mcp-session-id'] as string;
    const refused = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', accept: 'application/json' } });
    assert.equal(refused.status, 406);
    await waitFor(() => logs.some((line) => line.startsWith(`session ${session} closed after`)), 'the idle session to close', 5000);
  });

  it('answers a request whose target is no path with 400, naming it, not as an internal error', async () => {
    running = await serve(skills);
    const { logs, url } = running;
    const { hostname, port } = new URL(url);
    for (const target of ['//', 'http://[']) {
      const socket = net.connect(Number(port), hostname);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      await closed;
      assert.equal(answer.split('\r\n')[0], 'HTTP/1.1 400 Bad Request', answer);
      assert.equal(answer.slice(answer.indexOf('\r\n\r\n') + 4), `Bad request: ${target} is not a path.\n`);
    }
    assert.ok(!logs.some((line) => line.startsWith('internal error')), logs.join('\n'));
  });

  it('logs a request whose client went away in the middle of its body, and goes on serving', async () => {
    running = await serve(skills);
    const { logs, url } = running;
    const { hostname, port } = new URL(url);
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n`;
    const cases = [
      { request: `${head}Content-Length: 1000\r\n\r\n{"jsonrpc":`, logged: 'after 11 of 1000 bytes' },
      { request: `${head}Transfer-Encoding: chunked\r\n\r\nb\r\n{"jsonrpc":\r\n`, logged: 'after 11 bytes' },
    ];
    for (const { request, logged } of cases) {
      const socket = net.connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(request);
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      const line = `POST /mcp: the client went away ${logged} of the body; nothing was answered.`;
      await waitFor(() => logs.includes(line), line, 5000);
    }
    assert.ok(!logs.some((line) => line.startsWith('internal error')), logs.join('\n'));
    assert.equal((await post(url, { authorization: `Bearer ${TOKEN}` })).status, 200, 'a new session opens');
  });

  it('says when no interface of this machine has the address it is to listen on', async () => {
    const logs: string[] = [];
    const service = await startSkillsService({ roots: [root(skills)], allowlist: [], catalogBudgetChars: 16_000, log: (message) => void logs.push(message) });
    // A documentation address (TEST-NET-1, RFC 5737): no machine has it, so nothing is bound.
    await assert.rejects(
      serveSkillsOverHttp(service, { address: { host: '192.0.2.1', port: 0 }, allowedHostnames: [], stop: new Promise(() => undefined), log: (message) => void logs.push(message) }),
      {
        message: 'mcp: cannot listen on 192.0.2.1:0: no interface of this machine has that address.',
      },
    );
  });

  it('reads the files the skills hold over HTTP as over stdio', async () => {
    await fs.mkdir(path.join(skills, 'pdf-report', 'references'));
    await fs.writeFile(path.join(skills, 'pdf-report', 'references', 'guide.md'), '# Guide\n');
    running = await serve(skills);
    const client = await connectClient(running.url, TOKEN);
    const read = await client.callTool({ name: 'read_skill_resource', arguments: { skill: 'pdf-report', path: 'references/guide.md' } });
    assert.match(JSON.stringify(read.content), /# Guide/);
    const escape = await client.callTool({ name: 'read_skill_resource', arguments: { skill: 'pdf-report', path: '../../etc/passwd' } });
    assert.equal(escape.isError, true);
    await client.close();
  });
});
