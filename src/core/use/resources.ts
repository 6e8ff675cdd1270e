// Safe, size-capped access to the files of a skill folder (the read-resource tool) and the listing
// of those files (shown on activation). A path can only ever name a file inside the skill's real
// folder: no `..` escape, no absolute path or drive, no symlink that leads outside.

import { StringDecoder } from 'node:string_decoder';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errorCode } from '../util/errors';
import { READ_WITHOUT_WAITING } from '../util/files';
import { IGNORED_FOLDER_NAMES } from '../discovery/ignored-folders';
import { relativeInside } from '../util/paths';
import { closestNames } from './find';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { EVALS_FOLDER } from '../evals/evals-folder';

export const DEFAULT_MAX_RESOURCE_BYTES = 256 * 1024;
export const DEFAULT_MAX_LISTED_RESOURCES = 200;
/** Stops walking pathological trees; the listing then says it is incomplete. */
const MAX_WALKED_ENTRIES = 10_000;
const BINARY_SNIFF_BYTES = 8 * 1024;

export type ResourceErrorCode = 'invalid-path' | 'outside-skill' | 'author-only' | 'not-found' | 'not-a-file';

/**
 * Folders of a skill that are for its authors, not for the model: `evals/` holds the trigger tests,
 * and a model that could read them would see the answers of the test it is taking.
 */
const AUTHOR_ONLY_FOLDERS: ReadonlySet<string> = new Set([EVALS_FOLDER]);

/**
 * Whether a skill-relative path lies in an authors' folder: such files are never listed, read or
 * served to a model (activation, the read-resource tools, the MCP server's resources), while
 * validation, the Testing view and the command line read them from disk.
 */
export function isAuthorOnlyPath(relativePath: string): boolean {
  return authorFolderOf(relativePath) !== undefined;
}

function authorFolderOf(relativePath: string): string | undefined {
  const [first] = relativePath
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '')
    .split('/');
  return AUTHOR_ONLY_FOLDERS.has(first.toLowerCase()) ? first : undefined;
}

/** Why a path in an authors' folder is refused. */
export function authorOnlyMessage(relativePath: string): string {
  return `"${relativePath}" is in the skill's ${authorFolderOf(relativePath) ?? EVALS_FOLDER}/ folder, which holds its tests for the skill's authors; it is not given to the model.`;
}

export class ResourceError extends Error {
  constructor(
    readonly code: ResourceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ResourceError';
  }
}

export interface ResourceListing {
  /** Relative POSIX paths, sorted, at most the requested number. */
  files: string[];
  /** How many files exist in all (a lower bound when `complete` is false). */
  total: number;
  complete: boolean;
}

export interface TextResource {
  kind: 'text';
  /** Normalised relative POSIX path. */
  path: string;
  text: string;
  size: number;
  truncated: boolean;
}

export interface BinaryResource {
  kind: 'binary';
  path: string;
  size: number;
  /** What the file is, judged by its extension (e.g. "PNG image"). */
  type: string;
}

export type SkillResource = TextResource | BinaryResource;

export interface ReadResourceOptions {
  maxBytes?: number;
}

const BINARY_TYPES: Record<string, string> = {
  '.png': 'PNG image',
  '.jpg': 'JPEG image',
  '.jpeg': 'JPEG image',
  '.gif': 'GIF image',
  '.webp': 'WebP image',
  '.ico': 'icon',
  '.pdf': 'PDF document',
  '.zip': 'ZIP archive',
  '.gz': 'gzip archive',
  '.tar': 'tar archive',
  '.woff': 'web font',
  '.woff2': 'web font',
  '.ttf': 'TrueType font',
  '.otf': 'OpenType font',
  '.docx': 'Word document',
  '.xlsx': 'Excel workbook',
  '.pptx': 'PowerPoint presentation',
  '.wasm': 'WebAssembly module',
  '.exe': 'executable',
  '.so': 'shared library',
  '.dll': 'shared library',
  '.bin': 'binary data',
};

export function describeFileType(file: string): string {
  return BINARY_TYPES[path.extname(file).toLowerCase()] ?? 'binary file';
}

