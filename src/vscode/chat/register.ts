// Chat's one entry point for the composition root: the @skills participant and the language-model
// tools. VS Code looks for both as soon as activation ends, so they are registered then; what answers
// is in the features loaded after the first rows (src/vscode/deferred.ts), loaded by the first request
// if the rows have not loaded them yet.

import * as vscode from 'vscode';
import { MCP_TOOL_NAMES, TOOL_NAMES } from '../../core/chat/tool-names';
import { PARTICIPANT_ID } from '../shared/manifest';
import type { ChatAnswers } from './types';

/** `answers`: what answers them, loaded by the first call. */
export function register(context: vscode.ExtensionContext, { answers }: { answers: () => ChatAnswers }): void {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (...request) => answers().handler(...request));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'skills.svg');
  participant.followupProvider = { provideFollowups: (...asked) => answers().followups.provideFollowups(...asked) };
  const tool = (name: string): vscode.LanguageModelTool<unknown> => {
    const answering = () => answers().tools.get(name)!;
    return { prepareInvocation: (...asked) => answering().prepareInvocation?.(...asked), invoke: (...asked) => answering().invoke(...asked) };
  };
  const names = [TOOL_NAMES, MCP_TOOL_NAMES].flatMap((tools) => Object.values(tools));
  context.subscriptions.push(participant, ...names.map((name) => vscode.lm.registerTool(name, tool(name))));
}
