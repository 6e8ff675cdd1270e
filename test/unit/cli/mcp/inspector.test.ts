// The built server (dist/cli.js mcp) checked by a third-party client, the MCP Inspector's command
// line: its SEP-2640 conformance and digest checks at both protocol revisions over stdio and HTTP,
// its tool-schema portability checks, a tool call and a load test. Then protocol hygiene of the
// real process: only JSON-RPC on stdout, errors for bad input, the result fields each revision
// asks for, a clean exit when stdin closes or on SIGTERM.

import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { parseUsageLog } from '../../../../src/core/use/usage-log';
import { BUNDLE, ensureBundle, REPOSITORY } from '../bundle';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { startHttpProcess } from './http-process';
import { BAD_LINE_ANSWERS, BAD_LINES, paddedPing } from './bad-lines';
import { writePublicShapes } from './public-shapes';
import { ENVELOPE } from './envelope';

const INSPECTOR = path.join(REPOSITORY, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const CHAT_SKILLS = path.join(REPOSITORY, 'test', 'workspaces', 'chat', '.agent', 'skills');
const INITIALIZE = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';
/** The protocol eras the Inspector negotiates: 2025-11-25 (initialize) and 2026-07-28 (server/discover, no session). */
const ERAS = ['legacy', 'modern'] as const;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The Inspector's command line with `options`, then its target: a server command (after `--`) or `--server-url URL`. */
async function runInspector(options: string[], target: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [INSPECTOR, '--cli', '-q', ...options, ...target], {
      cwd: REPOSITORY,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The Inspector against `agent-skills mcp ROOT…` over stdio. */
function inspect(options: string[], roots: string[]): Promise<Run> {
  return runInspector(options, ['--', process.execPath, BUNDLE, 'mcp', '--no-user', ...roots]);
}

/** Asserts the one-line-per-skill reports of skills/list --verify: every skill and every file verified. */
function assertVerified(stdout: string, expectedFiles: Record<string, number>): void {
  const reports = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { uri: string; ok: boolean; files: { status: string }[] });
  for (const [uri, files] of Object.entries(expectedFiles)) {
    assert.ok(
      reports.some((report) => report.uri === uri && report.files.length === files),
      `${uri} with ${files} files`,
    );
  }
  for (const report of reports) {
    assert.equal(report.ok, true, JSON.stringify(report));
    assert.ok(
      report.files.every((file) => file.status === 'verified'),
      report.uri,
    );
  }
}

describe('agent-skills mcp, checked by the MCP Inspector', function () {
  this.timeout(60_000);
  let dir: string;
  let extra: string;
  let shapes: string;
  /** The files of each skill, by URI, the reports must verify. */
  const expectedFiles = { 'skill://pdf-report/SKILL.md': 4, 'skill://dated-skill/SKILL.md': 3, 'skill://acquire-knowledge/SKILL.md': 2, 'skill://image-maker/SKILL.md': 2 };

  before(async () => {
    await ensureBundle();
    dir = await tempDir();
    extra = path.join(dir, 'skills');
    shapes = path.join(dir, 'public-shapes');
    await writePublicShapes(shapes);
    await writeTree(extra, {
      'dated-skill': {
        'SKILL.md': skillText('dated-skill', 'A skill whose frontmatter holds a date, a number and a list.', 'Body.', 'created: 2024-01-01\nversion: 3\ntags:\n  - a\n  - b\n'),
        'notes with space.md': 'spaced\n',
        data: { 'table.bin': Buffer.from([0, 1, 2, 255]) },
      },
    });
  });

  after(async () => {
    await removeDir(dir);
  });

  for (const era of ERAS) {
    it(`passes skills/list --verify over stdio, ${era} era: conformance, frontmatter verbatim (lists and maps in metadata) and every digest`, async () => {
      const run = await inspect(['--protocol-era', era, '--method', 'skills/list', '--verify'], [CHAT_SKILLS, extra, shapes]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assertVerified(run.stdout, expectedFiles);
    });
  }

  it('passes skills/list --verify over HTTP (--http, bearer token) at both eras, as over stdio', async () => {
    const server = await startHttpProcess(['--no-user', CHAT_SKILLS, extra, shapes], { AGENT_SKILLS_MCP_TOKEN: 'inspector-token' });
    try {
      const target = ['--transport', 'http', '--server-url', server.url];
      for (const era of ERAS) {
        const run = await runInspector(['--protocol-era', era, '--method', 'skills/list', '--verify', '--header', 'Authorization: Bearer inspector-token'], target);
        assert.equal(run.code, 0, `${era}: ${run.stdout}${run.stderr}`);
        assertVerified(run.stdout, expectedFiles);
      }
      const refused = await runInspector(['--method', 'skills/list'], target);
      assert.notEqual(refused.code, 0, 'no token, no skills');
      assert.match(server.stderr(), /401 for POST \/mcp from 127\.0\.0\.1: no bearer token\./);
    } finally {
      server.signal('SIGTERM');
      await server.exited;
    }
  });

  it('reports no tool-schema portability problem with tools/list --strict', async () => {
    const run = await inspect(['--method', 'tools/list', '--strict'], [CHAT_SKILLS]);
    assert.equal(run.code, 0, run.stderr);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string }[] };
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['activate_skill', 'find_skills', 'read_skill_resource']);
  });

  it('returns the skill body from tools/call activate_skill', async () => {
    const run = await inspect(['--method', 'tools/call', '--tool-name', 'activate_skill', '--tool-arg', 'name=plain-notes'], [CHAT_SKILLS]);
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as { content: { text: string }[]; isError?: boolean };
    assert.equal(result.isError, undefined);
    assert.match(result.content[0].text, /^<skill name="plain-notes"/);
    assert.match(result.content[0].text, /Open questions\./);
  });

  it('answers find_skills under load (concurrency 10) without errors', async () => {
    const run = await inspect(['--method', 'tools/call', '--tool-name', 'find_skills', '--tool-arg', 'query=pdf report', '--load', '--load-concurrency', '10', '--load-duration', '1'], [CHAT_SKILLS]);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as { requests: number; errors: number; toolErrors: number };
    assert.ok(summary.requests > 50, `only ${summary.requests} calls`);
    assert.equal(summary.errors, 0);
    assert.equal(summary.toolErrors, 0);
  });
});

