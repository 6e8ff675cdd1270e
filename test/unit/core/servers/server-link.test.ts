// A configured skill server kept connected, against scripted HTTP servers on 127.0.0.1: its skills
// listed (and those named by URI got) into its cache, and a server that stops and comes back used
// again; the waits between attempts, recorded by fake timers, double up to their cap, end when it
// connects, and are cancelled by Refresh and by dispose.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServerLink, type RetryTimers, type ServerLinkOptions } from '../../../../src/core/servers/server-link';
import type { SkillServerConfig } from '../../../../src/core/servers/server-config';
import { ENTRY_FILE_NAME } from '../../../../src/core/servers/server-cache';
import { waitFor } from '../../cli/mcp/wait';
import { servedSkill, temporaryFolder } from './served-fixtures';
import { answerAsServer, answerEvents, answerJson, startHttpStandIn, type HttpExchange, type HttpStandIn } from './mcp-stand-ins';

const WAIT_MS = 5000;
const LISTED = servedSkill('pdf', { 'SKILL.md': 'x' });
const NAMED = servedSkill('hidden', { 'SKILL.md': 'y' }, 'Not in the listing.', 'internal/');

/** Timers that only record what is asked of them; the test fires them. */
class FakeTimers implements RetryTimers {
  readonly delays: number[] = [];
  private pending = new Map<number, () => void>();
  private next = 1;

  set(callback: () => void, delayMs: number): unknown {
    this.delays.push(delayMs);
    const id = this.next++;
    this.pending.set(id, callback);
    return id;
  }

  clear(timer: unknown): void {
    this.pending.delete(timer as number);
  }

  get waiting(): number {
    return this.pending.size;
  }

  /** Fires the one pending timer. */
  fire(): void {
    assert.equal(this.pending.size, 1, 'one wait at a time');
    const [[id, callback]] = [...this.pending];
    this.pending.delete(id);
    callback();
  }
}

/** A 2025 HTTP skills server whose notification stream stays open, so that its stop is heard; `streams` counts those opened. */
function skillsServer(results: Record<string, unknown> = { 'skills/list': { skills: [LISTED] } }, streams = { opened: 0 }): (exchange: HttpExchange) => void {
  return (exchange) => {
    if (exchange.method === 'GET') {
      streams.opened++;
      void answerEvents(exchange.response, [], { keepOpen: true });
    } else {
      answerAsServer(exchange, results);
    }
  };
}

