// The skill servers' one entry: the loader of their client, which costs activation nothing until
// agentSkills.servers names a server (the client is a side bundle), and Set Skill Server Token.

import * as vscode from 'vscode';
import type { SkillServerRoots } from '../skills/types';
import { SkillServersOnDemand } from './server-loader';

export function register(context: vscode.ExtensionContext, { log }: { log: vscode.LogOutputChannel }): { servers: SkillServerRoots } {
  const serverCache = vscode.Uri.joinPath(context.globalStorageUri, 'skill-servers').fsPath;
  const version = String(context.extension.packageJSON.version);
  const servers = new SkillServersOnDemand(log, context.secrets, (SkillServers) => new SkillServers(log, serverCache, context.secrets, version));
  context.subscriptions.push(servers);
  return { servers };
}
