// Skill servers in the real VS Code: `agent-skills mcp` started by the test over stdio (a command
// in agentSkills.servers) and over HTTP on 127.0.0.1 with a bearer token set through the command,
// the Skills extension's reference SDK over stdio, a stand-in server that alters a file on the way,
// the cache once the server is gone, and the server used again when it comes back.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ProblemViewItem, ViewItem } from '../../../../src/core/view/skill-view';
import { skillsApi, treeItem, treeOutline, type AgentSkillsApi } from '../../editor-helpers';
import { referenceStdioServer, servedSkillsFolder, setUserServers, startHttpServer, stdioServer, waitForOutline, writeServedSkill, type HttpServer } from '../../server-helpers';
import { harnessAvailable, pressKeys, screenshot, typeText, waitForViewText } from '../../util';

const TOKEN = 'team-token-5f2c9a';
const nameInput = { selector: '.quick-input-box input', within: '.quick-input-widget' };

/** A stdio server that lists `tampered` with the digest of one text and serves another, one byte apart. */
function standInServerScript(): string {
  const listed = '---\nname: tampered\ndescription: A skill its server alters on the way.\n---\nFollow the safe steps.\n';
  const digest = `sha256:${createHash('sha256').update(listed).digest('hex')}`;
  const entry = {
    uri: 'skill://tampered/SKILL.md',
    frontmatter: { name: 'tampered', description: 'A skill its server alters on the way.' },
    resources: [{ uri: 'skill://tampered/SKILL.md', digest, size: Buffer.byteLength(listed) }],
  };
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stand-in-')), 'stand-in-server.js');
  fs.writeFileSync(
    script,
    `const served = ${JSON.stringify(listed.replace('safe', 's4fe'))};
const entry = ${JSON.stringify(entry)};
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let newline = buffer.indexOf('\\n'); newline >= 0; newline = buffer.indexOf('\\n')) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    const message = line.trim() ? JSON.parse(line) : {};
    if (message.id === undefined) continue;
    const results = {
      initialize: { protocolVersion: '2025-11-25', capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } }, serverInfo: { name: 'stand-in', version: '1' } },
      'skills/list': { skills: [entry] },
      'resources/read': { contents: [{ uri: entry.uri, mimeType: 'text/markdown', text: served }] },
    };
    const result = results[message.method];
    process.stdout.write(JSON.stringify(result ? { jsonrpc: '2.0', id: message.id, result } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not here' } }) + '\\n');
  }
});
`,
  );
  return script;
}

/** The Problems row of a skill server, as the view shows it. */
function serverProblemRow(api: AgentSkillsApi, server: string): ProblemViewItem | undefined {
  const rows = (items: readonly ViewItem[]): ViewItem[] => items.flatMap((item) => (item.kind === 'group' ? rows(item.children) : [item]));
  return rows(api.testing.tree.topLevel).find((item): item is ProblemViewItem => item.kind === 'problem' && item.problem.server === server);
}

