// The tool-calling loop with a chat model: send the messages, stream the answer, run the tools it
// calls, send their results back, until the model answers without tool calls or the rounds run
// out. Cancellation and failures of the model request become typed errors, so callers can tell
// them from failures of their own code.

import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errors';

/** A failure of the model request itself, told apart from failures of this extension's code. */
export class ModelRequestError extends Error {
  constructor(readonly failure: unknown) {
    super(errorMessage(failure));
  }
}

export class RequestCancelled extends Error {}

export function throwIfCancelled(token: vscode.CancellationToken): void {
  if (token.isCancellationRequested) {
    throw new RequestCancelled();
  }
}

export interface ToolLoopOptions {
  tools: vscode.LanguageModelChatTool[];
  /** Options of the first request only (e.g. a required tool), instead of the tools in auto mode. */
  first?: vscode.LanguageModelChatRequestOptions;
  maxRounds: number;
}

export interface ToolLoopHooks {
  token: vscode.CancellationToken;
  /** Each piece of answer text as it streams in. */
  onText(text: string): void;
  /** After each model response. */
  onRound?(): void;
  /** Runs one tool call of the model and returns the text the model gets back. */
  runCall(call: vscode.LanguageModelToolCallPart): Promise<string>;
}

export interface ToolLoopResult {
  /** All text the model wrote, over every round. */
  text: string;
  /** True when the model still called tools in the last round allowed. */
  exhausted: boolean;
}

interface ModelAnswer {
  text: string;
  calls: vscode.LanguageModelToolCallPart[];
}

/** Runs the loop; `messages` grows with the model's answers and the tool results. */
export async function runToolLoop(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], options: ToolLoopOptions, hooks: ToolLoopHooks): Promise<ToolLoopResult> {
  let text = '';
  for (let round = 0; round < options.maxRounds; round++) {
    const requestOptions = (round === 0 && options.first) || { tools: options.tools, toolMode: vscode.LanguageModelChatToolMode.Auto };
    const answer = await ask(model, messages, requestOptions, hooks);
    hooks.onRound?.();
    text += answer.text;
    if (answer.calls.length === 0) {
      return { text, exhausted: false };
    }
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(answer.text ? [new vscode.LanguageModelTextPart(answer.text)] : []), ...answer.calls]));
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of answer.calls) {
      results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(await hooks.runCall(call))]));
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  return { text, exhausted: true };
}

/** Sends one request and streams its text. */
async function ask(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], options: vscode.LanguageModelChatRequestOptions, hooks: ToolLoopHooks): Promise<ModelAnswer> {
  throwIfCancelled(hooks.token);
  const answer: ModelAnswer = { text: '', calls: [] };
  try {
    const response = await model.sendRequest(messages, options, hooks.token);
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        answer.text += part.value;
        hooks.onText(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        answer.calls.push(part);
      }
    }
  } catch (error) {
    throwIfCancelled(hooks.token);
    throw new ModelRequestError(error);
  }
  throwIfCancelled(hooks.token);
  return answer;
}
