// Chat's one entry point for the composition root: the @skills participant and the language-model
// tools. VS Code looks for both as soon as activation ends, so they are registered then; what answers
// is in the features loaded after the first rows (src/vscode/deferred), loaded by the first request
// if the rows have not loaded them yet.

import * as vscode from 'vscode';
import { MCP_TOOL_NAMES, TOOL_NAMES } from '../../core/chat/tool-names';
import { PARTICIPANT_ID } from '../shared/manifest';
import type { DeferredFeatures } from '../deferred/on-demand';

export function registerChat(extensionUri: vscode.Uri, features: () => DeferredFeatures): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (...request) => features().chat.handler(...request));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'skills.svg');
  participant.followupProvider = { provideFollowups: (...asked) => features().chat.followups.provideFollowups(...asked) };
  const tool = (name: string): vscode.LanguageModelTool<unknown> => {
    const answering = () => features().chat.tools.get(name)!;
    return { prepareInvocation: (...asked) => answering().prepareInvocation?.(...asked), invoke: (...asked) => answering().invoke(...asked) };
  };
  const names = [TOOL_NAMES, MCP_TOOL_NAMES].flatMap((tools) => Object.values(tools));
  return vscode.Disposable.from(participant, ...names.map((name) => vscode.lm.registerTool(name, tool(name))));
}
