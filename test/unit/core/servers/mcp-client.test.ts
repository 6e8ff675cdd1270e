// The skill server client against scripted stand-ins (mcp-stand-ins.ts), for what a real server
// seldom does: requests of its own, errors, pages, odd bodies and event streams, processes that exit
// or ignore the end of their input; then against this product's own server (`agent-skills mcp`, the
// built dist/cli.js) as a real process, over stdio and over HTTP on 127.0.0.1 with a bearer token.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectSkillServer, PROTOCOL_VERSIONS, type SkillServerConnection } from '../../../../src/core/servers/mcp-client';
import { ServedSkillFiles } from '../../../../src/core/servers/served-content';
import { cacheFolderName, storeListing } from '../../../../src/core/servers/server-cache';
import type { ServedSkill } from '../../../../src/core/servers/served-skill';
import type { SkillRecord } from '../../../../src/core/model/types';
import { referenceStdioServer, startReferenceHttpServer } from './reference-server';
import { contentMismatch, servedFilePath } from '../../../../src/core/servers/served-skill';
import { BUNDLE, ensureBundle } from '../../cli/bundle';
import { startHttpProcess } from '../../cli/mcp/http-process';
import { waitFor } from '../../cli/mcp/wait';
import { servedSkill, skillText, temporaryFolder } from './served-fixtures';
import {
  answerAsModernServer,
  answerAsServer,
  answerEvents,
  answerJson,
  SKILLS_SERVER_DISCOVER,
  SKILLS_SERVER_INITIALIZE,
  startHttpStandIn,
  stdioStandIn,
  type HttpExchange,
  type HttpStandIn,
  type StdioStandIn,
  type StdioStep,
} from './mcp-stand-ins';

/**
 * Answers from a stand-in come at once: a request that gets none fails well before the test's own
 * timeout (so that no request outlives its test), as every wait for a stand-in does.
 */
const CLIENT = { clientVersion: 'test', requestTimeoutMs: 3000 };
const WAIT_MS = 3000;

/** A skill entry that passes the client's check, and one it refuses. */
const GOOD_ENTRY = servedSkill('pdf', { 'SKILL.md': skillText('pdf', 'Use pdf.') });
const DYNAMIC_ENTRY = { uri: 'skill://live/SKILL.md', frontmatter: { name: 'live', description: 'Generated.' }, resources: 'dynamic' };
const DYNAMIC_REASON = 'its content is generated ("resources": "dynamic"), so there are no digests to check it against; such skills are not loaded';

