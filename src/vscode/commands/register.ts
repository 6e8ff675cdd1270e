// The commands area's one entry: the Skills commands of the palette, the view and the menus.
// Validate Skills, Create Skill and Show Catalog come with the features loaded after the first rows
// (src/vscode/deferred.ts).

import type * as vscode from 'vscode';
import type { SkillsHost } from '../skills/types';
import type { UnconfiguredLocations } from '../view/types';
import { registerCommands } from './commands';

export interface CommandsDeps {
  host: SkillsHost;
  unconfigured: UnconfiguredLocations;
}

export function register(context: vscode.ExtensionContext, { host, unconfigured }: CommandsDeps): void {
  context.subscriptions.push(registerCommands(host, unconfigured));
}
