import * as vscode from 'vscode';
import { MAX_RUNS } from '../../core/evals/trigger-file';
import type { SkillSettings } from '../../core/model/settings';
import { SETTING_DEFAULTS, SETTINGS, SETTINGS_SECTION } from './manifest';
import { parseServerSettings, type ServerSettings } from '../../core/servers/server-config';
import { targetIdsSetting } from '../../core/targets/profiles';

/** Every `agentSkills.*` setting, read through one typed accessor. */

/** Reads the settings; `scope` selects a workspace folder for the resource-scoped ones. */
export function readSettings(scope?: vscode.ConfigurationScope): SkillSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return {
    enabled: config.get<boolean>(SETTINGS.enabled, SETTING_DEFAULTS.enabled),
    allowlist: stringList(config.get<unknown>(SETTINGS.allowlist), SETTING_DEFAULTS.allowlist),
    locations: stringList(config.get<unknown>(SETTINGS.locations), SETTING_DEFAULTS.locations),
    nestedLocations: config.get<boolean>(SETTINGS.nestedLocations, SETTING_DEFAULTS.nestedLocations),
    userSkills: config.get<boolean>(SETTINGS.userSkills, SETTING_DEFAULTS.userSkills),
    builtinSkills: config.get<boolean>(SETTINGS.builtinSkills, SETTING_DEFAULTS.builtinSkills),
    agentMode: config.get<string>(SETTINGS.agentMode) === 'tools' ? 'tools' : SETTING_DEFAULTS.agentMode,
    catalogBudgetPercent: config.get<number>(SETTINGS.catalogBudgetPercent, SETTING_DEFAULTS.catalogBudgetPercent),
    catalogBudgetChars: config.get<number>(SETTINGS.catalogBudgetChars, SETTING_DEFAULTS.catalogBudgetChars),
  };
}

/** `agentSkills.targets`: the host ids set for this folder, or undefined when unset (the default picks them). */
export function readTargetIds(scope?: vscode.ConfigurationScope): string[] | undefined {
  return targetIdsSetting(vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).get<unknown>(SETTINGS.targets));
}

/**
 * `agentSkills.servers`, the user's entries apart from the workspace's: a workspace's servers run a
 * command or reach an address the workspace chose, so Restricted Mode must be able to tell them apart.
 */
export function readServerSettings(): ServerSettings {
  const inspected = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<unknown>(SETTINGS.servers);
  return parseServerSettings(inspected?.globalValue, inspected?.workspaceValue);
}

/** How trigger tests run (`agentSkills.triggerTests.*`); read when a run starts. */
export interface TriggerTestSettings {
  /** Requests per query. */
  runs: number;
  /** Share of runs that must trigger for a should-trigger query to pass. */
  threshold: number;
  /** A model id or family; empty: the only model, or the one picked for this workspace. */
  model: string;
  /** Runs sending more requests than this ask first. */
  confirmAbove: number;
  /** Requests in flight at once. */
  concurrency: number;
}

export function readTriggerTestSettings(): TriggerTestSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const model = config.get<unknown>(SETTINGS.triggerTestsModel);
  return {
    runs: wholeNumber(config.get<unknown>(SETTINGS.triggerTestsRuns), SETTING_DEFAULTS.triggerTestsRuns, 1, MAX_RUNS),
    threshold: Math.min(1, Math.max(0, numberOr(config.get<unknown>(SETTINGS.triggerTestsThreshold), SETTING_DEFAULTS.triggerTestsThreshold))),
    model: typeof model === 'string' ? model.trim() : '',
    confirmAbove: wholeNumber(config.get<unknown>(SETTINGS.triggerTestsConfirmAbove), SETTING_DEFAULTS.triggerTestsConfirmAbove, 0, Number.MAX_SAFE_INTEGER),
    concurrency: wholeNumber(config.get<unknown>(SETTINGS.triggerTestsConcurrency), SETTING_DEFAULTS.triggerTestsConcurrency, 1, MAX_CONCURRENCY),
  };
}

const MAX_CONCURRENCY = 16;

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function wholeNumber(value: unknown, fallback: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(numberOr(value, fallback))));
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
function stringList(value: unknown, fallback: readonly string[]): string[] {
  if (!Array.isArray(value)) {
    return [...fallback];
  }
  return value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
}