async function readResourceTool(skill: string, file: string): Promise<string> {
  const result = await vscode.lm.invokeTool('skills_readResource', { input: { skill, path: file }, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('skill servers', function () {
  this.timeout(120000);
  const stdioRoot = servedSkillsFolder({
    'team-notes': ['Write meeting notes in the team format.', 'Start with the decisions, then the owners.', { 'references/template.md': '# Notes template\n' }],
    'pdf-forms': ['The team server copy of pdf-forms.', 'Served instructions.'],
  });
  const httpRoot = servedSkillsFolder({ 'release-checklist': ['Check a release before it ships.', 'Run the release checklist, step by step.'] });
  const local = stdioServer('local', stdioRoot);
  const referenceRoot = servedSkillsFolder({});
  fs.mkdirSync(path.join(referenceRoot, 'dated'));
  fs.writeFileSync(path.join(referenceRoot, 'dated', 'SKILL.md'), '---\nname: dated\ndescription: Release on the dated schedule.\ncreated: 2024-01-15\n---\nShip on the first Monday.\n');
  let http: HttpServer;
  let team: object;

  before(async () => {
    http = await startHttpServer(httpRoot, TOKEN);
    team = { name: 'team', url: http.url };
  });

  after(async () => {
    await setUserServers(undefined);
    await http?.stop();
  });

  it("lists a stdio server's skills under its name, its pdf-forms beside the workspace's: neither hides the other", async () => {
    const api = await skillsApi();
    await setUserServers([local]);
    await waitForOutline(api, ['  local — 2', '    local/team-notes — Write meeting notes in the team format.']);
    assert.deepEqual(treeOutline(api), [
      'Available — 3',
      '  skill-servers — 1',
      '    pdf-forms — Fill PDF forms the way this project does.',
      '  local — 2',
      '    local/pdf-forms — The team server copy of pdf-forms.',
      '    local/team-notes — Write meeting notes in the team format.',
    ]);
    const served = api.listSkills().find((skill) => skill.name === 'local/pdf-forms');
    assert.deepEqual([served?.status, served?.source.kind, served?.source.label], ['available', 'server', 'local']);
    assert.equal(api.listSkills().find((skill) => skill.name === 'pdf-forms')?.source.kind, 'workspace');
    // The hover names the server and the skill's URI there, never the cache it is kept in.
    const tooltip = treeItem(api, 'Available', 'local/team-notes')!.tooltip;
    assert.match(tooltip, /Skill server "local": `skill:\/\/team-notes\/SKILL\.md`/);
    assert.doesNotMatch(tooltip, /globalStorage|servers[\\/]local-/);
  });

  it('activation returns the served body, verified and then kept; its files are read through the server', async () => {
    const api = await skillsApi();
    const record = treeItem(api, 'Available', 'local/team-notes')!.record;
    assert.equal(fs.existsSync(record.file), false, 'nothing is fetched before the skill is used');
    const text = await api.activateSkill('local/team-notes');
    assert.match(
      text,
      /^<skill name="local\/team-notes" server="local" uri="skill:\/\/team-notes\/SKILL\.md">\nStart with the decisions, then the owners\.\n\nResource files .*\n- references\/template\.md\n<\/skill>$/,
    );
    assert.equal(fs.readFileSync(record.file, 'utf8'), fs.readFileSync(path.join(stdioRoot, 'team-notes', 'SKILL.md'), 'utf8'));
    assert.equal(await readResourceTool('local/team-notes', 'references/template.md'), '# Notes template\n');
    assert.match(await readResourceTool('local/team-notes', 'references/other.md'), /Skill "local\/team-notes" from skill server "local" has no file "references\/other\.md"/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });

  it('follows the server live: an edit on its side changes the tree, and the next activation gets the new text', async () => {
    const api = await skillsApi();
    writeServedSkill(stdioRoot, 'team-notes', 'Write meeting notes the new way.', 'Start with the owners now.');
    await waitForOutline(api, ['    local/team-notes — Write meeting notes the new way.']);
    assert.match(await api.activateSkill('local/team-notes'), /\nStart with the owners now\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });

  it('connects over HTTP once its token is set with "Set Skill Server Token…"; until then says why it cannot', async function () {
    if (!harnessAvailable()) {
      this.skip(); // The token is typed into the input box, as a user does.
    }
    const api = await skillsApi();
    await setUserServers([local, team]);
    await waitForOutline(api, [
      /^ {2}team — Skill server "team" cannot be reached: HTTP 401: .*Bearer token\. Set its token with "Skills: Set Skill Server Token…"\. Skills it listed before stay available from the cache\.$/,
    ]);
    const setting = vscode.commands.executeCommand('agentSkills.setServerToken');
    await typeText('team', nameInput);
    await pressKeys('Enter');
    await waitForViewText('css:.quick-input-widget', "Kept in VS Code's secret storage");
    await typeText(TOKEN, nameInput);
    await pressKeys('Enter');
    await setting;
    await waitForOutline(api, ['  team — 1', '    team/release-checklist — Check a release before it ships.']);
    assert.match(await api.activateSkill('team/release-checklist'), /server="team" uri="skill:\/\/release-checklist\/SKILL\.md">\nRun the release checklist, step by step\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
    assert.equal(
      vscode.workspace
        .getConfiguration('agentSkills')
        .get<object[]>('servers')
        ?.some((server) => JSON.stringify(server).includes(TOKEN)),
      false,
    );
    // What the view draws: each server's skills under its name, beside the workspace's pdf-forms.
    await waitForViewText('skills', /skill-servers[\s\S]*pdf-forms[\s\S]*local[\s\S]*local\/pdf-forms[\s\S]*local\/team-notes[\s\S]*team[\s\S]*team\/release-checklist/);
    await screenshot('tree');
  });

  it('refuses a SKILL.md whose bytes do not match the listed digest, naming the server and the file, and keeps nothing', async () => {
    const api = await skillsApi();
    await setUserServers([local, ...(team ? [team] : []), { name: 'stand-in', command: process.execPath, args: [standInServerScript()] }]);
    await waitForOutline(api, ['  stand-in — 1', '    stand-in/tampered — A skill its server alters on the way.']);
    await assert.rejects(api.activateSkill('stand-in/tampered'), (error: Error) => {
      assert.match(
        error.message,
        /^Could not read skill "stand-in\/tampered": Refused SKILL\.md of skill "stand-in\/tampered" from skill server "stand-in" \(skill:\/\/tampered\/SKILL\.md\): its SHA-256 digest is sha256:[0-9a-f]{64} where the server's entry says sha256:[0-9a-f]{64}\. It was not used or kept\.$/,
      );
      return true;
    });
    assert.equal(fs.existsSync(treeItem(api, 'Available', 'stand-in/tampered')!.record.file), false);
    if (harnessAvailable()) {
      await vscode.commands.executeCommand('agentSkills.showLog');
      // The output view draws spaces as no-break spaces and wraps long lines.
      await waitForViewText('panel', /Refused\s+SKILL\.md\s+of\s+skill\s+"stand-in\/tampered"\s+from\s+skill\s+server\s+"stand-in"/);
    }
  });

  it('serves the cached copies once the server is gone, and marks its skills offline', async function () {
    if (!harnessAvailable()) {
      this.skip(); // The HTTP server's token is set through the input box.
    }
    const api = await skillsApi();
    await http.stop();
    await waitForOutline(api, [
      '  team (offline, cached) — 1',
      '    team/release-checklist — Check a release before it ships.',
      /^ {2}team — Skill server "team" cannot be reached: .* Skills it listed before stay available from the cache\.$/,
    ]);
    await waitForViewText('skills', /team \(offline, cached\)[\s\S]*team\/release-checklist[\s\S]*Skill server "team" cannot be reached/);
    await screenshot('offline');
    assert.match(await api.activateSkill('team/release-checklist'), /server="team" uri="skill:\/\/release-checklist\/SKILL\.md">\nRun the release checklist, step by step\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
    // The offline row offers Reconnect, and says nothing of the cache.
    const row = serverProblemRow(api, 'team')!;
    assert.equal(row.contextValue, 'problem reconnectable');
    assert.doesNotMatch(`${row.label} ${row.tooltip}`, /globalStorage|team-[0-9a-f]{12}/);
  });

  it('uses the server again when it comes back: at once with Reconnect on its row, by itself after a short wait, at once on Refresh', async function () {
    if (!harnessAvailable()) {
      this.skip(); // The HTTP server's token is set through the input box.
    }
    const api = await skillsApi();
    const port = Number(new URL(http.url).port);
    const online = ['  team — 1', '    team/release-checklist — Check a release before it ships.'];
    const offline = ['  team (offline, cached) — 1'];
    http = await startHttpServer(httpRoot, TOKEN, port);
    await vscode.commands.executeCommand('agentSkills.reconnectServer', serverProblemRow(api, 'team'));
    await waitForOutline(api, online, 5000);
    assert.equal(serverProblemRow(api, 'team'), undefined);
    // Stopped and started again: the next try after the first short wait finds it.
    await http.stop();
    await waitForOutline(api, offline);
    http = await startHttpServer(httpRoot, TOKEN, port);
    await waitForOutline(api, online, 15000);
    // Stopped, and the view refreshed once it is back.
    await http.stop();
    await waitForOutline(api, offline);
    http = await startHttpServer(httpRoot, TOKEN, port);
    await vscode.commands.executeCommand('agentSkills.refresh');
    await waitForOutline(api, online, 5000);
    assert.match(await api.activateSkill('team/release-checklist'), /\nRun the release checklist, step by step\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });

  it("reads the Skills extension's reference server (@olaservo/ext-skills) as well as this product's, a YAML date in a frontmatter included", async () => {
    const api = await skillsApi();
    await setUserServers([local, referenceStdioServer('reference', referenceRoot)]);
    await waitForOutline(api, ['  reference — 1', '    reference/dated — Release on the dated schedule.', '    local/team-notes — Write meeting notes the new way.']);
    assert.equal(await api.activateSkill('reference/dated'), '<skill name="reference/dated" server="reference" uri="skill://dated/SKILL.md">\nShip on the first Monday.\n</skill>');
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
    if (harnessAvailable()) {
      await vscode.commands.executeCommand('agentSkills.showLog');
      await waitForViewText('panel', /Skill\s+server\s+"reference"\s+is\s+connected\s+\([^)]*,\s+protocol\s+2026-07-28\)/);
    }
  });
});
