// Where the MCP server the extension offers records its activations, which Show Usage counts: both
// the server's definition and the usage record need the path.

import * as vscode from 'vscode';

/** In the workspace's storage folder, when there is one on disk. */
export function serverLogFile(context: vscode.ExtensionContext): string | undefined {
  return context.storageUri?.scheme === 'file' ? vscode.Uri.joinPath(context.storageUri, 'mcp-activations.jsonl').fsPath : undefined;
}
