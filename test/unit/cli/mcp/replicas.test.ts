// Two replicas of `agent-skills mcp --http` (the built command line, each a process of its own)
// behind Debian's nginx running the configuration docs/mcp-server.md shows (round-robin, sticky
// 2025-11-25 sessions by their Mcp-Session-Id): the official SDK's clients of both revisions drive
// them through nginx (tools, skills/list, verified files, find_skills, activate_skill), one replica
// is stopped mid-run, and every request is still answered once nginx has moved on. Skipped, and
// counted as such, only where nginx is not installed.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { findNginx, startNginx, type RunningNginx } from '../../../../scripts/harness/nginx';
import { ensureBundle } from '../bundle';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { connectClient, connectStatelessClient } from './http-clients';
import { startHttpProcess, type HttpProcess } from './http-process';

const TOKEN = 'replica-token-0123456789abcdef0123456789';
const REPLICA_NAMES = ['a', 'b'];

interface Replica {
  process: HttpProcess;
  /** host:port, as nginx's access log names it. */
  address: string;
  stop(): Promise<void>;
}

async function startReplica(name: string, root: string): Promise<Replica> {
  const started = await startHttpProcess(['--replica', name, '--no-user', '--no-builtin', root], { AGENT_SKILLS_MCP_TOKEN: TOKEN });
  return {
    process: started,
    address: new URL(started.url).host,
    stop: async () => {
      started.signal('SIGTERM');
      assert.equal(await started.exited, 0, started.stderr());
    },
  };
}

