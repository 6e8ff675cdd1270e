// What `agent-skills mcp --http [HOST:]PORT` is told on its command line: the address to listen on,
// the bearer token (`--token-file FILE` or AGENT_SKILLS_MCP_TOKEN), and the host names a request's
// Host and Origin may carry. Binding beyond the machine without a token, or with one short enough
// to guess, is refused here.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage } from '../../core/util/errors';
import { MIN_TOKEN_LENGTH, TOKEN_ENV } from '../../core/defaults';
import { InputError, plural, UsageError } from '../io';

export const DEFAULT_HTTP_HOST = '127.0.0.1';
/** Names of this machine that need no token: nothing else can reach them. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '::1', 'localhost']);

export interface ListenAddress {
  /** A host name or an IP address, IPv6 without brackets. */
  host: string;
  /** 0 picks a free port, reported once listening. */
  port: number;
}

/** `PORT`, `HOST:PORT` or `[IPV6]:PORT`; HOST defaults to 127.0.0.1. */
export function parseListenAddress(value: string): ListenAddress {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]:|([^:[\]]+):)?(\d+)$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    const hint = (value.match(/:/g) ?? []).length > 1 ? ' (put an IPv6 address in brackets: [::1]:8080)' : '';
    throw new UsageError(`mcp: --http takes [HOST:]PORT with a port from 0 to 65535, not "${value}"${hint}.`);
  }
  return { host: match[1] ?? match[2] ?? DEFAULT_HTTP_HOST, port };
}

/** A replica's name as it begins the session ids it hands out: short, and plain enough for a proxy's pattern to match. */
const REPLICA_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** `--replica NAME`: letters, digits, `-` and `_`, at most 32, so that `NAME.` never reads as part of another replica's name. */
export function parseReplicaName(value: string): string {
  if (!REPLICA_NAME.test(value)) {
    throw new UsageError(`mcp: --replica takes a name of 1 to 32 letters, digits, "-" and "_" (starting with a letter or digit), not "${value}".`);
  }
  return value;
}

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/** The host as it appears in a URL or a Host header: IPv6 in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export interface BearerToken {
  value: string;
  /** Where it was read: the token file, or the environment variable. */
  origin: string;
}

/** The bearer token: the first line of `--token-file` (relative to `cwd`) when it is given, else the environment's. */
export async function readBearerToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<BearerToken | undefined> {
  let token: string | undefined;
  let origin: string;
  if (tokenFile !== undefined) {
    origin = tokenFile;
    try {
      token = (await fs.readFile(path.resolve(cwd, tokenFile), 'utf8')).split(/\r?\n/)[0].trim();
    } catch (error) {
      throw new InputError(`mcp: cannot read the token file ${tokenFile}: ${errorMessage(error)}`);
    }
  } else {
    origin = TOKEN_ENV;
    token = env[TOKEN_ENV]?.trim();
    if (token === undefined || token === '') {
      return undefined;
    }
  }
  if (token === '') {
    throw new InputError(`mcp: ${origin}: the token is empty.`);
  }
  // A bearer token travels in an HTTP header: printable ASCII without spaces.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new InputError(`mcp: ${origin}: the token holds spaces or characters other than printable ASCII.`);
  }
  return { value: token, origin };
}

/** Refused at start: anyone who can reach the address could read the skills, or guess a short token. */
export function requireTokenBeyondLoopback(address: ListenAddress, token: BearerToken | undefined): void {
  if (isLoopbackHost(address.host)) {
    return;
  }
  const where = `${urlHost(address.host)}:${address.port}`;
  if (token === undefined) {
    throw new UsageError(`mcp: --http ${where} would serve skills beyond this machine without a token. Give one with --token-file FILE or ${TOKEN_ENV}, or listen on 127.0.0.1, ::1 or localhost.`);
  }
  if (token.value.length < MIN_TOKEN_LENGTH) {
    throw new InputError(
      `mcp: ${token.origin}: the token has ${plural(token.value.length, 'character')}; serving beyond this machine (--http ${where}) takes one of at least ${MIN_TOKEN_LENGTH}, which cannot be guessed. Make one with \`openssl rand -hex 32\`.`,
    );
  }
}

/**
 * The host names a request's Host and Origin may name (the SDK's checks compare host names, any
 * port): the loopback names, the bound host unless it is a wildcard address, and those given.
 */
export function allowedHostnames(address: ListenAddress, extra: readonly string[]): string[] {
  const wildcard = address.host === '0.0.0.0' || address.host === '::';
  const names = ['localhost', '127.0.0.1', '[::1]', ...(wildcard ? [] : [urlHost(address.host)]), ...extra.map(urlHost)];
  return [...new Set(names.map((name) => name.toLowerCase()))];
}