/** The `Timeout` handles alive in this process: a request or a stop that forgets its timer leaves one behind. */
function timersAlive(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

/** The timers alive once the running test has started: mocha sets its own when the test returns its promise. */
async function timersAtStart(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return timersAlive();
}

function answersFrom(standIn: StdioStandIn): Record<string, unknown>[] {
  return standIn.received().filter((message) => message.method === undefined);
}

describe('the skill server client, against scripted servers over stdio', function () {
  this.timeout(10000);

  it('asks a server which revision it speaks; one of 2025 gets the handshake with its version, the Skills extension and the client, then hears it is initialized', async () => {
    const timersBefore = await timersAtStart();
    const standIn = stdioStandIn({});
    const connection = await connectSkillServer(standIn.transport, { ...CLIENT, clientVersion: '9.8.7' });
    assert.equal(connection.protocolVersion, '2025-11-25');
    await connection.close();
    assert.equal(timersAlive(), timersBefore, 'no timer left behind by the answered requests or the stop');
    assert.ok(standIn.inputEnded(), 'stopped by the end of its input');
    const client = { name: 'agent-skills-vscode', version: '9.8.7' };
    const capabilities = { extensions: { 'io.modelcontextprotocol/skills': {} } };
    assert.deepEqual(standIn.received(), [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': client, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
      },
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: client } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
  });

  it('refuses a server without the Skills extension, and stops it', async () => {
    const skills = 'io.modelcontextprotocol/skills';
    const results = [
      null,
      {},
      { capabilities: null },
      { capabilities: { extensions: null } },
      { capabilities: { extensions: { [skills]: true } } },
      { capabilities: { extensions: { [skills]: [] } } },
      { capabilities: { extensions: { other: {} } } },
    ];
    for (const result of results) {
      const standIn = stdioStandIn({ on: { initialize: [[{ result }]] } });
      await assert.rejects(connectSkillServer(standIn.transport, CLIENT), {
        name: 'McpError',
        message: 'it does not serve skills (its capabilities have no io.modelcontextprotocol/skills extension)',
      });
      // Stopped: its input ended, so it has read everything and exited; no notifications/initialized came.
      assert.ok(standIn.inputEnded());
      assert.deepEqual(
        standIn.received().map((message) => message.method),
        ['server/discover', 'initialize'],
      );
    }
  });

  it("answers the server's ping with an empty result and its other requests with -32601", async () => {
    const standIn = stdioStandIn({
      on: {
        'skills/list': [[{ send: { jsonrpc: '2.0', id: 'ping-1', method: 'ping' } }, { send: { jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} } }, { result: { skills: [] } }]],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    assert.deepEqual(await connection.listSkills(), { skills: [], refused: [] });
    await connection.close();
    assert.deepEqual(answersFrom(standIn), [
      { jsonrpc: '2.0', id: 'ping-1', result: {} },
      { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'sampling/createMessage is not supported by this client' } },
    ]);
  });

  it('tells every listener of both list_changed notifications, and of no other notification', async () => {
    const notify = (method: string, extra = {}) => ({ send: { jsonrpc: '2.0', method, ...extra } });
    const standIn = stdioStandIn({
      on: {
        'skills/list': [
          [
            notify('notifications/tools/list_changed'),
            notify('notifications/resources/list_changed'),
            notify('notifications/skills/list_changed', { id: null }),
            notify('notifications/message', { params: { level: 'info', data: 'hello' } }),
            { result: { skills: [] } },
          ],
        ],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    const heard: string[] = [];
    connection.onListChanged(() => heard.push('first'));
    connection.onListChanged(() => heard.push('second'));
    await connection.listSkills();
    await connection.close();
    assert.deepEqual(heard, ['first', 'second', 'first', 'second']);
    assert.deepEqual(answersFrom(standIn), [], 'a notification (an id of null included) gets no answer');
  });

  it("rejects with the server's error and its code, and ignores what answers no request of its own", async () => {
    const standIn = stdioStandIn({
      on: {
        'skills/list': [
          [
            { stdout: 'Listening on stdio\n\n   \n42\n[1,2]\n"text"\n' },
            { send: { jsonrpc: '2.0', id: 99, result: { skills: [GOOD_ENTRY] } } },
            { send: { jsonrpc: '2.0', id: '$id', error: { code: -32000, message: 'the index is rebuilding' } } },
          ],
          [{ error: { code: 'E_INDEX' } }],
          [{ error: 'no' }],
        ],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      await assert.rejects(connection.listSkills(), { name: 'McpError', message: 'the index is rebuilding', code: -32000 });
      await assert.rejects(connection.listSkills(), { name: 'McpError', message: 'the server answered with an error', code: undefined });
      // An error that is not an object is no error: the answer has no result, so no list of skills.
      await assert.rejects(connection.listSkills(), { name: 'McpError', message: 'skills/list answered without a list of skills' });
    } finally {
      await connection.close();
    }
  });

  it('lists every page with the cursor of the one before, and keeps the refused entries apart with their reasons', async () => {
    const standIn = stdioStandIn({
      on: {
        'skills/list': [
          [{ result: { skills: [DYNAMIC_ENTRY, 'not an entry'], nextCursor: 'page-2' } }],
          [{ result: { skills: [GOOD_ENTRY], nextCursor: 3 } }],
          [{ result: { skills: {} } }],
          [{ result: [] }],
          [{ result: null }],
        ],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      assert.deepEqual(await connection.listSkills(), {
        skills: [GOOD_ENTRY],
        refused: [
          { uri: 'skill://live/SKILL.md', reason: DYNAMIC_REASON },
          { uri: undefined, reason: 'the entry has no "uri"' },
        ],
      });
      assert.deepEqual(
        standIn.received().flatMap((message) => (message.method === 'skills/list' ? [message.params] : [])),
        [{}, { cursor: 'page-2' }],
      );
      for (let wrong = 0; wrong < 3; wrong++) {
        await assert.rejects(connection.listSkills(), { name: 'McpError', message: 'skills/list answered without a list of skills' });
      }
    } finally {
      await connection.close();
    }
  });

  it('follows 64 pages, and refuses a list that goes on past them', async () => {
    const more = { result: { skills: [], nextCursor: 'more' } };
    const standIn = stdioStandIn({ on: { 'skills/list': [...Array.from({ length: 63 }, () => [more]), [{ result: { skills: [GOOD_ENTRY] } }], [more]] } });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      assert.deepEqual(await connection.listSkills(), { skills: [GOOD_ENTRY], refused: [] });
      await assert.rejects(connection.listSkills(), { name: 'McpError', message: 'skills/list has more than 64 pages' });
    } finally {
      await connection.close();
    }
    assert.equal(standIn.received().filter((message) => message.method === 'skills/list').length, 64 + 64);
  });

  it('reads a file sent as text or as base64, taking the content of its own URI before the first', async () => {
    const uri = 'skill://pdf/SKILL.md';
    const standIn = stdioStandIn({
      on: {
        'resources/read': [
          [
            {
              result: {
                contents: [
                  { uri: 'skill://pdf/other.md', text: 'other' },
                  { uri, text: 'Prüfen\n' },
                ],
              },
            },
          ],
          [{ result: { contents: [{ uri: 'skill://pdf/other.md', blob: Buffer.from([0, 255, 1]).toString('base64') }] } }],
          [{ result: { contents: ['not content', { uri: 'skill://pdf/other.md', text: 'first object' }] } }],
          [{ result: { contents: [{ uri, text: 7, blob: Buffer.from('from the blob').toString('base64') }] } }],
          [{ result: { contents: [] } }],
          [{ result: { contents: { uri, text: 'not in a list' } } }],
          [{ result: { contents: [{ uri, mimeType: 'text/markdown' }] } }],
        ],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      assert.deepEqual(Buffer.from(await connection.readFile(uri)), Buffer.from('Prüfen\n', 'utf8'));
      assert.deepEqual(Buffer.from(await connection.readFile(uri)), Buffer.from([0, 255, 1]));
      assert.equal(Buffer.from(await connection.readFile(uri)).toString(), 'first object');
      assert.equal(Buffer.from(await connection.readFile(uri)).toString(), 'from the blob');
      for (let empty = 0; empty < 3; empty++) {
        await assert.rejects(connection.readFile(uri), { name: 'McpError', message: 'resources/read of skill://pdf/SKILL.md returned no content' });
      }
    } finally {
      await connection.close();
    }
    assert.deepEqual(standIn.received()[3], { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } });
  });

  it('fails what waits when it closes, and every request after, leaving no timer behind', async () => {
    const timersBefore = await timersAtStart();
    const standIn = stdioStandIn({ on: { 'skills/list': [[{ result: { skills: [] } }], []] } });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    await connection.listSkills();
    const waiting = connection.listSkills();
    await waitFor(() => standIn.received().length === 5, 'the second skills/list', WAIT_MS);
    const refused = assert.rejects(waiting, { name: 'McpError', message: 'the connection closed: closed by this client' });
    await connection.close();
    await refused;
    assert.equal(await connection.closed, 'closed by this client');
    await assert.rejects(connection.readFile('skill://pdf/SKILL.md'), { name: 'McpError', message: 'the connection is closed: closed by this client' });
    assert.equal(timersAlive(), timersBefore);
    await connection.close();
  });

  it("says why the server's process ended: its exit code or signal, and the last line it wrote on stderr", async () => {
    const longLine = `fatal: ${'x'.repeat(2500)}`;
    const cases: [StdioStep[], string][] = [
      [[{ stderr: 'starting\r\nloading the index\r\nfatal: the index is corrupt\r\n' }, { exit: 3 }], 'the server process exited (code 3): fatal: the index is corrupt'],
      [[{ stderr: `first\n${longLine}\n` }, { exit: 1 }], `the server process exited (code 1): ${`${longLine}\n`.slice(-2000).trim()}`],
      // Much written just before the end: the last line is read before the reason is given.
      [[{ stderr: `${'y'.repeat(300_000)}\nfatal: out of memory\n` }, { exit: 134 }], 'the server process exited (code 134): fatal: out of memory'],
      [[{ exit: 0 }], 'the server process exited (code 0)'],
      [[{ kill: 'SIGKILL' }], 'the server process exited (SIGKILL)'],
    ];
    for (const [steps, reason] of cases) {
      const connection = await connectSkillServer(stdioStandIn({ on: { 'skills/list': [steps] } }).transport, CLIENT);
      await assert.rejects(connection.listSkills(), { name: 'McpError', message: `the connection closed: ${reason}` });
      assert.equal(await connection.closed, reason);
      await connection.close(); // returns at once: nothing left to stop
    }
  });

  it('takes a long answer written just before the server exits', async () => {
    const entry = servedSkill('pdf', { 'SKILL.md': 'x' }, `Use pdf${'.'.repeat(300_000)}`);
    const connection = await connectSkillServer(stdioStandIn({ on: { 'skills/list': [[{ result: { skills: [entry] } }, { exit: 0 }]] } }).transport, CLIENT);
    assert.deepEqual(await connection.listSkills(), { skills: [entry], refused: [] });
    assert.equal(await connection.closed, 'the server process exited (code 0)');
  });

  it('ends the connection soon after the server exits, even when a process it left behind holds its output open', async () => {
    const connection = await connectSkillServer(stdioStandIn({ on: { 'skills/list': [[{ leaveChildMs: 3000 }, { stderr: 'bye\n' }, { exit: 2 }]] } }).transport, CLIENT);
    await assert.rejects(connection.listSkills(), { message: 'the connection closed: the server process exited (code 2): bye' });
  });

  it('reads messages after a byte order mark, split across writes, with Windows line ends', async () => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 3, result: { skills: [GOOD_ENTRY] } });
    const standIn = stdioStandIn({
      on: {
        'server/discover': [[{ stdout: '\uFEFF' }, { error: { code: -32601, message: 'Method not found' } }]],
        'skills/list': [[{ stdout: answer.slice(0, 20) }, { waitMs: 30 }, { stdout: answer.slice(20, 40) }, { waitMs: 30 }, { stdout: `${answer.slice(40)}\r\n` }]],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      assert.deepEqual(await connection.listSkills(), { skills: [GOOD_ENTRY], refused: [] });
    } finally {
      await connection.close();
    }
  });

  it('stops a server that stops reading its input and keeps running after it ends; what it was sent meanwhile fails with the pipe error', async () => {
    const standIn = stdioStandIn({
      ignoreInputEnd: true,
      on: { 'notifications/initialized': [[{ closeInput: true }, { waitMs: 50 }, { send: { jsonrpc: '2.0', method: 'notifications/skills/list_changed' } }]] },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      await new Promise<void>((resolve) => connection.onListChanged(resolve));
      await assert.rejects(connection.listSkills(), { code: 'EPIPE' });
    } finally {
      await connection.close(); // resolves once the process has exited, stopped after a grace time
    }
    assert.equal(await connection.closed, 'closed by this client');
  });
});

describe('the skill server client, against scripted servers over HTTP', function () {
  this.timeout(10000);
  const standIns: HttpStandIn[] = [];
  afterEach(async () => Promise.all(standIns.splice(0).map((standIn) => standIn.close())));

  async function serve(handle: (exchange: HttpExchange) => void): Promise<HttpStandIn> {
    const standIn = await startHttpStandIn(handle);
    standIns.push(standIn);
    return standIn;
  }

  /** What the client sent in each request: its method, its JSON-RPC method, and the headers the protocol gives meaning to. */
  function sent(standIn: HttpStandIn): string[] {
    return standIn.exchanges.map(({ method, message, headers }) =>
      [
        method,
        message?.method ?? '',
        `accept=${headers.accept}`,
        `content-type=${headers['content-type']}`,
        `authorization=${headers.authorization}`,
        `session=${headers['mcp-session-id']}`,
        `version=${headers['mcp-protocol-version']}`,
      ].join(' '),
    );
  }

  /** Connected to a server whose notification stream stays open until the test ends it; resolves once the client listens on it. */
  async function connectListening(): Promise<{ standIn: HttpStandIn; connection: SkillServerConnection; stream: HttpExchange }> {
    const streams: HttpExchange[] = [];
    const standIn = await serve((exchange) => {
      if (exchange.method === 'GET') {
        streams.push(exchange);
        void answerEvents(exchange.response, [], { keepOpen: true });
      } else {
        answerAsServer(exchange);
      }
    });
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
    await waitFor(() => streams.length > 0, 'the notification stream', WAIT_MS);
    return { standIn, connection, stream: streams[0] };
  }

  it('sends its token, then the session id and protocol version the server gave, listens for notifications, and ends the session when closed', async () => {
    const standIn = await serve((exchange) => answerAsServer(exchange, { initialize: { ...SKILLS_SERVER_INITIALIZE, protocolVersion: '2025-06-18' }, 'skills/list': { skills: [GOOD_ENTRY] } }));
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, { ...CLIENT, token: 'secret-1' });
    assert.deepEqual(await connection.listSkills(), { skills: [GOOD_ENTRY], refused: [] });
    await waitFor(() => standIn.exchanges.some((exchange) => exchange.method === 'GET'), 'the notification stream', WAIT_MS);
    await connection.close();
    const json = 'accept=application/json, text/event-stream content-type=application/json authorization=Bearer secret-1';
    assert.deepEqual(sent(standIn).sort(), [
      'DELETE  accept=application/json content-type=undefined authorization=Bearer secret-1 session=session-1 version=2025-06-18',
      'GET  accept=text/event-stream content-type=undefined authorization=Bearer secret-1 session=session-1 version=2025-06-18',
      `POST initialize ${json} session=undefined version=undefined`,
      `POST notifications/initialized ${json} session=session-1 version=2025-06-18`,
      `POST server/discover ${json} session=undefined version=2026-07-28`,
      `POST skills/list ${json} session=session-1 version=2025-06-18`,
    ]);
    assert.equal(await connection.closed, 'closed by this client');
  });

  it('sends no token when it has none, its own protocol version when the server names none, and no DELETE without a session', async () => {
    const standIn = await serve((exchange) => answerAsServer(exchange, { initialize: { capabilities: SKILLS_SERVER_INITIALIZE.capabilities } }, null));
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
    await waitFor(() => standIn.exchanges.length === 4, 'the notification stream', WAIT_MS);
    await connection.close();
    assert.deepEqual(sent(standIn).sort(), [
      'GET  accept=text/event-stream content-type=undefined authorization=undefined session=undefined version=2025-11-25',
      'POST initialize accept=application/json, text/event-stream content-type=application/json authorization=undefined session=undefined version=undefined',
      'POST notifications/initialized accept=application/json, text/event-stream content-type=application/json authorization=undefined session=undefined version=2025-11-25',
      'POST server/discover accept=application/json, text/event-stream content-type=application/json authorization=undefined session=undefined version=2026-07-28',
    ]);
  });

  it('says what an HTTP error answer says: the JSON error message, or the text cut at 300 characters, and how to set a token on 401 and 403; tries the 2025 handshake only after a 400 or 404', async () => {
    const tokenHint = ' Set its token with "Skills: Set Skill Server Token…".';
    const long = 'y'.repeat(400);
    const cases: [number, string, string][] = [
      [500, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'the index is gone' } }), 'HTTP 500: the index is gone'],
      [502, `  \n${long}\n`, `HTTP 502: ${long.slice(0, 300)}`],
      [503, '', 'HTTP 503'],
      [400, '{"error":{"code":1}}', 'HTTP 400: {"error":{"code":1}}'],
      [404, '[]', 'HTTP 404: []'],
      [401, 'Unauthorized', `HTTP 401: Unauthorized${tokenHint}`],
      [403, '{"error":"forbidden"}', `HTTP 403: {"error":"forbidden"}${tokenHint}`],
    ];
    for (const [status, body, message] of cases) {
      const standIn = await serve(({ response }) => response.writeHead(status, { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain' }).end(body));
      await assert.rejects(connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT), { name: 'McpError', message });
      assert.deepEqual(
        standIn.exchanges.map((exchange) => exchange.message?.method),
        status === 400 || status === 404 ? ['server/discover', 'initialize'] : ['server/discover'],
        'no session was opened, so none is ended',
      );
    }
  });

  it('says only the status of an error answer whose body breaks off', async () => {
    const standIn = await serve(({ response }) => {
      response.writeHead(502, { 'content-length': '1000' }).write('the start of');
      setTimeout(() => response.destroy(), 20);
    });
    await assert.rejects(connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT), { name: 'McpError', message: 'HTTP 502' });
  });

  it('says it cannot reach a server where nothing listens, with the reason fetch keeps apart', async () => {
    const standIn = await serve(() => undefined);
    await standIn.close();
    const port = new URL(standIn.url).port;
    await assert.rejects(connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT), { name: 'McpError', message: `cannot reach ${standIn.url}: connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('ends the session of a server that does not serve skills', async () => {
    const standIn = await serve((exchange) => answerAsServer(exchange, { initialize: { protocolVersion: '2025-11-25', capabilities: { tools: {} } } }));
    await assert.rejects(connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT), /it does not serve skills/);
    assert.deepEqual(
      standIn.exchanges.map((exchange) => `${exchange.method} ${exchange.headers['mcp-session-id']}`),
      ['POST undefined', 'POST undefined', 'DELETE session-1'],
    );
  });

  it('reads answers sent as events: Windows or Unix line ends, several data lines, with or without a space, split anywhere', async () => {
    const answer = (id: unknown, message: string): string => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message } });
    const standIn = await serve((exchange) => {
      const id = exchange.message?.id;
      if (exchange.message?.method !== 'skills/list') {
        answerAsServer(exchange);
      } else if (id === 3) {
        // A comment, fields that are not data, an event without data, an event whose data lines join
        // with a line feed inside a string (no JSON), then the answer over three data lines.
        void answerEvents(exchange.response, [
          `: waiting\r\n\r\nevent: message\r\nid: 7\r\nretry: 100\r\n\r\n`,
          `data: {"jsonrpc":"2.0","id":${id},"error":{"code":1,"message":"read as one\r\ndata:line"}}\r\n\r\n`,
          `event: message\r\ndata: {"jsonrpc":"2.0",\r\ndata:  "id":${id},\r\ndata:"error":{"code":-32000,"message":"one space, read as sent"}}\r\n\r\n`,
        ]);
      } else if (id === 4) {
        // A notification and the answer, each split across writes, one inside a two-byte character.
        const text = Buffer.from(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/skills/list_changed' })}\n\ndata:${answer(id, 'Prüfung läuft')}\n\n`);
        const inside = text.indexOf(Buffer.from('ü')) + 1;
        void answerEvents(exchange.response, [text.subarray(0, 10), text.subarray(10, inside), text.subarray(inside)], { pauseMs: 20 });
      } else {
        // An event whose data lines come in separate writes.
        void answerEvents(exchange.response, [`data: {"jsonrpc":"2.0","id":${id},\n`, `data: "error":{"code":-32000,"message":"a space in it"}}\n`, '\n'], { pauseMs: 20 });
      }
    });
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
    let heard = 0;
    connection.onListChanged(() => heard++);
    try {
      await assert.rejects(connection.listSkills(), { message: 'one space, read as sent' });
      await assert.rejects(connection.listSkills(), { message: 'Prüfung läuft' });
      await assert.rejects(connection.listSkills(), { message: 'a space in it' });
      assert.equal(heard, 1);
    } finally {
      await connection.close();
    }
  });

  it('reads a JSON answer that is a batch, and drops a body that is neither JSON nor events without reading it', async () => {
    let dropped = false;
    const standIn = await serve((exchange) => {
      const { message, response } = exchange;
      if (message?.method === 'skills/list') {
        answerJson(response, [42, null, { jsonrpc: '2.0', method: 'notifications/resources/list_changed' }, { jsonrpc: '2.0', id: message.id, result: { skills: [GOOD_ENTRY] } }], 200, {
          'content-type': 'application/json; charset=utf-8',
        });
      } else if (message?.method === 'notifications/initialized') {
        response.writeHead(204).end();
      } else if (message?.method === 'resources/read') {
        response.writeHead(200, { 'content-type': 'text/plain' }).write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { contents: [{ text: 'plain' }] } }));
        if (message.id === 4) {
          response.end();
          return;
        }
        // Far more than the buffers between the two ends hold: it is sent in full only if the client reads it.
        response.on('close', () => (dropped = true));
        response.end(Buffer.alloc(32 * 1024 * 1024, ' '));
      } else {
        answerAsServer(exchange);
      }
    });
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, { ...CLIENT, requestTimeoutMs: 300 });
    let heard = 0;
    connection.onListChanged(() => heard++);
    try {
      assert.deepEqual(await connection.listSkills(), { skills: [GOOD_ENTRY], refused: [] });
      assert.equal(heard, 1);
      await assert.rejects(connection.readFile('skill://pdf/SKILL.md'), { message: 'resources/read got no answer within 0.3 s' });
      await assert.rejects(connection.readFile('skill://pdf/SKILL.md'), { message: 'resources/read got no answer within 0.3 s' });
      await waitFor(() => dropped, 'the client to drop the long plain-text answer', 2000);
    } finally {
      await connection.close();
    }
  });

  it("hears notifications on the server's event stream, and ends when the server ends it", async () => {
    const { connection, stream } = await connectListening();
    const changed = new Promise<void>((resolve) => connection.onListChanged(resolve));
    stream.response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' })}\n\n`);
    await changed;
    stream.response.end();
    assert.equal(await connection.closed, 'the server ended its event stream');
    await assert.rejects(connection.listSkills(), { message: 'the connection is closed: the server ended its event stream' });
    await connection.close();
    await assert.rejects(connection.listSkills(), { message: 'the connection is closed: the server ended its event stream' }, 'the first reason stays');
  });

  it('stops listening when closed, and closes even when the server is gone', async () => {
    const { standIn, connection, stream } = await connectListening();
    const streamClosed = new Promise<void>((resolve) => stream.response.on('close', () => resolve()));
    await standIn.close(); // the DELETE of the session fails
    await connection.close();
    await streamClosed;
    assert.equal(await connection.closed, 'closed by this client');
  });

  it('fails a request whose answer stream is still open when it closes', async () => {
    const standIn = await serve((exchange) => {
      if (exchange.message?.method === 'skills/list') {
        void answerEvents(exchange.response, [': the answer comes later\n\n'], { keepOpen: true });
      } else {
        answerAsServer(exchange);
      }
    });
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
    const waiting = connection.listSkills();
    await waitFor(() => standIn.exchanges.some((exchange) => exchange.message?.method === 'skills/list'), 'the skills/list request', WAIT_MS);
    const refused = assert.rejects(waiting, { name: 'McpError', message: 'the connection closed: closed by this client' });
    await connection.close();
    await refused;
  });

  it('gives up on a request after the timeout it is given, and ignores its late answer', async () => {
    const late: HttpExchange[] = [];
    const standIn = await serve((exchange) => {
      const { message, response } = exchange;
      if (message?.method !== 'skills/list') {
        answerAsServer(exchange);
      } else if (late.length === 0) {
        late.push(exchange); // answered with the next one
      } else {
        late[0].response.writeHead(202).end();
        answerJson(response, [
          { jsonrpc: '2.0', id: late[0].message?.id, result: { skills: [GOOD_ENTRY] } },
          { jsonrpc: '2.0', id: message.id, result: { skills: [] } },
        ]);
      }
    });
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, { ...CLIENT, requestTimeoutMs: 500 });
    try {
      await assert.rejects(connection.listSkills(), { name: 'McpError', message: 'skills/list got no answer within 0.5 s' });
      assert.deepEqual(await connection.listSkills(), { skills: [], refused: [] });
    } finally {
      await connection.close();
    }
  });

  it('ends the connection with the reason when the event stream is refused, and goes on without it on 405', async () => {
    const getAnswers: [number, string][] = [
      [500, 'HTTP 500: no streams here'],
      [401, 'HTTP 401: Unauthorized Set its token with "Skills: Set Skill Server Token…".'],
      [204, 'HTTP 204'],
    ];
    for (const [status, reason] of getAnswers) {
      const standIn = await serve((exchange) =>
        exchange.method === 'GET'
          ? exchange.response.writeHead(status).end(status === 204 ? undefined : status === 500 ? JSON.stringify({ error: { message: 'no streams here' } }) : 'Unauthorized')
          : answerAsServer(exchange),
      );
      const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
      assert.equal(await connection.closed, reason);
      await connection.close();
    }
    const standIn = await serve((exchange) => answerAsServer(exchange, { 'skills/list': { skills: [] } }));
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
    try {
      await waitFor(() => standIn.exchanges.some((exchange) => exchange.method === 'GET'), 'the notification stream', WAIT_MS);
      await connection.listSkills();
      await connection.listSkills();
      assert.equal(await Promise.race([connection.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 50))]), 'still open');
    } finally {
      await connection.close();
    }
  });
});

