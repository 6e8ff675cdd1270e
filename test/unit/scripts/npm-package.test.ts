// The agent-skills-vscode npm package, packed and installed into an empty folder with no registry
// reachable: what it holds, and its command line and MCP server run from the install.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import rootManifest from '../../../package.json';
import { REPOSITORY } from '../cli/bundle';
import { removeDir, tempDir } from '../../fixtures/trees/tree';
import { documentationPages } from '../docs/markdown-links';
import { PACKAGE_NAME, packedPackage, run, type PackedPackage } from './packed-package';

const FIXTURE_SKILLS = path.join(REPOSITORY, 'test', 'fixtures', 'skills');

function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

describe("the documentation's MCP client configurations", () => {
  const text = documentationPages(REPOSITORY)
    .map((page) => fs.readFileSync(page, 'utf8'))
    .join('\n');
  const codeBlocks = [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map(([, code]) => code);

  it(`start the server with \`npx -y ${PACKAGE_NAME} mcp\`, and no code block runs another project's package`, () => {
    const clientConfigurations = codeBlocks.filter((code) => /mcpServers|mcp_servers/.test(code) && !/"url"|^url =/m.test(code));
    assert.ok(clientConfigurations.length >= 4, 'Claude Code, Claude Desktop, Cursor and Gemini CLI, Codex');
    for (const code of clientConfigurations) {
      const json = `"command": "npx", "args": ["-y", "${PACKAGE_NAME}", "mcp"`;
      const toml = `command = "npx"\nargs = ["-y", "${PACKAGE_NAME}", "mcp"`;
      assert.ok(code.includes(json) || code.includes(toml), code);
    }
    for (const code of codeBlocks) {
      assert.doesNotMatch(code, /\bnpx (?:-y |--yes )?agent-skills(?!-vscode)\b/, code);
      assert.doesNotMatch(code, /"npx", "args": \["-y", "agent-skills"/, code);
    }
  });
});

describe('the agent-skills-vscode npm package, installed offline', function () {
  this.timeout(180_000);
  let packed: PackedPackage;
  let project: string;
  let installed: string;
  let bin: string;

  before(async () => {
    packed = await packedPackage();
    project = await tempDir();
    const install = await run('npm', ['install', packed.tarball], { cwd: project, env: packed.offlineEnv });
    assert.equal(install.code, 0, install.stderr);
    installed = path.join(project, 'node_modules', PACKAGE_NAME);
    bin = path.join(project, 'node_modules', '.bin', PACKAGE_NAME);
  });

  after(async () => removeDir(project));

  it('holds only its bundles, the built-in skills, README and LICENSE, with the version and Node range of the extension', () => {
    const builtinSkills = filesUnder(path.join(REPOSITORY, 'skills')).map((file) => `skills/${file}`);
    assert.deepEqual(
      filesUnder(installed),
      ['LICENSE', 'README.md', 'dist/agent-skills.js', 'dist/cli-mcp-command.js', 'dist/cli-mcp-libraries.js', 'dist/cli-rare-commands.js', 'dist/cli.js', 'package.json', ...builtinSkills].sort(),
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.name, PACKAGE_NAME);
    assert.notEqual(PACKAGE_NAME, 'agent-skills', 'agent-skills on the npm registry is another project');
    assert.equal(manifest.version, rootManifest.version);
    assert.deepEqual(manifest.bin, { [PACKAGE_NAME]: 'dist/agent-skills.js' });
    assert.deepEqual(manifest.engines, { node: rootManifest.engines.node });
    assert.equal(manifest.dependencies, undefined, 'the bundles need no installed dependency');
    assert.equal(fs.readFileSync(path.join(installed, 'LICENSE'), 'utf8'), fs.readFileSync(path.join(REPOSITORY, 'LICENSE'), 'utf8'));
  });

  it(`runs as \`${PACKAGE_NAME} --help\` and \`--version\` from the installed bin`, async () => {
    const help = await run(bin, ['--help'], { cwd: project });
    assert.equal(help.code, 0, help.stderr);
    assert.ok(help.stdout.startsWith(`agent-skills ${rootManifest.version}: `), help.stdout);
    assert.match(help.stdout, /^ {2}agent-skills mcp /m);
    const version = await run(bin, ['--version'], { cwd: project });
    assert.equal(version.stdout, `${rootManifest.version}\n`);
  });

  it(`runs with \`npx -y\` from the packed tarball, in a folder where it is not installed`, async () => {
    const elsewhere = await tempDir();
    try {
      const npx = await run('npx', ['--yes', '--package', packed.tarball, PACKAGE_NAME, '--help'], { cwd: elsewhere, env: packed.offlineEnv });
      assert.equal(npx.code, 0, npx.stderr);
      assert.ok(npx.stdout.startsWith(`agent-skills ${rootManifest.version}: `), npx.stdout);
    } finally {
      await removeDir(elsewhere);
    }
  });

  it('validates fixtures: exit 0 for a valid skill, 1 naming the file and the problem for an invalid one', async () => {
    const valid = await run(bin, ['validate', path.join(FIXTURE_SKILLS, 'valid')], { cwd: project });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    assert.match(valid.stdout, /^1 skill checked: 0 errors, 0 warnings$/m);
    const invalid = await run(bin, ['validate', path.join(FIXTURE_SKILLS, 'missing-description')], { cwd: project });
    assert.equal(invalid.code, 1);
    assert.match(invalid.stdout, /missing-description[/\\]SKILL\.md:\d+:\d+: error: .*description/);
  });

  it('answers MCP initialize over `mcp` on stdio, and serves its built-in skills from inside the package', async () => {
    const home = await tempDir();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
    delete env.AGENT_SKILLS_PATH;
    const server = spawn(bin, ['mcp', '--no-user', FIXTURE_SKILLS], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const answers = new Map<number, Record<string, unknown>>();
    const waiting = new Map<number, (answer: Record<string, unknown>) => void>();
    createInterface({ input: server.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
      if (typeof message.id === 'number') {
        answers.set(message.id, message);
        waiting.get(message.id)?.(message);
      }
    });
    const request = (id: number, method: string, params: object): Promise<Record<string, unknown>> => {
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method} in 30 s; stderr: ${stderr}`)), 30_000);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        const known = answers.get(id);
        if (known) {
          waiting.get(id)!(known);
        }
      });
    };
    try {
      const initialized = (await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'package-test', version: '1' } })).result as {
        protocolVersion: string;
        serverInfo: { name: string; version: string };
        capabilities: Record<string, unknown>;
      };
      assert.equal(initialized.protocolVersion, '2025-11-25');
      assert.deepEqual(initialized.serverInfo, { ...initialized.serverInfo, name: 'agent-skills', version: rootManifest.version });
      assert.ok(initialized.capabilities.tools, 'the server offers its tools');
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const activated = (await request(2, 'tools/call', { name: 'activate_skill', arguments: { name: 'writing-skills' } })).result as { content: { text: string }[]; isError?: boolean };
      assert.equal(activated.isError, undefined);
      assert.ok(
        activated.content.some((part) => part.text.includes(path.join(installed, 'skills', 'writing-skills'))),
        `the built-in skill is read from the installed package: ${JSON.stringify(activated.content)}`,
      );
    } finally {
      server.stdin.end();
      const code = await new Promise<number | null>((resolve) => server.on('close', resolve));
      await removeDir(home);
      assert.equal(code, 0, stderr);
    }
  });
});
