// "Demo model (scripted)": a chat model for `npm start`, so `@skills` answers without an account.
// It does no real work and says so: it finds the most relevant skill with the skill tools, loads
// it, and replies with what that skill says to do (see conversation.ts).
import * as vscode from 'vscode';
import { demoModelLabel, nextAnswer, type ConversationMessage } from './conversation';

const vendor = 'agent-skills-demo';

export function activate(context: vscode.ExtensionContext): void {
  const provider: vscode.LanguageModelChatProvider = {
    provideLanguageModelChatInformation: () => [
      {
        id: 'demo-model',
        name: demoModelLabel,
        family: 'demo',
        version: '1',
        detail: 'no account needed; shows skills instead of doing the work',
        tooltip: 'A scripted model for the Agent Skills demo. Pick a real model for real answers.',
        maxInputTokens: 128000,
        maxOutputTokens: 4000,
        capabilities: { toolCalling: true, imageInput: false },
        // Read by the chat view's model picker in the VS Code versions that know them.
        ...{ isUserSelectable: true, isDefault: true },
      },
    ],
    async provideLanguageModelChatResponse(_model, messages, options, progress) {
      const answer = nextAnswer(
        messages.map(readMessage),
        (options.tools ?? []).map((tool) => tool.name),
      );
      if ('toolCall' in answer) {
        progress.report(new vscode.LanguageModelToolCallPart(`demo-${Date.now()}`, answer.toolCall.name, answer.toolCall.input));
      } else {
        progress.report(new vscode.LanguageModelTextPart(answer.text));
      }
    },
    async provideTokenCount(_model, text) {
      const plain = typeof text === 'string' ? text : readMessage(text).texts.join('\n');
      // Roughly four characters a token, like common tokenizers on English text.
      return Math.ceil(plain.length / 4);
    },
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(vendor, provider));
  // VS Code asks providers for their models lazily; asking once puts this one in the chat view's picker.
  void vscode.lm.selectChatModels({ vendor });
}

/** Parts arrive as revived objects from another process, so they are told apart by shape. */
function readMessage(message: vscode.LanguageModelChatRequestMessage): ConversationMessage {
  const texts: string[] = [];
  const calls: { callId: string; name: string }[] = [];
  const results: { callId: string; text: string }[] = [];
  for (const part of message.content as readonly unknown[]) {
    const shape = (part ?? {}) as { value?: unknown; callId?: unknown; name?: unknown; content?: unknown };
    if (typeof shape.value === 'string') {
      texts.push(shape.value);
    } else if (typeof shape.callId === 'string' && Array.isArray(shape.content)) {
      const text = (shape.content as { value?: unknown }[]).map((inner) => (typeof inner?.value === 'string' ? inner.value : '')).join('');
      results.push({ callId: shape.callId, text });
    } else if (typeof shape.callId === 'string' && typeof shape.name === 'string') {
      calls.push({ callId: shape.callId, name: shape.name });
    }
  }
  const role = message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : message.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'system';
  return { role, texts, calls, results };
}
