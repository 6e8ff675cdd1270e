// Helpers for the trigger-test suites: the product's test controller, its items as text, runs of
// chosen items through the run profile's handler, and the scripted model's rules.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TriggerTestController, TriggerTestResult } from '../../src/vscode/testing/trigger-tests';
import { productApi } from './chat-helpers';
import { workspaceSkillsFolder } from './editor-helpers';
import { waitFor, type RecordedRequest, type ScriptedRuleSet } from './util';

/** How the scripted model decides in these suites: like a model reading the catalog, by keywords. */
export const TRIGGER_RULES: ScriptedRuleSet = {
  rules: [
    { keywords: ['over quota'], error: { message: 'Rate limit exceeded, try again in 60 s', code: 'Blocked' } },
    { keywords: ['flaky'], activate: 'pdf-forms', probability: 0.5 },
    { keywords: ['search first'], findFirst: true, activate: 'pdf-forms' },
    { keywords: ['pdf form', 'w-9'], activate: 'pdf-forms' },
    { keywords: ['spreadsheet'], activate: 'sheets' },
    { keywords: ['journal'], activate: 'daily-journal' },
  ],
  otherwise: 'I can answer that directly.',
  seed: 7,
};

/** Where the routing report's summary before the window's reload is kept, in the workspace folder, for the test after it. */
export const SUMMARY_BEFORE_RELOAD = 'routing-summary-before-reload.txt';

export async function triggerTests(): Promise<TriggerTestController> {
  const api = await productApi();
  return api.testing.triggerTests;
}

export function childrenOf(collection: vscode.TestItemCollection): vscode.TestItem[] {
  const items: vscode.TestItem[] = [];
  collection.forEach((item) => items.push(item));
  return items;
}

/** Every item as an indented line: label, description, and the first line of its range. */
export function outline(controller: TriggerTestController): string[] {
  const lines: string[] = [];
  const visit = (item: vscode.TestItem, depth: number): void => {
    const description = item.description ? ` — ${item.description}` : '';
    const line = item.range ? ` @${item.range.start.line + 1}` : '';
    lines.push(`${'  '.repeat(depth)}${item.label}${description}${line}`);
    childrenOf(item.children).forEach((child) => visit(child, depth + 1));
  };
  childrenOf(controller.controller.items).forEach((item) => visit(item, 0));
  return lines;
}

/** The item of a skill (depth 2) or of a query under a skill. */
export function findItem(controller: TriggerTestController, skill: string, query?: string): vscode.TestItem {
  const skillItem = childrenOf(controller.controller.items)
    .flatMap((source) => childrenOf(source.children))
    .find((item) => item.label === skill);
  if (!skillItem) {
    throw new Error(`No test item for skill ${skill}:\n${outline(controller).join('\n')}`);
  }
  if (query === undefined) {
    return skillItem;
  }
  const queryItem = childrenOf(skillItem.children).find((item) => item.label === query);
  if (!queryItem) {
    throw new Error(`No test item "${query}" under ${skill}:\n${outline(controller).join('\n')}`);
  }
  return queryItem;
}

/** Runs the given items as the Testing view's Run does, and returns the results of those items. */
export async function runItems(controller: TriggerTestController, items: readonly vscode.TestItem[], token = new vscode.CancellationTokenSource().token): Promise<Map<string, TriggerTestResult>> {
  const before = new Map(controller.lastResults);
  await controller.run(new vscode.TestRunRequest([...items]), token);
  return new Map([...controller.lastResults].filter(([id, result]) => before.get(id) !== result));
}

/** The 1-based line of the file on which `text` first appears. */
export function lineOf(file: string, text: string): number {
  const index = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
  if (index < 0) {
    throw new Error(`"${text}" is not in ${file}`);
  }
  return index + 1;
}

/** The user's query of a recorded request (the last user message made of text). */
export function queryOf(request: RecordedRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user' && message.parts.every((part) => part.kind === 'text'))?.text ?? '';
}

export function activated(request: RecordedRequest): string[] {
  return (request.answer?.toolCalls ?? []).filter((call) => call.name === 'skills_activate').map((call) => String((call.input as { name?: unknown } | undefined)?.name));
}

/**
 * Writes skills into the workspace's skills folder (`name: front matter after the name line`) and
 * waits until each has the status given (`release-helper:available`).
 */
export async function writeSkillsWithStatus(skills: Record<string, string>, statuses: readonly string[]): Promise<void> {
  const api = await productApi();
  for (const [name, frontMatter] of Object.entries(skills)) {
    fs.mkdirSync(path.join(workspaceSkillsFolder(), name), { recursive: true });
    fs.writeFileSync(path.join(workspaceSkillsFolder(), name, 'SKILL.md'), `---\nname: ${name}\n${frontMatter}---\n\n# ${name}\n`);
  }
  await waitFor(
    async () => {
      await api.whenIdle();
      const names = api.listSkills().map((skill) => `${skill.name}:${skill.status}`);
      return statuses.every((status) => names.includes(status));
    },
    { message: () => `skills: ${JSON.stringify(api.listSkills().map((skill) => [skill.name, skill.status]))}` },
  );
}
