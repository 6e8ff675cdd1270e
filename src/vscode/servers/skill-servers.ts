// The skill servers of `agentSkills.servers`, connected: each server's skills are listed into the
// extension's cache (its global storage) and reach discovery as that server's root; the list is
// followed live (list_changed); files are fetched and verified on use. A server that cannot be
// reached keeps serving its cached, verified skills, marked offline. Tokens come from the secret
// storage. Servers named in a workspace's settings are not started in Restricted Mode.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { connectSkillServer, type SkillServerConnection } from '../../core/servers/mcp-client';
import { ServedSkillFiles, type SkillFileSource } from '../../core/servers/served-content';
import { storeListing } from '../../core/servers/server-cache';
import { describeTransport, serverCacheFolder, serverRoot, serverTokenKey, SERVERS_SETTING, type SkillServerConfig } from '../../core/servers/server-config';
import type { SkillRoot } from '../../core/model/types';
import { errorMessage } from '../../core/util/errors';
import { Disposable } from '../disposable';
import { readServerSettings } from '../settings';

/** A list_changed often comes in a burst (one per edited file): one listing follows it. */
const LIST_CHANGED_DELAY_MS = 150;
/** A file asked for while its server is offline tries to reach it again, at most this often. */
const RECONNECT_AFTER_MS = 5000;

export interface ConfiguredServer {
  readonly config: SkillServerConfig;
  /** Its cache folder: the root its skills are discovered in. */
  readonly dir: string;
  /** Named in a workspace's settings while the workspace is not trusted: never started. */
  readonly ignored: boolean;
  connection?: SkillServerConnection;
  connecting?: Promise<SkillServerConnection | undefined>;
  /** Why it cannot be reached; undefined while connected or not tried yet. */
  offline?: string;
  lastAttempt: number;
  syncTimer?: ReturnType<typeof setTimeout>;
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
    return this.current.map((server) => serverRoot(this.cacheDir, server.config, { offline: server.offline, ignored: server.ignored }));
  }

  /** Reads the setting again: servers are stopped, and the configured ones started. */
  private restart(): void {
    const previous = this.current;
    const settings = readServerSettings();
    settings.problems.forEach((problem) => this.log.warn(problem));
    const trusted = vscode.workspace.isTrusted;
    this.current = settings.servers.map((config) => ({ config, dir: serverCacheFolder(this.cacheDir, config), ignored: !trusted && config.scope === 'workspace', lastAttempt: 0 }));
    this.stopAll(previous);
    for (const server of this.current) {
      if (server.ignored) {
        this.log.warn(`Skill server "${server.config.name}" is named in this workspace's settings; it is not started in Restricted Mode (${describeTransport(server.config.transport)}).`);
      }
    }
    void this.removeUnusedCaches();
    this.rootsEmitter.fire();
    for (const server of this.current.filter((candidate) => !candidate.ignored)) {
      void this.connect(server);
    }
  }

  private stopAll(servers: readonly ConfiguredServer[]): void {
    for (const server of servers) {
      clearTimeout(server.syncTimer);
      const connection = server.connection;
      server.connection = undefined;
      void connection?.close();
      void server.connecting?.then((late) => late?.close());
    }
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

  private connect(server: ConfiguredServer): Promise<SkillServerConnection | undefined> {
    server.connecting ??= this.open(server).finally(() => {
      server.connecting = undefined;
    });
    return server.connecting;
  }

  private async open(server: ConfiguredServer): Promise<SkillServerConnection | undefined> {
    const { config } = server;
    server.lastAttempt = Date.now();
    let connection: SkillServerConnection | undefined;
    try {
      const token = config.transport.kind === 'http' ? await this.secrets.get(serverTokenKey(config.transport.url)) : undefined;
      connection = await connectSkillServer(config.transport, { token, clientVersion: this.clientVersion });
      if (!this.current.includes(server)) {
        await connection.close(); // The setting changed meanwhile.
        return undefined;
      }
      const connected = connection;
      server.connection = connected;
      connected.onListChanged(() => this.scheduleSync(server));
      void connected.closed.then((reason) => {
        if (server.connection === connected) {
          server.connection = undefined;
          this.setOffline(server, reason);
        }
      });
      await this.sync(server, connected);
      this.setOffline(server, undefined);
      return connected;
    } catch (error) {
      if (connection && server.connection === connection) {
        server.connection = undefined;
        void connection.close();
      }
      this.setOffline(server, errorMessage(error));
      return undefined;
    }
  }

  /** Lists the server's skills into its cache folder, and says when that changed what is there. */
  private async sync(server: ConfiguredServer, connection: SkillServerConnection): Promise<void> {
    const { skills, refused } = await connection.listSkills();
    const update = await storeListing(server.dir, skills);
    for (const entry of [...refused, ...update.refused]) {
      this.log.warn(`Skill server "${server.config.name}": refused the skill ${entry.uri ?? '(no URI)'}: ${entry.reason}.`);
    }
    this.log.info(`Skill server "${server.config.name}" lists ${skills.length} skills (${update.changed.length} new or changed, ${update.removed.length} gone).`);
    if (update.changed.length > 0 || update.removed.length > 0) {
      this.listingEmitter.fire(server.dir);
    }
  }

  private scheduleSync(server: ConfiguredServer): void {
    clearTimeout(server.syncTimer);
    server.syncTimer = setTimeout(() => {
      const connection = server.connection;
      if (connection) {
        this.sync(server, connection).catch((error: unknown) => this.log.warn(`Skill server "${server.config.name}": could not list its skills again: ${errorMessage(error)}`));
      }
    }, LIST_CHANGED_DELAY_MS);
  }

  private setOffline(server: ConfiguredServer, reason: string | undefined): void {
    if (server.offline === reason) {
      return;
    }
    if (reason === undefined) {
      this.log.info(`Skill server "${server.config.name}" is connected (${describeTransport(server.config.transport)}).`);
    } else {
      this.log.warn(`Skill server "${server.config.name}" cannot be reached (${describeTransport(server.config.transport)}): ${reason}. Its cached skills stay available.`);
    }
    server.offline = reason;
    if (this.current.includes(server)) {
      this.rootsEmitter.fire();
    }
  }

  /** The connection files are read through; an offline server is tried again now and then. */
  private async fileSource(name: string): Promise<SkillFileSource | undefined> {
    const server = this.current.find((candidate) => candidate.config.name === name && !candidate.ignored);
    if (!server) {
      return undefined;
    }
    if (server.connection) {
      return server.connection;
    }
    if (server.connecting || Date.now() - server.lastAttempt >= RECONNECT_AFTER_MS) {
      return this.connect(server);
    }
    return undefined;
  }

  /** A token set or removed: its server connects again with it. */
  private tokenChanged(key: string): void {
    for (const server of this.current) {
      if (server.config.transport.kind === 'http' && serverTokenKey(server.config.transport.url) === key && !server.ignored) {
        this.log.info(`The token of skill server "${server.config.name}" changed; connecting again.`);
        const connection = server.connection;
        server.connection = undefined;
        void connection?.close();
        void (server.connecting ?? Promise.resolve()).then(() => this.connect(server));
      }
    }
  }
}
