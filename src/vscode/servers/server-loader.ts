// Skill servers cost activation nothing until one is configured: their client and glue are bundled
// apart (dist/extension-servers.js) and loaded when agentSkills.servers first names a server (or
// holds an entry to complain about), or Set Skill Server Token runs. Until then there are no
// server roots, and Reconnect has nothing to try.

import * as vscode from 'vscode';
import type { SkillRoot } from '../../core/model/types';
import { SERVERS_SETTING } from '../../core/servers/server-config';
import { once } from '../../core/util/async';
import type { SkillContent } from '../../core/use/skill-content';
import type { ProblemViewItem } from '../../core/view/skill-view';
import { Disposable } from '../shared/disposable';
import { COMMANDS } from '../shared/manifest';
import { readServerSettings } from '../shared/settings';
import { serversOnDemand } from '../side-bundles';
import type { SkillServerRoots } from '../skills/types';
import type { SkillServers } from './on-demand';

export class SkillServersOnDemand extends Disposable implements SkillServerRoots {
  private readonly rootsEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeRoots = this.rootsEmitter.event;
  private readonly listingEmitter = this.register(new vscode.EventEmitter<string>());
  readonly onDidChangeListing = this.listingEmitter.event;
  /** Only a server's skills are read through this, and there are none before the servers are loaded. */
  readonly files: { readonly content: SkillContent } = {
    content: {
      readBody: (record) => this.loaded().files.content.readBody(record),
      listResources: (record, limit) => this.loaded().files.content.listResources(record, limit),
      readResource: (record, requestedPath, options) => this.loaded().files.content.readResource(record, requestedPath, options),
    },
  };
  private servers: SkillServers | undefined;
  private readonly loaded = once((): SkillServers => {
    const servers = this.register(this.makeServers(serversOnDemand().SkillServers));
    this.register(servers.onDidChangeRoots(() => this.rootsEmitter.fire()));
    this.register(servers.onDidChangeListing((dir) => this.listingEmitter.fire(dir)));
    this.servers = servers;
    return servers;
  });

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly secrets: vscode.SecretStorage,
    /** Makes the servers once their code is loaded. */
    private readonly makeServers: (loaded: typeof SkillServers) => SkillServers,
  ) {
    super();
    this.register(vscode.commands.registerCommand(COMMANDS.setServerToken, () => serversOnDemand().askForServerToken(this.loaded(), this.secrets, this.log)));
    // From the offline server's row (its problem names the server), or the command palette: every server.
    this.register(vscode.commands.registerCommand(COMMANDS.reconnectServer, (item?: Partial<ProblemViewItem>) => this.reconnectAndSay(item?.problem?.server)));
    this.register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!this.servers && event.affectsConfiguration(SERVERS_SETTING) && serversConfigured()) {
          this.loaded();
          this.rootsEmitter.fire();
        }
      }),
    );
    if (serversConfigured()) {
      this.loaded();
    }
  }

  roots(): SkillRoot[] {
    return this.servers?.roots() ?? [];
  }

  reconnect(name?: string): Promise<void> {
    return this.servers?.reconnect(name) ?? Promise.resolve();
  }

  /** Reconnect: tries now, and says which servers still cannot be reached, and why. */
  private async reconnectAndSay(name: string | undefined): Promise<void> {
    if (!this.servers) {
      void vscode.window.showInformationMessage('No skill server is configured in agentSkills.servers.');
      return;
    }
    await this.servers.reconnect(name);
    const offline = this.servers.servers.filter((server) => server.link?.offline !== undefined && (name === undefined || server.config.name === name));
    if (offline.length > 0) {
      void vscode.window.showWarningMessage(offline.map((server) => `Skill server "${server.config.name}" still cannot be reached: ${server.link!.offline}`).join(' '));
    }
  }
}

/** agentSkills.servers names a server, or holds an entry whose problem the servers' code reports. */
function serversConfigured(): boolean {
  const { servers, problems } = readServerSettings();
  return servers.length > 0 || problems.length > 0;
}
