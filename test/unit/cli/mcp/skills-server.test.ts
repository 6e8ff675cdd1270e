// The MCP server driven by the official SDK's own client (in memory): instructions, tools with the
// name enum, prompts, the Skills extension with digests checked by the SDK's SkillsClient, live
// changes through the real watcher, allowlist, untrusted roots and hostile files.

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import * as z from 'zod/mini';
import { serveSkills, startSkillsService } from '../../../../src/cli/mcp/mcp-command';
import type { SkillsService } from '../../../../src/cli/mcp/skills-service';
import type { SkillRoot } from '../../../../src/core/model/types';
import { parseUsageLog } from '../../../../src/core/use/usage-log';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { LineClientTransport } from './line-transport';
import { PUBLIC_SHAPES_FRONTMATTER, writePublicShapes } from './public-shapes';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);

interface Connection {
  service: SkillsService;
  client: Client;
  skills: SkillsClient;
  logs: string[];
  close(): Promise<void>;
}

async function connect(roots: SkillRoot[], allowlist: string[] = [], catalogBudgetChars = 16_000, usageLog?: string): Promise<Connection> {
  const logs: string[] = [];
  const service = await startSkillsService({ roots, allowlist, catalogBudgetChars, usageLog, log: (message) => logs.push(message) });
  await service.watcher.ready; // Tests edit files right away.
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await service.openServer().connect(serverSide);
  const client = new Client({ name: 'unit-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    service,
    client,
    skills: new SkillsClient(client),
    logs,
    async close() {
      await client.close();
      await service.close();
    },
  };
}

function text(result: { content?: unknown }): string {
  return (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  return { text: text(result), isError: result.isError === true };
}

function sha256(bytes: Buffer | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, message: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out: ${message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('agent-skills mcp, through the SDK client', function () {
  this.timeout(20_000);
  let dir: string;
  let workspace: string;
  let user: string;
  let outside: string;
  let connection: Connection;

  beforeEach(async () => {
    dir = await tempDir();
    workspace = path.join(dir, 'workspace');
    user = path.join(dir, 'user');
    outside = path.join(dir, 'outside');
    await writeTree(workspace, {
      'pdf-report': {
        'SKILL.md': skillText(
          'pdf-report',
          'Build a PDF report from a CSV file.',
          'Render $ARGUMENTS as PDF. PDF-BODY-MARKER\nSee [guide](references/guide.md).',
          'license: MIT\ncreated: 2024-01-01\nmetadata:\n  version: "2.1"\n',
        ),
        references: { 'guide.md': '# Guide\nGUIDE-MARKER\n' },
        assets: { 'logo.png': PNG_BYTES },
        scripts: { 'render.py': 'print("render")\n' },
        evals: { 'triggers.json': '[{ "query": "TRIGGER-QUERY-MARKER", "should_trigger": true }]\n' },
      },
      deploy: { 'SKILL.md': skillText('deploy', 'Deploy the service to an environment.', 'DEPLOY-BODY for $ARGUMENTS', 'disable-model-invocation: true\nargument-hint: "[environment]"\n') },
      'table-helper': { 'SKILL.md': skillText('table-helper', 'Format tables for the model.', 'TABLE-BODY', 'user-invocable: false\n') },
      'js-skill': { 'SKILL.md': `---js\n{ name: require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'pwned'))}, 'x') || 'js-skill', description: 'runs code' }\n---\nJS-BODY\n` },
      escape: { 'SKILL.md': skillText('escape', 'A skill with a link that leads outside.') },
    });
    await writeTree(user, { 'pdf-report': { 'SKILL.md': skillText('pdf-report', 'A user copy that the workspace shadows.', 'USER-PDF-BODY') } });
    await writeTree(outside, { 'secret.txt': 'SECRET-OUTSIDE\n' });
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'escape', 'secret.txt'));
    connection = await connect([root(workspace), root(user, 'user')]);
  });

  afterEach(async () => {
    await connection.close();
    await removeDir(dir);
  });

  it('puts the catalog, rendered as @skills renders it, in the instructions', () => {
    const instructions = connection.client.getInstructions() ?? '';
    assert.match(instructions, /call activate_skill with its exact name/);
    assert.match(instructions, /<available_skills>\nSkills: call activate_skill with a name below/);
    assert.match(instructions, /\npdf-report: Build a PDF report from a CSV file\.\n/);
    assert.match(instructions, /table-helper: Format tables/);
    assert.doesNotMatch(instructions, /deploy:/, 'a skill only the user may start is not offered to the model');
    assert.doesNotMatch(instructions, /skills_activate/, 'no editor tool names');
    assert.equal(connection.client.getServerVersion()?.name, 'agent-skills');
  });

  it('lists the three tools with the model-invocable names as an enum', async () => {
    const { tools } = await connection.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['activate_skill', 'find_skills', 'read_skill_resource']);
    const activate = tools.find((tool) => tool.name === 'activate_skill')!;
    const name = (activate.inputSchema.properties as Record<string, { enum?: string[] }>).name;
    assert.deepEqual([...name.enum!].sort(), ['escape', 'pdf-report', 'table-helper']);
    assert.match(activate.description ?? '', /pdf-report: Build a PDF report/);
    const read = tools.find((tool) => tool.name === 'read_skill_resource')!;
    assert.ok((read.inputSchema.properties as Record<string, { enum?: string[] }>).skill.enum!.includes('deploy'), 'a user-started skill can hand its files to the model');
    assert.match(read.description ?? '', /^Reads a text file inside a skill's folder/);
    const find = tools.find((tool) => tool.name === 'find_skills')!;
    assert.deepEqual(
      [find, read, activate].map((tool) => tool.annotations?.readOnlyHint),
      [true, true, undefined],
    );
  });

  it('says that its tools, prompts and resources change', () => {
    const capabilities = connection.client.getServerCapabilities();
    assert.deepEqual([capabilities?.tools?.listChanged, capabilities?.prompts?.listChanged, capabilities?.resources?.listChanged], [true, true, true]);
  });

  it('says that its prompts change also while no skill is a prompt, and offers one added later', async () => {
    await connection.close();
    const modelOnly = path.join(dir, 'model-only');
    await writeTree(modelOnly, { 'table-helper': { 'SKILL.md': skillText('table-helper', 'Format tables for the model.', 'TABLE-BODY', 'user-invocable: false\n') } });
    connection = await connect([root(modelOnly)]);
    assert.equal(connection.client.getServerCapabilities()?.prompts?.listChanged, true);
    assert.deepEqual((await connection.client.listPrompts()).prompts, []);

    const promptsChanged = new Promise<void>((resolve) => connection.client.setNotificationHandler('notifications/prompts/list_changed', () => resolve()));
    await writeTree(path.join(modelOnly, 'release-notes'), { 'SKILL.md': skillText('release-notes', 'Write release notes from the changelog.') });
    await promptsChanged;
    assert.deepEqual(
      (await connection.client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['release-notes'],
    );
  });

  it('activates a skill with the editor tool’s text, and refuses what the editor refuses, as tool errors', async () => {
    const activated = await call(connection.client, 'activate_skill', { name: 'pdf-report', arguments: 'sales.csv' });
    assert.equal(activated.isError, false);
    assert.match(activated.text, /^<skill name="pdf-report" dir="[^"]+workspace\/pdf-report">/);
    assert.match(activated.text, /Render sales\.csv as PDF\. PDF-BODY-MARKER/);
    assert.match(activated.text, /read one with read_skill_resource\):\n- assets\/logo\.png\n- references\/guide\.md\n- scripts\/render\.py/);
    assert.doesNotMatch(activated.text, /GUIDE-MARKER|USER-PDF-BODY/);
    assert.equal(connection.service.registry.snapshot.usable('pdf-report')?.status, 'active');

    const typo = await call(connection.client, 'activate_skill', { name: 'pdf-reprot' });
    assert.equal(typo.isError, true);
    assert.match(typo.text, /^No skill named "pdf-reprot"\. Did you mean: pdf-report\?/);
    const userOnly = await call(connection.client, 'activate_skill', { name: 'deploy' });
    assert.equal(userOnly.isError, true);
    assert.match(userOnly.text, /can only be started by the user/);
    assert.doesNotMatch(userOnly.text, /DEPLOY-BODY/);
    const malformed = await call(connection.client, 'activate_skill', { name: 42 });
    assert.equal(malformed.isError, true);
    assert.match(malformed.text, /activate_skill needs "name" as a non-empty string/);
  });

  it('finds skills and reads resource files, never outside the skill folder', async () => {
    const noQuery = await call(connection.client, 'find_skills', {});
    assert.deepEqual(noQuery, { text: 'find_skills needs "query" as a string, e.g. {"query": "fill a pdf form"}; an empty query lists every skill.', isError: true });
    const found = await call(connection.client, 'find_skills', { query: 'csv report' });
    assert.match(found.text, /- pdf-report: Build a PDF report/);
    assert.match(found.text, /Load one with activate_skill\./);

    assert.deepEqual(await call(connection.client, 'read_skill_resource', { skill: 'pdf-report' }), {
      text: 'read_skill_resource needs "path" relative to the skill folder, e.g. "references/guide.md".',
      isError: true,
    });
    const guide = await call(connection.client, 'read_skill_resource', { skill: 'pdf-report', path: 'references/guide.md' });
    assert.deepEqual(guide, { text: '# Guide\nGUIDE-MARKER\n', isError: false });
    for (const attempt of ['../deploy/SKILL.md', '/etc/passwd', '..\\..\\outside\\secret.txt', 'secret.txt']) {
      const refused = await call(connection.client, 'read_skill_resource', { skill: attempt === 'secret.txt' ? 'escape' : 'pdf-report', path: attempt });
      assert.equal(refused.isError, true, attempt);
      assert.doesNotMatch(refused.text, /SECRET-OUTSIDE|DEPLOY-BODY|root:/, attempt);
    }
  });

  it("keeps the skill's trigger tests (evals/) out of the tools, resources and directory reads, refused with the reason", async () => {
    const activation = await call(connection.client, 'activate_skill', { name: 'pdf-report' });
    assert.match(activation.text, /- references\/guide\.md/);
    assert.doesNotMatch(activation.text, /evals/);
    const read = await call(connection.client, 'read_skill_resource', { skill: 'pdf-report', path: 'evals/triggers.json' });
    assert.deepEqual(read, { text: `"evals/triggers.json" is in the skill's evals/ folder, which holds its tests for the skill's authors; it is not given to the model.`, isError: true });

    const pdf = (await connection.skills.list()).skills.find((skill) => skill.uri === 'skill://pdf-report/SKILL.md')!;
    assert.ok(!(pdf.resources as { uri: string }[]).some((resource) => resource.uri.includes('evals')));
    assert.ok(!(await connection.skills.readDirectory('skill://pdf-report')).resources.some((resource) => resource.name === 'evals'));
    assert.ok(!(await connection.client.listResources()).resources.some((resource) => resource.uri.includes('evals')));
    for (const [uri, request] of [
      ['skill://pdf-report/evals/triggers.json', () => connection.client.readResource({ uri: 'skill://pdf-report/evals/triggers.json' })],
      ['skill://pdf-report/evals', () => connection.skills.readDirectory('skill://pdf-report/evals')],
    ] as const) {
      await assert.rejects(
        request(),
        (error: ProtocolError) => error.code === -32602 && error.message.includes(`${uri}: "evals`) && error.message.includes("holds its tests for the skill's authors"),
        uri,
      );
    }
  });

  it('offers every user-invocable skill as a prompt, also those hidden from the model', async () => {
    const { prompts } = await connection.client.listPrompts();
    assert.deepEqual(prompts.map((prompt) => prompt.name).sort(), ['deploy', 'escape', 'pdf-report']);
    const deploy = prompts.find((prompt) => prompt.name === 'deploy')!;
    assert.deepEqual(deploy.arguments, [{ name: 'arguments', description: 'Arguments: [environment]', required: false }]);
    const result = await connection.client.getPrompt({ name: 'deploy', arguments: { arguments: 'staging' } });
    assert.equal(result.messages[0].role, 'user');
    assert.match(text({ content: [result.messages[0].content] }), /DEPLOY-BODY for staging/);
  });

  it('lists the prompts in the order of the skills, tells of a change of tools or prompts only when they change (an activation changes neither), and refuses an unknown one', async () => {
    const notices: string[] = [];
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      connection.client.setNotificationHandler(`notifications/${kind}/list_changed`, () => void notices.push(kind));
    }
    assert.deepEqual(
      (await connection.client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['deploy', 'escape', 'pdf-report'],
    );
    await call(connection.client, 'activate_skill', { name: 'pdf-report' });
    await waitFor(() => notices.includes('resources'), 'the activation announced');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(notices, ['resources'], 'neither the tools nor the prompts changed');

    await writeTree(path.join(workspace, 'audit-log'), { 'SKILL.md': skillText('audit-log', 'Summarize the audit log.') });
    await waitFor(() => notices.includes('prompts'), 'the new prompt announced');
    assert.deepEqual(
      (await connection.client.listPrompts()).prompts.map((prompt) => prompt.name),
      ['audit-log', 'deploy', 'escape', 'pdf-report'],
    );
    await assert.rejects(connection.client.getPrompt({ name: 'table-helper' }), (error: ProtocolError) => error.code === -32602 && error.message.includes('Prompt table-helper not found'));
  });

  it('takes blank prompt arguments as none', async () => {
    const promptText = async (args?: Record<string, string>): Promise<string> => {
      const result = await connection.client.getPrompt({ name: 'deploy', ...(args ? { arguments: args } : {}) });
      return text({ content: [result.messages[0].content] });
    };
    const without = await promptText();
    assert.equal(await promptText({ arguments: ' \t ' }), without);
    assert.notEqual(await promptText({ arguments: 'staging' }), without);
  });

  it('records each activation by its tool or a prompt in the usage log it is given, and without one writes nothing', async () => {
    await call(connection.client, 'activate_skill', { name: 'pdf-report' });
    assert.deepEqual((await fs.readdir(dir)).sort(), ['outside', 'user', 'workspace'], 'a server given no usage log');

    const usageLog = path.join(dir, 'storage', 'mcp-activations.jsonl');
    const logged = await connect([root(workspace)], [], 16_000, usageLog);
    try {
      const started = Date.now();
      const activated = await call(logged.client, 'activate_skill', { name: 'pdf-report', arguments: 'sales.csv' });
      // Refusals, searches and resource reads are no activation.
      assert.equal((await call(logged.client, 'activate_skill', { name: 'pdf-reprot' })).isError, true);
      await call(logged.client, 'find_skills', { query: 'pdf' });
      await call(logged.client, 'read_skill_resource', { skill: 'pdf-report', path: 'references/guide.md' });
      const prompt = await logged.client.getPrompt({ name: 'deploy', arguments: { arguments: 'staging' } });
      const lines = await waitFor(async () => {
        const written = await fs.readFile(usageLog, 'utf8').catch(() => '');
        return written.split('\n').length > 2 ? written : undefined;
      }, 'two activations recorded');
      const { activations, malformed } = parseUsageLog(lines);
      assert.equal(malformed, 0);
      assert.deepEqual(
        activations.map(({ skill, via, chars }) => ({ skill, via, chars })),
        [
          { skill: 'pdf-report', via: 'tool', chars: activated.text.length },
          { skill: 'deploy', via: 'prompt', chars: text({ content: [prompt.messages[0].content] }).length },
        ],
      );
      assert.ok(activations.every(({ at }) => at >= started && at <= Date.now()));
    } finally {
      await logged.close();
    }
  });

  it('serves entries whose frontmatter is the file’s, verbatim, and whose digests match what resources/read returns', async () => {
    assert.equal(connection.skills.supported, true);
    assert.equal(connection.skills.directoryRead, true);
    const listing = await connection.skills.list();
    assert.deepEqual(listing.invalid, []);
    assert.deepEqual(listing.skills.map((skill) => skill.uri).sort(), ['skill://deploy/SKILL.md', 'skill://escape/SKILL.md', 'skill://pdf-report/SKILL.md', 'skill://table-helper/SKILL.md']);
    const pdf = listing.skills.find((skill) => skill.uri === 'skill://pdf-report/SKILL.md')!;
    assert.deepEqual(pdf.frontmatter, { name: 'pdf-report', description: 'Build a PDF report from a CSV file.', license: 'MIT', created: '2024-01-01', metadata: { version: '2.1' } });
    const onDisk = await fs.readFile(path.join(workspace, 'pdf-report', 'references', 'guide.md'));
    assert.deepEqual(
      (pdf.resources as { uri: string; digest: string; size: number }[]).find((resource) => resource.uri === 'skill://pdf-report/references/guide.md'),
      { uri: 'skill://pdf-report/references/guide.md', digest: sha256(onDisk), size: onDisk.length },
    );
    for (const resource of pdf.resources as { uri: string }[]) {
      const file = await connection.skills.read(pdf, resource.uri); // Throws SkillVerificationError on a size, digest or frontmatter mismatch.
      assert.equal(file.verified, true, resource.uri);
    }
    const logo = await connection.skills.read(pdf, 'skill://pdf-report/assets/logo.png');
    assert.deepEqual(Buffer.from(logo.bytes), PNG_BYTES);

    const escape = listing.skills.find((skill) => skill.uri === 'skill://escape/SKILL.md')!;
    assert.deepEqual(
      (escape.resources as { uri: string }[]).map((resource) => resource.uri),
      ['skill://escape/SKILL.md'],
      'a link leading outside is not part of the skill',
    );
  });

  it('lists every usable skill with its frontmatter verbatim, metadata holding a number, a list and nested maps included, on skills/list and skills/get', async () => {
    // The shapes of two public skills: a list in metadata (awesome-copilot's acquire-codebase-knowledge)
    // and a nested map of lists (nano-banana-pro-openrouter).
    await writeTree(path.join(workspace, 'odd-metadata'), {
      'SKILL.md': skillText(
        'odd-metadata',
        'Metadata with a number, a list and a map.',
        'Body.',
        'metadata:\n  version: 1.3\n  enhancements:\n    - "Multi-language manifest detection (25+ languages supported)"\n    - CI/CD pipeline detection\n  emoji: "🍌"\n  requires:\n    bins: [uv]\n    env: [OPENROUTER_API_KEY]\n  kept: text\n',
      ),
    });
    await connection.service.registry.refresh();
    const usable = connection.service.registry.snapshot.skills.filter((record) => record.status === 'available' || record.status === 'active').map((record) => `skill://${record.name}/SKILL.md`);
    assert.ok(usable.includes('skill://odd-metadata/SKILL.md'), 'the editor calls it usable');
    const entries = z.object({ skills: z.array(z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()) })) });
    const listing = await connection.client.request({ method: 'skills/list', params: {} }, entries);
    assert.deepEqual(listing.skills.map((skill) => skill.uri).sort(), [...usable].sort());
    const verbatim = {
      name: 'odd-metadata',
      description: 'Metadata with a number, a list and a map.',
      metadata: {
        version: 1.3,
        enhancements: ['Multi-language manifest detection (25+ languages supported)', 'CI/CD pipeline detection'],
        emoji: '🍌',
        requires: { bins: ['uv'], env: ['OPENROUTER_API_KEY'] },
        kept: 'text',
      },
    };
    assert.deepEqual(listing.skills.find((skill) => skill.uri === 'skill://odd-metadata/SKILL.md')?.frontmatter, verbatim);
    const got = await connection.client.request({ method: 'skills/get', params: { uri: 'skill://odd-metadata/SKILL.md' } }, z.object({ skill: z.object({ frontmatter: z.unknown() }) }));
    assert.deepEqual(got.skill.frontmatter, verbatim);
  });

  it('answers skills/get, directory reads and unknown URIs with the extension’s errors', async () => {
    const { skill } = await connection.skills.get('skill://pdf-report/SKILL.md');
    assert.equal(skill.frontmatter.name, 'pdf-report');
    await assert.rejects(connection.skills.get('skill://js-skill/SKILL.md'), (error: ProtocolError) => error.code === -32602);
    await assert.rejects(connection.skills.get('skill://pdf-report/references/guide.md'), (error: ProtocolError) => error.code === -32602);
    const anything = z.looseObject({});
    const refusals: [string, Record<string, unknown>, string][] = [
      ['skills/get', {}, 'Invalid params for skills/get: uri: expected a string'],
      ['skills/get', { uri: 7 }, 'Invalid params for skills/get: uri: expected a string'],
      ['skills/list', { cursor: 100 }, 'Invalid params for skills/list: cursor: expected a string'],
      ['skills/list', { cursor: 'no-such-cursor' }, 'Invalid cursor "no-such-cursor": pass back the nextCursor of the previous page.'],
    ];
    for (const [method, params, message] of refusals) {
      await assert.rejects(
        connection.client.request({ method, params }, anything),
        (error: ProtocolError) => error.code === -32602 && error.message.endsWith(message),
        `${method} ${JSON.stringify(params)}`,
      );
    }
    const root = await connection.skills.readDirectory('skill://pdf-report');
    assert.deepEqual(
      root.resources.map((resource) => [resource.name, resource.mimeType]),
      [
        ['SKILL.md', 'text/markdown'],
        ['assets', 'inode/directory'],
        ['references', 'inode/directory'],
        ['scripts', 'inode/directory'],
      ],
    );
    const references = await connection.skills.readDirectory('skill://pdf-report/references');
    assert.deepEqual(
      references.resources.map((resource) => resource.uri),
      ['skill://pdf-report/references/guide.md'],
    );
    await assert.rejects(connection.skills.readDirectory('skill://pdf-report/SKILL.md'), (error: ProtocolError) => error.code === -32602);
    for (const uri of [
      'skill://pdf-report/../deploy/SKILL.md',
      'skill://escape/secret.txt',
      'skill://pdf-report/%2e%2e/%2e%2e/outside/secret.txt',
      'skill://js-skill/SKILL.md',
      'file:///etc/passwd',
    ]) {
      await assert.rejects(connection.client.readResource({ uri }), (error: ProtocolError) => error.code === -32602, uri);
    }
  });

  it('runs no code from a ---js frontmatter and serves nothing of that skill', async () => {
    await assert.rejects(fs.stat(path.join(dir, 'pwned')), /ENOENT/);
    const tools = await call(connection.client, 'activate_skill', { name: 'js-skill' });
    assert.equal(tools.isError, true);
    assert.doesNotMatch(tools.text, /JS-BODY/);
  });

  it('keeps serving the bytes it published until the watcher reports a change, then publishes the new ones', async () => {
    const guideFile = path.join(workspace, 'pdf-report', 'references', 'guide.md');
    const [before] = (await connection.skills.list()).skills.filter((skill) => skill.uri === 'skill://pdf-report/SKILL.md');
    const changed = new Promise<void>((resolve) => connection.client.setNotificationHandler('notifications/resources/list_changed', () => resolve()));
    await fs.writeFile(guideFile, '# Guide\nEDITED\n');
    // Until a new entry is published, a read still matches the entry the client holds.
    const held = await connection.skills.read(before, 'skill://pdf-report/references/guide.md');
    assert.equal(held.verified, true);
    await changed;
    const { skill: after } = await connection.skills.get('skill://pdf-report/SKILL.md');
    const guide = (after.resources as { uri: string; digest: string }[]).find((resource) => resource.uri.endsWith('guide.md'))!;
    assert.equal(guide.digest, sha256('# Guide\nEDITED\n'));
    assert.equal(Buffer.from((await connection.skills.read(after, guide.uri)).bytes).toString(), '# Guide\nEDITED\n');
  });

  it('updates the tool enum, prompts and list when a skill is added, and keeps the last version of a broken edit', async () => {
    const toolsChanged = new Promise<void>((resolve) => connection.client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    await writeTree(path.join(workspace, 'release-notes'), { 'SKILL.md': skillText('release-notes', 'Write release notes from the changelog.') });
    await toolsChanged;
    const names = async (tool = 'activate_skill', property = 'name'): Promise<string[]> => {
      const listed = (await connection.client.listTools()).tools.find((candidate) => candidate.name === tool)!;
      return (listed.inputSchema.properties as Record<string, { enum: string[] }>)[property].enum;
    };
    await waitFor(async () => (await names()).includes('release-notes'), 'release-notes in the enum');
    assert.ok((await names('read_skill_resource', 'skill')).includes('release-notes'), "the new skill's files can be read");
    assert.ok((await connection.client.listPrompts()).prompts.some((prompt) => prompt.name === 'release-notes'));

    await connection.skills.get('skill://pdf-report/SKILL.md'); // Published once, so there is a last version to keep.
    await fs.writeFile(path.join(workspace, 'pdf-report', 'SKILL.md'), '---\nname: pdf-report\ndescription: [unclosed\n---\nBROKEN\n');
    await waitFor(() => connection.service.registry.snapshot.usable('pdf-report')?.stale === true || undefined, 'pdf-report marked stale');
    const { skill } = await connection.skills.get('skill://pdf-report/SKILL.md');
    const file = await connection.skills.read(skill, skill.uri);
    assert.equal(file.verified, true);
    assert.match(file.text ?? '', /PDF-BODY-MARKER/, 'the last valid SKILL.md is still served');
  });

  it('offers a prompt anew when its skill’s description changes, and withdraws it when the skill goes', async () => {
    const prompt = async (name: string): Promise<{ description?: string } | undefined> => (await connection.client.listPrompts()).prompts.find((candidate) => candidate.name === name);
    assert.equal((await prompt('deploy'))?.description, 'Deploy the service to an environment.');
    await fs.writeFile(
      path.join(workspace, 'deploy', 'SKILL.md'),
      skillText('deploy', 'Deploy the service to staging or production.', 'DEPLOY-BODY for $ARGUMENTS', 'disable-model-invocation: true\nargument-hint: "[environment]"\n'),
    );
    await waitFor(async () => (await prompt('deploy'))?.description === 'Deploy the service to staging or production.' || undefined, 'the new description of the deploy prompt');
    const result = await connection.client.getPrompt({ name: 'deploy', arguments: { arguments: 'staging' } });
    assert.match(text({ content: [result.messages[0].content] }), /DEPLOY-BODY for staging/);
    await fs.rm(path.join(workspace, 'deploy'), { recursive: true });
    await waitFor(async () => ((await prompt('deploy')) === undefined ? true : undefined), 'the deploy prompt to go');
    assert.ok(await prompt('escape'), 'the other prompts stay');
  });

  for (const listedFirst of [true, false]) {
    it(`serves the last valid SKILL.md of a YAML-breaking edit on every surface (${listedFirst ? 'skills/list ran before the edit' : 'nothing asked for the skill before the edit'})`, async () => {
      if (listedFirst) {
        assert.ok((await connection.skills.list()).skills.some((skill: Skill) => skill.uri === 'skill://pdf-report/SKILL.md'));
      }
      const file = path.join(workspace, 'pdf-report', 'SKILL.md');
      const valid = await fs.readFile(file, 'utf8');
      await fs.writeFile(file, '---\nname: pdf-report\ndescription: [unclosed\n---\nBROKEN-BODY\n');
      await waitFor(() => connection.service.registry.snapshot.usable('pdf-report')?.stale === true || undefined, 'pdf-report marked stale');

      const activated = await call(connection.client, 'activate_skill', { name: 'pdf-report', arguments: 'sales.csv' });
      assert.equal(activated.isError, false);
      assert.match(activated.text, /Render sales\.csv as PDF\. PDF-BODY-MARKER/);
      const prompt = await connection.client.getPrompt({ name: 'pdf-report', arguments: { arguments: 'sales.csv' } });
      assert.match(JSON.stringify(prompt.messages), /Render sales\.csv as PDF\. PDF-BODY-MARKER/);
      const { skill } = await connection.skills.get('skill://pdf-report/SKILL.md');
      assert.equal((skill.resources as { uri: string; digest: string }[]).find((resource) => resource.uri === skill.uri)?.digest, sha256(valid));
      const read = await connection.skills.read(skill, skill.uri);
      assert.equal(read.verified, true);
      assert.equal(read.text, valid);
      const resource = await connection.client.readResource({ uri: 'skill://pdf-report/SKILL.md' });
      assert.equal((resource.contents[0] as { text: string }).text, valid);
      const viaTool = await call(connection.client, 'read_skill_resource', { skill: 'pdf-report', path: 'SKILL.md' });
      assert.equal(viaTool.text, valid);
      assert.ok((await connection.skills.list()).skills.some((listed: Skill) => listed.uri === 'skill://pdf-report/SKILL.md'));
      for (const surface of [activated.text, JSON.stringify(prompt.messages), read.text, viaTool.text]) {
        assert.doesNotMatch(surface ?? '', /BROKEN-BODY/);
      }
    });
  }

  it('serves nothing of a skill broken since the server started, and each surface says so in the same words', async () => {
    await connection.close();
    const file = path.join(workspace, 'pdf-report', 'SKILL.md');
    await fs.writeFile(file, '---\nname: pdf-report\ndescription: [unclosed\n---\nBROKEN-BODY\n');
    connection = await connect([root(workspace)]);
    const expected = `Skill "pdf-report" is invalid: Invalid YAML in the frontmatter (line 3, column 23): fix the syntax there; quote values that contain ": " or start with a special character. The YAML parser says: unexpected end of the stream within a flow collection. (${file}).`;
    const activated = await call(connection.client, 'activate_skill', { name: 'pdf-report' });
    assert.deepEqual(activated, { text: expected, isError: true });
    const viaTool = await call(connection.client, 'read_skill_resource', { skill: 'pdf-report', path: 'SKILL.md' });
    assert.deepEqual(viaTool, { text: expected, isError: true });
    await assert.rejects(connection.skills.get('skill://pdf-report/SKILL.md'), (error: ProtocolError) => error.code === -32602 && error.message.includes(expected));
    await assert.rejects(connection.client.readResource({ uri: 'skill://pdf-report/SKILL.md' }), (error: ProtocolError) => error.message.includes(expected));
    await assert.rejects(connection.client.readResource({ uri: 'skill://pdf-report/references/guide.md' }), (error: ProtocolError) => error.message.includes(expected));
    assert.ok(!(await connection.skills.list()).skills.some((skill: Skill) => skill.uri === 'skill://pdf-report/SKILL.md'));
    assert.ok(!(await connection.client.listPrompts()).prompts.some((prompt) => prompt.name === 'pdf-report'));
    assert.doesNotMatch(JSON.stringify(await connection.client.listResources()), /pdf-report/);
  });

  it('serves only allowed skills and nothing from an untrusted root', async () => {
    await connection.close();
    const untrusted = path.join(dir, 'untrusted');
    await writeTree(untrusted, { 'secret-skill': { 'SKILL.md': skillText('secret-skill', 'UNTRUSTED-DESCRIPTION', 'UNTRUSTED-BODY') } });
    connection = await connect([root(untrusted, 'workspace', true), root(workspace)], ['pdf-*', 'secret-*']);
    const instructions = connection.client.getInstructions() ?? '';
    assert.doesNotMatch(instructions, /UNTRUSTED|secret-skill|table-helper/);
    assert.match(instructions, /pdf-report:/);
    const listing = await connection.skills.list();
    assert.deepEqual(
      listing.skills.map((skill: Skill) => skill.uri),
      ['skill://pdf-report/SKILL.md'],
    );
    const refused = await call(connection.client, 'activate_skill', { name: 'secret-skill' });
    assert.equal(refused.isError, true);
    assert.doesNotMatch(refused.text, /UNTRUSTED-BODY/);
    const notAllowed = await call(connection.client, 'activate_skill', { name: 'table-helper' });
    assert.match(notAllowed.text, /not allowed/);
    const resources = await connection.client.listResources();
    assert.deepEqual(
      resources.resources.map((resource) => resource.uri),
      ['skill://pdf-report/SKILL.md'],
    );
  });
});

