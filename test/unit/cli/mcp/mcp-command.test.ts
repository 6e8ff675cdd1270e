// `agent-skills mcp` as the command line runs it, in-process: what it refuses before serving, what
// it says on stderr when it starts, which folders it serves over --http (the token, the allow-list
// of skills and hosts, the project, the user's folder and AGENT_SKILLS_PATH), and that a stop
// signal ends it with exit code 0. The stdio transport is driven by the bundle suites
// (conformance, inspector), which own the process's stdin.

import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { builtinSkillsDir } from '../../../../src/cli/mcp/mcp-command';
import { SKILLS_PATH_ENV } from '../../../../src/core/discovery/roots';
import { parseUsageLog, USAGE_LOG_ENV } from '../../../../src/core/use/usage-log';
import { waitFor } from './wait';
import { paddedPing } from './bad-lines';
import type { CliIo } from '../../../../src/cli/io';
import { runCli } from '../../../../src/cli/run';
import { REPOSITORY } from '../bundle';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

interface McpRun {
  /** Resolves to the exit code. */
  code: Promise<number>;
  stderr(): string;
}

function startMcp(args: readonly string[], cwd: string): McpRun {
  let stderr = '';
  const io: CliIo = { stdout: () => assert.fail('mcp --http writes nothing on stdout'), stderr: (text) => (stderr += text), cwd };
  return { code: runCli(['mcp', ...args], io), stderr: () => stderr };
}

/** Waits until the running command says where it listens. */
async function listeningUrl(run: McpRun): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const url = /listening on (http:\/\/\S+\/mcp)/.exec(run.stderr())?.[1];
    if (url) {
      return url;
    }
    const ended = await Promise.race([run.code.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 20))]);
    if (ended) {
      assert.fail(`mcp ended before listening: ${run.stderr()}`);
    }
  }
  return assert.fail(`mcp did not listen within 10 s: ${run.stderr()}`);
}

/** The stop-signal listeners added since `known` was taken, by signal. */
function addedListeners(known: ReadonlyMap<string, ReadonlySet<unknown>>): (readonly [(typeof STOP_SIGNALS)[number], (signal: string) => void])[] {
  return STOP_SIGNALS.flatMap((name) => process.listeners(name).flatMap((listener) => (known.get(name)?.has(listener) ? [] : [[name, listener as (signal: string) => void] as const])));
}

/** What a stop signal does (Ctrl+C or SIGTERM), without signalling the test process itself; the listeners added since `known` are removed. */
function sendStopSignal(signal: (typeof STOP_SIGNALS)[number], known: ReadonlyMap<string, ReadonlySet<unknown>>): void {
  for (const [name, listener] of addedListeners(known)) {
    process.removeListener(name, listener);
    if (name === signal) {
      listener(name);
    }
  }
}

/** The file system watchers open in this process (each keeps it running). */
function fileWatchers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'FSEventWrap').length;
}

function signalListeners(): Map<string, Set<unknown>> {
  return new Map(STOP_SIGNALS.map((name) => [name, new Set<unknown>(process.listeners(name))]));
}