describe('the skill server client, agreeing on a protocol revision', function () {
  this.timeout(10000);
  const standIns: HttpStandIn[] = [];
  afterEach(async () => Promise.all(standIns.splice(0).map((standIn) => standIn.close())));
  const meta = (message: Record<string, unknown>) => (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/protocolVersion'];
  const subscriptionNotice = (method: string) => ({ send: { jsonrpc: '2.0', method, params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 2 } } } });

  it('speaks 2026-07-28 to a stdio server that offers it: no handshake, the revision in every request, change notices on a subscription', async () => {
    const standIn = stdioStandIn({
      on: {
        'server/discover': [[{ result: SKILLS_SERVER_DISCOVER }]],
        'subscriptions/listen': [[{ send: { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': '$id' } } } }]],
        'skills/list': [[subscriptionNotice('notifications/resources/list_changed'), { result: { resultType: 'complete', skills: [GOOD_ENTRY], ttlMs: 0, cacheScope: 'private' } }]],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      assert.equal(connection.protocolVersion, '2026-07-28');
      const changed = new Promise<void>((resolve) => connection.onListChanged(resolve));
      assert.deepEqual(await connection.listSkills(), { skills: [GOOD_ENTRY], refused: [] });
      await changed;
    } finally {
      await connection.close();
    }
    const received = standIn.received();
    assert.deepEqual(
      received.map((message) => [message.method, meta(message)]),
      [
        ['server/discover', '2026-07-28'],
        ['subscriptions/listen', '2026-07-28'],
        ['skills/list', '2026-07-28'],
      ],
    );
    assert.deepEqual((received[1].params as Record<string, unknown>).notifications, { resourcesListChanged: true });
    assert.deepEqual((received[2].params as { _meta: Record<string, unknown> })._meta, {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'agent-skills-vscode', version: 'test' },
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/skills': {} } },
    });
  });

  it('falls back to the 2025 handshake when a stdio server answers nothing to server/discover, or names only 2025-11-25', async () => {
    const silent = stdioStandIn({ on: { 'server/discover': [[]] } });
    const started = Date.now();
    const late = await connectSkillServer(silent.transport, { ...CLIENT, probeTimeoutMs: 200 });
    await late.close();
    assert.ok(Date.now() - started < 2500, 'waited the probe time only');
    assert.equal(late.protocolVersion, '2025-11-25');
    const older = stdioStandIn({ on: { 'server/discover': [[{ result: { ...SKILLS_SERVER_DISCOVER, supportedVersions: ['2025-11-25'] } }]] } });
    const connection = await connectSkillServer(older.transport, CLIENT);
    await connection.close();
    assert.deepEqual(
      older.received().map((message) => message.method),
      ['server/discover', 'initialize', 'notifications/initialized'],
    );
  });

  it('takes a revision the server names when it refuses 2026-07-28, and says so when it names none this client speaks', async () => {
    const refusal = (supported: string[]) => ({ error: { code: -32022, message: 'Unsupported protocol version', data: { supported, requested: '2026-07-28' } } });
    const dual = stdioStandIn({ on: { 'server/discover': [[refusal(['2025-11-25', '2025-06-18'])]] } });
    const connection = await connectSkillServer(dual.transport, CLIENT);
    await connection.close();
    assert.equal(connection.protocolVersion, '2025-11-25');
    const future = stdioStandIn({ on: { 'server/discover': [[refusal(['2027-03-01'])]] } });
    await assert.rejects(connectSkillServer(future.transport, CLIENT), { name: 'McpError', message: 'it speaks protocol 2027-03-01, and this client speaks 2026-07-28 and 2025-11-25' });
    assert.deepEqual(
      future.received().map((message) => message.method),
      ['server/discover'],
      'no 2025 handshake with a server of the new revision',
    );
    const discovered = stdioStandIn({ on: { 'server/discover': [[{ result: { ...SKILLS_SERVER_DISCOVER, supportedVersions: ['2027-03-01'] } }]] } });
    await assert.rejects(connectSkillServer(discovered.transport, CLIENT), { message: 'it speaks protocol 2027-03-01, and this client speaks 2026-07-28 and 2025-11-25' });
    const mismatch = stdioStandIn({ on: { 'server/discover': [[{ error: { code: -32020, message: 'Header mismatch' } }]] } });
    await assert.rejects(connectSkillServer(mismatch.transport, CLIENT), { name: 'McpError', message: 'Header mismatch', code: -32020 });
    const noSkills = stdioStandIn({ on: { 'server/discover': [[{ result: { ...SKILLS_SERVER_DISCOVER, capabilities: { tools: {} } } }]] } });
    await assert.rejects(connectSkillServer(noSkills.transport, CLIENT), { message: 'it does not serve skills (its capabilities have no io.modelcontextprotocol/skills extension)' });
  });

  it('refuses a result that asks for more or is of a kind it does not know, and takes one without a result type as complete', async () => {
    const standIn = stdioStandIn({
      on: {
        'server/discover': [[{ result: SKILLS_SERVER_DISCOVER }]],
        'skills/list': [[{ result: { resultType: 'input_required', inputRequests: {} } }], [{ result: { resultType: 'later', skills: [] } }], [{ result: { skills: [] } }]],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      await assert.rejects(connection.listSkills(), { message: 'skills/list answered with a result of type "input_required", which this client cannot use' });
      await assert.rejects(connection.listSkills(), { message: 'skills/list answered with a result of type "later", which this client cannot use' });
      assert.deepEqual(await connection.listSkills(), { skills: [], refused: [] });
    } finally {
      await connection.close();
    }
  });

  it('goes on without change notices when the subscription is refused, and ends when the server ends it', async () => {
    const refused = stdioStandIn({
      on: {
        'server/discover': [[{ result: SKILLS_SERVER_DISCOVER }]],
        'subscriptions/listen': [[{ error: { code: -32601, message: 'Method not found' } }]],
        'skills/list': [[{ result: { skills: [] } }]],
      },
    });
    const connection = await connectSkillServer(refused.transport, CLIENT);
    try {
      await connection.listSkills();
      assert.equal(await Promise.race([connection.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 50))]), 'still open');
    } finally {
      await connection.close();
    }
    const ended = stdioStandIn({ on: { 'server/discover': [[{ result: SKILLS_SERVER_DISCOVER }]], 'subscriptions/listen': [[{ waitMs: 50 }, { result: { resultType: 'complete' } }]] } });
    const ending = await connectSkillServer(ended.transport, CLIENT);
    assert.equal(await ending.closed, 'the server ended its subscription to changes');
    await ending.close();
  });

  it('gets a skill by URI with skills/get and checks it as a listed entry, refusing the entry of another skill', async () => {
    const other = servedSkill('notes', { 'SKILL.md': 'x' });
    const standIn = stdioStandIn({
      on: {
        'skills/get': [
          [{ result: { skill: GOOD_ENTRY } }],
          [{ result: { skill: other } }],
          [{ result: { skill: DYNAMIC_ENTRY } }],
          [{ result: {} }],
          [{ error: { code: -32602, message: 'No skill is served at skill://gone/SKILL.md' } }],
        ],
      },
    });
    const connection = await connectSkillServer(standIn.transport, CLIENT);
    try {
      assert.deepEqual(await connection.getSkill(GOOD_ENTRY.uri), { ok: true, skill: GOOD_ENTRY });
      assert.deepEqual(await connection.getSkill(GOOD_ENTRY.uri), { ok: false, uri: GOOD_ENTRY.uri, reason: 'the server answered with the entry of another skill (skill://notes/SKILL.md)' });
      assert.deepEqual(await connection.getSkill('skill://live/SKILL.md'), { ok: false, uri: 'skill://live/SKILL.md', reason: DYNAMIC_REASON });
      await assert.rejects(connection.getSkill('skill://pdf/SKILL.md'), { message: 'skills/get of skill://pdf/SKILL.md answered without a skill' });
      await assert.rejects(connection.getSkill('skill://gone/SKILL.md'), { message: 'No skill is served at skill://gone/SKILL.md', code: -32602 });
    } finally {
      await connection.close();
    }
    assert.deepEqual(
      standIn.received().flatMap((message) => (message.method === 'skills/get' ? [message.params] : [])),
      [{ uri: GOOD_ENTRY.uri }, { uri: GOOD_ENTRY.uri }, { uri: 'skill://live/SKILL.md' }, { uri: 'skill://pdf/SKILL.md' }, { uri: 'skill://gone/SKILL.md' }],
    );
  });

  it('speaks 2026-07-28 over HTTP: the revision, method and resource in headers, no session, notices on the subscription stream, nothing to end when closed', async () => {
    const listens: HttpExchange[] = [];
    const uri = 'skill://prüfen/SKILL.md';
    const standIn = await startHttpStandIn((exchange) =>
      answerAsModernServer(exchange, { 'skills/list': { skills: [GOOD_ENTRY] }, 'resources/read': { contents: [{ uri, text: 'x' }] } }, (listen) => listens.push(listen)),
    );
    standIns.push(standIn);
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, { ...CLIENT, token: 'secret-2' });
    await waitFor(() => listens.length === 1, 'the subscription', WAIT_MS);
    const changed = new Promise<void>((resolve) => connection.onListChanged(resolve));
    listens[0].response.write(
      `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': listens[0].message?.id } } })}\n\n`,
    );
    await changed;
    assert.deepEqual(await connection.listSkills(), { skills: [GOOD_ENTRY], refused: [] });
    assert.equal(Buffer.from(await connection.readFile(uri)).toString(), 'x');
    await connection.readFile('skill://pdf/SKILL.md').catch(() => undefined);
    await connection.close();
    assert.deepEqual(
      standIn.exchanges.map(({ method, message, headers }) =>
        [method, headers['mcp-protocol-version'], headers['mcp-method'], headers['mcp-name'], headers['mcp-session-id'], headers.authorization, meta(message ?? {})].join(' '),
      ),
      [
        'POST 2026-07-28 server/discover   Bearer secret-2 2026-07-28',
        'POST 2026-07-28 subscriptions/listen   Bearer secret-2 2026-07-28',
        'POST 2026-07-28 skills/list   Bearer secret-2 2026-07-28',
        `POST 2026-07-28 resources/read =?base64?${Buffer.from(uri).toString('base64')}?=  Bearer secret-2 2026-07-28`,
        'POST 2026-07-28 resources/read skill://pdf/SKILL.md  Bearer secret-2 2026-07-28',
      ],
    );
  });

  it('subscribes again at once when a 2026-07-28 subscription that lasted breaks (another replica takes it), reading the list again', async () => {
    const listens: HttpExchange[] = [];
    const standIn = await startHttpStandIn((exchange) => answerAsModernServer(exchange, {}, (listen) => listens.push(listen)));
    standIns.push(standIn);
    const connection = await connectSkillServer({ kind: 'http', url: standIn.url }, CLIENT);
    try {
      await waitFor(() => listens.length === 1, 'the subscription', WAIT_MS);
      let changes = 0;
      connection.onListChanged(() => changes++);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      listens[0].response.destroy();
      await waitFor(() => listens.length === 2, 'a second subscription', WAIT_MS);
      assert.equal(changes, 1, 'the list is read again for what changed while no subscription was open');
      assert.equal(await Promise.race([connection.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 50))]), 'still open');
      // The new subscription breaks at once: this server is gone.
      listens[1].response.end();
      assert.match(await connection.closed, /ended the answer to subscriptions\/listen/);
      assert.equal(listens.length, 2);
    } finally {
      await connection.close();
    }
  });

  it('hears an HTTP server of 2026-07-28 go when its subscription stream ends, and falls back to 2025 on a 400 naming 2025-11-25', async () => {
    const listens: HttpExchange[] = [];
    const modern = await startHttpStandIn((exchange) => answerAsModernServer(exchange, {}, (listen) => listens.push(listen)));
    standIns.push(modern);
    const connection = await connectSkillServer({ kind: 'http', url: modern.url }, CLIENT);
    await waitFor(() => listens.length === 1, 'the subscription', WAIT_MS);
    listens[0].response.end();
    assert.equal(await connection.closed, 'the server ended the answer to subscriptions/listen without answering');
    await connection.close();
    const dual = await startHttpStandIn((exchange) =>
      exchange.message?.method === 'server/discover'
        ? answerJson(exchange.response, { jsonrpc: '2.0', id: exchange.message.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } }, 400)
        : answerAsServer(exchange),
    );
    standIns.push(dual);
    const legacy = await connectSkillServer({ kind: 'http', url: dual.url }, CLIENT);
    await legacy.close();
    assert.equal(legacy.protocolVersion, '2025-11-25');
  });
});

