// What the MCP Skills extension (SEP-2640) publishes for one skill: its entry (SKILL.md URI, the
// frontmatter verbatim as JSON, every file with its SHA-256 digest and size) together with the
// exact bytes those digests were computed from. Reads are answered from these bytes, so a file
// read always matches the entry a client holds until the server publishes a new one. SKILL.md is
// the one every surface serves (its last valid version while the file on disk is broken).

import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseYamlCore } from '../skill-file/yaml-core';
import { mapWithConcurrency } from '../util/async';
import { errorMessage } from '../util/errors';
import { READ_WITHOUT_WAITING } from '../util/files';
import { frontmatterYaml } from '../skill-file/parse';
import { listSkillResources, resolveSkillResource } from '../use/resources';
import { servedSkillFile } from '../use/served-skill-file';
import { SKILL_FILE_URI_NAME, skillEntryUri, skillUri } from './skill-uri';
import type { SkillRecord } from '../model/types';

/** Per-skill limits of the extension: hosts must accept up to these, servers should not exceed them. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

export interface SkillLimits {
  files: number;
  bytes: number;
}

export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

// Type aliases rather than interfaces: protocol libraries expect plain JSON-like object types.
export type SkillResourceEntry = {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits of the file's bytes. */
  digest: string;
  size: number;
};

/** The `Skill` object of `skills/list` and `skills/get`. */
export type SkillEntry = {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResourceEntry[];
};

export interface PublishedFile {
  /** Skill-relative POSIX path (`SKILL.md` for the skill file, whatever its case on disk). */
  path: string;
  uri: string;
  mimeType: string;
  bytes: Buffer;
  /** Whether the bytes are UTF-8 text that survives decoding and encoding unchanged. */
  isText: boolean;
}

export interface FolderChild {
  name: string;
  kind: 'file' | 'folder';
}

export interface SkillPublication {
  name: string;
  entry: SkillEntry;
  files: ReadonlyMap<string, PublishedFile>;
  /** Children of every folder of the skill ('' is the skill's root), sorted by name. */
  folders: ReadonlyMap<string, readonly FolderChild[]>;
}

export type PublicationResult =
  | { ok: true; publication: SkillPublication }
  /** `skill-file`: SKILL.md is unreadable or its frontmatter is not what the registry loaded. */
  | { ok: false; reason: 'limits' | 'skill-file' | 'unreadable'; message: string };

const READ_CONCURRENCY = 16;
const BINARY_SNIFF_BYTES = 8 * 1024;

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.py': 'text/x-python',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.sh': 'text/x-shellscript',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return false;
  }
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

