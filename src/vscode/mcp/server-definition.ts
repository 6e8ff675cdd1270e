// Offers the `agent-skills mcp` server to VS Code, so agent mode (and any chat that uses MCP tools)
// gets the catalog in the server's instructions and tool descriptions, which contributed tools
// cannot change at run time. The bundled CLI runs on the editor's own runtime; the definition
// follows the roots, trust, allowlist and on/off switch, and is withdrawn when skills are off.

import * as vscode from 'vscode';
import { serverLaunch } from '../../core/mcp/server-launch';
import { SKILLS_PATH_ENV } from '../../core/discovery/roots';
import { MCP_SERVER_PROVIDER_ID } from '../manifest';
import type { SkillsHost } from '../skills-host';

export const MCP_SERVER_LABEL = 'Agent Skills';

export function registerSkillsMcpServer(host: SkillsHost, extensionUri: vscode.Uri): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const cliScript = vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath;
  const definition = (): vscode.McpStdioServerDefinition | undefined => {
    if (!host.settings.enabled) {
      return undefined;
    }
    const launch = serverLaunch({ roots: host.roots, allowlist: host.settings.allowlist, catalogBudgetChars: host.settings.catalogBudgetChars });
    // The editor's runtime is Electron on the desktop: ELECTRON_RUN_AS_NODE makes it run the script as Node.
    // Roots are passed explicitly, so the server must not add AGENT_SKILLS_PATH a second time.
    return new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, [cliScript, ...launch.args], { ELECTRON_RUN_AS_NODE: '1', [SKILLS_PATH_ENV]: null }, launch.version);
  };
  let current = definition()?.version;
  const update = (): void => {
    const next = definition()?.version;
    if (next !== current) {
      current = next;
      host.log.info(next ? `MCP server definition updated (version ${next}).` : 'MCP server withdrawn: skills are turned off.');
      changed.fire();
    }
  };
  return vscode.Disposable.from(
    changed,
    host.onDidChangeRoots(update),
    host.onDidChangeSettings(update),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_SERVER_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const provided = definition();
        return provided ? [provided] : [];
      },
      resolveMcpServerDefinition: (server) => server,
    }),
  );
}