const TOKEN = 'test-token-1234';

function skillsFolder(): string {
  const root = temporaryFolder();
  fs.mkdirSync(path.join(root, 'pdf', 'references'), { recursive: true });
  fs.writeFileSync(path.join(root, 'pdf', 'SKILL.md'), skillText('pdf', 'Fill PDF forms.'));
  fs.writeFileSync(path.join(root, 'pdf', 'references', 'forms.md'), 'The forms.\n');
  return root;
}

async function checkServes(connection: SkillServerConnection, root: string): Promise<void> {
  const { skills, refused } = await connection.listSkills();
  assert.deepEqual(refused, []);
  assert.deepEqual(
    skills.map((skill) => [skill.uri, skill.frontmatter.description]),
    [['skill://pdf/SKILL.md', 'Fill PDF forms.']],
  );
  for (const file of skills[0].resources) {
    const bytes = await connection.readFile(file.uri);
    assert.equal(contentMismatch(bytes, file), undefined);
    assert.deepEqual(Buffer.from(bytes), fs.readFileSync(path.join(root, 'pdf', ...servedFilePath(skills[0], file).split('/'))));
  }
  // An edit on the server's side is announced, and the next listing has the new digest.
  const changed = new Promise<void>((resolve) => connection.onListChanged(resolve));
  fs.writeFileSync(path.join(root, 'pdf', 'references', 'forms.md'), 'The new forms.\n');
  await changed;
  const after = await connection.listSkills();
  assert.notEqual(after.skills[0].resources[1].digest, skills[0].resources[1].digest);
}

