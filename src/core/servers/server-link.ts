// One configured skill server, kept connected: its skills are listed (and those the setting names
// by URI got) into its cache folder, the list is followed live, and a server that cannot be
// reached or goes away is tried again after a delay that doubles up to a cap, at once when the
// user asks (Refresh, Reconnect), and never again once the link is disposed.

import { connectSkillServer, type ConnectOptions, type SkillServerConnection } from './mcp-client';
import type { SkillFileSource } from './served-content';
import type { ServedSkill } from './served-skill';
import { storeListing, type RefusedEntry } from './server-cache';
import { describeTransport, type SkillServerConfig } from './server-config';
import { errorMessage } from '../util/errors';

export interface ReconnectTiming {
  /** The wait before the first new attempt after a failure; it doubles with each failure after. */
  firstDelayMs: number;
  /** The longest wait between attempts: a server gone for good is tried this often. */
  maxDelayMs: number;
}

export const RECONNECT_TIMING: ReconnectTiming = { firstDelayMs: 1000, maxDelayMs: 60_000 };
/** A list_changed often comes in a burst (one per edited file): one listing follows it. */
const LIST_CHANGED_DELAY_MS = 150;
/** A file asked for while its server is offline tries to reach it again, at most this often. */
const FILE_RETRY_MS = 5000;

export interface ServerLinkOptions {
  config: SkillServerConfig;
  /** The server's cache folder: the root its skills are discovered in. */
  dir: string;
  clientVersion: string;
  /** The server's bearer token (HTTP), looked up on each attempt. */
  token(): Promise<string | undefined>;
  log: { info(message: string): void; warn(message: string): void };
  /** It went online or offline. */
  onStateChange(): void;
  /** A listing changed what its cache folder holds. */
  onListingChange(): void;
  timing?: ReconnectTiming;
  /** How the waits between attempts are kept; the global timers unless set. */
  timers?: RetryTimers;
  /** Timeouts of the connection's requests. */
  connect?: Pick<ConnectOptions, 'requestTimeoutMs' | 'probeTimeoutMs'>;
}

export interface RetryTimers {
  set(callback: () => void, delayMs: number): unknown;
  clear(timer: unknown): void;
}

