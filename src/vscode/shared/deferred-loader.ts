// Loads the features the Skills view's first rows do not need (../deferred.ts, bundled apart) once the
// view was handed those rows, or on the first use of one of them if that comes first. VS Code runs a
// contributed command only if it is registered when asked: until the features load, each of their
// commands is a stand-in that loads them and runs the real command.

import * as vscode from 'vscode';
import { once } from '../../core/util/async';
import { COMMANDS } from './manifest';

/** The commands the deferred features register (../deferred.ts and the areas it registers). */
export const DEFERRED_COMMANDS: readonly string[] = [
  COMMANDS.validate,
  COMMANDS.showCatalog,
  COMMANDS.createSkill,
  COMMANDS.showBudget,
  COMMANDS.addToTargetFolder,
  COMMANDS.showUsage,
  COMMANDS.clearUsage,
  COMMANDS.showRoutingReport,
  COMMANDS.draftTriggerTests,
  COMMANDS.improveDescription,
  COMMANDS.addFromGit,
  COMMANDS.checkForUpdates,
  COMMANDS.installLocked,
  COMMANDS.updateSkill,
  COMMANDS.removeSkill,
  COMMANDS.keepEdits,
];

export interface DeferredLoader<Features> {
  /** The deferred features, loaded and registered by the first call. */
  features(): Features;
  /** Whether they have been loaded. */
  loaded(): boolean;
  /** The stand-in commands, until the features load. */
  standIns: vscode.Disposable;
}

/** `load` loads and registers the features; it runs once the host's first rows were shown, or on first use. */
export function deferredFeatures<Features>(host: { readonly firstRowsShown: Promise<void> }, load: () => Features): DeferredLoader<Features> {
  let made = false;
  const standIns = vscode.Disposable.from(
    ...DEFERRED_COMMANDS.map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        features();
        return vscode.commands.executeCommand(id, ...args);
      }),
    ),
  );
  const features = once(() => {
    // The real commands take the stand-ins' ids.
    standIns.dispose();
    made = true;
    return load();
  });
  void host.firstRowsShown.then(features);
  return { features, loaded: () => made, standIns };
}
