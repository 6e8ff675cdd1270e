// The view area's one entry: the Skills view (registered before activate(), given its provider
// here), its badge, message and context keys, the note about unconfigured skill locations, and the
// locked previews the reports open in.

import type * as vscode from 'vscode';
import { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost } from '../skills/types';
import { createSkillsView, SkillsTreeProvider, type EarlySkillsView } from './tree';
import type { View } from './types';
import { UnconfiguredLocations } from './unconfigured-locations';

export { createEarlySkillsView } from './tree';

export interface ViewDeps {
  host: SkillsHost;
  /** The view createEarlySkillsView registered as the extension's code loaded. */
  early: EarlySkillsView;
}

export function register(context: vscode.ExtensionContext, { host, early }: ViewDeps): View {
  const tree = new SkillsTreeProvider(host);
  const unconfigured = new UnconfiguredLocations(host);
  const previews = new ReportPreviews();
  context.subscriptions.push(tree, unconfigured, previews, createSkillsView(early, host, tree, unconfigured));
  return { tree, unconfigured, previews };
}
