// The skill servers the user configured (`agentSkills.servers`): each entry checked, with a message
// naming the entry and the problem, and the skill root each server's cached skills are read from.
// Servers named in a workspace's settings run a command or reach an address the workspace chose:
// in Restricted Mode they are listed as ignored and never started.

import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { SkillRoot } from '../model/types';
import type { SkillServerTransport } from './mcp-client';
import { isPlainObject } from '../util/objects';

export const SERVERS_SETTING = 'agentSkills.servers';

export type SettingsScope = 'user' | 'workspace';

export interface SkillServerConfig {
  /** Also the first part of its skills' names (`team/beta`): letters, digits, `.`, `_` and `-`. */
  name: string;
  transport: SkillServerTransport;
  /** Skills to fetch by URI (`skills/get`) besides those the server lists, such as ones its listing leaves out. */
  skills: readonly string[];
  /** Whose settings name it: a workspace's are ignored in Restricted Mode. */
  scope: SettingsScope;
}

export interface ServerSettings {
  servers: SkillServerConfig[];
  /** One line per entry that cannot be used, naming it and saying why. */
  problems: string[];
}

function parseTransport(entry: Record<string, unknown>): SkillServerTransport | string {
  const { url, command, args } = entry;
  if ((url === undefined) === (command === undefined)) {
    return 'give either "url" (Streamable HTTP) or "command" (stdio), not both or neither';
  }
  if (url !== undefined) {
    const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      return `"url" must be an http:// or https:// address, such as http://127.0.0.1:8080/mcp`;
    }
    return { kind: 'http', url: parsed.href };
  }
  if (typeof command !== 'string' || command.trim() === '') {
    return '"command" must be the program to start';
  }
  if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))) {
    return '"args" must be a list of strings';
  }
  return { kind: 'stdio', command: command.trim(), args: (args as string[] | undefined) ?? [] };
}

/** A server's name: it goes in front of its skills' names, so it holds no `/` or space. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The URI of a skill's SKILL.md, under any scheme. */
const SKILL_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+\/SKILL\.md$/;

function parseSkillUris(value: unknown): readonly string[] | string {
  if (value === undefined) {
    return [];
  }
  if (!Array.isArray(value) || !value.every((uri): uri is string => typeof uri === 'string' && SKILL_URI.test(uri.trim()))) {
    return '"skills" must be a list of skill URIs, each that of a SKILL.md, such as skill://acme/refunds/SKILL.md';
  }
  return [...new Set(value.map((uri) => uri.trim()))];
}

/** The user's servers, then the workspace's; a name used twice keeps its first entry. */
export function parseServerSettings(user: unknown, workspace: unknown): ServerSettings {
  const settings: ServerSettings = { servers: [], problems: [] };
  const scopes: [SettingsScope, unknown][] = [
    ['user', user],
    ['workspace', workspace],
  ];
  for (const [scope, value] of scopes) {
    if (value === undefined) {
      continue;
    }
    const where = `${SERVERS_SETTING} in the ${scope} settings`;
    if (!Array.isArray(value)) {
      settings.problems.push(`${where} is not a list of servers; it is ignored.`);
      continue;
    }
    value.forEach((entry: unknown, index) => {
      const place = `${where}, entry ${index + 1}`;
      if (!isPlainObject(entry) || typeof entry.name !== 'string' || entry.name.trim() === '') {
        settings.problems.push(`${place}: needs a "name"; it is ignored.`);
        return;
      }
      const name = entry.name.trim();
      const transport = parseTransport(entry);
      const skills = parseSkillUris(entry.skills);
      const ignored = (problem: string): number => settings.problems.push(`${place} ("${name}"): ${problem}; it is ignored.`);
      if (!SERVER_NAME.test(name)) {
        ignored(`"name" must be at most 64 letters, digits, ".", "_" or "-", starting with a letter or digit: it goes in front of its skills' names, as in "team/beta"`);
      } else if (typeof transport === 'string') {
        ignored(transport);
      } else if (typeof skills === 'string') {
        ignored(skills);
      } else if (settings.servers.some((server) => server.name === name)) {
        settings.problems.push(`${place}: another server is already named "${name}"; this one is ignored.`);
      } else {
        settings.servers.push({ name, transport, skills, scope });
      }
    });
  }
  return settings;
}

/** Where the server is: its URL, or its command line. */
export function describeTransport(transport: SkillServerTransport): string {
  return transport.kind === 'http' ? transport.url : [transport.command, ...transport.args].join(' ');
}

/**
 * The server's folder in the cache: its name made safe, and a digest of where it is, so a server
 * renamed or moved to another address never serves the skills cached from the previous one.
 */
export function serverCacheFolder(cacheDir: string, server: SkillServerConfig): string {
  const identity = server.transport.kind === 'http' ? server.transport.url : JSON.stringify([server.transport.command, ...server.transport.args]);
  const digest = createHash('sha256').update(`${server.name}\n${identity}`).digest('hex').slice(0, 12);
  const safeName = server.name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40);
  return path.join(cacheDir, `${safeName}-${digest}`);
}

/** The code of the problem a skill server that cannot be reached shows (its row offers Reconnect). */
export const SERVER_OFFLINE_CODE = 'server-offline';

export interface ServerState {
  /** Why it cannot be reached right now; its cached skills are then listed as such. */
  offline?: string;
  /** Named in a workspace's settings while the workspace is not trusted. */
  ignored?: boolean;
}

/** The skill root of a server's cached skills, labelled by its name (and its state when offline or ignored). */
export function serverRoot(cacheDir: string, server: SkillServerConfig, state: ServerState = {}): SkillRoot {
  const root: SkillRoot = { path: serverCacheFolder(cacheDir, server), kind: 'server', label: server.name, server: server.name };
  if (state.ignored) {
    root.untrusted = true;
    root.notice = {
      code: 'server-ignored',
      severity: 'warning',
      message: `Skill server "${server.name}" is named in this workspace's settings, so it is not started in Restricted Mode. Trust the workspace to use it.`,
    };
  } else if (state.offline !== undefined) {
    root.label = `${server.name} (offline, cached)`;
    const reason = /[.!?"…]$/.test(state.offline) ? state.offline : `${state.offline}.`;
    root.notice = { code: SERVER_OFFLINE_CODE, severity: 'warning', message: `Skill server "${server.name}" cannot be reached: ${reason} Skills it listed before stay available from the cache.` };
  }
  return root;
}

/** Where a server's token is kept in the editor's secret storage: by its URL, so a renamed entry pointing elsewhere never receives it. */
export function serverTokenKey(url: string): string {
  return `agentSkills.serverToken:${url}`;
}