describe('agent-skills mcp over stdio streams', function () {
  this.timeout(20_000);

  it('stops cleanly when the client goes away in the middle of a call', async () => {
    const dir = await tempDir();
    try {
      await writeTree(path.join(dir, 'skills'), { notes: { 'SKILL.md': skillText('notes', 'Write notes.') } });
      const input = new PassThrough();
      const output = new PassThrough();
      const written: string[] = [];
      output.on('data', (chunk: Buffer) => written.push(chunk.toString()));
      const served = serveSkills({ roots: [root(path.join(dir, 'skills'))], allowlist: [], catalogBudgetChars: 16_000, input, output, log: () => undefined });
      const send = (message: object): boolean => input.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await waitFor(() => written.join('').includes('"id":1') || undefined, 'initialize answered');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'no/such-method' });
      await waitFor(() => written.join('').includes('"id":2') || undefined, 'unknown method answered');
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'activate_skill', arguments: { name: 'notes' } } });
      input.end();
      await served;
      const messages = written
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id?: number; error?: { code: number } });
      assert.equal(messages.find((message) => message.id === 2)?.error?.code, -32601, 'an unknown method is a JSON-RPC error');
    } finally {
      await removeDir(dir);
    }
  });
});

describe('agent-skills mcp over stdio streams, protocol revision 2026-07-28', function () {
  this.timeout(30_000);
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  it('serves a client pinned to 2026-07-28 without initialize: discovery, tools, verified skills with their frontmatter verbatim, and change notices through its subscription', async () => {
    const skills = path.join(dir, 'skills');
    await writePublicShapes(skills);
    const input = new PassThrough();
    const output = new PassThrough();
    const served = serveSkills({ roots: [root(skills)], allowlist: [], catalogBudgetChars: 16_000, input, output, log: () => undefined });
    const client = new Client({ name: 'unit-test-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new LineClientTransport(input, output));
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.match(client.getInstructions() ?? '', /acquire-knowledge: Maps an unfamiliar codebase/);
    assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name).sort(), ['activate_skill', 'find_skills', 'read_skill_resource']);
    const listing = await client.request({ method: 'skills/list', params: {} }, z.object({ skills: z.array(z.object({ uri: z.string(), frontmatter: z.unknown() })) }));
    assert.deepEqual(
      Object.fromEntries(listing.skills.map((skill) => [skill.uri, skill.frontmatter])),
      Object.fromEntries(Object.entries(PUBLIC_SHAPES_FRONTMATTER).map(([name, frontmatter]) => [`skill://${name}/SKILL.md`, frontmatter])),
    );
    const template = await client.readResource({ uri: 'skill://acquire-knowledge/assets/templates/ARCHITECTURE.md' });
    assert.match((template.contents[0] as { text: string }).text, /^# Architecture/);

    let told = false;
    client.setNotificationHandler('notifications/tools/list_changed', () => void (told = true));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    // Written until the watcher, which starts with the server, reports it.
    for (let attempt = 0; !told && attempt < 50; attempt++) {
      await writeTree(path.join(skills, 'late-skill'), { 'SKILL.md': skillText('late-skill', `A skill made after the client connected (${attempt}).`) });
      await waitFor(() => told || undefined, 'tools/list_changed', 200).catch(() => undefined);
    }
    assert.ok(told, 'the subscription carried tools/list_changed');
    const activate = (await client.listTools()).tools.find((tool) => tool.name === 'activate_skill')!;
    assert.ok((activate.inputSchema.properties as Record<string, { enum: string[] }>).name.enum.includes('late-skill'));
    await subscription.close();
    await client.close();
    await served;
  });
});

describe('the servers of single requests (2026-07-28 over HTTP)', function () {
  this.timeout(20_000);
  let dir: string;
  let service: SkillsService;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(path.join(dir, 'skills'), { notes: { 'SKILL.md': skillText('notes', 'Write notes.') } });
    service = await startSkillsService({ roots: [root(path.join(dir, 'skills'))], allowlist: [], catalogBudgetChars: 16_000, log: () => undefined });
  });

  afterEach(async () => {
    await service.close();
    await removeDir(dir);
  });

  /** The instructions a client reads from `server`, which is closed when the client goes. */
  async function instructionsOf(server: ReturnType<SkillsService['requestServer']>): Promise<string> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'unit-test', version: '1.0.0' });
    await client.connect(clientSide);
    const instructions = client.getInstructions() ?? '';
    await client.close();
    return instructions;
  }

  it('serves a later request with a server whose request ended, never two requests at once, and builds new ones once the skills changed', async () => {
    const first = service.requestServer();
    assert.match(await instructionsOf(first), /notes: Write notes\./);
    const reused = service.requestServer();
    assert.equal(reused, first, 'the server of an ended request serves the next');
    assert.notEqual(service.requestServer(), reused, 'a request while that one runs gets another server');
    await instructionsOf(reused);
    await writeTree(path.join(dir, 'skills'), { 'late-skill': { 'SKILL.md': skillText('late-skill', 'Made after the first requests.') } });
    await service.registry.refresh();
    const after = service.requestServer();
    assert.notEqual(after, first, 'a server built before the change is not used after it');
    assert.match(await instructionsOf(after), /late-skill: Made after the first requests\./);
  });
});

