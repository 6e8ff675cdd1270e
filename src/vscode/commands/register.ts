// The commands area's one entry: the Skills commands of the palette, the view and the menus,
// Create Skill and Show Catalog's document.

import type * as vscode from 'vscode';
import type { SkillDiagnostics } from '../diagnostics/types';
import type { SkillsHost } from '../skills/types';
import type { UnconfiguredLocations } from '../view/types';
import { CatalogDocument } from './catalog-document';
import { registerCommands } from './commands';

export interface CommandsDeps {
  host: SkillsHost;
  diagnostics: SkillDiagnostics;
  unconfigured: UnconfiguredLocations;
}

export function register(context: vscode.ExtensionContext, { host, diagnostics, unconfigured }: CommandsDeps): void {
  const catalog = new CatalogDocument(host);
  context.subscriptions.push(catalog, registerCommands(host, diagnostics, catalog, unconfigured));
}
