// Skill servers in the real VS Code: `agent-skills mcp` started by the test over stdio (a command
// in agentSkills.servers) and over HTTP on 127.0.0.1 with a bearer token set through the command,
// a stand-in server that alters a file on the way, and the cache once the server is gone.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillsApi, treeItem, treeOutline } from '../../editor-helpers';
import { servedSkillsFolder, setUserServers, startHttpServer, stdioServer, waitForOutline, writeServedSkill, type HttpServer } from '../../server-helpers';
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

  it("lists a stdio server's skills under its name; its pdf-forms is shadowed by the workspace's", async () => {
    const api = await skillsApi();
    await setUserServers([local]);
    await waitForOutline(api, ['  local — 1', '    team-notes — Write meeting notes in the team format.', '  pdf-forms — shadowed by skill-servers']);
    const outline = treeOutline(api);
    assert.deepEqual(outline.slice(0, outline.indexOf('Shadowed — 1')), [
      'Available — 2',
      '  skill-servers — 1',
      '    pdf-forms — Fill PDF forms the way this project does.',
      '  local — 1',
      '    team-notes — Write meeting notes in the team format.',
    ]);
    const shadowed = api.listSkills().find((skill) => skill.name === 'pdf-forms' && skill.source.kind === 'server');
    assert.equal(shadowed?.status, 'shadowed');
    assert.equal(shadowed?.source.label, 'local');
  });

  it('activation returns the served body, verified and then kept; its files are read through the server', async () => {
    const api = await skillsApi();
    const record = treeItem(api, 'Available', 'team-notes')!.record;
    assert.equal(fs.existsSync(record.file), false, 'nothing is fetched before the skill is used');
    const text = await api.activateSkill('team-notes');
    assert.match(text, /^<skill name="team-notes" dir="[^"]+" server="local">\nStart with the decisions, then the owners\.\n\nResource files .*\n- references\/template\.md\n<\/skill>$/);
    assert.equal(fs.readFileSync(record.file, 'utf8'), fs.readFileSync(path.join(stdioRoot, 'team-notes', 'SKILL.md'), 'utf8'));
    assert.equal(await readResourceTool('team-notes', 'references/template.md'), '# Notes template\n');
    assert.match(await readResourceTool('team-notes', 'references/other.md'), /Skill "team-notes" from skill server "local" has no file "references\/other\.md"/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });

  it('follows the server live: an edit on its side changes the tree, and the next activation gets the new text', async () => {
    const api = await skillsApi();
    writeServedSkill(stdioRoot, 'team-notes', 'Write meeting notes the new way.', 'Start with the owners now.');
    await waitForOutline(api, ['    team-notes — Write meeting notes the new way.']);
    assert.match(await api.activateSkill('team-notes'), /\nStart with the owners now\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });

  it('connects over HTTP once its token is set with "Set Skill Server Token…"; until then says why it cannot', async function () {
    if (!harnessAvailable()) {
      this.skip(); // The token is typed into the input box, as a user does.
    }
    const api = await skillsApi();
    await setUserServers([local, team]);
    await waitForOutline(api, [
      /^ {2}team-[0-9a-f]{12} — Skill server "team" cannot be reached: HTTP 401: .*Bearer token\. Set its token with "Skills: Set Skill Server Token…"\. Skills it listed before stay available from the cache\.$/,
    ]);
    const setting = vscode.commands.executeCommand('agentSkills.setServerToken');
    await typeText('team', nameInput);
    await pressKeys('Enter');
    await waitForViewText('css:.quick-input-widget', "Kept in VS Code's secret storage");
    await typeText(TOKEN, nameInput);
    await pressKeys('Enter');
    await setting;
    await waitForOutline(api, ['  team — 1', '    release-checklist — Check a release before it ships.']);
    assert.match(await api.activateSkill('release-checklist'), /server="team">\nRun the release checklist, step by step\.\n/);
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
    assert.equal(
      vscode.workspace
        .getConfiguration('agentSkills')
        .get<object[]>('servers')
        ?.some((server) => JSON.stringify(server).includes(TOKEN)),
      false,
    );
    // What the view draws: each server's skills under its name, the workspace's copy winning pdf-forms.
    await waitForViewText('skills', /skill-servers[\s\S]*pdf-forms[\s\S]*local[\s\S]*team-notes[\s\S]*team[\s\S]*release-checklist[\s\S]*Shadowed[\s\S]*pdf-forms/);
    await screenshot('tree');
  });

  it('refuses a SKILL.md whose bytes do not match the listed digest, naming the server and the file, and keeps nothing', async () => {
    const api = await skillsApi();
    await setUserServers([local, ...(team ? [team] : []), { name: 'stand-in', command: process.execPath, args: [standInServerScript()] }]);
    await waitForOutline(api, ['  stand-in — 1', '    tampered — A skill its server alters on the way.']);
    await assert.rejects(api.activateSkill('tampered'), (error: Error) => {
      assert.match(
        error.message,
        /^Could not read skill "tampered": Refused SKILL\.md of skill "tampered" from skill server "stand-in" \(skill:\/\/tampered\/SKILL\.md\): its SHA-256 digest is sha256:[0-9a-f]{64} where the server's entry says sha256:[0-9a-f]{64}\. It was not used or kept\.$/,
      );
      return true;
    });
    assert.equal(fs.existsSync(treeItem(api, 'Available', 'tampered')!.record.file), false);
    if (harnessAvailable()) {
      await vscode.commands.executeCommand('agentSkills.showLog');
      // The output view draws spaces as no-break spaces and wraps long lines.
      await waitForViewText('panel', /Refused\sSKILL\.md\sof\sskill\s"tampered"\sfrom\sskill\s*server\s"stand-in"/);
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
      '    release-checklist — Check a release before it ships.',
      /^ {2}team-[0-9a-f]{12} — Skill server "team" cannot be reached: .* Skills it listed before stay available from the cache\.$/,
    ]);
    await waitForViewText('skills', /team \(offline, cached\)[\s\S]*release-checklist[\s\S]*Skill server "team" cannot be reached/);
    await screenshot('offline');
    assert.match(await api.activateSkill('release-checklist'), /server="team">\nRun the release checklist, step by step\.\n/);
  });
});
