// Composition root: creates the skills host and wires the editor features to it. Every feature
// lives in its own module; this file only connects them and owns their disposal.

import * as vscode from 'vscode';
import { SkillsHost } from './skillsHost';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent Skills', { log: true });
  context.subscriptions.push(log);
  const host = new SkillsHost(log, { builtinDir: vscode.Uri.joinPath(context.extensionUri, 'skills').fsPath });
  context.subscriptions.push(host);
}

export function deactivate(): void {}
