// skills-trust.json, the project's trust policy beside skills-lock.json (a file of its own, so a
// tool rewriting the lock cannot drop it): which sources must be signed, and by whom.
//
//   {"version": 1, "sources": [{"match": "team/*", "require": "signed", "allowedSigners": ".github/allowed_signers"}]}
//
// `match` is a source as typed or as the lock records it, `*` standing for any run of characters;
// the first entry matching applies. `allowedSigners` is a file in git's allowed-signers format (SSH
// keys), relative to the policy and inside the project. The policy comes with the repository, so
// it is read as someone else's writing: each problem is told naming the file and the entry.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode, errorMessage, InputProblem } from '../util/errors';
import { isPlainObject } from '../util/objects';
import { withoutCredentials } from '../util/redact';
import { resolveInside } from './confine';
import { entrySource, type LockEntry } from './lock';
import type { SkillSource } from './source-spec';

export const TRUST_FILE_NAME = 'skills-trust.json';
const TRUST_VERSION = 1;
const RULE_FIELDS = ['match', 'require', 'allowedSigners'];
/** Far more than any team's keys; a larger file is not an allowed-signers file. */
const MAX_ALLOWED_SIGNERS_BYTES = 1024 * 1024;
/** The key types ssh-keygen signs git objects with (and their certificates). */
const SSH_KEY_TYPE = /^(?:ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)(?:-cert-v01@openssh\.com)?$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export class TrustPolicyError extends InputProblem {}

export interface TrustRule {
  /** Its place in the policy's `sources`, counted from 0 as the file is read. */
  index: number;
  match: string;
  require: 'signed';
  /** As the policy writes it. */
  allowedSigners: string;
  /** Absolute, inside the project. */
  allowedSignersFile: string;
}

export interface TrustPolicy {
  file: string;
  rules: TrustRule[];
}

/** The project's policy, or undefined when it has none. Throws TrustPolicyError naming the file and the entry. */
export async function readTrustPolicy(projectDir: string): Promise<TrustPolicy | undefined> {
  const file = path.join(projectDir, TRUST_FILE_NAME);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return undefined;
    }
    throw new TrustPolicyError(`${file}: cannot read it: ${errorMessage(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TrustPolicyError(`${file}: not valid JSON (${errorMessage(error)}).`);
  }
  if (!isPlainObject(value) || typeof value.version !== 'number' || !Array.isArray(value.sources)) {
    throw new TrustPolicyError(`${file}: expected {"version": 1, "sources": [{"match", "require": "signed", "allowedSigners"}, …]}.`);
  }
  if (value.version !== TRUST_VERSION) {
    throw new TrustPolicyError(`${file}: version ${value.version} is not one this tool reads (${TRUST_VERSION}).`);
  }
  const rules: TrustRule[] = [];
  for (const [index, rule] of (value.sources as unknown[]).entries()) {
    rules.push(await checkedRule(rule, index, file));
  }
  return { file, rules };
}

async function checkedRule(rule: unknown, index: number, file: string): Promise<TrustRule> {
  const where = `${file}: sources[${index}]`;
  if (!isPlainObject(rule)) {
    throw new TrustPolicyError(`${where} is not an object {"match", "require": "signed", "allowedSigners"}.`);
  }
  const unknown = Object.keys(rule).filter((key) => !RULE_FIELDS.includes(key));
  if (unknown.length > 0) {
    throw new TrustPolicyError(`${where} has ${unknown.map((key) => `"${key}"`).join(', ')}, which this tool does not know (fields: ${RULE_FIELDS.join(', ')}).`);
  }
  const { match, require, allowedSigners } = rule;
  if (typeof match !== 'string' || match.trim() === '') {
    throw new TrustPolicyError(`${where}: "match" must be a source pattern such as "owner/repo" or "https://host/team/*".`);
  }
  if (require !== 'signed') {
    throw new TrustPolicyError(`${where}: "require" must be "signed", not ${JSON.stringify(require)}.`);
  }
  if (typeof allowedSigners !== 'string' || allowedSigners.trim() === '') {
    throw new TrustPolicyError(`${where}: "allowedSigners" must name a file in git's allowed-signers format, relative to ${TRUST_FILE_NAME}.`);
  }
  const allowedSignersFile = await resolveInside(path.dirname(file), allowedSigners, `${where}: "allowedSigners"`, 'the project');
  return { index, match, require, allowedSigners, allowedSignersFile };
}

/** How a rule is named in messages: `skills-trust.json sources[0] ("team/*")`. */
export function describeRule(rule: TrustRule): string {
  return `${TRUST_FILE_NAME} sources[${rule.index}] ("${rule.match}")`;
}

