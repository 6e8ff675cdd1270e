// Skill servers for the integration suites: this product's own `agent-skills mcp` (the built
// dist/cli.js of the extension under test) over stdio or HTTP on 127.0.0.1, the Skills extension's
// reference SDK over stdio, skill folders for them to serve, and `agentSkills.servers` in the
// user's settings.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type AgentSkillsApi, treeOutline } from './editor-helpers';
import { startListeningProcess, type ListeningProcess } from './listening-process';
import { productExtensionId, waitFor } from './util';

export function cliPath(): string {
  return path.join(vscode.extensions.getExtension(productExtensionId)!.extensionPath, 'dist', 'cli.js');
}

/** A folder of skills to serve: name → [description, body, other files (relative path → text)]. */
export function servedSkillsFolder(skills: Record<string, [string, string, Record<string, string>?]>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'served-skills-'));
  for (const [name, [description, body, files]] of Object.entries(skills)) {
    writeServedSkill(root, name, description, body);
    for (const [file, text] of Object.entries(files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(root, name, file)), { recursive: true });
      fs.writeFileSync(path.join(root, name, file), text);
    }
  }
  return root;
}

export function writeServedSkill(root: string, name: string, description: string, body: string): void {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

/** The `agentSkills.servers` entry that starts `agent-skills mcp` over stdio on `root`. */
export function stdioServer(name: string, root: string): object {
  return { name, command: process.execPath, args: [cliPath(), 'mcp', '--no-user', '--no-builtin', root] };
}

/** The `agentSkills.servers` entry that starts the Skills extension's reference SDK (@olaservo/ext-skills) over stdio on `root`. */
export function referenceStdioServer(name: string, root: string): object {
  const script = path.join(vscode.extensions.getExtension(productExtensionId)!.extensionPath, 'test', 'fixtures', 'ext-skills-server.mjs');
  return { name, command: process.execPath, args: [script, root] };
}

export type HttpServer = ListeningProcess;

/** `agentSkills mcp --http 127.0.0.1:PORT` (a free port unless given) on `root`, requiring `token`; resolves once it listens. */
export function startHttpServer(root: string, token: string, port = 0): Promise<HttpServer> {
  return startListeningProcess(process.execPath, [cliPath(), 'mcp', '--http', `127.0.0.1:${port}`, '--no-user', '--no-builtin', root], { AGENT_SKILLS_MCP_TOKEN: token });
}

export async function setUserServers(servers: readonly object[] | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentSkills').update('servers', servers, vscode.ConfigurationTarget.Global);
}

/** Waits until the Skills view holds every line of `lines` (as treeOutline writes them); the message shows the view. */
export async function waitForOutline(api: AgentSkillsApi, lines: readonly (string | RegExp)[], timeoutMs = 20000): Promise<string[]> {
  let outline: string[] = [];
  return waitFor(
    () => {
      outline = treeOutline(api);
      return lines.every((line) => outline.some((shown) => (typeof line === 'string' ? shown === line : line.test(shown)))) && outline;
    },
    { timeoutMs, message: () => `the Skills view did not show ${lines.map(String).join(' | ')}; it shows:\n${outline.join('\n')}` },
  );
}
