// The few parts of a Model Context Protocol client a skill server needs: agree on a protocol
// revision with the server (the stateless 2026-07-28, or 2025-11-25 with its `initialize`
// handshake), check that it offers the Skills extension, list its skills (`skills/list`), get one by
// URI (`skills/get`), read a file (`resources/read`) and hear when the list changes. Written here
// rather than taken from the SDK, whose client would more than double the size of the extension's
// package for these calls.

import { checkServedSkill, type ServedSkill, type ServedSkillCheck } from './served-skill';
import type { RefusedEntry } from './server-cache';
import type { SkillFileSource } from './served-content';
import { httpWire, McpError, stdioWire, type JsonObject, type SkillServerTransport, type Wire, type WireEnds } from './mcp-transport';
import { errorMessage } from '../util/errors';
import { isPlainObject } from '../util/objects';

export { McpError, type SkillServerTransport } from './mcp-transport';

/** The stateless revision: no handshake, the version and capabilities in each request's `_meta`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** The revision with an `initialize` handshake and, over HTTP, sessions. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';
/** The revisions this client speaks, the one it prefers first. */
export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION];
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * How long a stdio server may take to answer `server/discover` before it is taken for a 2025 one:
 * some of those answer nothing to a request that comes before `initialize`.
 */
const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
const MAX_LIST_PAGES = 64;
/**
 * 2026-07-28 holds no session, so a subscription that breaks after lasting this long is made again
 * at once: behind a load balancer, another replica takes it. One that breaks sooner, the new one
 * included, means the server is gone.
 */
const RESUBSCRIBE_AFTER_MS = 1000;
/** Notifications after which the skills are listed again. */
const LIST_CHANGED = new Set(['notifications/resources/list_changed', 'notifications/skills/list_changed']);
/** The errors by which a 2026-07-28 server turns a request down: a header mismatch, a capability missing, a revision it does not speak. */
const MODERN_ERRORS = new Set([-32020, -32021, -32022]);
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
};
/** A header value sent as is: visible ASCII and inner spaces, and not the base64 sentinel's form. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const CLIENT_NAME = 'agent-skills-vscode';
const CLIENT_CAPABILITIES = { extensions: { [SKILLS_EXTENSION_ID]: {} } };

export interface SkillServerConnection extends SkillFileSource {
  /** The protocol revision the server and this client speak. */
  readonly protocolVersion: string;
  /** Every page of `skills/list`; entries that fail their check are returned apart, with the reason. */
  listSkills(): Promise<{ skills: ServedSkill[]; refused: RefusedEntry[] }>;
  /** The entry of the skill whose SKILL.md has this URI (`skills/get`), checked as a listed entry is. */
  getSkill(uri: string): Promise<ServedSkillCheck>;
  onListChanged(listener: () => void): void;
  /** Resolves with the reason once the connection is gone (process exited, stream ended, closed). */
  readonly closed: Promise<string>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Sent as `Authorization: Bearer …` over HTTP. */
  token?: string;
  clientVersion: string;
  /** How long a request waits for its answer; 30 s unless set. */
  requestTimeoutMs?: number;
  /** How long a stdio server may take to answer `server/discover`; 10 s unless set. */
  probeTimeoutMs?: number;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

interface RequestOptions {
  /** How long to wait; undefined: never (a subscription's request lasts as long as the subscription). */
  timeoutMs: number | undefined;
}

