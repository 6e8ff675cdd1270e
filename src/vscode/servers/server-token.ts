// "Skills: Set Skill Server Token…": picks a configured HTTP skill server and keeps its bearer token
// in VS Code's secret storage, under the server's URL (never in settings, never in the log).

import * as vscode from 'vscode';
import { serverTokenKey } from '../../core/servers/server-config';
import type { SkillServers } from './skill-servers';

export async function askForServerToken(servers: SkillServers, secrets: vscode.SecretStorage, log: vscode.LogOutputChannel): Promise<void> {
  const candidates = servers.servers.flatMap((server) => (server.config.transport.kind === 'http' && !server.ignored ? [{ label: server.config.name, description: server.config.transport.url }] : []));
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('No skill server with a "url" is configured in agentSkills.servers: tokens are sent only to those.');
    return;
  }
  const picked = await vscode.window.showQuickPick(candidates, { title: 'Set Skill Server Token', placeHolder: 'The skill server to set the token of' });
  if (!picked) {
    return;
  }
  const token = await vscode.window.showInputBox({
    title: `Token for skill server "${picked.label}"`,
    prompt: `Sent as "Authorization: Bearer …" to ${picked.description} only. Kept in VS Code's secret storage. Leave empty to remove the stored token.`,
    password: true,
    ignoreFocusOut: true,
  });
  if (token === undefined) {
    return;
  }
  const key = serverTokenKey(picked.description);
  if (token.trim() === '') {
    await secrets.delete(key);
    log.info(`Removed the token of skill server "${picked.label}".`);
  } else {
    await secrets.store(key, token.trim());
    log.info(`Stored a token for skill server "${picked.label}".`);
  }
}
