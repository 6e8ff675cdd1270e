// The incoming version of a file, shown on the right of an update's diff: kept in memory under a
// read-only URI of its own scheme, since the temporary clone it came from is deleted.

import * as path from 'node:path';
import * as vscode from 'vscode';

export const INCOMING_SCHEME = 'agent-skills-incoming';

export class IncomingFiles implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  /** Keeps `text` under a new URI `agent-skills-incoming:/<label>/<file's name>`. */
  add(label: string, file: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: INCOMING_SCHEME, path: `/${label}/${path.basename(file)}`, query: String(this.texts.size) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
