import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Agent Skills', { log: true });
  context.subscriptions.push(log);
  log.info('Agent Skills activated');
}

export function deactivate(): void {}