describe('agent-skills mcp, many skills', function () {
  this.timeout(30_000);
  let dir: string;
  let connection: Connection | undefined;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await connection?.close();
    connection = undefined;
    await removeDir(dir);
  });

  it('lists more skills than one page holds, and a folder with more files than one page, every page walked', async () => {
    const names = Array.from({ length: 105 }, (_, index) => `skill-${String(index).padStart(3, '0')}`);
    await writeTree(dir, Object.fromEntries(names.map((name) => [name, { 'SKILL.md': skillText(name, `Does task number ${name}.`) }])));
    await writeTree(path.join(dir, 'skill-000', 'references'), Object.fromEntries(Array.from({ length: 104 }, (_, index) => [`note-${index}.md`, `note ${index}\n`])));
    connection = await connect([root(dir)]);
    assert.deepEqual(
      (await connection.skills.list()).skills.map((skill) => skill.uri).sort(),
      names.map((name) => `skill://${name}/SKILL.md`),
    );
    assert.equal((await connection.skills.readDirectory('skill://skill-000/references')).resources.length, 104);
  });

  it('says when the catalog does not fit its budget, and how many skills it lists by name only', async () => {
    await writeTree(
      dir,
      Object.fromEntries(
        Array.from({ length: 6 }, (_, index) => [`skill-${index}`, { 'SKILL.md': skillText(`skill-${index}`, `A long description of what skill number ${index} does, and when to use it.`) }]),
      ),
    );
    connection = await connect([root(dir)], [], 400);
    const said = connection.logs.find((line) => line.startsWith('The catalog did not fit its budget of '));
    assert.ok(said, connection.logs.join('\n'));
    assert.match(said, /^The catalog did not fit its budget of \d+ characters: [1-6] skills are listed by name only( \([1-6] not at all\))?; find_skills reaches them\.$/);
  });

  it('says how many skills a tight budget leaves out of the catalog altogether', async () => {
    await writeTree(dir, Object.fromEntries(Array.from({ length: 6 }, (_, index) => [`skill-${index}`, { 'SKILL.md': skillText(`skill-${index}`, `What skill number ${index} does.`) }])));
    connection = await connect([root(dir)], [], 1);
    const said = connection.logs.find((line) => line.startsWith('The catalog did not fit its budget of '));
    assert.match(said ?? connection.logs.join('\n'), /^The catalog did not fit its budget of \d+ characters: 6 skills are listed by name only \(6 not at all\); find_skills reaches them\.$/);
  });

  it('says nothing of the budget when the catalog fits', async () => {
    await writeTree(dir, { only: { 'SKILL.md': skillText('only', 'The only skill.') } });
    connection = await connect([root(dir)]);
    assert.ok(!connection.logs.some((line) => line.includes('budget')), connection.logs.join('\n'));
  });
});