function formatBytes(size: number): string {
  return size < 1024 ? `${size} bytes` : size < 1024 * 1024 ? `${(size / 1024).toFixed(1)} KiB` : `${(size / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Checks a requested path without touching the disk and returns it normalised (POSIX separators,
 * no `.` or inner `..`). Backslashes count as separators so Windows-style input cannot sneak by.
 */
export function normalizeResourcePath(requested: string): string {
  if (requested.includes('\0')) {
    throw new ResourceError('invalid-path', 'The path contains a NUL character.');
  }
  const slashed = requested.trim().replace(/\\/g, '/');
  if (slashed === '') {
    throw new ResourceError('invalid-path', 'The path is empty; give a path relative to the skill folder, e.g. references/guide.md.');
  }
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) {
    throw new ResourceError('invalid-path', `"${requested}" is absolute; give a path relative to the skill folder.`);
  }
  const normalized = path.posix.normalize(slashed).replace(/\/+$/, '');
  if (normalized === '..' || normalized.startsWith('../')) {
    throw new ResourceError('outside-skill', `"${requested}" leads outside the skill folder.`);
  }
  if (normalized === '.') {
    throw new ResourceError('not-a-file', 'The path names the skill folder itself; give a file inside it.');
  }
  if (isAuthorOnlyPath(normalized)) {
    throw new ResourceError('author-only', authorOnlyMessage(normalized));
  }
  return normalized;
}

/** Resolves a requested path to the real path of a file inside the skill's real folder. */
export async function resolveSkillResource(skillDir: string, requested: string): Promise<{ path: string; file: string; size: number }> {
  const relative = normalizeResourcePath(requested);
  const realSkillDir = await fs.realpath(skillDir);
  let realFile: string;
  try {
    realFile = await fs.realpath(path.join(realSkillDir, ...relative.split('/')));
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
      throw new ResourceError('not-found', await notFoundMessage(realSkillDir, relative));
    }
    throw error;
  }
  const realRelative = relativeInside(realSkillDir, realFile);
  if (realRelative === undefined) {
    throw new ResourceError('outside-skill', `"${requested}" is a link that leads outside the skill folder.`);
  }
  if (isAuthorOnlyPath(realRelative)) {
    throw new ResourceError('author-only', authorOnlyMessage(realRelative));
  }
  const stat = await fs.stat(realFile);
  if (stat.isDirectory()) {
    const entries = (await fs.readdir(realFile)).sort().slice(0, 50);
    throw new ResourceError('not-a-file', `"${relative}" is a folder, not a file.${entries.length ? ` It contains: ${entries.join(', ')}.` : ''}`);
  }
  if (!stat.isFile()) {
    throw new ResourceError('not-a-file', `"${relative}" is not a regular file.`);
  }
  return { path: relative, file: realFile, size: stat.size };
}

async function notFoundMessage(realSkillDir: string, relative: string): Promise<string> {
  const listing = await listSkillResources(realSkillDir, { limit: Infinity, includeSkillFile: true });
  const suggestions = closestNames(relative, listing.files, 3);
  const folder = path.posix.dirname(relative);
  const nearby = listing.files.filter((file) => path.posix.dirname(file) === folder);
  const shown = (nearby.length > 0 ? nearby : listing.files).slice(0, 20);
  return [
    `No file "${relative}" in the skill folder.`,
    suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '',
    shown.length > 0 ? ` Files${nearby.length > 0 && folder !== '.' ? ` in ${folder}/` : ''}: ${shown.join(', ')}.` : ' The skill folder has no other files.',
  ].join('');
}

/** Reads a resource: text up to `maxBytes` (reporting truncation); binary files are only described. */
export async function readSkillResource(skillDir: string, requested: string, options: ReadResourceOptions = {}): Promise<SkillResource> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const resolved = await resolveSkillResource(skillDir, requested);
  // Without waiting: a file swapped for a named pipe since it was resolved must not hold the read.
  const handle = await fs.open(resolved.file, READ_WITHOUT_WAITING);
  try {
    const buffer = Buffer.alloc(Math.min(resolved.size, Math.max(maxBytes, BINARY_SNIFF_BYTES)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const content = buffer.subarray(0, bytesRead);
    if (content.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      return { kind: 'binary', path: resolved.path, size: resolved.size, type: describeFileType(resolved.file) };
    }
    return textResource(resolved.path, content, maxBytes, resolved.size);
  } finally {
    await handle.close();
  }
}

/** A text resource of `content`, cut at `maxBytes`; `size` is the whole file's when only its start was read. */
export function textResource(resourcePath: string, content: Buffer, maxBytes: number, size = content.length): TextResource {
  // The decoder drops a multi-byte character cut in half at the limit instead of garbling it.
  const text = new StringDecoder('utf8').write(content.subarray(0, Math.min(content.length, maxBytes)));
  return { kind: 'text', path: resourcePath, text, size, truncated: size > maxBytes };
}

/** The tool result text for a resource. */
export function renderResource(resource: SkillResource): string {
  if (resource.kind === 'binary') {
    return `${resource.path} is a binary file (${resource.type}, ${formatBytes(resource.size)}); its content is not shown.`;
  }
  if (!resource.truncated) {
    return resource.text;
  }
  return `${resource.text}\n\n[Truncated: showing the first ${formatBytes(Buffer.byteLength(resource.text))} of ${formatBytes(resource.size)}.]`;
}

export interface ListResourcesOptions {
  limit?: number;
  /** Also list the SKILL.md itself (useful for "did you mean"). */
  includeSkillFile?: boolean;
}

/**
 * Lists the files of a skill folder as relative POSIX paths: recursive, skipping `.git`,
 * `node_modules`, the authors' folders (`evals/`) and the SKILL.md itself. Linked folders are not entered (they may loop or lead
 * outside); linked files are listed, and reading them is checked on access.
 */
export async function listSkillResources(skillDir: string, options: ListResourcesOptions = {}): Promise<ResourceListing> {
  const limit = options.limit ?? DEFAULT_MAX_LISTED_RESOURCES;
  const files: string[] = [];
  let walked = 0;
  const pending: string[] = [''];
  while (pending.length > 0 && walked < MAX_WALKED_ENTRIES) {
    const folder = pending.pop()!;
    const entries = await fs.readdir(path.join(skillDir, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      walked++;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (isAuthorOnlyPath(relative)) {
        continue;
      }
      if (entry.isDirectory()) {
        if (!IGNORED_FOLDER_NAMES.has(entry.name)) {
          pending.push(relative);
        }
      } else if (folder === '' && !options.includeSkillFile && entry.name.toLowerCase() === SKILL_FILE_NAME.toLowerCase()) {
        continue;
      } else if (entry.isFile() || (entry.isSymbolicLink() && (await fs.stat(path.join(skillDir, relative)).catch(() => undefined))?.isFile())) {
        files.push(relative);
      }
    }
  }
  files.sort();
  return { files: files.slice(0, limit), total: files.length, complete: pending.length === 0 };
}