describe('a skill server link', function () {
  this.timeout(20000);
  const standIns: HttpStandIn[] = [];
  const links: ServerLink[] = [];
  afterEach(async () => {
    links.splice(0).forEach((link) => link.dispose());
    await Promise.all(standIns.splice(0).map((standIn) => standIn.close()));
  });

  async function serve(handle: (exchange: HttpExchange) => void, port?: number): Promise<HttpStandIn> {
    const standIn = await startHttpStandIn(handle, port);
    standIns.push(standIn);
    return standIn;
  }

  function link(
    url: string,
    extra: Partial<ServerLinkOptions> & { skills?: string[] } = {},
  ): { link: ServerLink; dir: string; states: (string | undefined)[]; warnings: string[]; timers: FakeTimers } {
    const config: SkillServerConfig = { name: 'team', transport: { kind: 'http', url }, skills: extra.skills ?? [], scope: 'user' };
    const dir = temporaryFolder();
    const states: (string | undefined)[] = [];
    const warnings: string[] = [];
    const timers = new FakeTimers();
    const created: ServerLink = new ServerLink({
      config,
      dir,
      clientVersion: 'test',
      token: async () => undefined,
      log: { info: () => undefined, warn: (message) => warnings.push(message) },
      onStateChange: () => states.push(created.offline),
      onListingChange: () => undefined,
      timing: { firstDelayMs: 100, maxDelayMs: 400 },
      timers,
      connect: { requestTimeoutMs: 3000 },
      ...extra,
    });
    links.push(created);
    return { link: created, dir, states, warnings, timers };
  }

  const cached = (dir: string): string[] => fs.readdirSync(dir).filter((name) => fs.existsSync(path.join(dir, name, ENTRY_FILE_NAME)));

  it('uses a server that stops and comes back again, by itself after the wait, with its skills listed anew', async () => {
    const streams = { opened: 0 };
    const first = await serve(skillsServer(undefined, streams));
    const port = Number(new URL(first.url).port);
    const { link: team, dir, states, timers } = link(first.url);
    team.start();
    await waitFor(() => streams.opened === 1 && cached(dir).length === 1, 'the first connection and listing', WAIT_MS);
    await first.close();
    await waitFor(() => team.offline !== undefined && timers.waiting === 1, 'the server to be missed', WAIT_MS);
    assert.match(team.offline!, /^the server's event stream broke off: terminated$|^the server ended its event stream$/);
    assert.deepEqual(timers.delays, [100]);
    fs.rmSync(path.join(dir, 'pdf'), { recursive: true });
    await serve(skillsServer(), port);
    // Back after the wait; a try that meets a socket of the stopped server waits once more.
    for (let tries = 0; tries < 3 && !team.connected; tries++) {
      timers.fire();
      await waitFor(() => team.connected || timers.waiting === 1, 'the next try', WAIT_MS);
    }
    await waitFor(() => team.offline === undefined, 'the listing', WAIT_MS);
    assert.deepEqual(cached(dir), ['pdf'], JSON.stringify(states));
    assert.equal(states.at(-1), undefined);
    assert.equal(timers.waiting, 0, 'no wait left once connected');
  });

  it('takes a server lost while it lists its skills as lost once: offline with that reason, one wait', async () => {
    const streams: HttpExchange[] = [];
    const standIn = await serve((exchange) => {
      if (exchange.method === 'GET') {
        streams.push(exchange);
        void answerEvents(exchange.response, [], { keepOpen: true });
      } else if (exchange.message?.method === 'skills/list') {
        streams[0].response.end(); // Gone before it answers.
      } else {
        answerAsServer(exchange);
      }
    });
    const { link: team, states, timers } = link(standIn.url);
    team.start();
    await waitFor(() => timers.waiting === 1, 'the wait after the loss', WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(states, ['the server ended its event stream']);
    assert.deepEqual(timers.delays, [100]);
    assert.equal(team.connected, false);
  });

  it('waits twice as long after each failure up to the cap, one wait at a time, and starts again from the first wait once connected', async () => {
    let up = false;
    const standIn = await serve((exchange) => (up ? skillsServer()(exchange) : exchange.response.writeHead(503).end('starting')));
    const { link: team, timers, warnings } = link(standIn.url);
    team.start();
    for (let failure = 1; failure <= 5; failure++) {
      await waitFor(() => timers.delays.length === failure, `failure ${failure}`, WAIT_MS);
      assert.equal(timers.waiting, 1);
      if (failure < 5) {
        timers.fire();
      }
    }
    assert.deepEqual(timers.delays, [100, 200, 400, 400, 400]);
    assert.equal(team.offline, 'HTTP 503: starting');
    assert.equal(warnings.filter((warning) => warning.includes('cannot be reached')).length, 1, 'the same reason is logged once');
    up = true;
    timers.fire();
    await waitFor(() => team.connected && team.offline === undefined, 'the connection and its listing', WAIT_MS);
    up = false;
    await standIn.close();
    await waitFor(() => timers.delays.length === 6, 'the next wait', WAIT_MS);
    assert.equal(timers.delays[5], 100);
  });

  it('tries at once on Refresh, and a connected server lists its skills again', async () => {
    let up = false;
    let listings = 0;
    const standIn = await serve((exchange) => {
      if (!up) {
        exchange.response.writeHead(503).end();
        return;
      }
      listings += exchange.message?.method === 'skills/list' ? 1 : 0;
      skillsServer()(exchange);
    });
    const { link: team, timers } = link(standIn.url);
    team.start();
    await waitFor(() => timers.waiting === 1, 'the first failure', WAIT_MS);
    up = true;
    await team.refresh();
    assert.ok(team.connected);
    assert.equal(timers.waiting, 0, 'the wait was cancelled');
    assert.equal(listings, 1);
    await team.refresh();
    assert.equal(listings, 2);
  });

  it('stops trying once disposed: the wait is cancelled, and a connection made meanwhile is closed', async () => {
    const down = await serve((exchange) => exchange.response.writeHead(503).end());
    const { link: team, timers, states } = link(down.url);
    team.start();
    await waitFor(() => timers.waiting === 1, 'the first failure', WAIT_MS);
    team.dispose();
    assert.equal(timers.waiting, 0);
    let answer: (() => void) | undefined;
    const exchanges: HttpExchange[] = [];
    const slow = await serve((exchange) => {
      exchanges.push(exchange);
      if (exchange.message?.method === 'server/discover') {
        answer = () => answerAsServer(exchange);
      } else {
        skillsServer()(exchange);
      }
    });
    const late = link(slow.url);
    late.link.start();
    await waitFor(() => answer !== undefined, 'the probe', WAIT_MS);
    late.link.dispose();
    answer!();
    await waitFor(() => exchanges.some((exchange) => exchange.method === 'DELETE'), 'the late session to be ended', WAIT_MS);
    assert.equal(late.link.connected, false);
    assert.deepEqual(late.states, [], 'nothing said after dispose');
    assert.deepEqual(states, ['HTTP 503']);
  });

  it('gets the skills the setting names by URI that the listing leaves out, and says which it cannot get', async () => {
    const standIn = await serve((exchange) => {
      const uri = (exchange.message?.params as { uri?: string } | undefined)?.uri;
      if (exchange.message?.method === 'skills/get' && uri !== NAMED.uri) {
        answerJson(exchange.response, { jsonrpc: '2.0', id: exchange.message.id, error: { code: -32602, message: `No skill is served at ${uri}` } });
      } else {
        skillsServer({ 'skills/list': { skills: [LISTED] }, 'skills/get': { skill: NAMED } })(exchange);
      }
    });
    const { link: team, dir, warnings } = link(standIn.url, { skills: [NAMED.uri, LISTED.uri, 'skill://gone/SKILL.md'] });
    await team.refresh();
    assert.deepEqual(cached(dir).sort(), ['internal%2Fhidden', 'pdf']);
    assert.deepEqual(
      standIn.exchanges.flatMap((exchange) => (exchange.message?.method === 'skills/get' ? [(exchange.message.params as { uri: string }).uri] : [])),
      [NAMED.uri, 'skill://gone/SKILL.md'],
      'a listed skill is not got again',
    );
    assert.deepEqual(warnings, ['Skill server "team": refused the skill skill://gone/SKILL.md: it could not be got: No skill is served at skill://gone/SKILL.md.']);
  });
});
