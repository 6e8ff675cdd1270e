// A skill server's entry for one skill (the MCP Skills extension's `Skill`, from `skills/list` or
// `skills/get`), checked before anything of it is kept: its URI, frontmatter and the complete list
// of its files with their SHA-256 digests and sizes. Also the paths of those files in the skill.

import { createHash } from 'node:crypto';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { normalizeResourcePath } from '../use/resources';
import { errorMessage } from '../util/errors';
import { isPlainObject } from '../util/objects';

export interface ServedFile {
  uri: string;
  /** `sha256:` and 64 lowercase hexadecimal digits. */
  digest: string;
  size: number;
}

export interface ServedSkill {
  /** The URI of its SKILL.md. */
  uri: string;
  frontmatter: Record<string, unknown> & { name: string; description: string };
  /** Every file of the skill, SKILL.md included. */
  resources: ServedFile[];
}

export type ServedSkillCheck = { ok: true; skill: ServedSkill } | { ok: false; uri?: string; reason: string };

/** The extension's limits per skill: what every host accepts, and what this one accepts at most. */
export const MAX_SERVED_FILES = 512;
export const MAX_SERVED_BYTES = 16 * 1024 * 1024;

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
const SKILL_FILE_SUFFIX = `/${SKILL_FILE_NAME}`;

/** `skill://acme/refunds/SKILL.md` → `skill://acme/refunds`: what the skill's file URIs start with. */
export function servedSkillRoot(skill: Pick<ServedSkill, 'uri'>): string {
  return skill.uri.slice(0, -SKILL_FILE_SUFFIX.length);
}

/**
 * The skill's path in its server's namespace: `acme/refunds` for `skill://acme/refunds/SKILL.md`.
 * Another scheme than `skill://` stays in front (`github:owner/repo/refunds`), so paths of one
 * listing never coincide.
 */
export function servedSkillPath(skill: Pick<ServedSkill, 'uri'>): string {
  const root = servedSkillRoot(skill);
  const schemeEnd = root.indexOf('://');
  const scheme = root.slice(0, schemeEnd);
  const skillPath = root.slice(schemeEnd + 3);
  return scheme === 'skill' ? skillPath : `${scheme}:${skillPath}`;
}

/**
 * How the editor names a server's skill everywhere (the Skills view, the catalog, the tools, /use):
 * the server's name, then the skill's path on it (`team/beta`). A skill name never holds a `/`, so a
 * server's skill never shares a name with a skill on disk, nor with another server's.
 */
export function servedSkillName(server: string, skillPath: string): string {
  return `${server}/${skillPath}`;
}

/** The file's path relative to the skill folder (`references/guide.md`), `/`-separated. Throws when the URI lies outside the skill. */
export function servedFilePath(skill: Pick<ServedSkill, 'uri'>, file: Pick<ServedFile, 'uri'>): string {
  const prefix = `${servedSkillRoot(skill)}/`;
  if (!file.uri.startsWith(prefix)) {
    throw new Error(`${file.uri} is not inside the skill's folder ${servedSkillRoot(skill)}`);
  }
  return normalizeResourcePath(decodeURIComponent(file.uri.slice(prefix.length).split('#')[0]));
}

/** The SHA-256 digest of some bytes, written as the Skills extension writes it. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Why `bytes` are not the file the entry lists, or undefined when they are (size and digest match). */
export function contentMismatch(bytes: Uint8Array, file: ServedFile): string | undefined {
  if (bytes.byteLength !== file.size) {
    return `it is ${bytes.byteLength} bytes long where the server's entry says ${file.size}`;
  }
  const digest = sha256Digest(bytes);
  return digest === file.digest ? undefined : `its SHA-256 digest is ${digest} where the server's entry says ${file.digest}`;
}

function checkFiles(value: unknown, skill: Pick<ServedSkill, 'uri'>): { files: ServedFile[] } | { reason: string } {
  if (value === 'dynamic') {
    return { reason: 'its content is generated ("resources": "dynamic"), so there are no digests to check it against; such skills are not loaded' };
  }
  if (!Array.isArray(value)) {
    return { reason: '"resources" is neither a list of files nor "dynamic"' };
  }
  if (value.length > MAX_SERVED_FILES) {
    return { reason: `it has ${value.length} files, more than the ${MAX_SERVED_FILES} a skill may have` };
  }
  const files: ServedFile[] = [];
  const paths = new Set<string>();
  let total = 0;
  for (const item of value) {
    if (!isPlainObject(item) || typeof item.uri !== 'string' || typeof item.digest !== 'string' || typeof item.size !== 'number') {
      return { reason: 'a file in "resources" lacks its "uri", "digest" or "size"' };
    }
    if (!DIGEST_PATTERN.test(item.digest)) {
      return { reason: `the digest of ${item.uri} is not "sha256:" and 64 lowercase hexadecimal digits` };
    }
    if (!Number.isSafeInteger(item.size) || item.size < 0) {
      return { reason: `the size of ${item.uri} is not a whole number of bytes` };
    }
    let relative: string;
    try {
      relative = servedFilePath(skill, { uri: item.uri });
    } catch (error) {
      return { reason: `file ${item.uri}: ${errorMessage(error)}` };
    }
    if (paths.has(relative)) {
      return { reason: `the file ${relative} is listed twice` };
    }
    paths.add(relative);
    total += item.size;
    files.push({ uri: item.uri, digest: item.digest, size: item.size });
  }
  if (!paths.has(SKILL_FILE_NAME)) {
    return { reason: `its files do not include its own ${SKILL_FILE_NAME}` };
  }
  if (total > MAX_SERVED_BYTES) {
    return { reason: `its files add up to ${total} bytes, more than the ${MAX_SERVED_BYTES} a skill may hold` };
  }
  return { files };
}

/** Checks one entry as received; a refused entry comes with the reason, in words for the log and the view. */
export function checkServedSkill(value: unknown): ServedSkillCheck {
  if (!isPlainObject(value) || typeof value.uri !== 'string') {
    return { ok: false, reason: 'the entry has no "uri"' };
  }
  const uri = value.uri;
  const schemeEnd = uri.indexOf('://');
  if (schemeEnd <= 0 || !uri.endsWith(SKILL_FILE_SUFFIX) || uri.length <= schemeEnd + 3 + SKILL_FILE_SUFFIX.length) {
    return { ok: false, uri, reason: `its URI is not that of a ${SKILL_FILE_NAME} (scheme://path/${SKILL_FILE_NAME})` };
  }
  const frontmatter = value.frontmatter;
  if (!isPlainObject(frontmatter) || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string') {
    return { ok: false, uri, reason: 'its frontmatter lacks a "name" or a "description"' };
  }
  const lastSegment = servedSkillRoot({ uri }).split('/').pop();
  if (lastSegment !== frontmatter.name) {
    return { ok: false, uri, reason: `its URI ends in "${lastSegment}" but its name is "${frontmatter.name}"` };
  }
  const files = checkFiles(value.resources, { uri });
  if ('reason' in files) {
    return { ok: false, uri, reason: files.reason };
  }
  return { ok: true, skill: { uri, frontmatter: { ...frontmatter, name: frontmatter.name, description: frontmatter.description }, resources: files.files } };
}
