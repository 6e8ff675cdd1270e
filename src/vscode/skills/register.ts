// The skills area's one entry: the host (roots, the one registry, activation) and the file watcher
// that feeds it. The first discovery starts before activate(), as the extension's code loads.

import type * as vscode from 'vscode';
import { SkillsHost, type EarlyDiscovery, type SkillServerRoots } from './skills-host';
import type { Skills } from './types';
import { SkillWatcher } from './watcher';

export { startFirstDiscovery } from './skills-host';

export interface SkillsDeps {
  log: vscode.LogOutputChannel;
  /** The extension's own `skills/` folder. */
  builtinDir: string;
  servers: SkillServerRoots;
  /** The discovery startFirstDiscovery began, which the host takes over. */
  firstDiscovery: EarlyDiscovery;
}

export function register(context: vscode.ExtensionContext, { log, builtinDir, servers, firstDiscovery }: SkillsDeps): Skills {
  const host = new SkillsHost(log, { builtinDir, servers, firstDiscovery });
  const watcher = new SkillWatcher(host);
  context.subscriptions.push(host, watcher);
  return { host, watcher };
}
