// The MCP area's one entry: the `agent-skills mcp` server definition offered to VS Code.

import type * as vscode from 'vscode';
import type { SkillsHost } from '../skills/types';
import { SkillsMcpServerProvider } from './server-definition';
import type { Mcp } from './types';

export interface McpDeps {
  host: SkillsHost;
  /** The file the server appends its activations to (Show Usage counts them), if any. */
  usageLog: string | undefined;
}

export function register(context: vscode.ExtensionContext, { host, usageLog }: McpDeps): Mcp {
  const mcpServer = new SkillsMcpServerProvider(host, context.extensionUri, usageLog);
  context.subscriptions.push(mcpServer);
  return { mcpServer };
}
