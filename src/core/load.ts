// Reads a skill's SKILL.md from disk (or from an editor buffer) into validated metadata and
// diagnostics. Discovery reads only the head of each file, up to the end of the frontmatter: the
// body is read again on activation, so it is always current and never kept in memory.

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { extractSkillBody, isFrontmatterHeadComplete, parseSkillText } from './parse';
import { FILE_START_RANGE, makeDiagnostic } from './skill-diagnostics';
import type { SkillDiagnostic, SkillMetadata } from './types';
import { validateBody, validateFrontmatter } from './validate';

export const SKILL_FILE_NAME = 'SKILL.md';
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
const HEAD_CHUNK_BYTES = 8 * 1024;

export interface LoadOptions {
  /** Apply the specification alone, with the verdicts of its reference validator. */
  strict?: boolean;
  /** Also run body checks (length, links): off during discovery, on for Validate. */
  checkBody?: boolean;
}

export interface SkillFileValidation {
  /** Absolute path of the SKILL.md. */
  file: string;
  /** Present iff no diagnostic is an error. */
  metadata?: SkillMetadata;
  diagnostics: SkillDiagnostic[];
}

export interface LoadedSkillFile extends SkillFileValidation {
  mtimeMs: number;
  size: number;
}

/** Case-insensitive lookup of SKILL.md in a folder; returns its absolute path with real on-disk case, or undefined. */
export async function findSkillFile(dir: string): Promise<string | undefined> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const wanted = SKILL_FILE_NAME.toLowerCase();
  // The exact spelling wins when a case-sensitive file system holds several.
  const candidates = entries
    .filter((entry) => entry.name.toLowerCase() === wanted)
    .sort((a, b) => Number(b.name === SKILL_FILE_NAME) - Number(a.name === SKILL_FILE_NAME));
  for (const entry of candidates) {
    const file = path.resolve(dir, entry.name);
    if (entry.isFile() || (entry.isSymbolicLink() && (await isFile(file)))) return file;
  }
  return undefined;
}

/**
 * Reads, parses and validates the SKILL.md of `dir` (folder name used for the name check).
 * undefined when the folder has no SKILL.md. Never throws for bad content: problems become
 * diagnostics (unreadable file, too big, binary, bad YAML...).
 */
export async function loadSkillFile(dir: string, options: LoadOptions = {}): Promise<LoadedSkillFile | undefined> {
  const opened = await openSkillFile(dir);
  if (!opened) return undefined;
  const { file, handle } = opened;
  let mtimeMs = 0;
  let size = 0;
  try {
    const stat = await handle.stat();
    mtimeMs = stat.mtimeMs;
    size = stat.size;
    if (size > MAX_SKILL_FILE_BYTES) return { file, diagnostics: [tooLargeDiagnostic(file, size)], mtimeMs, size };
    const text = options.checkBody ? (await handle.readFile()).toString('utf8') : await readHead(handle);
    return { ...analyzeSkillText(text, file, path.basename(dir), options), mtimeMs, size };
  } catch (error) {
    const diagnostic = makeDiagnostic(file, 'file-unreadable', 'error', `Cannot read ${file}: ${errorText(error)}`, FILE_START_RANGE);
    return { file, diagnostics: [diagnostic], mtimeMs, size };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Validates SKILL.md text already in memory (an editor's unsaved buffer); the folder of `file` is the skill folder. */
export function validateSkillText(text: string, file: string, options: LoadOptions = {}): SkillFileValidation {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_SKILL_FILE_BYTES) return { file, diagnostics: [tooLargeDiagnostic(file, size)] };
  return analyzeSkillText(text, file, path.basename(path.dirname(file)), options);
}

/** Reads the body (text after the frontmatter) fresh from disk. Throws an Error with a clear message naming the file on failure. */
export async function readSkillBody(file: string): Promise<string> {
  let content: Buffer;
  try {
    const stat = await fsp.stat(file);
    if (stat.size > MAX_SKILL_FILE_BYTES) throw new Error(tooLargeMessage(stat.size));
    content = await fsp.readFile(file);
  } catch (error) {
    throw new Error(`Cannot read the skill file ${file}: ${errorText(error)}`, { cause: error });
  }
  if (content.includes(0)) throw new Error(`Cannot use the skill file ${file}: it contains NUL bytes (binary content).`);
  const body = extractSkillBody(content.toString('utf8'));
  if (!body) throw new Error(`Cannot read the body of ${file}: the file does not start with a complete "---" frontmatter block.`);
  return body.text;
}

function analyzeSkillText(text: string, file: string, dirName: string, options: LoadOptions): SkillFileValidation {
  const strict = options.strict === true;
  const parsed = parseSkillText(text, { file, strict, includeBody: options.checkBody === true });
  const diagnostics = parsed.diagnostics;
  let metadata: SkillMetadata | undefined;
  if (parsed.data) {
    const validation = validateFrontmatter(parsed.data, { file, dirName, strict, locations: parsed.locations });
    diagnostics.push(...validation.diagnostics);
    // A parser-level error (e.g. strict mode's byte-order mark) also withholds the metadata.
    if (!diagnostics.some((diagnostic) => diagnostic.severity === 'error')) metadata = validation.metadata;
  }
  if (options.checkBody && parsed.body !== undefined && parsed.bodyStartLine !== undefined) {
    diagnostics.push(...validateBody(parsed.body, { file, skillDir: path.dirname(file), bodyStartLine: parsed.bodyStartLine }));
  }
  return metadata ? { file, metadata, diagnostics } : { file, diagnostics };
}

/**
 * Opens the SKILL.md of `dir`. Where file systems are usually case-sensitive, opening the exact name
 * first saves a directory listing per skill; elsewhere the listing finds the real on-disk case.
 */
async function openSkillFile(dir: string): Promise<{ file: string; handle: fsp.FileHandle } | undefined> {
  if (process.platform === 'linux') {
    const exact = path.resolve(dir, SKILL_FILE_NAME);
    const handle = await fsp.open(exact, 'r').catch(() => undefined);
    if (handle) {
      if ((await handle.stat().catch(() => undefined))?.isFile()) return { file: exact, handle };
      await handle.close().catch(() => undefined);
    }
  }
  const file = await findSkillFile(dir);
  if (!file) return undefined;
  try {
    return { file, handle: await fsp.open(file, 'r') };
  } catch {
    return undefined;
  }
}

/** Reads chunks until the frontmatter is complete (or the file ends). */
async function readHead(handle: fsp.FileHandle): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(HEAD_CHUNK_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, HEAD_CHUNK_BYTES, total);
    if (bytesRead > 0) chunks.push(bytesRead < HEAD_CHUNK_BYTES ? chunk.subarray(0, bytesRead) : chunk);
    total += bytesRead;
    const head = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    if (bytesRead === 0 || isFrontmatterHeadComplete(head) || total > MAX_SKILL_FILE_BYTES) return head;
  }
}

function tooLargeDiagnostic(file: string, size: number): SkillDiagnostic {
  return makeDiagnostic(file, 'file-too-large', 'error', `${tooLargeMessage(size)} It was not read.`, FILE_START_RANGE);
}

function tooLargeMessage(size: number): string {
  return `SKILL.md is ${size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte (1 MiB) limit. Keep SKILL.md short and move material into files under references/.`;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fsp.stat(file)).isFile();
  } catch {
    return false;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
