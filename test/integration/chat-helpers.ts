// Helpers for the chat suites: calling the skill tools as any chat client does, and reading what
// the scripted model was given.
import * as vscode from 'vscode';
import type { AgentSkillsApi } from '../../src/vscode/api';
import type { RecordedRequest } from '../scripted-model/api';
import { activateProduct, click, harnessAvailable, scriptedModel, waitForViewText } from './util';

export const skillToolNames = ['skills_activate', 'skills_find', 'skills_readResource'] as const;

/** The product's API once start-up discovery and pending reloads are done. */
export async function productApi(): Promise<AgentSkillsApi> {
  const api = (await activateProduct<AgentSkillsApi>()).exports;
  await api.whenIdle();
  return api;
}

/** Calls a tool through VS Code, outside any chat request, and returns the text the model would read. */
export async function invokeSkillTool(name: (typeof skillToolNames)[number], input: object): Promise<string> {
  await productApi();
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part))).join('');
}

/** Runs Skills: Clear Usage and answers its question as a user would. */
export async function clearUsage(): Promise<boolean | undefined> {
  const clearing = vscode.commands.executeCommand<boolean>('agentSkills.clearUsage');
  await waitForViewText('css:.quick-input-widget', "Clear this workspace's record of skill activations?");
  await click({ role: 'option', name: 'Clear usage', within: '.quick-input-widget' });
  return clearing;
}

/** The text of every tool result in a recorded request, in order. */
export function toolResults(request: RecordedRequest): string[] {
  return request.messages.flatMap((message) => message.parts.flatMap((part) => (part.kind === 'toolResult' ? [part.text] : [])));
}

/** The text of the request's first message: the instructions @skills sends. */
export function instructionsOf(request: RecordedRequest): string {
  return request.messages[0]?.text ?? '';
}

export function lastUserText(request: RecordedRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.text ?? '';
}

/** Describes recorded requests for assertion messages. */
export function describeRequests(requests: readonly RecordedRequest[]): string {
  return requests.map((request) => `#${request.index}: ${request.messages.map((message) => `[${message.role}] ${message.text.slice(0, 160)}`).join(' | ')}`).join('\n');
}

/** The `<available_skills>` block exactly as Skills: Show Catalog shows it. */
export async function shownCatalog(): Promise<string> {
  const document = await vscode.commands.executeCommand<vscode.TextDocument>('agentSkills.showCatalog');
  const text = document.getText();
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  return text.slice(text.indexOf('<available_skills>'), text.indexOf('</available_skills>') + '</available_skills>'.length);
}

/**
 * For a `describe` of chat requests: skips it without the browser harness (sending requests needs
 * the workbench it shows), waits for the product, and gives each test a scripted model with no
 * queued answers or recorded requests.
 */
export function useChatView(): void {
  before(async function () {
    if (!harnessAvailable()) {
      this.skip();
    }
    await productApi();
  });
  beforeEach(async () => (await scriptedModel()).reset());
}
