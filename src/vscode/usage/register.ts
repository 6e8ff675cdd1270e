// The usage area's one entry: the workspace's record of activations, Show Usage and Clear Usage.

import * as vscode from 'vscode';
import { serverLogFile } from '../shared/usage-log-file';
import { COMMANDS } from '../shared/manifest';
import type { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost } from '../skills/types';
import { SkillUsage } from './skill-usage';
import type { Usage } from './types';

export function register(context: vscode.ExtensionContext, { host, previews }: { host: SkillsHost; previews: ReportPreviews }): Usage {
  const usage = new SkillUsage(host, context.workspaceState, previews, serverLogFile(context));
  context.subscriptions.push(
    usage,
    vscode.commands.registerCommand(COMMANDS.showUsage, () => usage.show()),
    vscode.commands.registerCommand(COMMANDS.clearUsage, () => usage.clear()),
  );
  return { usage };
}
