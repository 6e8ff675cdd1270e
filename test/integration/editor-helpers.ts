// Helpers for the editor suites (Skills view, live reload, Validate Skills, settings, trust): the
// product's API, the tree as text, and writing skills on disk the way a user or git would.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillViewItem, ViewItem } from '../../src/core/view/skill-view';
import type { AgentSkillsApi, SkillInfo } from '../../src/vscode/api';
import { activateProduct, click, readTreeRows, waitFor, type DrawnTreeRow } from './util';

export type { AgentSkillsApi, SkillInfo } from '../../src/vscode/api';

/** The product's API, once start-up discovery is done. */
export async function skillsApi(): Promise<AgentSkillsApi> {
  const api = (await activateProduct<AgentSkillsApi>()).exports;
  await api.whenIdle();
  return api;
}

/** The Skills view as indented lines, `label — description` (groups carry their count). */
export function treeOutline(api: AgentSkillsApi): string[] {
  const lines = (items: readonly ViewItem[], depth: number): string[] =>
    items.flatMap((item) => {
      const line = `${'  '.repeat(depth)}${item.label}${item.kind === 'action' ? '' : ` — ${item.description}`}`;
      return item.kind === 'group' ? [line, ...lines(item.children, depth + 1)] : [line];
    });
  return lines(api.testing.tree.topLevel, 0);
}

/** The labels of the top-level groups, e.g. ['Active', 'Available', 'Problems']. */
export function treeGroups(api: AgentSkillsApi): string[] {
  return api.testing.tree.topLevel.map((group) => group.label);
}

/** The tree item of a skill in a group, at any depth (Available: directly, in its source's row or in a grouping folder). */
export function treeItem(api: AgentSkillsApi, group: string, name: string): SkillViewItem | undefined {
  const find = (items: readonly ViewItem[]): SkillViewItem | undefined => {
    for (const item of items) {
      if (item.kind === 'skill' && item.label === name) {
        return item;
      }
      if (item.kind === 'group') {
        const found = find(item.children);
        if (found) {
          return found;
        }
      }
    }
    return undefined;
  };
  const top = api.testing.tree.topLevel.find((candidate) => candidate.label === group);
  return top && find(top.children);
}

/** A drawn row as `[level, label, description]`. */
export type DrawnRowText = readonly [number, string, string];

/**
 * Waits until the Skills view draws exactly `expected`, top to bottom, and returns the drawn rows.
 * The view draws asynchronously (and only the rows in sight). Only under the browser harness.
 */
export async function waitForDrawnRows(expected: readonly DrawnRowText[]): Promise<DrawnTreeRow[]> {
  let drawn: DrawnTreeRow[] = [];
  const asText = (rows: readonly DrawnTreeRow[]) => JSON.stringify(rows.map((row) => [row.level, row.label, row.description]));
  await waitFor(async () => asText((drawn = await readTreeRows('skills'))) === JSON.stringify(expected), {
    message: () => `the Skills view drew:\n${drawn.map((row) => `${'  '.repeat(row.level - 1)}${row.label} — ${row.description}`).join('\n')}`,
  });
  return drawn;
}

export function skillNamed(api: AgentSkillsApi, name: string, sourceKind?: SkillInfo['source']['kind']): SkillInfo | undefined {
  return api.listSkills().find((skill) => skill.name === name && (!sourceKind || skill.source.kind === sourceKind));
}

/** Waits until `probe` holds for the API's skills; the message shows the tree as it was last seen. */
export async function waitForSkills<T>(api: AgentSkillsApi, probe: (skills: SkillInfo[]) => T | undefined | false, what: string, timeoutMs = 10000): Promise<T> {
  return waitFor(() => probe(api.listSkills()), {
    timeoutMs,
    message: () => `${what}; the Skills view showed:\n${treeOutline(api).join('\n')}`,
  });
}

export function firstWorkspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    throw new Error('The suite opened no workspace folder.');
  }
  return folder.uri.fsPath;
}

export function workspaceSkillsFolder(): string {
  return path.join(firstWorkspaceFolder(), '.agent', 'skills');
}

export function userSkillsFolder(): string {
  return path.join(os.homedir(), '.agent', 'skills');
}

export function skillText(name: string, description: string, body = `Instructions for ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}\n`;
}

/** Writes `<root>/<folder>/SKILL.md` as a user would, and returns the file. */
export function writeSkillOnDisk(root: string, folder: string, content: string): string {
  const file = path.join(root, folder, 'SKILL.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** Sets a setting in the workspace (or resets it with undefined) and waits until the product applied it. */
export async function setWorkspaceSetting(api: AgentSkillsApi, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('agentSkills').update(key, value, vscode.ConfigurationTarget.Workspace);
  await api.whenIdle();
}

/** The product's diagnostics on a file (VS Code's own prompt-file checks may add others). */
export function diagnosticsOf(file: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((diagnostic) => diagnostic.source === 'Agent Skills');
}

/** `[code, severity, startLine, startColumn, endLine, endColumn]` of each diagnostic, for compact assertions. */
export function diagnosticSummary(file: string): [string, string, number, number, number, number][] {
  return diagnosticsOf(file).map((diagnostic) => [
    String(diagnostic.code),
    vscode.DiagnosticSeverity[diagnostic.severity],
    diagnostic.range.start.line,
    diagnostic.range.start.character,
    diagnostic.range.end.line,
    diagnostic.range.end.character,
  ]);
}

/** The labels of the open tabs, in every editor group. */
export function openTabLabels(): string[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
}

/** Brings the tab whose label contains `label` to the front with a click, as a user would. */
export async function showTab(label: string): Promise<void> {
  await click({ role: 'tab', name: label, within: '[id="workbench.parts.editor"]' });
}
