// The incoming version of a file, shown on the right of an update's diff: kept in memory under a
// read-only URI of its own scheme, since the temporary clone it came from is deleted. Its name is not
// the file's own (SKILL.md becomes SKILL.incoming.md): VS Code's own skill check reads any document
// named SKILL.md and would report the virtual folder's name as a mismatch in Problems.

import * as path from 'node:path';
import * as vscode from 'vscode';

export const INCOMING_SCHEME = 'agent-skills-incoming';

export class IncomingFiles implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  private added = 0;

  /** Keeps `text` under a new URI `agent-skills-incoming:/<label>/<file's name>.incoming<extension>`. */
  add(label: string, file: string, text: string): vscode.Uri {
    const extension = path.extname(file);
    const name = `${path.basename(file, extension)}.incoming${extension}`;
    const uri = vscode.Uri.from({ scheme: INCOMING_SCHEME, path: `/${label}/${name}`, query: String(this.added++) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /** Drops the text once its diff is no longer needed. */
  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
