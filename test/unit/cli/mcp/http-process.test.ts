// `agent-skills mcp --http` as a real process: what it refuses at start (an address beyond this
// machine without a token, an unreadable or empty token file, a malformed address), and a clean
// exit 0 on SIGINT and SIGTERM with sessions open.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BUNDLE, ensureBundle, REPOSITORY } from '../bundle';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { startHttpProcess } from './http-process';

interface Exit {
  code: number;
  stderr: string;
}

async function runMcp(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [BUNDLE, 'mcp', '--no-user', '--no-builtin', ...args], {
      cwd: REPOSITORY,
      env: { ...process.env, AGENT_SKILLS_MCP_TOKEN: '', ...env },
      timeout: 10_000,
    });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stderr: failed.stderr ?? '' };
  }
}

describe('agent-skills mcp --http, as a process', function () {
  this.timeout(30_000);
  let dir: string;
  let skills: string;

  before(async () => {
    await ensureBundle();
    dir = await tempDir();
    skills = path.join(dir, 'skills');
    await writeTree(skills, { 'pdf-report': { 'SKILL.md': skillText('pdf-report', 'Build a PDF report from a CSV file.') } });
  });

  after(async () => {
    await removeDir(dir);
  });

  it('refuses to listen beyond this machine without a token: a message on stderr and exit 2', async () => {
    for (const address of ['0.0.0.0:0', '[::]:0', '192.0.2.10:8080']) {
      const run = await runMcp(['--http', address, skills]);
      assert.equal(run.code, 2, `${address}: ${run.stderr}`);
      assert.match(run.stderr, /would serve skills beyond this machine without a token\. Give one with --token-file FILE or AGENT_SKILLS_MCP_TOKEN/);
      assert.doesNotMatch(run.stderr, /listening on/);
    }
  });

  it("names a port already in use as the user's problem (exit 1), not an internal error", async () => {
    const occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = occupant.address() as { port: number };
      const run = await runMcp(['--http', `127.0.0.1:${port}`, skills]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`agent-skills: mcp: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use\\.`));
    } finally {
      await new Promise((resolve) => occupant.close(resolve));
    }
  });

  it('refuses a token file it cannot read or that is empty, and a malformed address', async () => {
    const missing = await runMcp(['--http', '0.0.0.0:0', '--token-file', path.join(dir, 'no-such-token'), skills]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read the token file .*no-such-token/);
    const emptyFile = path.join(dir, 'empty-token');
    await fs.writeFile(emptyFile, '\n');
    const empty = await runMcp(['--http', '0.0.0.0:0', '--token-file', emptyFile, skills]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /empty-token: the token is empty/);
    const malformed = await runMcp(['--http', '::1:8080', skills]);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /put an IPv6 address in brackets/);
    const strayOption = await runMcp(['--token-file', emptyFile, skills]);
    assert.equal(strayOption.code, 2);
    assert.match(strayOption.stderr, /--token-file applies to --http only/);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`closes its sessions and exits 0 on ${signal}`, async () => {
      const tokenFile = path.join(dir, 'token');
      await fs.writeFile(tokenFile, 'file-token-0123456789\n');
      const server = await startHttpProcess(['--no-user', '--no-builtin', '--token-file', tokenFile, skills]);
      const client = new Client({ name: 'signal-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: 'Bearer file-token-0123456789' } } }));
      assert.ok((await client.listTools()).tools.length > 0);
      server.signal(signal);
      assert.equal(await server.exited, 0, server.stderr());
      assert.match(server.stderr(), /stopped: closed 1 session\./);
      await client.close();
    });
  }
});
