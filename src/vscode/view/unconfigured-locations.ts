// Skills kept in well-known folders (e.g. `.claude/skills`) that `agentSkills.locations` leaves out:
// found whenever the skills may have changed, named above the Skills view, and added in one click.

import * as vscode from 'vscode';
import { findUnconfiguredLocations } from '../../core/discovery/unconfigured-locations';
import { CONTEXT_KEYS, SETTINGS, SETTINGS_SECTION } from '../shared/manifest';
import { readSettings } from '../shared/settings';
import { setContext } from './set-context';
import type { SkillsHost } from '../skills/types';

const ADD_BUTTON = 'Add to agentSkills.locations';

interface FolderLocations {
  folder: vscode.WorkspaceFolder;
  locations: string[];
}

export class UnconfiguredLocations implements vscode.Disposable {
  private found: FolderLocations[] = [];
  private notified = '';
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** Fires when the set of unconfigured locations changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly host: SkillsHost) {}

  /** The locations found, e.g. `.claude/skills` (once each, whatever the folder). */
  get locations(): string[] {
    return [...new Set(this.found.flatMap((entry) => entry.locations))];
  }

  async check(): Promise<void> {
    await this.host.firstRowsShown;
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    const found = await Promise.all(folders.map(async (folder) => ({ folder, locations: await findUnconfiguredLocations(folder.uri.fsPath, readSettings(folder).locations) })));
    const before = this.locations.join(', ');
    this.found = found.filter((entry) => entry.locations.length > 0);
    const report = this.locations.join(', ');
    await setContext(CONTEXT_KEYS.unconfiguredLocations, report !== '');
    if (report === before) {
      return;
    }
    this.changeEmitter.fire();
    if (report !== '' && report !== this.notified) {
      this.notified = report;
      this.host.log.info(`Skills found in folders that are not in agentSkills.locations: ${report}.`);
      void vscode.window.showInformationMessage(`Skills were found in ${report}, which agentSkills.locations does not include, so they are not used.`, ADD_BUTTON).then((choice) => {
        if (choice === ADD_BUTTON) {
          void this.addAll();
        }
      });
    }
  }

  /** Adds every found location to its workspace folder's `agentSkills.locations`. */
  async addAll(): Promise<string[]> {
    await this.check();
    const added = this.locations;
    for (const { folder, locations } of this.found) {
      const configured = readSettings(folder).locations;
      await vscode.workspace.getConfiguration(SETTINGS_SECTION, folder).update(SETTINGS.locations, [...configured, ...locations], vscode.ConfigurationTarget.WorkspaceFolder);
    }
    if (added.length > 0) {
      this.host.log.info(`Added to agentSkills.locations: ${added.join(', ')}.`);
    }
    await this.check();
    return added;
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
