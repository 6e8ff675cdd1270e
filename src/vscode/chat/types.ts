// The chat area's types other areas may name.

import type * as vscode from 'vscode';

/** What answers the @skills participant and the language-model tools (by name), once loaded. */
export interface ChatAnswers {
  readonly handler: vscode.ChatRequestHandler;
  readonly followups: vscode.ChatFollowupProvider;
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
}