describe('the skill server client, against agent-skills mcp', function () {
  this.timeout(60000);
  before(ensureBundle);

  it('lists, reads and follows a server over stdio, and stops it when closed', async () => {
    const root = skillsFolder();
    const connection = await connectSkillServer({ kind: 'stdio', command: process.execPath, args: [BUNDLE, 'mcp', '--no-user', '--no-builtin', root] }, { clientVersion: 'test' });
    try {
      await checkServes(connection, root);
    } finally {
      await connection.close();
    }
    assert.equal(await connection.closed, 'closed by this client');
    await assert.rejects(connection.listSkills(), /the connection is closed/);
  });

  it('lists, reads and follows a server over HTTP with its token, and hears it stop', async () => {
    const root = skillsFolder();
    const server = await startHttpProcess(['--no-user', '--no-builtin', root], { AGENT_SKILLS_MCP_TOKEN: TOKEN });
    const stop = () => server.signal('SIGTERM');
    try {
      await assert.rejects(
        connectSkillServer({ kind: 'http', url: server.url }, { clientVersion: 'test' }),
        /^McpError: HTTP 401: .*Bearer token\. Set its token with "Skills: Set Skill Server Token…"\.$/,
      );
      const connection = await connectSkillServer({ kind: 'http', url: server.url }, { clientVersion: 'test', token: TOKEN });
      await checkServes(connection, root);
      stop();
      assert.ok((await connection.closed).length > 0);
      await connection.close();
    } finally {
      stop();
    }
  });

  it('reads and verifies a SKILL.md whose frontmatter has a date from it, and gets a skill by URI', async () => {
    const root = skillsFolder();
    fs.mkdirSync(path.join(root, 'dated'));
    fs.writeFileSync(path.join(root, 'dated', 'SKILL.md'), DATED_SKILL);
    const connection = await connectSkillServer({ kind: 'stdio', command: process.execPath, args: [BUNDLE, 'mcp', '--no-user', '--no-builtin', root] }, { clientVersion: 'test' });
    try {
      assert.ok(PROTOCOL_VERSIONS.includes(connection.protocolVersion));
      const { skills } = await connection.listSkills();
      const dated = skills.find((skill) => skill.uri === 'skill://dated/SKILL.md')!;
      assert.equal(await verifiedBody(connection, dated), 'Follow the dated steps.\n');
      assert.deepEqual(await connection.getSkill('skill://dated/SKILL.md'), { ok: true, skill: dated });
    } finally {
      await connection.close();
    }
  });

  it('says why it cannot connect: no such program, nothing listening, no skills served', async () => {
    await assert.rejects(connectSkillServer({ kind: 'stdio', command: path.join(temporaryFolder(), 'missing'), args: [] }, { clientVersion: 'test' }), /cannot start .*missing: spawn .* ENOENT/);
    await assert.rejects(connectSkillServer({ kind: 'http', url: 'http://127.0.0.1:9/mcp' }, { clientVersion: 'test' }), /^McpError: cannot reach http:\/\/127\.0\.0\.1:9\/mcp: bad port$/);
    const script = path.join(temporaryFolder(), 'plain-server.js');
    fs.writeFileSync(
      script,
      "process.stdin.on('data', (d) => { for (const line of String(d).split('\\n').filter(Boolean)) { const m = JSON.parse(line); if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'plain', version: '1' } } }) + '\\n'); } });",
    );
    await assert.rejects(
      connectSkillServer({ kind: 'stdio', command: process.execPath, args: [script] }, { clientVersion: 'test' }),
      /it does not serve skills \(its capabilities have no io\.modelcontextprotocol\/skills extension\)/,
    );
  });
});

