// Offers the `agent-skills mcp` server to VS Code, so agent mode (and any chat that uses MCP tools)
// gets the catalog in the server's instructions and tool descriptions, which contributed tools
// cannot change at run time. The bundled CLI runs on the editor's own runtime; the definition
// follows the roots, trust, allowlist and on/off switch, and is withdrawn when skills are off. The
// server appends its activations to a file of the workspace's storage, counted by Show Usage.

import * as vscode from 'vscode';
import { serverLaunch } from '../../core/mcp/server-launch';
import { SKILLS_PATH_ENV } from '../../core/discovery/roots';
import { USAGE_LOG_ENV } from '../../core/defaults';
import { MCP_SERVER_PROVIDER_ID } from '../shared/manifest';
import { Disposable } from '../shared/disposable';
import type { SkillsHost } from '../skills/types';

export const MCP_SERVER_LABEL = 'Agent Skills';

/** The provider of the one server definition; `definition()` is what VS Code is given now. */
export class SkillsMcpServerProvider extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  private readonly cliScript: string;
  private current: string | undefined;

  /** `usageLog`: the file the server appends its activations to, for Show Usage. */
  constructor(
    private readonly host: SkillsHost,
    extensionUri: vscode.Uri,
    private readonly usageLog: string | undefined,
  ) {
    super();
    this.cliScript = vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath;
    this.current = this.definition()?.version;
    this.register(host.onDidChangeRoots(() => this.update()));
    this.register(host.onDidChangeSettings(() => this.update()));
    this.register(
      vscode.lm.registerMcpServerDefinitionProvider(MCP_SERVER_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: this.changed.event,
        provideMcpServerDefinitions: () => {
          const provided = this.definition();
          return provided ? [provided] : [];
        },
        resolveMcpServerDefinition: (server) => server,
      }),
    );
  }

  definition(): vscode.McpStdioServerDefinition | undefined {
    // With agentMode "tools", agent mode gets the extension's own referenceable tools instead.
    if (!this.host.settings.enabled || this.host.settings.agentMode !== 'mcpServer') {
      return undefined;
    }
    const launch = serverLaunch({ roots: this.host.roots, allowlist: this.host.settings.allowlist, catalogBudgetChars: this.host.settings.catalogBudgetChars });
    // The editor's runtime is Electron on the desktop: ELECTRON_RUN_AS_NODE makes it run the script as Node.
    // Roots are passed explicitly, so the server must not add AGENT_SKILLS_PATH a second time.
    const env = { ELECTRON_RUN_AS_NODE: '1', [SKILLS_PATH_ENV]: null, [USAGE_LOG_ENV]: this.usageLog ?? null };
    return new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, [this.cliScript, ...launch.args], env, launch.version);
  }

  private update(): void {
    const next = this.definition()?.version;
    if (next !== this.current) {
      this.current = next;
      this.host.log.info(
        next
          ? `MCP server definition updated (version ${next}).`
          : `MCP server withdrawn: ${this.host.settings.enabled ? "agent mode uses the extension's tools (agentSkills.agentMode)" : 'skills are turned off'}.`,
      );
      this.changed.fire();
    }
  }
}