/** `Mcp-Name` carries a resource's URI as is, or base64-encoded when a header cannot hold it. */
function headerValue(value: string): string {
  return PLAIN_HEADER_VALUE.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?=')) ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

class Connection implements SkillServerConnection, WireEnds {
  wire!: Wire;
  /** Until the server is found to speak only 2025-11-25, requests are made as the 2026-07-28 revision makes them. */
  protocolVersion = MODERN_PROTOCOL_VERSION;
  /** A 2025 connection after its handshake: its requests carry the version the server chose. */
  private legacyVersion: string | undefined;
  private modern = true;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listChangedListeners: (() => void)[] = [];
  private endReason: string | undefined;
  private resolveClosed!: (reason: string) => void;
  readonly closed = new Promise<string>((resolve) => (this.resolveClosed = resolve));

  constructor(
    private readonly requestTimeoutMs: number,
    private readonly clientInfo: { name: string; version: string },
  ) {}

  get isEnded(): boolean {
    return this.endReason !== undefined;
  }

  /** Whether the server speaks the stateless 2026-07-28 revision (once negotiated). */
  get isModern(): boolean {
    return this.modern;
  }

  receive(message: unknown): void {
    if (!isPlainObject(message)) {
      return;
    }
    if (typeof message.method === 'string') {
      if (message.id !== undefined && message.id !== null) {
        // Requests from the server (2025 only): ping is answered; this client offers nothing else.
        const reply = message.method === 'ping' ? { result: {} } : { error: { code: -32601, message: `${message.method} is not supported by this client` } };
        this.wire.send({ jsonrpc: '2.0', id: message.id, ...reply }).catch(() => undefined);
      } else if (LIST_CHANGED.has(message.method)) {
        this.listChangedListeners.forEach((listener) => listener());
      }
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) {
      return;
    }
    this.settle(message.id as number);
    if (isPlainObject(message.error)) {
      const { code, data } = message.error;
      pending.reject(new McpError(String(message.error.message ?? 'the server answered with an error'), typeof code === 'number' ? code : undefined, { data }));
    } else if (isPlainObject(message.result) && message.result.resultType !== undefined && message.result.resultType !== 'complete') {
      // A result that asks for more (input_required) or is of a kind this client does not know cannot be used.
      pending.reject(new McpError(`${pending.method} answered with a result of type "${String(message.result.resultType)}", which this client cannot use`));
    } else {
      pending.resolve(message.result);
    }
  }

  private settle(id: number): void {
    clearTimeout(this.pending.get(id)?.timer);
    this.pending.delete(id);
  }

  answerStreamEnded(id: unknown): void {
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (pending) {
      this.settle(id as number);
      pending.reject(new McpError(`the server ended the answer to ${pending.method} without answering`));
    }
  }

  headersFor(message: JsonObject): Record<string, string> {
    if (!this.modern) {
      return this.legacyVersion === undefined ? {} : { 'mcp-protocol-version': this.legacyVersion };
    }
    // Of the requests whose name or URI goes in Mcp-Name, this client makes resources/read only.
    const uri = message.method === 'resources/read' && isPlainObject(message.params) && typeof message.params.uri === 'string' ? message.params.uri : undefined;
    return {
      'mcp-protocol-version': this.protocolVersion,
      ...(typeof message.method === 'string' ? { 'mcp-method': message.method } : {}),
      ...(uri === undefined ? {} : { 'mcp-name': headerValue(uri) }),
    };
  }

  /** From now on, requests are those of a 2025 connection; after its handshake they carry `version`. */
  useLegacy(version?: string): void {
    this.modern = false;
    this.legacyVersion = version;
    this.protocolVersion = version ?? LEGACY_PROTOCOL_VERSION;
  }

  request(method: string, params: JsonObject, options: RequestOptions = { timeoutMs: this.requestTimeoutMs }): Promise<unknown> {
    if (this.endReason !== undefined) {
      return Promise.reject(new McpError(`the connection is closed: ${this.endReason}`));
    }
    const id = this.nextId++;
    // The stateless revision says in every request which revision it speaks and what the client can do.
    const sent = this.modern ? { ...params, _meta: { [META.protocolVersion]: this.protocolVersion, [META.clientInfo]: this.clientInfo, [META.clientCapabilities]: CLIENT_CAPABILITIES } } : params;
    return new Promise((resolve, reject) => {
      const { timeoutMs } = options;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.pending.delete(id);
              reject(new McpError(`${method} got no answer within ${timeoutMs / 1000} s`, undefined, { timedOut: true }));
            }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.wire.send({ jsonrpc: '2.0', id, method, params: sent }).catch((error: unknown) => {
        if (this.pending.delete(id)) {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new McpError(errorMessage(error)));
        }
        // A server that cannot be reached would not get the next request either: the connection is over.
        if (error instanceof McpError && error.details.unreachable) {
          this.end(error.message);
        }
      });
    });
  }

  notify(method: string): Promise<void> {
    return this.wire.send({ jsonrpc: '2.0', method });
  }

  /** The connection is gone: every request waiting fails with the reason. */
  end(reason: string): void {
    if (this.endReason !== undefined) {
      return;
    }
    this.endReason = reason;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new McpError(`the connection closed: ${reason}`));
    }
    this.pending.clear();
    this.resolveClosed(reason);
  }

  onListChanged(listener: () => void): void {
    this.listChangedListeners.push(listener);
  }

  /**
   * 2026-07-28: change notices come on a subscription that lasts as long as its request. A server
   * that refuses it only leaves the list unfollowed. One whose subscription breaks or ends is asked
   * once more at once, and the list read again for what changed meanwhile; when that one breaks
   * early too, the server is gone.
   */
  subscribe(): void {
    const started = Date.now();
    const broken = (reason: string): void => {
      if (this.isEnded) {
        return;
      }
      if (Date.now() - started < RESUBSCRIBE_AFTER_MS) {
        this.end(reason);
        return;
      }
      this.subscribe();
      this.listChangedListeners.forEach((listener) => listener());
    };
    this.request('subscriptions/listen', { notifications: { resourcesListChanged: true } }, { timeoutMs: undefined }).then(
      () => broken('the server ended its subscription to changes'),
      (error: unknown) => {
        if (!(error instanceof McpError && error.code !== undefined)) {
          broken(errorMessage(error));
        }
      },
    );
  }

  async listSkills(): Promise<{ skills: ServedSkill[]; refused: RefusedEntry[] }> {
    const skills: ServedSkill[] = [];
    const refused: RefusedEntry[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.request('skills/list', cursor === undefined ? {} : { cursor });
      if (!isPlainObject(result) || !Array.isArray(result.skills)) {
        throw new McpError('skills/list answered without a list of skills');
      }
      for (const entry of result.skills) {
        const check = checkServedSkill(entry);
        if (check.ok) {
          skills.push(check.skill);
        } else {
          refused.push({ uri: check.uri, reason: check.reason });
        }
      }
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor === undefined) {
        return { skills, refused };
      }
    }
    throw new McpError(`skills/list has more than ${MAX_LIST_PAGES} pages`);
  }

  async getSkill(uri: string): Promise<ServedSkillCheck> {
    const result = await this.request('skills/get', { uri });
    if (!isPlainObject(result) || !isPlainObject(result.skill)) {
      throw new McpError(`skills/get of ${uri} answered without a skill`);
    }
    const check = checkServedSkill(result.skill);
    return check.ok && check.skill.uri !== uri ? { ok: false, uri, reason: `the server answered with the entry of another skill (${check.skill.uri})` } : check;
  }

  async readFile(uri: string): Promise<Uint8Array> {
    const result = await this.request('resources/read', { uri });
    const contents = isPlainObject(result) && Array.isArray(result.contents) ? result.contents.filter(isPlainObject) : [];
    const content = contents.find((item) => item.uri === uri) ?? contents[0];
    if (content && typeof content.text === 'string') {
      return Buffer.from(content.text, 'utf8');
    }
    if (content && typeof content.blob === 'string') {
      return Buffer.from(content.blob, 'base64');
    }
    throw new McpError(`resources/read of ${uri} returned no content`);
  }

  async close(): Promise<void> {
    this.end('closed by this client');
    await this.wire.close();
  }
}

