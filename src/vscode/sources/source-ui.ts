// What the source commands share in the editor: the trust gate, the confirmation, a cancellable
// progress notification around fetching, and how a failure is told.

import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errors';
import { COMMANDS } from '../shared/manifest';
import type { SkillsHost } from '../skills/types';

/**
 * Skills from elsewhere are installed, updated and audited only in a trusted workspace: in
 * Restricted Mode the command says why and offers to manage trust.
 */
export function isTrustedFor(action: string): boolean {
  if (vscode.workspace.isTrusted) {
    return true;
  }
  const manage = 'Manage Workspace Trust';
  void vscode.window
    .showWarningMessage(`Restricted Mode: trust this workspace to ${action}. Skills from git are installed, updated and audited only in a trusted workspace.`, manage)
    .then((choice) => choice === manage && vscode.commands.executeCommand(COMMANDS.manageTrust));
  return false;
}

/**
 * Asks `question` and waits for the answer: true only when the user picks `action`; Cancel,
 * Escape or anything else is no. A quick pick that stays open, as the other confirmations of the
 * extension: answered from the keyboard, with room for what the action does (`detail`) and what
 * Cancel leaves (`cancelDetail`), and unlike a dialog it also works in VS Code's extension tests,
 * which refuse dialogs. Cancel comes first, so Enter pressed in haste changes nothing.
 */
export async function confirmChoice(question: string, action: string, detail: string, cancelDetail = 'Nothing is changed.'): Promise<boolean> {
  const yes = { label: action, detail };
  const no = { label: 'Cancel', detail: cancelDetail };
  return (await vscode.window.showQuickPick([no, yes], { title: question, placeHolder: `${action}, or Cancel (Escape) to leave everything as it is`, ignoreFocusOut: true })) === yes;
}

/** Logs a failure and tells it in an error notification. */
export function reportFailure(what: string, error: unknown, host: SkillsHost): void {
  host.log.error(`${what}: ${errorMessage(error)}`);
  void vscode.window.showErrorMessage(`${what}: ${errorMessage(error)}`);
}

/**
 * Runs `work` under a progress notification with a Cancel button, which aborts it (git is killed
 * and its temporary clone deleted by the core). undefined when cancelled or failed (told to the user).
 */
export async function withCancellableProgress<T>(title: string, work: (signal: AbortSignal) => Promise<T>, host: SkillsHost): Promise<T | undefined> {
  const controller = new AbortController();
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `${title}…`, cancellable: true }, (_progress, token) => {
      token.onCancellationRequested(() => controller.abort());
      return work(controller.signal);
    });
  } catch (error) {
    if (controller.signal.aborted) {
      host.log.info(`${title}: cancelled.`);
      void vscode.window.showInformationMessage(`${title}: cancelled; nothing was written.`);
    } else {
      reportFailure(title, error, host);
    }
    return undefined;
  }
}
