// The skill server client against this product's own server (`agent-skills mcp`, the built
// dist/cli.js) as a real process: over stdio and over HTTP on 127.0.0.1 with a bearer token.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectSkillServer, type SkillServerConnection } from '../../../../src/core/servers/mcp-client';
import { contentMismatch, servedFilePath } from '../../../../src/core/servers/served-skill';
import { BUNDLE, ensureBundle } from '../../cli/bundle';
import { startHttpProcess } from '../../cli/mcp/http-process';
import { skillText, temporaryFolder } from './served-fixtures';

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

  it('says why it cannot connect: no such program, nothing listening, no skills served', async () => {
    await assert.rejects(connectSkillServer({ kind: 'stdio', command: path.join(temporaryFolder(), 'missing'), args: [] }, { clientVersion: 'test' }), /cannot start .*missing: spawn .* ENOENT/);
    await assert.rejects(connectSkillServer({ kind: 'http', url: 'http://127.0.0.1:9/mcp' }, { clientVersion: 'test' }), /fetch failed/);
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
