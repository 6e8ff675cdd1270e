// "Skills: Show Catalog": a read-only document showing exactly the catalog the model is given,
// under a line with its size. It follows the registry and settings while open, and closing it
// never asks to save.

import * as vscode from 'vscode';
import { describeCatalogSize } from '../../core/use/catalog-report';
import { currentCatalog } from '../../core/use/current-catalog';
import type { SkillsHost } from '../skills/types';
import { Disposable } from '../shared/disposable';
import { openUpToDate } from '../shared/report-preview';

const SCHEME = 'agent-skills';
export const CATALOG_URI = vscode.Uri.from({ scheme: SCHEME, path: '/Skill Catalog.md' });

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
    const document = await openUpToDate(CATALOG_URI, this.provideTextDocumentContent(), () => this.changeEmitter.fire(CATALOG_URI));
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }
}
