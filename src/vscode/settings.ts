import * as vscode from 'vscode';
import type { SkillSettings } from '../core/model/settings';
import { DEFAULT_CATALOG_BUDGET_CHARS } from '../core/use/catalog';
import { SETTINGS, SETTINGS_SECTION } from './manifest';

/** Every `agentSkills.*` setting, read through one typed accessor. */

/** Reads the settings; `scope` selects a workspace folder for the resource-scoped ones. */
export function readSettings(scope?: vscode.ConfigurationScope): SkillSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return {
    enabled: config.get<boolean>(SETTINGS.enabled, true),
    allowlist: stringList(config.get<unknown>(SETTINGS.allowlist)),
    locations: stringList(config.get<unknown>(SETTINGS.locations), ['.agent/skills']),
    userSkills: config.get<boolean>(SETTINGS.userSkills, true),
    builtinSkills: config.get<boolean>(SETTINGS.builtinSkills, true),
    agentMode: config.get<string>(SETTINGS.agentMode) === 'tools' ? 'tools' : 'mcpServer',
    catalogBudgetPercent: config.get<number>(SETTINGS.catalogBudgetPercent, 2),
    catalogBudgetChars: config.get<number>(SETTINGS.catalogBudgetChars, DEFAULT_CATALOG_BUDGET_CHARS),
  };
}

/** Fires when any `agentSkills.*` setting changes. */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SETTINGS_SECTION)) {
      listener();
    }
  });
}

/** Hand-edited settings may hold anything; keep only the strings. */
function stringList(value: unknown, fallback: string[] = []): string[] {
  if (!Array.isArray(value)) {
    return fallback;
  }
  return value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
}
