// How the editor talks to VS Code's language models, for chat and the trigger tests alike: the chat
// API's types converted to and from the editor-neutral shapes core decides with (history turns in,
// prompt messages out), and the skill tools offered to a model with the text of their results.

import * as vscode from 'vscode';
import type { ConversationTurn, PromptMessage, PromptPart } from '../../core/chat/conversation';
import { TOOL_NAMES } from '../../core/chat/tool-names';

function toUserPart(part: PromptPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart {
  if (part.kind === 'toolResult') {
    return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
  }
  if (part.kind === 'text') {
    return new vscode.LanguageModelTextPart(part.text);
  }
  throw new Error(`A user message cannot carry a ${part.kind} part.`);
}

function toAssistantPart(part: PromptPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart {
  if (part.kind === 'toolCall') {
    return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
  }
  if (part.kind === 'text') {
    return new vscode.LanguageModelTextPart(part.text);
  }
  throw new Error(`An assistant message cannot carry a ${part.kind} part.`);
}

export function toChatMessages(messages: readonly PromptMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((message) =>
    message.role === 'user' ? vscode.LanguageModelChatMessage.User(message.parts.map(toUserPart)) : vscode.LanguageModelChatMessage.Assistant(message.parts.map(toAssistantPart)),
  );
}

/** The text a response turn showed: its Markdown, and the titles of its anchors. */
function responseText(turn: vscode.ChatResponseTurn): string {
  return turn.response
    .map((part) => {
      if (part instanceof vscode.ChatResponseMarkdownPart) {
        return part.value.value;
      }
      if (part instanceof vscode.ChatResponseAnchorPart) {
        return part.title ?? (part.value instanceof vscode.Uri ? part.value.fsPath : part.value.uri.fsPath);
      }
      return '';
    })
    .join('');
}

/** This participant's earlier turns (VS Code passes only those, but other entries are skipped anyway). */
export function toConversationTurns(history: vscode.ChatContext['history'], participantId: string): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const turn of history) {
    if (turn.participant !== participantId) {
      continue;
    }
    if (turn instanceof vscode.ChatRequestTurn) {
      turns.push({ kind: 'request', prompt: turn.prompt, ...(turn.command ? { command: turn.command } : {}) });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      turns.push({ kind: 'response', text: responseText(turn), ...(turn.command ? { command: turn.command } : {}), metadata: turn.result.metadata });
    }
  }
  return turns;
}

/** The text parts of a tool result, joined (what the model would read). */
export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const SKILL_TOOLS: ReadonlySet<string> = new Set(Object.values(TOOL_NAMES));

export function isSkillTool(name: string): boolean {
  return SKILL_TOOLS.has(name);
}

/** The skill tools as @skills offers them to a model (trigger tests offer the same). */
export function skillChatTools(): vscode.LanguageModelChatTool[] {
  return vscode.lm.tools.filter((tool) => isSkillTool(tool.name)).map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}
