// The Agent Skills discovery index, as a site publishes it and `npx skills` reads it:
//   /.well-known/agent-skills/index.json  {"$schema": DISCOVERY_SCHEMA, "skills": [{name, description,
//       type: "skill-md" | "archive", url (relative to the index), digest: "sha256:<hex>"}]}
//   /.well-known/skills/index.json        the legacy form, {"skills": [{name, description, files: [path…]}]},
//       each file at /.well-known/skills/NAME/PATH (no digests).
// Reading checks every entry as hostile input: names are skill names, paths stay inside the skill,
// digests have their form; an entry that breaks a rule refuses the index with a message naming it.

import { createHash } from 'node:crypto';
import { MAX_DESCRIPTION_LENGTH } from '../skill-file/schema';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { skillNameProblem } from '../sources/confine';
import { isPlainObject } from '../util/objects';
import { archiveEntryPath } from './archive';
import { errorMessage, InputProblem } from '../util/errors';

export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const INDEX_FOLDER = '.well-known/agent-skills';
export const LEGACY_INDEX_FOLDER = '.well-known/skills';
export const INDEX_FILE_NAME = 'index.json';

/** Limits of what an index may list: what `npx skills` unpacks at most per skill, and skills per site. */
export const SITE_LIMITS = { skills: 1000, files: 1000, bytes: 50 * 1024 * 1024 } as const;

export type ArtifactType = 'skill-md' | 'archive';

export interface IndexEntry {
  name: string;
  description: string;
  type: ArtifactType;
  /** Relative to the index, or absolute. */
  url: string;
  /** `sha256:` and 64 lowercase hexadecimal digits of the artifact's bytes. */
  digest: string;
}

export interface DiscoveryIndex {
  $schema: typeof DISCOVERY_SCHEMA;
  skills: IndexEntry[];
}

export interface LegacyIndexEntry {
  name: string;
  description: string;
  /** Paths inside the skill folder, SKILL.md among them. */
  files: string[];
}

export interface LegacyIndex {
  skills: LegacyIndexEntry[];
}

export type ParsedIndex = { format: 'discovery'; skills: IndexEntry[] } | { format: 'legacy'; skills: LegacyIndexEntry[] };

/** An index that cannot be used; the message names the index and the entry. */
export class IndexError extends InputProblem {}

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
const ARTIFACT_TYPES: ReadonlySet<string> = new Set<ArtifactType>(['skill-md', 'archive']);

/**
 * The skills an index lists, in either form: with `$schema` the 0.2.0 form, without it the legacy
 * one. `where` (the index's URL) starts each message.
 */
export function parseIndex(text: string, where: string): ParsedIndex {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new IndexError(`${where}: not valid JSON (${errorMessage(error)}).`);
  }
  if (!isPlainObject(value) || !Array.isArray(value.skills)) {
    throw new IndexError(`${where}: expected {"$schema": "${DISCOVERY_SCHEMA}", "skills": […]}.`);
  }
  if (value.skills.length > SITE_LIMITS.skills) {
    throw new IndexError(`${where}: lists ${value.skills.length} skills, more than ${SITE_LIMITS.skills} are read.`);
  }
  if (value.$schema !== undefined && value.$schema !== DISCOVERY_SCHEMA) {
    throw new IndexError(`${where}: its $schema ${JSON.stringify(value.$schema)} is not ${DISCOVERY_SCHEMA}, the discovery index this tool reads.`);
  }
  const skills = value.skills as unknown[];
  const parsed: ParsedIndex =
    value.$schema === undefined
      ? { format: 'legacy', skills: skills.map((entry, index) => legacyEntry(entry, `${where}: skills[${index}]`)) }
      : { format: 'discovery', skills: skills.map((entry, index) => discoveryEntry(entry, `${where}: skills[${index}]`)) };
  const names = new Set<string>();
  for (const { name } of parsed.skills) {
    if (names.has(name)) {
      throw new IndexError(`${where}: lists the skill "${name}" twice.`);
    }
    names.add(name);
  }
  return parsed;
}

function common(entry: unknown, where: string): { name: string; description: string; fields: Record<string, unknown> } {
  if (!isPlainObject(entry)) {
    throw new IndexError(`${where} is not an object.`);
  }
  const { name, description } = entry;
  if (typeof name !== 'string') {
    throw new IndexError(`${where} has no name.`);
  }
  const nameProblem = skillNameProblem(name);
  if (nameProblem !== undefined) {
    throw new IndexError(`${where}: ${nameProblem}.`);
  }
  if (typeof description !== 'string' || description.trim() === '' || description.length > MAX_DESCRIPTION_LENGTH) {
    throw new IndexError(`${where} ("${name}"): its description must be text of 1 to ${MAX_DESCRIPTION_LENGTH} characters.`);
  }
  return { name, description, fields: entry };
}

function discoveryEntry(entry: unknown, where: string): IndexEntry {
  const { name, description, fields } = common(entry, where);
  const { type, url, digest } = fields;
  if (typeof type !== 'string' || !ARTIFACT_TYPES.has(type)) {
    throw new IndexError(`${where} ("${name}"): its type ${JSON.stringify(type)} is neither "skill-md" nor "archive".`);
  }
  if (typeof url !== 'string' || url === '') {
    throw new IndexError(`${where} ("${name}") has no url.`);
  }
  if (typeof digest !== 'string' || !DIGEST_PATTERN.test(digest)) {
    throw new IndexError(`${where} ("${name}"): its digest must be "sha256:" and 64 lowercase hexadecimal digits.`);
  }
  return { name, description, type: type as ArtifactType, url, digest };
}

function legacyEntry(entry: unknown, where: string): LegacyIndexEntry {
  const { name, description, fields } = common(entry, where);
  const { files } = fields;
  if (!Array.isArray(files) || files.length === 0 || files.length > SITE_LIMITS.files || !files.every((file) => typeof file === 'string')) {
    throw new IndexError(`${where} ("${name}"): its files must list 1 to ${SITE_LIMITS.files} paths.`);
  }
  const paths = files.map((file) => {
    try {
      return archiveEntryPath(file);
    } catch (error) {
      throw new IndexError(`${where} ("${name}"): ${errorMessage(error)}`);
    }
  });
  if (new Set(paths).size !== paths.length || paths.includes('')) {
    throw new IndexError(`${where} ("${name}"): its files name a path twice or name the skill folder itself.`);
  }
  if (!paths.includes(SKILL_FILE_NAME)) {
    throw new IndexError(`${where} ("${name}"): its files do not include ${SKILL_FILE_NAME}.`);
  }
  return { name, description, files: paths };
}

/** The digest of an artifact: SHA-256 of its bytes, as the index writes it. */
export function artifactDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The digest `npx skills` locks for a skill of a legacy index (which has none): SHA-256 over its
 * files sorted by path, each as its path, a NUL, its bytes and a NUL.
 */
export function legacySkillDigest(files: ReadonlyMap<string, Buffer>): string {
  const hash = createHash('sha256');
  // By UTF-16 code units, as `npx skills` sorts them.
  for (const file of [...files.keys()].sort()) {
    hash.update(file).update('\0').update(files.get(file)!).update('\0');
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The index's text as `publish` writes it: two-space JSON and a final newline. */
export function indexText(index: DiscoveryIndex | LegacyIndex): Buffer {
  return Buffer.from(`${JSON.stringify(index, null, 2)}\n`);
}