describe('agent-skills mcp, as a process', function () {
  this.timeout(30_000);

  before(async () => {
    await ensureBundle();
  });

  function start(roots = [CHAT_SKILLS], env: NodeJS.ProcessEnv = {}): { send(line: string): void; end(): void; kill(): void; lines(): string[]; stderr(): string; exited: Promise<number | null> } {
    const child = spawn(process.execPath, [BUNDLE, 'mcp', '--no-user', '--no-builtin', ...roots], { cwd: REPOSITORY, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return {
      send: (line) => child.stdin.write(`${line}\n`),
      end: () => child.stdin.end(),
      kill: () => child.kill('SIGTERM'),
      lines: () => stdout.split('\n').filter((line) => line !== ''),
      stderr: () => stderr,
      exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    };
  }

  async function until(probe: () => boolean, message: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!probe()) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out: ${message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('writes only JSON-RPC to stdout, answers bad input with errors, and exits 0 when stdin closes', async () => {
    const server = start();
    server.send(INITIALIZE);
    await until(() => server.lines().length >= 1, 'initialize answered');
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    server.send('this is not json');
    server.send('{"jsonrpc":"2.0","id":2,"method":"skills/get","params":{"uri":"skill://no-such/SKILL.md"}}');
    server.send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"activate_skill","arguments":{"name":"pdf-report"}}}');
    await until(() => server.lines().some((line) => line.includes('"id":3')), 'tools/call answered');
    server.end();
    assert.equal(await server.exited, 0);
    const messages = server.lines().map((line) => JSON.parse(line) as { id?: number; error?: { code: number; message: string }; result?: { content?: { text: string }[] } });
    assert.ok(messages.every((message) => (message as { jsonrpc?: string }).jsonrpc === '2.0'));
    assert.equal(messages.find((message) => message.id === 2)?.error?.code, -32602);
    assert.match(messages.find((message) => message.id === 3)?.result?.content?.[0].text ?? '', /^<skill name="pdf-report"/);
    assert.match(server.stderr(), /agent-skills mcp: serving skills from /);
  });

  it('starts with roots that do not exist yet, serves what exists, and picks a root up when it appears', async () => {
    const dir = await tempDir();
    const userSkills = path.join(dir, 'home', '.agent', 'skills');
    const server = start([CHAT_SKILLS, userSkills]);
    try {
      server.send(INITIALIZE);
      await until(() => server.lines().length >= 1, 'initialize answered');
      server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      const activateNames = async (id: number): Promise<string[]> => {
        server.send(`{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`);
        await until(() => server.lines().some((line) => line.startsWith(`{"result"`) && line.includes(`"id":${id}`)), `tools/list ${id} answered`);
        const answer = JSON.parse(server.lines().find((line) => line.includes(`"id":${id}`))!) as { result: { tools: { name: string; inputSchema: { properties: { name?: { enum: string[] } } } }[] } };
        return answer.result.tools.find((tool) => tool.name === 'activate_skill')!.inputSchema.properties.name!.enum;
      };
      assert.ok((await activateNames(2)).includes('pdf-report'));
      assert.match(server.stderr(), /home\/\.agent\/skills does not exist yet; its skills are served once it appears\./);
      await writeTree(path.join(userSkills, 'late-skill'), { 'SKILL.md': skillText('late-skill', 'A skill made after the server started.') });
      await until(() => server.lines().some((line) => line.includes('notifications/tools/list_changed')), 'tools/list_changed sent');
      assert.ok((await activateNames(3)).includes('late-skill'));
      server.end();
      assert.equal(await server.exited, 0);
    } finally {
      server.kill();
      await removeDir(dir);
    }
  });

  it('appends each activation to the file AGENT_SKILLS_USAGE_LOG names, and serves on when it cannot write there', async () => {
    const dir = await tempDir();
    const usageLog = path.join(dir, 'storage', 'mcp-activations.jsonl');
    const blocked = path.join(dir, 'a-file', 'mcp-activations.jsonl');
    await writeTree(dir, { 'a-file': 'not a folder' });
    try {
      for (const file of [usageLog, blocked]) {
        const server = start([CHAT_SKILLS], { AGENT_SKILLS_USAGE_LOG: file });
        server.send(INITIALIZE);
        await until(() => server.lines().length >= 1, 'initialize answered');
        server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
        for (const id of [2, 3]) {
          server.send(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"activate_skill","arguments":{"name":"pdf-report"}}}`);
        }
        await until(() => server.lines().some((line) => line.includes('"id":3')), 'both calls answered');
        server.end();
        assert.equal(await server.exited, 0, server.stderr());
        const answers = server.lines().map((line) => JSON.parse(line) as { id?: number; result?: { content: { text: string }[] } });
        const texts = [2, 3].map((id) => answers.find((answer) => answer.id === id)?.result?.content[0].text ?? '');
        assert.ok(texts.every((text) => text.startsWith('<skill name="pdf-report"')));
        if (file === usageLog) {
          const { activations } = parseUsageLog(await fs.readFile(usageLog, 'utf8'));
          assert.deepEqual(
            activations.map(({ skill, via, chars }) => [skill, via, chars]),
            texts.map((text) => ['pdf-report', 'tool', text.length]),
          );
        } else {
          assert.equal(server.stderr().match(/could not record an activation/g)?.length, 1, server.stderr());
          assert.match(server.stderr(), /agent-skills mcp: could not record an activation in .*a-file\/mcp-activations\.jsonl: ENOTDIR/);
        }
      }
    } finally {
      await removeDir(dir);
    }
  });

  it('answers every line that is no JSON-RPC 2.0 message, and lines over 10 MiB, with an error, and keeps serving', async () => {
    const server = start();
    server.send(INITIALIZE);
    await until(() => server.lines().length >= 1, 'initialize answered');
    for (const line of BAD_LINES) {
      server.send(line);
    }
    server.send(paddedPing(10, 10 * 1024 * 1024 + 1));
    server.send(paddedPing(11, 11 * 1024 * 1024));
    server.send(paddedPing(12, 10 * 1024 * 1024));
    server.send('{"jsonrpc":"2.0","id":13,"method":"resources/read"}');
    server.send('{"jsonrpc":"2.0","id":14,"method":"ping"}');
    await until(() => server.lines().some((line) => line.includes('"id":14')), 'ping after the bad lines answered');
    const answers = server
      .lines()
      .slice(1)
      .map((line) => JSON.parse(line) as { id: unknown; error?: { code: number; message: string }; result?: object });
    assert.deepEqual(
      answers.map((answer) => [answer.id, answer.error?.code ?? 'result']),
      [...BAD_LINE_ANSWERS, [10, -32600], [11, -32600], [12, 'result'], [13, -32602], [14, 'result']],
    );
    assert.match(answers[6].error!.message, /^The message is longer than 10 MiB \(10,485,760 bytes\)/);
    assert.equal(answers[9].error!.message, 'Invalid params for resources/read: params: expected object, received undefined.');
    server.end();
    assert.equal(await server.exited, 0);
  });

  it('answers the Skills extension with resultType, ttlMs and cacheScope on 2025-11-25, which initialize still opens', async () => {
    const server = start();
    server.send(INITIALIZE.replace('2025-11-25', '2026-07-28'));
    await until(() => server.lines().length >= 1, 'initialize answered');
    const initialize = JSON.parse(server.lines()[0]) as { result: { protocolVersion: string } };
    assert.equal(initialize.result.protocolVersion, '2025-11-25', 'initialize opens 2025-11-25 whatever it asks for: 2026-07-28 has no initialize');
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    server.send('{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}}');
    server.send('{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://pdf-report/SKILL.md"}}');
    server.send('{"jsonrpc":"2.0","id":4,"method":"resources/directory/read","params":{"uri":"skill://pdf-report"}}');
    await until(() => server.lines().some((line) => line.includes('"id":4')), 'directory read answered');
    const results = new Map(
      server
        .lines()
        .slice(1)
        .map((line) => JSON.parse(line) as { id: number; result: Record<string, unknown> })
        .map((answer) => [answer.id, answer.result]),
    );
    assert.deepEqual([results.get(2)!.resultType, results.get(2)!.ttlMs, results.get(2)!.cacheScope], ['complete', 0, 'private']);
    assert.ok((results.get(2)!.skills as unknown[]).length > 0);
    assert.deepEqual([results.get(3)!.resultType, results.get(3)!.ttlMs, results.get(3)!.cacheScope], ['complete', 0, 'private']);
    assert.equal((results.get(3)!.skill as { uri: string }).uri, 'skill://pdf-report/SKILL.md');
    assert.equal(results.get(4)!.resultType, 'complete');
    assert.ok((results.get(4)!.resources as unknown[]).length > 0);
    server.end();
    assert.equal(await server.exited, 0);
  });

  it('serves 2026-07-28 on the same command: server/discover, then requests carrying the revision in _meta, each result with the fields that revision asks for', async () => {
    const server = start();
    try {
      const request = (id: number, method: string, params: Record<string, unknown> = {}): void => server.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } }));
      request(1, 'server/discover');
      await until(() => server.lines().some((line) => line.includes('"id":1')), 'server/discover answered');
      request(2, 'tools/list');
      request(3, 'skills/list');
      request(4, 'resources/directory/read', { uri: 'skill://pdf-report' });
      server.send(INITIALIZE.replace('"id":1', '"id":5'));
      server.send('{"jsonrpc":"2.0","id":6,"method":"tools/list"}');
      await until(() => [2, 3, 4, 5, 6].every((id) => server.lines().some((line) => line.includes(`"id":${id}`))), 'every request answered');
      const answers = new Map(
        server
          .lines()
          .map((line) => JSON.parse(line) as { id: number; result?: Record<string, unknown>; error?: { code: number; message: string } })
          .map((answer) => [answer.id, answer]),
      );
      const discover = answers.get(1)!.result!;
      assert.deepEqual(discover.supportedVersions, ['2026-07-28']);
      assert.deepEqual((discover.capabilities as { extensions: unknown }).extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true } });
      assert.match(discover.instructions as string, /<available_skills>/);
      for (const id of [2, 3]) {
        const { resultType, ttlMs, cacheScope } = answers.get(id)!.result!;
        assert.deepEqual([resultType, ttlMs, cacheScope], ['complete', 0, 'private'], `request ${id}`);
      }
      assert.equal(answers.get(4)!.result!.resultType, 'complete');
      assert.equal(answers.get(5)!.error?.code, -32022, 'no initialize once the connection speaks 2026-07-28');
      assert.equal(answers.get(6)!.error?.code, -32602, 'a request without the revision in its _meta is refused');
      server.end();
      assert.equal(await server.exited, 0);
    } finally {
      server.kill();
    }
  });

  it('exits 0 on SIGTERM', async () => {
    const server = start();
    await until(() => server.stderr().includes('serving skills'), 'server started');
    server.kill();
    assert.equal(await server.exited, 0);
  });
});
