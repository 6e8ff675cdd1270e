// The skill servers of `agentSkills.servers`, connected (one ServerLink each): each server's skills
// are listed into the extension's cache (its global storage) and reach discovery as that server's
// root; files are fetched and verified on use. A server that cannot be reached keeps serving its
// cached, verified skills, marked offline, and is tried again. Tokens come from the secret storage.
// Servers named in a workspace's settings are not started in Restricted Mode.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ServedSkillFiles, type SkillFileSource } from '../../core/servers/served-content';
import { describeTransport, serverCacheFolder, serverRoot, serverTokenKey, SERVERS_SETTING, type SkillServerConfig } from '../../core/servers/server-config';
import { ServerLink } from '../../core/servers/server-link';
import type { SkillRoot } from '../../core/model/types';
import { Disposable } from '../shared/disposable';
import { readServerSettings } from '../shared/settings';

export interface ConfiguredServer {
  readonly config: SkillServerConfig;
  /** Its cache folder: the root its skills are discovered in. */
  readonly dir: string;
  /** Named in a workspace's settings while the workspace is not trusted: never started. */
  readonly ignored: boolean;
  /** Absent for an ignored server. */
  readonly link?: ServerLink;
}

export class SkillServers extends Disposable {
  private readonly rootsEmitter = this.register(new vscode.EventEmitter<void>());
  /** The servers or their state (online, offline, ignored) changed: roots are to be computed again. */
  readonly onDidChangeRoots = this.rootsEmitter.event;
  private readonly listingEmitter = this.register(new vscode.EventEmitter<string>());
  /** A server's listing changed its cache folder (the path given). */
  readonly onDidChangeListing = this.listingEmitter.event;
  /** Reads served skills' bodies and files, verified. */
  readonly files: ServedSkillFiles;
  private current: ConfiguredServer[] = [];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    /** Where servers' skills are cached (in the extension's global storage). */
    private readonly cacheDir: string,
    private readonly secrets: vscode.SecretStorage,
    private readonly clientVersion: string,
  ) {
    super();
    this.files = new ServedSkillFiles(
      (name) => this.fileSource(name),
      (message) => this.log.warn(message),
    );
    this.register(vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(SERVERS_SETTING) && this.restart()));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.restart()));
    this.register(secrets.onDidChange((event) => this.tokenChanged(event.key)));
    this.register({ dispose: () => this.stopAll(this.current) });
    this.restart();
  }

  /** The configured servers, in precedence order. */
  get servers(): readonly ConfiguredServer[] {
    return this.current;
  }

  /** One root per configured server, labelled with its state. */
  roots(): SkillRoot[] {
    return this.current.map((server) => serverRoot(this.cacheDir, server.config, { offline: server.link?.offline, ignored: server.ignored }));
  }

  /**
   * Refresh and Reconnect: the servers (or the one named) that cannot be reached are tried at once,
   * the connected ones list their skills again. Resolves once done.
   */
  async reconnect(name?: string): Promise<void> {
    const links = this.current.flatMap((server) => (server.link && (name === undefined || server.config.name === name) ? [server.link] : []));
    await Promise.all(links.map((link) => link.refresh()));
  }

  /** Reads the setting again: servers are stopped, and the configured ones started. */
  private restart(): void {
    const previous = this.current;
    const settings = readServerSettings();
    settings.problems.forEach((problem) => this.log.warn(problem));
    const trusted = vscode.workspace.isTrusted;
    this.current = settings.servers.map((config): ConfiguredServer => {
      const dir = serverCacheFolder(this.cacheDir, config);
      const ignored = !trusted && config.scope === 'workspace';
      return { config, dir, ignored, ...(ignored ? {} : { link: this.link(config, dir) }) };
    });
    this.stopAll(previous);
    for (const server of this.current.filter((candidate) => candidate.ignored)) {
      this.log.warn(`Skill server "${server.config.name}" is named in this workspace's settings; it is not started in Restricted Mode (${describeTransport(server.config.transport)}).`);
    }
    void this.removeUnusedCaches();
    this.rootsEmitter.fire();
    this.current.forEach((server) => server.link?.start());
  }

  private link(config: SkillServerConfig, dir: string): ServerLink {
    return new ServerLink({
      config,
      dir,
      clientVersion: this.clientVersion,
      token: async () => (config.transport.kind === 'http' ? await this.secrets.get(serverTokenKey(config.transport.url)) : undefined),
      log: this.log,
      onStateChange: () => this.rootsEmitter.fire(),
      onListingChange: () => this.listingEmitter.fire(dir),
    });
  }

  private stopAll(servers: readonly ConfiguredServer[]): void {
    servers.forEach((server) => server.link?.dispose());
  }

  /** A removed server's cached skills go with it. */
  private async removeUnusedCaches(): Promise<void> {
    const used = new Set(this.current.map((server) => path.basename(server.dir)));
    const present = await fs.readdir(this.cacheDir, { withFileTypes: true }).catch(() => []);
    for (const entry of present.filter((candidate) => candidate.isDirectory() && !used.has(candidate.name))) {
      await fs.rm(path.join(this.cacheDir, entry.name), { recursive: true, force: true });
      this.log.info(`Removed the cached skills of a skill server no longer configured (${entry.name}).`);
    }
  }

  private fileSource(name: string): Promise<SkillFileSource | undefined> {
    const link = this.current.find((server) => server.config.name === name)?.link;
    return link ? link.fileSource() : Promise.resolve(undefined);
  }

  /** A token set or removed: its server connects again with it. */
  private tokenChanged(key: string): void {
    for (const server of this.current) {
      if (server.link && server.config.transport.kind === 'http' && serverTokenKey(server.config.transport.url) === key) {
        this.log.info(`The token of skill server "${server.config.name}" changed; connecting again.`);
        void server.link.reconnect();
      }
    }
  }
}