function text(content: unknown): string {
  return (content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
}

/** What a client sees of the server in one round of requests: tools, every skill, one skill's files verified, a search, an activation. */
async function oneRound(client: Client): Promise<object> {
  const skillsClient = new SkillsClient(client);
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  const listing = await skillsClient.list();
  const pdf = listing.skills.find((skill) => skill.uri === 'skill://pdf-report/SKILL.md')!;
  const verified: Record<string, boolean> = {};
  for (const resource of pdf.resources as { uri: string }[]) {
    verified[resource.uri] = (await skillsClient.read(pdf, resource.uri)).verified;
  }
  const found = await client.callTool({ name: 'find_skills', arguments: { query: 'skill number 119' } });
  const activated = await client.callTool({ name: 'activate_skill', arguments: { name: 'pdf-report' } });
  return {
    tools,
    skills: listing.skills.map((skill) => [skill.uri, (skill.resources as { digest: string }[]).map((resource) => resource.digest)]),
    invalid: listing.invalid,
    verified,
    found: [found.isError === true, text(found.content)],
    activated: [activated.isError === true, text(activated.content)],
  };
}

describe('mcp --http replicas behind nginx (the documented configuration)', function () {
  this.timeout(120_000);
  const nginxBinary = findNginx();
  let dir: string;
  let skills: string;
  let replicas: Replica[] = [];
  let nginx: RunningNginx | undefined;

  before(async function () {
    if (nginxBinary === undefined) {
      console.log('    nginx is not installed (apt-get install -y nginx): the replica tests are skipped.');
      this.skip();
    }
    await ensureBundle();
    dir = await tempDir();
    skills = path.join(dir, 'skills');
    const many: Record<string, { 'SKILL.md': string }> = {};
    for (let index = 0; index < 120; index++) {
      const name = `skill-${String(index).padStart(3, '0')}`;
      many[name] = { 'SKILL.md': skillText(name, `Skill number ${index}.`) };
    }
    await writeTree(skills, {
      ...many,
      'pdf-report': { 'SKILL.md': skillText('pdf-report', 'Build a PDF report from a CSV file.', 'Read the CSV, then lay out the report.'), references: { 'guide.md': '# Guide\n' } },
    });
  });

  beforeEach(async () => {
    replicas = await Promise.all(REPLICA_NAMES.map((name) => startReplica(name, skills)));
    nginx = await startNginx(
      nginxBinary!,
      replicas.map((replica) => replica.address),
    );
  });

  afterEach(async () => {
    await nginx?.stop();
    nginx = undefined;
    await Promise.all(replicas.map((replica) => (replica.process.signal('SIGKILL'), replica.process.exited)));
    replicas = [];
  });

  after(async () => {
    if (dir !== undefined) {
      await removeDir(dir);
    }
  });

  it('answers a 2026-07-28 client from both replicas alike, and every request once one replica stopped mid-run', async () => {
    const client = await connectStatelessClient(`${nginx!.base}/mcp`, TOKEN);
    const first = await oneRound(client);
    assert.deepEqual((first as { tools: string[] }).tools, ['activate_skill', 'find_skills', 'read_skill_resource']);
    assert.equal((first as { skills: unknown[] }).skills.length, 121, 'both pages of skills/list');
    assert.deepEqual((first as { verified: object }).verified, { 'skill://pdf-report/SKILL.md': true, 'skill://pdf-report/references/guide.md': true });
    assert.match(JSON.stringify((first as { found: unknown }).found), /skill-119/);
    assert.match(JSON.stringify((first as { activated: unknown }).activated), /Read the CSV, then lay out the report\./);
    assert.deepEqual(await oneRound(client), first);
    const [a, b] = replicas;
    const beforeStop = nginx!.answered();
    for (const replica of replicas) {
      assert.ok(
        beforeStop.some((request) => request.upstream === replica.address),
        `replica at ${replica.address} answered some requests: ${JSON.stringify(beforeStop)}`,
      );
    }

    await a.stop();
    for (let round = 0; round < 3; round++) {
      assert.deepEqual(await oneRound(client), first, `round ${round} after replica a stopped`);
    }
    const afterStop = nginx!.answered().slice(beforeStop.length);
    assert.ok(afterStop.length >= 3 * 7, `${afterStop.length} requests after the stop`);
    assert.deepEqual(
      afterStop.filter((request) => request.status !== 200 || !request.upstream.endsWith(b.address)),
      [],
      'every request after the stop answered 200 by replica b',
    );
    assert.ok(
      afterStop.some((request) => request.upstream === `${a.address}, ${b.address}`),
      `nginx tried the stopped replica and moved on: ${JSON.stringify(afterStop)}`,
    );
    await client.close();
  });

  it('keeps each 2025-11-25 session on the replica its id names; once that replica stops, its client gets 404 and a new session lands on the other', async () => {
    const url = `${nginx!.base}/mcp`;
    const clients: Client[] = [];
    for (let index = 0; index < 4; index++) {
      clients.push(await connectClient(url, TOKEN));
    }
    const sessionOf = (client: Client): string => (client.transport as { sessionId?: string }).sessionId!;
    assert.deepEqual(clients.map((client) => sessionOf(client).slice(0, 2)).sort(), ['a.', 'a.', 'b.', 'b.'], 'round-robin opened sessions on both replicas');
    for (let round = 0; round < 3; round++) {
      for (const client of clients) {
        assert.match(JSON.stringify((await client.callTool({ name: 'find_skills', arguments: { query: 'pdf report' } })).content), /pdf-report/);
        assert.match(text((await client.callTool({ name: 'activate_skill', arguments: { name: 'pdf-report' } })).content), /Read the CSV/);
      }
    }
    const [a, b] = replicas;
    const inSession = nginx!.answered().filter((request) => request.session !== '');
    assert.ok(inSession.length >= 4 * 6, `${inSession.length} requests in sessions`);
    assert.deepEqual(
      inSession.filter((request) => request.upstream !== (request.session.startsWith('a.') ? a.address : b.address)),
      [],
      'every request of a session reached the replica its id names',
    );

    await a.stop();
    const onB = clients.filter((client) => sessionOf(client).startsWith('b.'));
    const onA = clients.filter((client) => sessionOf(client).startsWith('a.'));
    for (const client of onB) {
      assert.match(JSON.stringify((await client.callTool({ name: 'find_skills', arguments: { query: 'pdf report' } })).content), /pdf-report/);
    }
    for (const client of onA) {
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionOf(client),
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      assert.equal(answer.status, 404, 'a session whose replica is gone is unknown, so its client starts a new one');
      assert.deepEqual(await answer.json(), { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    }
    const renewed = await connectClient(url, TOKEN);
    assert.match(sessionOf(renewed), /^b\./);
    assert.match(text((await renewed.callTool({ name: 'activate_skill', arguments: { name: 'pdf-report' } })).content), /Read the CSV/);
    await Promise.all([...clients, renewed].map((client) => client.close()));
  });
});