export function mimeTypeOf(file: string, isText: boolean): string {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? (isText ? 'text/plain' : 'application/octet-stream');
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function describeSize(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The frontmatter of SKILL.md exactly as a YAML 1.2 reader sees it, as clients re-read it to
 * verify an entry: dates stay strings, unlike in the validating parser (whose YAML 1.1 schema
 * turns them into Date objects).
 */
function readFrontmatter(record: SkillRecord, bytes: Buffer): SkillFrontmatter | string {
  const yaml = frontmatterYaml(bytes.toString('utf8'));
  if (yaml === undefined) {
    return `${record.file} has no frontmatter.`;
  }
  let data: unknown;
  try {
    data = parseYamlCore(yaml);
  } catch (error) {
    return `${record.file}: ${errorMessage(error)}`;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return `${record.file}: the frontmatter is not a mapping.`;
  }
  const fields = data as Record<string, unknown>;
  if (fields.name !== record.name || typeof fields.description !== 'string') {
    return `${record.file} changed since it was loaded.`;
  }
  return fields as SkillFrontmatter;
}

function addFolders(folders: Map<string, Map<string, FolderChild>>, file: string): void {
  const segments = file.split('/');
  for (let depth = 0; depth < segments.length; depth++) {
    const folder = segments.slice(0, depth).join('/');
    const children = folders.get(folder) ?? new Map<string, FolderChild>();
    folders.set(folder, children);
    children.set(segments[depth], { name: segments[depth], kind: depth === segments.length - 1 ? 'file' : 'folder' });
  }
}

/**
 * Reads a usable skill's files and builds what the extension publishes for it. Files are those the
 * activation tool lists (no `.git` or `node_modules`, no linked folder) and that resolve inside the
 * skill folder; a skill over the limits is not published, and the result says why (`publishedWhere`:
 * where it is not, for the message).
 */
export async function publishSkill(record: SkillRecord, limits: SkillLimits = SKILL_LIMITS, publishedWhere = 'over MCP'): Promise<PublicationResult> {
  const listing = await listSkillResources(record.dir, { limit: Infinity, includeSkillFile: true });
  const skillFileName = path.basename(record.file);
  if (!listing.complete || listing.total > limits.files) {
    return { ok: false, reason: 'limits', message: `Skill "${record.name}" has more than ${limits.files} files (${record.dir}); it is not published ${publishedWhere}.` };
  }
  // A link leading outside the folder, or a file that just vanished, is not part of the skill.
  const resolved = await mapWithConcurrency(listing.files, READ_CONCURRENCY, (file) => resolveSkillResource(record.dir, file).catch(() => undefined));
  const files = resolved.filter((file) => file !== undefined);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > limits.bytes) {
    return {
      ok: false,
      reason: 'limits',
      message: `Skill "${record.name}" holds ${describeSize(total)}, more than ${describeSize(limits.bytes)} (${record.dir}); it is not published ${publishedWhere}.`,
    };
  }
  const skillFile = await servedSkillFile(record);
  if (!skillFile.ok) {
    return { ok: false, reason: 'skill-file', message: skillFile.message };
  }
  let contents: Buffer[];
  try {
    // Without waiting, as every read of a skill's files (see READ_WITHOUT_WAITING).
    contents = await mapWithConcurrency(files, READ_CONCURRENCY, (file) => (file.path === skillFileName ? Promise.resolve(skillFile.bytes) : fs.readFile(file.file, { flag: READ_WITHOUT_WAITING })));
  } catch (error) {
    return { ok: false, reason: 'unreadable', message: `Could not read skill "${record.name}": ${errorMessage(error)}` };
  }

  const published = new Map<string, PublishedFile>();
  const folders = new Map<string, Map<string, FolderChild>>();
  let frontmatter: SkillFrontmatter | string = `${record.file} could not be read.`;
  files.forEach((file, index) => {
    const isSkillFile = file.path === skillFileName;
    if (!isSkillFile && file.path === SKILL_FILE_URI_NAME) {
      return; // Another spelling of SKILL.md on a case-sensitive disk: the registry's choice wins, whichever sorts first.
    }
    const relativePath = isSkillFile ? SKILL_FILE_URI_NAME : file.path;
    const bytes = contents[index];
    const isText = isUtf8Text(bytes);
    if (isSkillFile) {
      frontmatter = readFrontmatter(record, bytes);
    }
    published.set(relativePath, { path: relativePath, uri: skillUri(record.name, relativePath), mimeType: mimeTypeOf(relativePath, isText), bytes, isText });
    addFolders(folders, relativePath);
  });
  if (typeof frontmatter === 'string') {
    return { ok: false, reason: 'skill-file', message: frontmatter };
  }

  const sortedPaths = [...published.keys()].sort();
  const entry: SkillEntry = {
    uri: skillEntryUri(record.name),
    frontmatter,
    resources: sortedPaths.map((file) => {
      const { uri, bytes } = published.get(file)!;
      return { uri, digest: sha256Digest(bytes), size: bytes.length };
    }),
  };
  const sortedFolders = new Map([...folders].map(([folder, children]) => [folder, [...children.keys()].sort().map((name) => children.get(name)!)]));
  return { ok: true, publication: { name: record.name, entry, files: published, folders: sortedFolders } };
}
