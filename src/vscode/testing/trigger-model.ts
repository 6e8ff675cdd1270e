// Which chat model trigger tests run on, and the model as core's runner sees it: the @skills tools
// offered, text and tool calls collected, the Testing view's cancellation passed to every request.

import * as vscode from 'vscode';
import { findModel } from '../../core/chat/prompt';
import { unavailableToolText } from '../../core/chat/tool-texts';
import type { ModelAnswer, TriggerModel } from '../../core/evals/run';
import { isSkillTool, resultText, skillChatTools, toChatMessages } from '../shared/language-model';
import { errorMessage } from '../../core/util/errors';

/** The workspace's remembered pick when several models exist and the setting names none. */
const REMEMBERED_MODEL_KEY = 'agentSkills.triggerTests.model';

export type ModelChoice = { kind: 'model'; model: vscode.LanguageModelChat } | { kind: 'none'; message?: string } | { kind: 'dismissed' };

/**
 * The setting's model (an id or a family); else the only model; else the one picked earlier in this
 * workspace; else the user picks one, and the pick is remembered.
 */
export async function chooseTriggerModel(setting: string, workspaceState: vscode.Memento): Promise<ModelChoice> {
  const models = await vscode.lm.selectChatModels();
  if (models.length === 0) {
    return { kind: 'none' };
  }
  if (setting.trim() !== '') {
    const wanted = findModel(setting, models);
    return wanted
      ? { kind: 'model', model: wanted }
      : {
          kind: 'none',
          message: `The model "${setting.trim()}" (setting agentSkills.triggerTests.model) is not available. Available: ${models.map((model) => `${model.id} (${model.family})`).join(', ')}.`,
        };
  }
  if (models.length === 1) {
    return { kind: 'model', model: models[0] };
  }
  const remembered = models.find((model) => model.id === workspaceState.get<string>(REMEMBERED_MODEL_KEY));
  if (remembered) {
    return { kind: 'model', model: remembered };
  }
  const picked = await vscode.window.showQuickPick(
    models.map((model) => ({ label: model.name, description: `${model.vendor} · ${model.family}`, model })),
    { title: 'Model for trigger tests', placeHolder: 'The model the trigger tests of this workspace run on (remembered; set agentSkills.triggerTests.model to change it)' },
  );
  if (!picked) {
    return { kind: 'dismissed' };
  }
  await workspaceState.update(REMEMBERED_MODEL_KEY, picked.model.id);
  return { kind: 'model', model: picked.model };
}

/** Core's model: @skills's tools, auto tool mode, the run's cancellation on every request. */
export function chatTriggerModel(model: vscode.LanguageModelChat, token: vscode.CancellationToken): TriggerModel {
  const tools = skillChatTools();
  return {
    async send(messages) {
      const response = await model.sendRequest(
        toChatMessages(messages),
        { tools, toolMode: vscode.LanguageModelChatToolMode.Auto, justification: 'Trigger tests send each test query to the model to see which skill it loads.' },
        token,
      );
      const answer: ModelAnswer = { text: '', calls: [] };
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          answer.text += part.value;
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          answer.calls.push({ callId: part.callId, name: part.name, input: part.input });
        }
      }
      return answer;
    },
    async answerTool(call) {
      if (!isSkillTool(call.name)) {
        return unavailableToolText(call.name);
      }
      try {
        return resultText(await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: undefined }, token));
      } catch (error) {
        return `Error: ${errorMessage(error)}`;
      }
    },
  };
}