function speaksNone(offered: readonly unknown[]): McpError {
  return new McpError(`it speaks protocol ${offered.map(String).join(', ') || '(none named)'}, and this client speaks ${PROTOCOL_VERSIONS.join(' and ')}`);
}

/** The 2025 handshake; resolves with the server's capabilities. */
async function initialize(connection: Connection, clientVersion: string): Promise<unknown> {
  connection.useLegacy();
  const result = await connection.request('initialize', {
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    capabilities: CLIENT_CAPABILITIES,
    clientInfo: { name: CLIENT_NAME, version: clientVersion },
  });
  connection.useLegacy(isPlainObject(result) && typeof result.protocolVersion === 'string' ? result.protocolVersion : LEGACY_PROTOCOL_VERSION);
  return isPlainObject(result) ? result.capabilities : undefined;
}

/**
 * Finds which revision the server speaks, as the 2026-07-28 revision tells a client of both to:
 * `server/discover` first; a 2025 server answers it with an error of its own (over HTTP, a 400, 404
 * or 405 without one of the new errors), or over stdio may not answer at all, and gets the
 * `initialize` handshake instead. Resolves with the server's capabilities.
 */
async function negotiate(connection: Connection, transport: SkillServerTransport, options: ConnectOptions): Promise<unknown> {
  let discovered: unknown;
  try {
    discovered = await connection.request(
      'server/discover',
      {},
      { timeoutMs: transport.kind === 'stdio' ? (options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS) : (options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) },
    );
  } catch (error) {
    if (!(error instanceof McpError) || connection.isEnded) {
      throw error; // The server cannot be reached at all.
    }
    if (error.code !== undefined && MODERN_ERRORS.has(error.code)) {
      const supported = error.code === UNSUPPORTED_PROTOCOL_VERSION && isPlainObject(error.details.data) && Array.isArray(error.details.data.supported) ? error.details.data.supported : undefined;
      if (supported?.includes(LEGACY_PROTOCOL_VERSION)) {
        return initialize(connection, options.clientVersion);
      }
      throw supported ? speaksNone(supported) : error;
    }
    // Over stdio any other answer, or none, is a 2025 server's. Over HTTP so is an error in a JSON-RPC
    // answer or a 400, 404 or 405; a server that cannot be used (401, 500, no answer in time) says why.
    const { status, timedOut } = error.details;
    if (transport.kind === 'http' && (timedOut || (status !== undefined && ![400, 404, 405].includes(status)))) {
      throw error;
    }
    return initialize(connection, options.clientVersion);
  }
  const versions = isPlainObject(discovered) && Array.isArray(discovered.supportedVersions) ? discovered.supportedVersions : undefined;
  if (versions?.includes(MODERN_PROTOCOL_VERSION)) {
    return (discovered as JsonObject).capabilities;
  }
  if (!versions || versions.includes(LEGACY_PROTOCOL_VERSION)) {
    return initialize(connection, options.clientVersion);
  }
  throw speaksNone(versions);
}

/** Connects, and checks that the server offers skills; rejects with the reason when it cannot. */
export async function connectSkillServer(transport: SkillServerTransport, options: ConnectOptions): Promise<SkillServerConnection> {
  const connection = new Connection(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, { name: CLIENT_NAME, version: options.clientVersion });
  connection.wire = transport.kind === 'http' ? httpWire(transport.url, options.token, connection) : stdioWire(transport, connection);
  try {
    const capabilities = await negotiate(connection, transport, options);
    if (!isPlainObject(capabilities) || !isPlainObject(capabilities.extensions) || !isPlainObject(capabilities.extensions[SKILLS_EXTENSION_ID])) {
      throw new McpError(`it does not serve skills (its capabilities have no ${SKILLS_EXTENSION_ID} extension)`);
    }
    if (connection.isModern) {
      connection.subscribe();
    } else {
      connection.wire.initialized?.();
      await connection.notify('notifications/initialized');
    }
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  return connection;
}
