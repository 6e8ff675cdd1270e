// Helpers for the MCP suites: the product's MCP server as VS Code runs it, seen through the tools
// it adds to vscode.lm.tools (what agent mode would offer a model).
import * as vscode from 'vscode';
import { productApi } from './chat-helpers';
import { openChat, waitFor } from './util';

export const mcpToolNames = ['activate_skill', 'find_skills', 'read_skill_resource'] as const;
export type McpToolName = (typeof mcpToolNames)[number];

/** The server's tool in vscode.lm.tools (VS Code names it mcp_<server>_<tool>). */
export function mcpTool(name: McpToolName): vscode.LanguageModelToolInformation | undefined {
  return vscode.lm.tools.find((tool) => tool.tags.includes('mcp') && tool.name.includes('agent-skills') && tool.name.endsWith(`_${name}`));
}

/** The instructions of the server that provides a tool, as VS Code carries them. */
export function instructionsOf(tool: vscode.LanguageModelToolInformation): string {
  return (tool as { source?: { instructions?: string } }).source?.instructions ?? '';
}

export function nameEnum(tool: vscode.LanguageModelToolInformation, property = 'name'): string[] | undefined {
  return (tool.inputSchema as { properties?: Record<string, { enum?: string[] }> } | undefined)?.properties?.[property]?.enum;
}

/**
 * Waits for the server's tools. VS Code starts an extension's MCP server on a chat request, so a
 * request that needs no model (`@skills /list`) is sent, again now and then, until they appear.
 */
export async function startedMcpTools(
  until: (tools: Map<McpToolName, vscode.LanguageModelToolInformation>) => boolean = () => true,
  timeoutMs = 60000,
): Promise<Map<McpToolName, vscode.LanguageModelToolInformation>> {
  await productApi();
  let lastRequest = 0;
  return waitFor(
    async () => {
      const tools = new Map(mcpToolNames.flatMap((name) => (mcpTool(name) ? [[name, mcpTool(name)!] as const] : [])));
      if (tools.size === mcpToolNames.length && until(tools)) {
        return tools;
      }
      if (Date.now() - lastRequest > 5000) {
        lastRequest = Date.now();
        await openChat('@skills /list', { newSession: true });
      }
      return undefined;
    },
    { timeoutMs, intervalMs: 250, message: `the MCP server's tools did not appear (tools: ${vscode.lm.tools.map((tool) => tool.name).join(', ')})` },
  );
}

/** Invokes a tool as agent mode would and returns the text of its result, or of the error it raised. */
export async function invokeText(tool: vscode.LanguageModelToolInformation, input: object): Promise<string> {
  try {
    const result = await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
