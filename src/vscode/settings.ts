import * as vscode from 'vscode';
import type { SkillSettings } from '../core/model/settings';

/** Every `agentSkills.*` setting, read through one typed accessor. */
export const SETTINGS_SECTION = 'agentSkills';

/** Reads the settings; `scope` selects a workspace folder for the resource-scoped ones. */
export function readSettings(scope?: vscode.ConfigurationScope): SkillSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return {
    enabled: config.get<boolean>('enabled', true),
    allowlist: stringList(config.get<unknown>('allowlist')),
    locations: stringList(config.get<unknown>('locations'), ['.agent/skills']),
    userSkills: config.get<boolean>('userSkills', true),
    builtinSkills: config.get<boolean>('builtinSkills', true),
    catalogBudgetPercent: config.get<number>('catalog.budgetPercent', 2),
    catalogBudgetChars: config.get<number>('catalog.budgetChars', 16000),
  };
}

/** Fires when any `agentSkills.*` setting changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS_SECTION)) listener();
  });
}

/** Hand-edited settings may hold anything; keep only the strings. */
function stringList(value: unknown, fallback: string[] = []): string[] {
  if (!Array.isArray(value)) return fallback;
  return value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
}