/** A skill whose frontmatter YAML 1.1 and YAML 1.2 read apart: a date, and an octal-looking number. */
const DATED_SKILL = '---\nname: dated\ndescription: A skill with a date.\ncreated: 2024-01-15\nmetadata:\n  build: "010"\nversion: 010\n---\nFollow the dated steps.\n';

/** The body of a listed skill, fetched through the client and verified as the editor does (size, digest, frontmatter). */
async function verifiedBody(connection: SkillServerConnection, skill: ServedSkill): Promise<string> {
  const cache = temporaryFolder();
  await storeListing(cache, [skill]);
  const dir = path.join(cache, cacheFolderName(skill));
  const record: SkillRecord = {
    name: skill.frontmatter.name,
    dir,
    file: path.join(dir, 'SKILL.md'),
    realDir: dir,
    root: { path: cache, kind: 'server', label: 'team', server: 'team' },
    diagnostics: [],
    status: 'available',
    mtimeMs: 0,
    size: 0,
  };
  const refusals: string[] = [];
  const files = new ServedSkillFiles(
    async () => connection,
    (message) => refusals.push(message),
  );
  try {
    return await files.content.readBody(record);
  } finally {
    assert.deepEqual(refusals, []);
  }
}

describe('the skill server client, against the reference SDK of the Skills extension (@olaservo/ext-skills)', function () {
  this.timeout(60000);

  function referenceSkills(): string {
    const root = skillsFolder();
    fs.mkdirSync(path.join(root, 'dated'));
    fs.writeFileSync(path.join(root, 'dated', 'SKILL.md'), DATED_SKILL);
    return root;
  }

  async function checkReference(connection: SkillServerConnection, root: string): Promise<void> {
    assert.equal(connection.protocolVersion, '2026-07-28');
    const { skills, refused } = await connection.listSkills();
    assert.deepEqual(refused, []);
    assert.deepEqual(
      skills.map((skill) => skill.uri),
      ['skill://dated/SKILL.md', 'skill://pdf/SKILL.md'],
    );
    const dated = skills[0];
    assert.deepEqual(dated.frontmatter, { name: 'dated', description: 'A skill with a date.', created: '2024-01-15', metadata: { build: '010' }, version: 10 });
    assert.equal(await verifiedBody(connection, dated), 'Follow the dated steps.\n');
    assert.deepEqual(await connection.getSkill('skill://pdf/SKILL.md'), { ok: true, skill: skills[1] });
    await assert.rejects(connection.getSkill('skill://missing/SKILL.md'), { code: -32602 });
    const forms = skills[1].resources.find((file) => file.uri.endsWith('/forms.md'))!;
    assert.deepEqual(Buffer.from(await connection.readFile(forms.uri)), fs.readFileSync(path.join(root, 'pdf', 'references', 'forms.md')));
  }

  it('speaks 2026-07-28 with it over stdio: lists, gets by URI, reads, and verifies a SKILL.md whose frontmatter has a date', async () => {
    const root = referenceSkills();
    const connection = await connectSkillServer(referenceStdioServer(root), { clientVersion: 'test' });
    try {
      await checkReference(connection, root);
    } finally {
      await connection.close();
    }
  });

  it('speaks 2026-07-28 with it over HTTP, and hears it stop', async () => {
    const root = referenceSkills();
    const server = await startReferenceHttpServer(root);
    try {
      const connection = await connectSkillServer({ kind: 'http', url: server.url }, { clientVersion: 'test' });
      await checkReference(connection, root);
      await server.stop();
      assert.ok((await connection.closed).length > 0);
      await connection.close();
    } finally {
      await server.stop();
    }
  });
});
