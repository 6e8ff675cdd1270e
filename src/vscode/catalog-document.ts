// "Skills: Show Catalog": a read-only document showing exactly the catalog the model is given,
// under a line with its size. It follows the registry and settings while open, and closing it
// never asks to save.

import * as vscode from 'vscode';
import { describeCatalogSize } from '../core/use/catalog-report';
import { currentCatalog } from '../core/use/current-catalog';
import type { SkillsHost } from './skills-host';
import { Disposable } from './disposable';

const SCHEME = 'agent-skills';
export const CATALOG_URI = vscode.Uri.from({ scheme: SCHEME, path: '/Skill Catalog.md' });
/** How long `show` waits for an already open document to take the current text. */
const UPDATE_WAIT_MS = 2000;

export class CatalogDocument extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly host: SkillsHost) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
    this.register(host.onDidChange(() => this.changeEmitter.fire(CATALOG_URI)));
    this.register(host.onDidChangeSettings(() => this.changeEmitter.fire(CATALOG_URI)));
  }

  provideTextDocumentContent(): string {
    const catalog = currentCatalog(this.host);
    return `${describeCatalogSize(catalog, catalog.budgetChars)}\n\n${catalog.text}\n`;
  }

  /** Opens the document (or brings it up to date and shows it) and returns it. */
  async show(): Promise<vscode.TextDocument> {
    await this.host.whenIdle();
    const document = await vscode.workspace.openTextDocument(CATALOG_URI);
    const current = this.provideTextDocumentContent();
    if (document.getText() !== current) {
      // A document opened earlier updates asynchronously after the change event.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, UPDATE_WAIT_MS);
        const subscription = vscode.workspace.onDidChangeTextDocument((event) => event.document === document && document.getText() === current && finish());
        function finish(): void {
          clearTimeout(timer);
          subscription.dispose();
          resolve();
        }
        this.changeEmitter.fire(CATALOG_URI);
      });
    }
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }
}
