// The extension's Markdown reports (Show Budget, Show Usage, Improve Description's result) open as
// locked previews: a plain Markdown preview follows the active editor, so the next Markdown file
// opened (the catalog, a new SKILL.md) would take over the report's tab. A locked one keeps its
// own document, and follows that document's changes.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from './disposable';

/** How long a report waits for an already open document to take the current text. */
const UPDATE_WAIT_MS = 2000;

/**
 * Opens `uri` (a read-only document of the extension's own scheme) holding `current`: a document
 * opened earlier takes new text a moment after `announce` fires its change, so this waits for it
 * (at most UPDATE_WAIT_MS).
 */
export async function openUpToDate(uri: vscode.Uri, current: string, announce: () => void): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  if (document.getText() !== current) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, UPDATE_WAIT_MS);
      const subscription = vscode.workspace.onDidChangeTextDocument((event) => event.document === document && document.getText() === current && finish());
      function finish(): void {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      }
      announce();
    });
  }
  return document;
}

/** Shows a Markdown document in a locked preview: its own tab, opened again if already open. */
export async function showLockedPreview(uri: vscode.Uri): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreview', uri, undefined, { locked: true });
}

/** Shows the reports whose text changes while they are open, each in a locked preview. */
export class ReportPreviews extends Disposable {
  /** The file names of the reports shown, which their previews' tabs end with. */
  private readonly names = new Set<string>();

  constructor() {
    super();
    // A preview updated while in view is sent the change, not a new page; hidden, then shown again,
    // VS Code draws the page it was last given. Drawn anew whenever its tab comes to the front, the
    // report shows its current text.
    this.register(
      vscode.window.tabGroups.onDidChangeTabs(({ changed }) => {
        if (changed.some((tab) => tab.isActive && this.isReportTab(tab))) {
          void vscode.commands.executeCommand('markdown.preview.refresh');
        }
      }),
    );
  }

  /** Shows the report `uri`, holding `current`, in a locked preview (its own, if already open). */
  async show(uri: vscode.Uri, current: string, announce: () => void): Promise<void> {
    this.names.add(path.posix.basename(uri.path));
    await openUpToDate(uri, current, announce);
    await showLockedPreview(uri);
  }

  private isReportTab(tab: vscode.Tab): boolean {
    return tab.input instanceof vscode.TabInputWebview && [...this.names].some((name) => tab.label.endsWith(name));
  }
}
