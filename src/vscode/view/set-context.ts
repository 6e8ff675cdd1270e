import * as vscode from 'vscode';
import type { CONTEXT_KEYS } from '../shared/manifest';

/** Sets one of the context keys the manifest's `when` clauses read. */
export function setContext(key: (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS], value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