const GLOBAL_TIMERS: RetryTimers = {
  set: (callback, delayMs) => setTimeout(callback, delayMs),
  clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class ServerLink {
  private connection: SkillServerConnection | undefined;
  private connecting: Promise<SkillServerConnection | undefined> | undefined;
  /** Why it cannot be reached; undefined while connected or not tried yet. */
  private reason: string | undefined;
  private lastAttempt = 0;
  private retryTimer: unknown;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private nextDelayMs: number;
  private disposed = false;
  private readonly timing: ReconnectTiming;
  private readonly timers: RetryTimers;

  constructor(private readonly options: ServerLinkOptions) {
    this.timing = options.timing ?? RECONNECT_TIMING;
    this.timers = options.timers ?? GLOBAL_TIMERS;
    this.nextDelayMs = this.timing.firstDelayMs;
  }

  get name(): string {
    return this.options.config.name;
  }

  /** Why the server cannot be reached right now, or undefined. */
  get offline(): string | undefined {
    return this.reason;
  }

  get connected(): boolean {
    return this.connection !== undefined;
  }

  start(): void {
    void this.attempt();
  }

  /**
   * At the user's word (Refresh, Reconnect): a server that cannot be reached is tried at once, a
   * connected one lists its skills again. Resolves once that is done.
   */
  async refresh(): Promise<void> {
    const connection = this.connection;
    if (connection) {
      await this.sync(connection).catch((error: unknown) => this.options.log.warn(`Skill server "${this.name}": could not list its skills again: ${errorMessage(error)}`));
    } else {
      await this.attempt();
    }
  }

  /** Its token changed: the connection starts again with the new one. */
  async reconnect(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    await connection?.close();
    await this.connecting;
    await this.attempt();
  }

  /** The connection files are read through; while offline, the server is tried again now and then. */
  async fileSource(): Promise<SkillFileSource | undefined> {
    if (this.connection || this.connecting) {
      return this.connection ?? this.connecting;
    }
    return Date.now() - this.lastAttempt >= FILE_RETRY_MS ? this.attempt() : undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelRetry();
    clearTimeout(this.syncTimer);
    const connection = this.connection;
    this.connection = undefined;
    void connection?.close();
    void this.connecting?.then((late) => late?.close());
  }

  /** Tries to connect now, unless an attempt is under way (then it is that attempt's outcome). */
  private attempt(): Promise<SkillServerConnection | undefined> {
    this.cancelRetry();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<SkillServerConnection | undefined> {
    const { config } = this.options;
    this.lastAttempt = Date.now();
    let connection: SkillServerConnection | undefined;
    try {
      const token = config.transport.kind === 'http' ? await this.options.token() : undefined;
      connection = await connectSkillServer(config.transport, { ...this.options.connect, token, clientVersion: this.options.clientVersion });
      if (this.disposed) {
        await connection.close(); // The setting changed meanwhile.
        return undefined;
      }
      const connected = connection;
      this.connection = connected;
      connected.onListChanged(() => this.scheduleSync(connected));
      void connected.closed.then((reason) => this.lost(connected, reason));
      await this.sync(connected);
    } catch (error) {
      if (connection && this.connection !== connection) {
        return this.lostWhileListing();
      }
      this.connection = undefined;
      void connection?.close();
      this.setOffline(errorMessage(error));
      this.scheduleRetry();
      return undefined;
    }
    if (this.connection !== connection) {
      return this.lostWhileListing();
    }
    this.nextDelayMs = this.timing.firstDelayMs;
    this.options.log.info(`Skill server "${this.name}" is connected (${describeTransport(this.options.config.transport)}, protocol ${connection.protocolVersion}).`);
    this.setOffline(undefined);
    return connection;
  }

  /**
   * The connection went away (not by this link's doing): offline, and tried again later. The next
   * try is set when no attempt is under way, so that it never finds one and is lost in it; an
   * attempt that ends unconnected sets it then.
   */
  private lost(connection: SkillServerConnection, reason: string): void {
    if (this.connection !== connection) {
      return;
    }
    this.connection = undefined;
    this.setOffline(reason);
    if (!this.connecting) {
      this.scheduleRetry();
    }
  }

  /** The connection was lost while its skills were listed: lost() said so; the next try is set now the attempt ends. */
  private lostWhileListing(): undefined {
    this.scheduleRetry();
    return undefined;
  }

  private scheduleRetry(): void {
    if (this.disposed || this.connection) {
      return;
    }
    this.cancelRetry();
    const delay = this.nextDelayMs;
    this.nextDelayMs = Math.min(delay * 2, this.timing.maxDelayMs);
    this.retryTimer = this.timers.set(() => {
      this.retryTimer = undefined;
      void this.attempt();
    }, delay);
  }

  private cancelRetry(): void {
    if (this.retryTimer !== undefined) {
      this.timers.clear(this.retryTimer);
      this.retryTimer = undefined;
    }
  }

  /** Lists the server's skills, and gets those the setting names by URI, into its cache folder. */
  private async sync(connection: SkillServerConnection): Promise<void> {
    const { skills, refused } = await connection.listSkills();
    const named = await this.namedSkills(connection, new Set(skills.map((skill) => skill.uri)));
    const update = await storeListing(this.options.dir, [...skills, ...named.skills]);
    for (const entry of [...refused, ...named.refused, ...update.refused]) {
      this.options.log.warn(`Skill server "${this.name}": refused the skill ${entry.uri ?? '(no URI)'}: ${entry.reason}.`);
    }
    const got = named.skills.length > 0 ? ` and ${named.skills.length} named by URI` : '';
    this.options.log.info(`Skill server "${this.name}" lists ${skills.length} skills${got} (${update.changed.length} new or changed, ${update.removed.length} gone).`);
    if (update.changed.length > 0 || update.removed.length > 0) {
      this.options.onListingChange();
    }
  }

  /** The skills the setting names by URI that the listing left out, got one by one (`skills/get`). */
  private async namedSkills(connection: SkillServerConnection, listed: ReadonlySet<string>): Promise<{ skills: ServedSkill[]; refused: RefusedEntry[] }> {
    const skills: ServedSkill[] = [];
    const refused: RefusedEntry[] = [];
    for (const uri of this.options.config.skills.filter((candidate) => !listed.has(candidate))) {
      try {
        const check = await connection.getSkill(uri);
        if (check.ok) {
          skills.push(check.skill);
        } else {
          refused.push({ uri, reason: check.reason });
        }
      } catch (error) {
        refused.push({ uri, reason: `it could not be got: ${errorMessage(error)}` });
      }
    }
    return { skills, refused };
  }

  private scheduleSync(connection: SkillServerConnection): void {
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => {
      if (this.connection === connection) {
        this.sync(connection).catch((error: unknown) => this.options.log.warn(`Skill server "${this.name}": could not list its skills again: ${errorMessage(error)}`));
      }
    }, LIST_CHANGED_DELAY_MS);
  }

  private setOffline(reason: string | undefined): void {
    if (this.reason === reason || this.disposed) {
      return;
    }
    const { config } = this.options;
    if (reason !== undefined) {
      this.options.log.warn(
        `Skill server "${this.name}" cannot be reached (${describeTransport(config.transport)}): ${reason}. Its cached skills stay available; it is tried again in ${this.nextDelayMs / 1000} s.`,
      );
    }
    this.reason = reason;
    this.options.onStateChange();
  }
}