async function skillNames(url: string, token?: string): Promise<string[]> {
  const client = new Client({ name: 'mcp-command-test', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    const { prompts } = await client.listPrompts();
    return prompts.map((prompt) => prompt.name).sort();
  } finally {
    await client.close();
  }
}

/** The server's instructions, after activating `skill` (as a client does once it read them). */
async function instructionsThenActivate(url: string, skill: string): Promise<string> {
  const client = new Client({ name: 'mcp-command-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    assert.equal((await client.callTool({ name: 'activate_skill', arguments: { name: skill } })).isError, undefined);
    return client.getInstructions() ?? '';
  } finally {
    await client.close();
  }
}

/** The status of an initialize request that names `host` in its Host header (fetch would not send it). */
function initializeStatus(url: string, host: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('agent-skills mcp (the command)', function () {
  this.timeout(30_000);
  let dir: string;
  let savedEnv: Record<string, string | undefined>;

  beforeEach(async () => {
    dir = await tempDir();
    savedEnv = { HOME: process.env.HOME, [SKILLS_PATH_ENV]: process.env[SKILLS_PATH_ENV] };
    delete process.env[SKILLS_PATH_ENV];
  });

  afterEach(async () => {
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) {
        delete process.env[name];
      } else {
        process.env[name] = value;
      }
    }
    await removeDir(dir);
  });

  for (const option of ['--token-file', '--allow-host', '--max-sessions', '--replica']) {
    it(`refuses ${option} without --http, naming the option`, async () => {
      let stderr = '';
      const code = await runCli(['mcp', option, 'x'], { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir });
      assert.equal(code, 2);
      assert.equal(stderr.split('\n')[0], `agent-skills: mcp: ${option} applies to --http only.`);
    });
  }

  it('refuses a --budget-chars that is no positive integer', async () => {
    let stderr = '';
    const code = await runCli(['mcp', '--budget-chars', '0'], { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir });
    assert.equal(code, 2);
    assert.match(stderr, /--budget-chars/);
  });

  it('refuses to listen beyond the machine without a token or with a short one, and says why when the port is taken', async () => {
    let stderr = '';
    const io: CliIo = { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir };
    assert.equal(await runCli(['mcp', '--http', '0.0.0.0:0', '--no-user', '--no-builtin'], io), 2);
    assert.match(stderr, /would serve skills beyond this machine without a token/);
    await writeTree(dir, { 'short-token': 'x\n' });
    stderr = '';
    assert.equal(await runCli(['mcp', '--http', '0.0.0.0:0', '--token-file', 'short-token'], io), 1);
    assert.match(stderr, /^agent-skills: mcp: short-token: the token has 1 character; serving beyond this machine \(--http 0\.0\.0\.0:0\) takes one of at least 32/);

    const taken = net.createServer();
    const known = signalListeners();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      stderr = '';
      assert.equal(await runCli(['mcp', '--http', `127.0.0.1:${port}`, '--no-user', '--no-builtin'], io), 1);
      assert.deepEqual(addedListeners(known), [], 'the command leaves no stop-signal listener behind');
      assert.match(stderr, new RegExp(`agent-skills: mcp: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use\\.\\n$`));
    } finally {
      sendStopSignal('SIGTERM', known);
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('serves the project, the ROOTs, the user folder (--user) and AGENT_SKILLS_PATH over --http until stopped, and says what it serves', async () => {
    const home = path.join(dir, 'home');
    await writeTree(dir, {
      project: { '.agent': { skills: { 'project-skill': { 'SKILL.md': skillText('project-skill', 'From the project.') } } } },
      typed: { 'typed-skill': { 'SKILL.md': skillText('typed-skill', 'From a ROOT argument.') } },
      home: { '.agent': { skills: { 'user-skill': { 'SKILL.md': skillText('user-skill', 'From the user folder.') } } } },
      env: { 'env-skill': { 'SKILL.md': skillText('env-skill', 'From AGENT_SKILLS_PATH.') } },
      token: 'secret-token-123\n',
    });
    process.env.HOME = home;
    process.env[SKILLS_PATH_ENV] = path.join(dir, 'env');
    const known = signalListeners();
    const run = startMcp(['--http', '127.0.0.1:0', '--token-file', path.join(dir, 'token'), '--user', '--no-builtin', '--project', 'project', 'typed', 'later'], dir);
    const url = await listeningUrl(run);
    try {
      assert.deepEqual(await skillNames(url, 'secret-token-123'), ['env-skill', 'project-skill', 'typed-skill', 'user-skill']);
      await assert.rejects(skillNames(url), 'the token is required');
    } finally {
      sendStopSignal('SIGTERM', known);
    }
    assert.equal(await run.code, 0);
    const said = run.stderr().split('\n');
    const serving = said.find((line) => line.startsWith('agent-skills mcp: serving skills from '));
    assert.ok(serving, run.stderr());
    const served = serving.replace('agent-skills mcp: serving skills from ', '').replace(/\.$/, '').split(', ');
    assert.deepEqual(served.slice(0, 3), [path.join(dir, 'project', '.agent', 'skills'), path.join(dir, 'typed'), path.join(dir, 'later')]);
    assert.ok(served.includes(path.join(home, '.agent', 'skills')), serving);
    assert.ok(served.includes(path.join(dir, 'env')), serving);
    assert.ok(said.includes('agent-skills mcp: later does not exist yet; its skills are served once it appears.'), run.stderr());
    assert.ok(
      said.some((line) => line.startsWith('agent-skills mcp: listening on http://127.0.0.1:') && line.endsWith('/mcp (bearer token required).')),
      run.stderr(),
    );
  });

  it('leaves out the user folder with --no-user, serves the built-in skills last with --builtin, only the allowed skills with --allow, and stops on Ctrl+C', async () => {
    const home = path.join(dir, 'home');
    await writeTree(dir, {
      home: { '.agent': { skills: { 'user-skill': { 'SKILL.md': skillText('user-skill', 'From the user folder.') } } } },
      typed: {
        'deploy-web': { 'SKILL.md': skillText('deploy-web', 'Deploys the web site.') },
        'deploy-api': { 'SKILL.md': skillText('deploy-api', 'Deploys the API.') },
        review: { 'SKILL.md': skillText('review', 'Reviews a change.') },
      },
    });
    process.env.HOME = home;
    const known = signalListeners();
    const run = startMcp(['--http', '0', '--no-user', '--builtin', '--allow', 'deploy-*', '--allow', 'review', '--allow', 'writing-skills', 'typed'], dir);
    const url = await listeningUrl(run);
    try {
      assert.deepEqual(await skillNames(url), ['deploy-api', 'deploy-web', 'review', 'writing-skills']);
    } finally {
      sendStopSignal('SIGINT', known);
    }
    assert.equal(await run.code, 0);
    assert.ok(run.stderr().includes(`agent-skills mcp: serving skills from ${path.join(dir, 'typed')}, ${path.join(REPOSITORY, 'skills')}.\n`), run.stderr());
    assert.match(run.stderr(), /\(no token: this machine only\)\./);
  });

  it('serves neither the user folder nor the built-in skills over --http unless asked, says so, and still takes --no-user and --no-builtin', async () => {
    await writeTree(dir, {
      home: { '.agent': { skills: { 'user-skill': { 'SKILL.md': skillText('user-skill', 'From one person’s folder.') } } } },
      typed: { 'team-skill': { 'SKILL.md': skillText('team-skill', 'From the team’s folder.') } },
    });
    process.env.HOME = path.join(dir, 'home');
    const served = async (args: readonly string[]): Promise<{ names: string[]; stderr: string }> => {
      const known = signalListeners();
      const run = startMcp(['--http', '127.0.0.1:0', ...args, 'typed'], dir);
      try {
        return { names: await skillNames(await listeningUrl(run)), stderr: run.stderr() };
      } finally {
        sendStopSignal('SIGTERM', known);
        assert.equal(await run.code, 0);
      }
    };
    const plain = await served([]);
    assert.deepEqual(plain.names, ['team-skill']);
    assert.ok(plain.stderr.includes(`agent-skills mcp: serving skills from ${path.join(dir, 'typed')}.\n`), plain.stderr);
    assert.ok(plain.stderr.includes('agent-skills mcp: not served over --http unless asked: ~/.agent/skills (--user) and the built-in skills (--builtin).\n'), plain.stderr);
    const refused = await served(['--no-user', '--no-builtin']);
    assert.deepEqual(refused.names, ['team-skill']);
    assert.doesNotMatch(refused.stderr, /unless asked/);
    const userOnly = await served(['--user']);
    assert.deepEqual(userOnly.names, ['team-skill', 'user-skill']);
    assert.ok(userOnly.stderr.includes('agent-skills mcp: not served over --http unless asked: the built-in skills (--builtin).\n'), userOnly.stderr);
    const both = await served(['--user', '--builtin']);
    assert.ok(both.names.includes('user-skill') && both.names.includes('writing-skills'), both.names.join(', '));
  });

  it('serves the user folder and the built-in skills over stdio, as it always has, unless left out', async () => {
    await writeTree(dir, { typed: {} });
    process.env.HOME = path.join(dir, 'home');
    const streams = { stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!, stdout: Object.getOwnPropertyDescriptor(process, 'stdout')! };
    const known = signalListeners();
    const servedOverStdio = async (args: readonly string[]): Promise<string> => {
      const input = new PassThrough();
      let stderr = '';
      Object.defineProperty(process, 'stdin', { configurable: true, get: () => input });
      Object.defineProperty(process, 'stdout', { configurable: true, get: () => new PassThrough() });
      try {
        const code = runCli(['mcp', ...args, 'typed'], { stdout: () => assert.fail('stdout carries protocol only'), stderr: (text) => (stderr += text), cwd: dir });
        input.end(); // The client goes away at once.
        assert.equal(await code, 0, stderr);
        return stderr;
      } finally {
        Object.defineProperty(process, 'stdin', streams.stdin);
        Object.defineProperty(process, 'stdout', streams.stdout);
        sendStopSignal('SIGTERM', known);
      }
    };
    const typed = path.join(dir, 'typed');
    const everything = await servedOverStdio([]);
    assert.ok(everything.includes(`serving skills from ${typed}, ${path.join(dir, 'home', '.agent', 'skills')}, ${path.join(REPOSITORY, 'skills')}.\n`), everything);
    assert.doesNotMatch(everything, /unless asked/);
    assert.ok((await servedOverStdio(['--user', '--builtin'])).includes(`serving skills from ${typed}, ${path.join(dir, 'home', '.agent', 'skills')}, ${path.join(REPOSITORY, 'skills')}.\n`));
    assert.ok((await servedOverStdio(['--no-user', '--no-builtin'])).includes(`serving skills from ${typed}.\n`));
  });

  it('refuses --user with --no-user and --builtin with --no-builtin', async () => {
    for (const source of ['user', 'builtin']) {
      for (const mode of [[], ['--http', '0']]) {
        let stderr = '';
        const code = await runCli(['mcp', ...mode, `--${source}`, `--no-${source}`], { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir });
        assert.equal(code, 2);
        assert.equal(stderr.split('\n')[0], `agent-skills: mcp: --${source} and --no-${source} contradict each other.`);
      }
    }
  });

  it('refuses --max-sessions without --http and one that is no positive integer', async () => {
    for (const args of [
      ['--max-sessions', '10'],
      ['--http', '0', '--max-sessions', '0'],
    ]) {
      let stderr = '';
      assert.equal(await runCli(['mcp', ...args], { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir }), 2);
      assert.match(stderr, /--max-sessions/);
    }
  });

  it('refuses a --replica name a proxy pattern could not tell apart: too long, with a dot or a space, not starting with a letter or digit', async () => {
    for (const name of ['a'.repeat(33), 'a.b', 'a b', '_a', 'ä']) {
      let stderr = '';
      assert.equal(await runCli(['mcp', '--http', '0', '--replica', name], { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir }), 2, name);
      assert.equal(stderr.split('\n')[0], `agent-skills: mcp: --replica takes a name of 1 to 32 letters, digits, "-" and "_" (starting with a letter or digit), not "${name}".`);
    }
  });

  it('serves on stdin and stdout, the allowed skills only, records activations in the usage log it is given, and ends with exit code 0 when the client closes its end', async () => {
    await writeTree(dir, {
      typed: { notes: { 'SKILL.md': skillText('notes', 'Writes notes.') }, review: { 'SKILL.md': skillText('review', 'Reviews a change.') } },
    });
    const usageLog = path.join(dir, 'storage', 'activations.jsonl');
    savedEnv[USAGE_LOG_ENV] = process.env[USAGE_LOG_ENV];
    process.env[USAGE_LOG_ENV] = usageLog;
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const answered = (id: number): { result?: Record<string, unknown> } | undefined =>
      written
        .split('\n')
        .slice(0, -1) // whole lines only: a message may arrive in several chunks
        .map((line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown> })
        .find((message) => message.id === id);
    const answer = async (id: number): Promise<{ result?: Record<string, unknown> }> => {
      await waitFor(() => answered(id) !== undefined, `the answer to request ${id}`);
      return answered(id)!;
    };
    const send = (message: object): boolean => input.write(`${JSON.stringify(message)}\n`);
    const streams = { stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!, stdout: Object.getOwnPropertyDescriptor(process, 'stdout')! };
    const known = signalListeners();
    const watchers = fileWatchers();
    let stderr = '';
    // The command takes the process's own streams: these stand in for them until it ends.
    Object.defineProperty(process, 'stdin', { configurable: true, get: () => input });
    Object.defineProperty(process, 'stdout', { configurable: true, get: () => output });
    try {
      const code = runCli(['mcp', '--no-user', '--no-builtin', '--allow', 'notes', 'typed'], {
        stdout: () => assert.fail('stdout carries protocol only'),
        stderr: (text) => (stderr += text),
        cwd: dir,
      });
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await answer(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'prompts/list' });
      assert.deepEqual(
        ((await answer(2)).result?.prompts as { name: string }[]).map((prompt) => prompt.name),
        ['notes'],
      );
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'activate_skill', arguments: { name: 'notes' } } });
      assert.equal((await answer(3)).result?.isError, undefined);
      // A line that is no JSON is answered on stdout; a message of the 10 MiB the server takes is served.
      input.write('this is not json\n');
      await waitFor(() => written.includes('"code":-32700'), 'the answer to a line that is no JSON');
      const notJson = JSON.parse(written.split('\n').find((line) => line.includes('"code":-32700'))!) as { id: unknown; error: { message: string } };
      assert.equal(notJson.id, null);
      assert.match(notJson.error.message, /^The line is not JSON: /);
      input.write(`${paddedPing(4, 10 * 1024 * 1024)}\n`);
      assert.deepEqual((await answer(4)).result, {});
      await waitFor(() => existsSync(usageLog), 'the usage log');
      input.end();
      assert.equal(await code, 0, stderr);
      assert.deepEqual(addedListeners(known), [], 'the command leaves no stop-signal listener behind');
      // A watcher's handle goes some moments after it was closed.
      await waitFor(() => fileWatchers() === watchers, 'the command to leave no file watcher behind (one would keep the process from exiting)', 2000);
    } finally {
      Object.defineProperty(process, 'stdin', streams.stdin);
      Object.defineProperty(process, 'stdout', streams.stdout);
      sendStopSignal('SIGTERM', known);
    }
    assert.deepEqual(
      parseUsageLog(await fs.readFile(usageLog, 'utf8')).activations.map(({ skill, via }) => ({ skill, via })),
      [{ skill: 'notes', via: 'tool' }],
    );
    assert.ok(stderr.includes(`agent-skills mcp: serving skills from ${path.join(dir, 'typed')}.\n`), stderr);
  });

  it('fits the catalog in the --budget-chars it is given, takes the Host names of --allow-host, and records activations only when given a usage log', async () => {
    savedEnv[USAGE_LOG_ENV] = process.env[USAGE_LOG_ENV];
    delete process.env[USAGE_LOG_ENV];
    const long = `Turns a CSV file into a PDF report ${'with charts, tables and a summary '.repeat(20)}(BUDGET-MARKER).`;
    await writeTree(dir, { typed: { 'pdf-report': { 'SKILL.md': skillText('pdf-report', long) } } });
    const instructions = async (args: readonly string[]): Promise<string> => {
      const known = signalListeners();
      const run = startMcp(['--http', '127.0.0.1:0', '--no-user', '--no-builtin', ...args, 'typed'], dir);
      try {
        const url = await listeningUrl(run);
        assert.equal(await initializeStatus(url, 'skills.internal:8080'), args.includes('--allow-host') ? 200 : 403, 'a Host named with --allow-host only');
        assert.equal(await initializeStatus(url, 'other.internal'), 403, 'a Host not named');
        return await instructionsThenActivate(url, 'pdf-report');
      } finally {
        sendStopSignal('SIGTERM', known);
        assert.equal(await run.code, 0);
        const allowed = args.includes('--allow-host') ? 'localhost, 127.0.0.1, [::1], skills.internal' : 'localhost, 127.0.0.1, [::1]';
        assert.ok(run.stderr().includes(`(allowed host names: ${allowed}; add one with --allow-host).\n`), run.stderr());
        assert.doesNotMatch(run.stderr(), /could not record/);
      }
    };
    assert.match(await instructions(['--allow-host', 'skills.internal']), /BUDGET-MARKER/, 'the default budget holds the whole description');
    const tight = await instructions(['--budget-chars', '200']);
    assert.match(tight, /pdf-report/);
    assert.doesNotMatch(tight, /BUDGET-MARKER/, 'over a budget of 200 characters, the skill is listed by name only');
  });

  it('serves a skill location that appears in a sub-project of its --project while it runs', async () => {
    await writeTree(dir, { project: { '.agent': { skills: { deploy: { 'SKILL.md': skillText('deploy', 'Deploy everything.') } } } } });
    const known = signalListeners();
    const run = startMcp(['--http', '127.0.0.1:0', '--no-user', '--no-builtin', '--project', 'project'], dir);
    try {
      const url = await listeningUrl(run);
      assert.deepEqual(await skillNames(url), ['deploy']);
      const location = path.join(dir, 'project', 'packages', 'billing', '.agent', 'skills');
      for (let attempt = 0; !run.stderr().includes(`project locations: +${location}.`) && attempt < 100; attempt++) {
        // Written until it is seen: the project's folders are watched shortly after the server listens.
        await writeTree(location, { invoice: { 'SKILL.md': skillText('invoice', 'Draft an invoice.') } });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await waitFor(() => run.stderr().includes(`project locations: +${location}.`), 'the new location to be followed', 1000);
      let names = await skillNames(url);
      for (let attempt = 0; !names.includes('invoice') && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        names = await skillNames(url);
      }
      assert.deepEqual(names, ['deploy', 'invoice']);
    } finally {
      sendStopSignal('SIGTERM', known);
    }
    assert.equal(await run.code, 0);
  });

  it('says it serves no folder when every location is left out, and leaves no stop-signal listener behind once stopped', async () => {
    const known = signalListeners();
    const run = startMcp(['--http', '127.0.0.1:0', '--no-user', '--no-builtin'], dir);
    try {
      await listeningUrl(run);
      // The signal as the process delivers it: its listeners are called, none is removed by the caller.
      addedListeners(known)
        .filter(([name]) => name === 'SIGTERM')
        .forEach(([name, listener]) => listener(name));
      assert.equal(await run.code, 0);
      assert.deepEqual(addedListeners(known), [], 'no SIGINT or SIGTERM listener is left after the command ends');
    } finally {
      sendStopSignal('SIGTERM', known);
    }
    assert.ok(run.stderr().includes('agent-skills mcp: serving skills from no folder.\n'), run.stderr());
  });

  it('reports the problems of the project settings and of the skills on stderr before serving', async () => {
    await writeTree(dir, {
      project: { '.vscode': { 'settings.json': '{ not json' } },
      typed: {
        a: { twin: { 'SKILL.md': skillText('twin', 'The first of two.') } },
        b: { twin: { 'SKILL.md': skillText('twin', 'The second of two.') } },
      },
    });
    const known = signalListeners();
    const run = startMcp(['--http', '127.0.0.1:0', '--no-user', '--no-builtin', '--project', 'project', 'typed'], dir);
    await listeningUrl(run);
    sendStopSignal('SIGTERM', known);
    assert.equal(await run.code, 0);
    const said = run.stderr().split('\n');
    assert.ok(
      said.some((line) => /^agent-skills mcp: warning: .*settings\.json is not valid JSON .*\[project-settings\]$/.test(line)),
      run.stderr(),
    );
    assert.ok(
      said.some((line) => /^agent-skills mcp: warning: Two skills in .* are named "twin": .* \[duplicate-skill-name\]$/.test(line)),
      run.stderr(),
    );
  });
});

describe('builtinSkillsDir', () => {
  let dir: string;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(async () => removeDir(dir));

  it('is the skills folder beside the package.json of the package running it', () => {
    assert.equal(builtinSkillsDir(), path.join(REPOSITORY, 'skills'));
  });

  it('looks up from the start folder to the first folder holding both a package.json and a skills folder', async () => {
    await writeTree(dir, {
      'package.json': '{}',
      skills: { 'some-skill': { 'SKILL.md': skillText('some-skill', 'A built-in skill.') } },
      dist: { nested: { 'package.json': '{}' } },
    });
    assert.equal(builtinSkillsDir(path.join(dir, 'dist', 'nested')), path.join(dir, 'skills'));
    await fs.mkdir(path.join(dir, 'dist', 'nested', 'skills'));
    assert.equal(builtinSkillsDir(path.join(dir, 'dist', 'nested')), path.join(dir, 'dist', 'nested', 'skills'));
  });

  it('is undefined when no folder up to the file system root holds both', async () => {
    await writeTree(dir, { a: { 'package.json': '{}', b: { skills: {} } } });
    assert.equal(builtinSkillsDir(path.join(dir, 'a', 'b')), undefined);
  });
});