/** Whether `text` is `pattern` whole, each `*` of the pattern standing for any run of characters. */
export function matchesPattern(pattern: string, text: string): boolean {
  const [first, ...rest] = pattern.split('*');
  if (rest.length === 0) {
    return text === pattern;
  }
  const last = rest.pop() ?? '';
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) {
    return false;
  }
  let position = first.length;
  for (const part of rest) {
    const found = text.indexOf(part, position);
    if (found < 0 || found + part.length > text.length - last.length) {
      return false;
    }
    position = found + part.length;
  }
  return true;
}

/**
 * The rule for a source known by each of `names` (as typed, as the lock records it, what is fetched):
 * the first rule in the policy that matches any of them. A name is matched without credentials.
 */
export function ruleFor(policy: TrustPolicy | undefined, names: readonly (string | undefined)[]): TrustRule | undefined {
  const known = names.filter((name): name is string => name !== undefined && name !== '').map(withoutCredentials);
  return policy?.rules.find((rule) => known.some((name) => matchesPattern(rule.match, name)));
}

/** The names of a source being added or updated: what the user typed (if given), its lock name, and what git fetches. */
export function sourceNames(source: SkillSource, typed?: string): string[] {
  const fetched = source.kind === 'git' ? [source.lockSource, source.url, ...gitHubNames(source.url)] : source.kind === 'site' ? [source.lockSource, source.url] : [source.folder];
  return [...(typed === undefined ? [] : [typed.trim()]), ...fetched];
}

/**
 * The names of a locked source: the lock's own `source` and `sourceUrl` and, above all, what is
 * really fetched, so a lock cannot name its source one way to escape the rule for what it fetches.
 */
export function lockedSourceNames(entry: LockEntry, projectDir: string, name: string): string[] {
  const source = entrySource(entry, projectDir, name);
  return [entry.source, ...(typeof entry.sourceUrl === 'string' ? [entry.sourceUrl] : []), ...(typeof source === 'string' ? [] : sourceNames(source))];
}

/** `owner/repo` and the URL with and without `.git` for a GitHub URL, as people write it in a pattern. */
function gitHubNames(url: string): string[] {
  const match = /^https:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?$/.exec(withoutCredentials(url));
  return match ? [`${match[1]}/${match[2]}`, `https://github.com/${match[1]}/${match[2]}`] : [];
}

/**
 * The rule's allowed-signers file, checked: inside the project (read again now, so a link made
 * since cannot lead out), at most 1 MiB, each line `PRINCIPALS [OPTIONS] KEY-TYPE KEY`, at least
 * one key. Resolves to the file git is given; throws TrustPolicyError naming the file and line.
 */
export async function checkedAllowedSigners(rule: TrustRule, projectDir: string): Promise<string> {
  const label = `${describeRule(rule)}: "allowedSigners"`;
  const file = await resolveInside(projectDir, path.relative(projectDir, rule.allowedSignersFile), label, 'the project');
  let text: string;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) {
      throw new TrustPolicyError(`${label}: ${rule.allowedSigners} is not a file.`);
    }
    if (stat.size > MAX_ALLOWED_SIGNERS_BYTES) {
      throw new TrustPolicyError(`${label}: ${rule.allowedSigners} is larger than 1 MiB; it is not an allowed-signers file.`);
    }
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof TrustPolicyError) {
      throw error;
    }
    throw new TrustPolicyError(`${label}: cannot read ${rule.allowedSigners}: ${errorCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error)}.`);
  }
  let keys = 0;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      continue;
    }
    if (!isAllowedSignerLine(trimmed)) {
      throw new TrustPolicyError(
        `${rule.allowedSigners}:${index + 1}: not an allowed-signers line ("PRINCIPALS [OPTIONS] KEY-TYPE KEY", e.g. "alice@example.com ssh-ed25519 AAAA…"), named by ${describeRule(rule)}.`,
      );
    }
    keys++;
  }
  if (keys === 0) {
    throw new TrustPolicyError(`${rule.allowedSigners}: lists no key, so nothing could be accepted under ${describeRule(rule)}.`);
  }
  return file;
}

/** Principals, then options unless the second word is already the key type, then the key type and the key. */
function isAllowedSignerLine(line: string): boolean {
  const words = splitWords(line);
  const typeAt = words.findIndex((word, index) => index >= 1 && index <= 2 && SSH_KEY_TYPE.test(word));
  return typeAt > 0 && BASE64.test(words[typeAt + 1] ?? '');
}

/** Words separated by blanks; a double-quoted part (an option's value) stays in its word. */
function splitWords(line: string): string[] {
  return line.match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
}
