// Reads a skill's SKILL.md from disk (or from an editor buffer) into validated metadata and
// diagnostics. Discovery reads only the head of each file, up to the end of the frontmatter, unless
// it is asked to keep the whole file (a registry that serves skills keeps each valid SKILL.md, to
// serve it while a later edit leaves the file broken).

import * as fs from 'node:fs';
import { promises as fsp, type Dirent, type Stats } from 'node:fs';
import * as path from 'node:path';
import { frontmatterHeadLength, parseSkillText } from './parse';
import { FILE_START_RANGE, hasErrors, makeDiagnostic } from './diagnostic-codes';
import type { Range, SkillDiagnostic, SkillMetadata } from '../model/types';
import { validateBody } from './validate-body';
import { validateFrontmatter } from './validate-frontmatter';
import { errorCode, errorMessage } from '../util/errors';
import { READ_WITHOUT_WAITING } from '../util/files';
import { lastName, parentFolder, resolveChild } from '../util/paths';

export const SKILL_FILE_NAME = 'SKILL.md';
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
/** Holds the usual frontmatter. */
const FIRST_HEAD_READ_BYTES = 3 * 1024;
const HEAD_CHUNK_BYTES = 8 * 1024;
const SPEC_FILE_NAMES: ReadonlySet<string> = new Set([SKILL_FILE_NAME, 'skill.md']);

/**
 * Where file systems are usually case-sensitive, opening the exact name first saves a directory
 * listing per skill; elsewhere only the listing gives the name's real case (which strict mode
 * checks). Asked on each read, which costs a property read, so that tests can play another platform.
 */
function exactNameFirst(): boolean {
  return process.platform === 'linux';
}

export interface LoadOptions {
  /** Apply the specification alone, with the verdicts of its reference validator. */
  strict?: boolean;
  /** Also run body checks (length, links): off during discovery, on for Validate. */
  checkBody?: boolean;
  /**
   * Read with blocking calls: for the command line, which has no event loop to keep responsive and
   * where a blocking read costs a fraction of an asynchronous one. Never in the editor: a slow
   * (network) drive would freeze the extension host.
   */
  blockingReads?: boolean;
  /** Read the whole file and hand back its bytes when it is valid (LoadedSkillFile.bytes). */
  keepFile?: boolean;
  /**
   * Filled, by file, with where each valid SKILL.md's description value stands: a check made after
   * loading (the overlap check) then places its warnings without reading the files again.
   */
  descriptionRanges?: Map<string, Range | undefined>;
}

export interface SkillFileValidation {
  /** Absolute path of the SKILL.md. */
  file: string;
  /** Present iff no diagnostic is an error. */
  metadata?: SkillMetadata;
  diagnostics: SkillDiagnostic[];
}

export interface LoadedSkillFile extends SkillFileValidation {
  /**
   * What tells a later load whether the file changed; 0 when not looked up. Blocking reads (the
   * command line's one-off loads) do not look up the modification time, and know the size only of
   * a file their first read took whole: a record they made always compares as changed.
   */
  mtimeMs: number;
  size: number;
  /** With LoadOptions.keepFile, the whole file's bytes when it is valid (metadata present). */
  bytes?: Buffer;
}

/** Case-insensitive lookup of SKILL.md in a folder; returns its absolute path with real on-disk case, or undefined. */
export async function findSkillFile(dir: string): Promise<string | undefined> {
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  let folder: string | undefined;
  for (const entry of skillFileCandidates(entries)) {
    const file = path.resolve(dir, entry.name);
    if (entry.isFile() || (entry.isSymbolicLink() && (await isFile(file)))) {
      return file;
    }
    if (entry.isDirectory()) {
      folder ??= file;
    }
  }
  // A folder named SKILL.md is a broken skill, which reading it reports, not a folder without one.
  return folder;
}

/** findSkillFile with blocking calls (see LoadOptions.blockingReads). */
function findSkillFileBlocking(dir: string): string | undefined {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  let folder: string | undefined;
  for (const entry of skillFileCandidates(entries)) {
    const file = path.resolve(dir, entry.name);
    if (entry.isFile() || (entry.isSymbolicLink() && isFileBlocking(file))) {
      return file;
    }
    if (entry.isDirectory()) {
      folder ??= file;
    }
  }
  return folder;
}

/** Entries named SKILL.md in any case; the exact spelling first, as it wins when a case-sensitive file system holds several. */
function skillFileCandidates(entries: readonly Dirent[]): Dirent[] {
  const wanted = SKILL_FILE_NAME.toLowerCase();
  return entries.filter((entry) => entry.name.toLowerCase() === wanted).sort((a, b) => Number(b.name === SKILL_FILE_NAME) - Number(a.name === SKILL_FILE_NAME));
}

/**
 * Reads, parses and validates the SKILL.md of `dir` (folder name used for the name check).
 * undefined when the folder has no SKILL.md. Never throws for bad content: problems become
 * diagnostics (unreadable file, too big, binary, bad YAML...).
 */
export async function loadSkillFile(dir: string, options: LoadOptions = {}): Promise<LoadedSkillFile | undefined> {
  if (options.blockingReads) {
    return loadSkillFileBlocking(dir, options);
  }
  return loadedSkillFile(await readSkillFileIn(dir, readMode(options)), dir, options);
}

/**
 * loadSkillFile with blocking reads, whatever `options.blockingReads` says: for the command line,
 * which loads thousands of skills one after the other, without a promise for each.
 */
export function loadSkillFileBlocking(dir: string, options: LoadOptions = {}): LoadedSkillFile | undefined {
  return loadedSkillFile(readSkillFileInBlocking(dir, readMode(options)), dir, options);
}

function readMode(options: LoadOptions): ReadMode {
  return options.keepFile ? 'keep' : options.checkBody ? 'whole' : 'head';
}

function loadedSkillFile(read: SkillFileRead | undefined, dir: string, options: LoadOptions): LoadedSkillFile | undefined {
  if (!read) {
    return undefined;
  }
  const { file, stat } = read;
  const mtimeMs = stat?.mtimeMs ?? 0;
  const size = stat?.size ?? 0;
  if ('error' in read) {
    return { file, diagnostics: [unreadableDiagnostic(file, read.error)], mtimeMs, size };
  }
  if (read.text === undefined) {
    return { file, diagnostics: [tooLargeDiagnostic(file, size)], mtimeMs, size };
  }
  // A kept file's text holds only the frontmatter; body checks need the rest.
  const text = read.bytes && options.checkBody ? read.bytes.toString('utf8') : read.text;
  // Built whole: a spread copies the result key by key, which costs while the code is still interpreted.
  const { metadata, diagnostics } = analyzeSkillText(text, file, lastName(dir), options);
  if (!metadata) {
    return { file, diagnostics, mtimeMs, size };
  }
  return read.bytes ? { file, metadata, diagnostics, mtimeMs, size, bytes: read.bytes } : { file, metadata, diagnostics, mtimeMs, size };
}

/** Validates SKILL.md text already in memory (an editor's unsaved buffer); the folder of `file` is the skill folder. */
export function validateSkillText(text: string, file: string, options: LoadOptions = {}): SkillFileValidation {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_SKILL_FILE_BYTES) {
    return { file, diagnostics: [tooLargeDiagnostic(file, size)] };
  }
  return analyzeSkillText(text, file, path.basename(path.dirname(file)), options);
}

/** `missing`: there is no file (as opposed to one that cannot be read or is too big). */
export type WholeSkillFile = { ok: true; bytes: Buffer } | { ok: false; message: string; missing: boolean };

/** Reads a SKILL.md whole, fresh from disk. A failure's message names the file and why. */
export async function readWholeSkillFile(file: string): Promise<WholeSkillFile> {
  const read = await readSkillFile(file, 'keep');
  if (!read || 'error' in read) {
    const reason = read ? errorMessage(read.error) : 'it does not exist or is not a file';
    return { ok: false, message: `Cannot read the skill file ${file}: ${reason}`, missing: !read };
  }
  if (read.bytes === undefined) {
    return { ok: false, message: `Cannot read the skill file ${file}: ${tooLargeMessage(read.stat.size)}`, missing: false };
  }
  return { ok: true, bytes: read.bytes };
}

/**
 * What keeps SKILL.md text from being served, as the first error a load would report, or a body
 * that is binary; undefined when it can be served (metadata means a closed frontmatter, so a body,
 * if an empty one). `file` names the file in messages.
 */
export function skillTextProblem(text: string, file: string): string | undefined {
  const validation = validateSkillText(text, file);
  if (!validation.metadata) {
    // Metadata is withheld only for an error (see SkillFileValidation).
    return validation.diagnostics.find((diagnostic) => diagnostic.severity === 'error')!.message;
  }
  return text.includes('\0') ? 'it contains NUL bytes (binary content).' : undefined;
}

function analyzeSkillText(text: string, file: string, dirName: string, options: LoadOptions): SkillFileValidation {
  const strict = options.strict === true;
  const parsed = parseSkillText(text, { file, strict, includeBody: options.checkBody === true });
  const diagnostics = parsed.diagnostics;
  const fileName = lastName(file);
  if (strict && !SPEC_FILE_NAMES.has(fileName)) {
    // The lookup here is case-insensitive; the specification's reference validator knows only these spellings.
    diagnostics.unshift(
      makeDiagnostic(
        file,
        'skill-file-name',
        'error',
        `The file is named "${fileName}"; the specification names it ${SKILL_FILE_NAME} (its reference validator also accepts skill.md). Rename the file.`,
        FILE_START_RANGE,
      ),
    );
  }
  let metadata: SkillMetadata | undefined;
  if (parsed.data) {
    const validation = validateFrontmatter(parsed.data, { file, dirName, strict, locations: () => parsed.locations });
    if (validation.diagnostics.length > 0) {
      diagnostics.push(...validation.diagnostics);
    }
    // A parser-level error (e.g. strict mode's byte-order mark) also withholds the metadata.
    if (!hasErrors(diagnostics)) {
      metadata = validation.metadata;
      options.descriptionRanges?.set(file, parsed.locations.get('description')?.value);
    }
  }
  if (options.checkBody && parsed.body !== undefined && parsed.bodyStartLine !== undefined) {
    diagnostics.push(...validateBody(parsed.body, { file, skillDir: parentFolder(file), bodyStartLine: parsed.bodyStartLine }));
  }
  return metadata ? { file, metadata, diagnostics } : { file, diagnostics };
}

/** A stat's figures, or what a blocking read learnt without one (see readWithoutStat). */
type FileFacts = Pick<Stats, 'size' | 'mtimeMs'>;

/** How much of a SKILL.md to read: the frontmatter, the whole text, or the whole text and its bytes. */
type ReadMode = 'head' | 'whole' | 'keep';

type SkillFileRead =
  /** `text` (and `bytes`, read in `keep` mode) are absent when the file is over the size cap and was not read. */
  { file: string; stat: FileFacts; text?: string; bytes?: Buffer } | { file: string; stat?: FileFacts; error: NodeJS.ErrnoException };

/**
 * Reads the SKILL.md of `dir`; undefined when there is none. Elsewhere than where the exact name is
 * tried first, the listing finds the real on-disk case.
 */
async function readSkillFileIn(dir: string, mode: ReadMode): Promise<SkillFileRead | undefined> {
  if (exactNameFirst()) {
    const found = await readSkillFile(resolveChild(dir, SKILL_FILE_NAME), mode);
    if (found && !isFolderRead(found)) {
      return found;
    }
  }
  const file = await findSkillFile(dir);
  return file === undefined ? undefined : readSkillFile(file, mode);
}

/** readSkillFileIn with blocking calls. */
function readSkillFileInBlocking(dir: string, mode: ReadMode): SkillFileRead | undefined {
  if (exactNameFirst()) {
    const found = readSkillFileBlocking(resolveChild(dir, SKILL_FILE_NAME), mode);
    if (found && !isFolderRead(found)) {
      return found;
    }
  }
  const file = findSkillFileBlocking(dir);
  return file === undefined ? undefined : readSkillFileBlocking(file, mode);
}

/**
 * Opens, stats and reads a file: all of it, or (for discovery) only the bytes the frontmatter needs.
 * undefined when it does not exist or is not a regular file; a folder is an error. Uses callback I/O, one promise per
 * file rather than one per operation: discovery of many skills then costs about what the reads do.
 */
function readSkillFile(file: string, mode: ReadMode): Promise<SkillFileRead | undefined> {
  return new Promise((resolve) => {
    fs.open(file, READ_WITHOUT_WAITING, (openError, fd) => {
      if (openError) {
        resolve(isMissing(openError) ? undefined : { file, error: openError });
        return;
      }
      let headBuffer: Buffer | undefined;
      const finish = (read: SkillFileRead | undefined): void => {
        if (headBuffer) {
          freeHeadBuffers.push(headBuffer);
        }
        fs.close(fd, () => resolve(read));
      };
      fs.fstat(fd, (statError, stat) => {
        if (statError) {
          return finish({ file, error: statError });
        }
        if (stat.isDirectory()) {
          return finish({ file, stat, error: isFolderError() });
        }
        if (!stat.isFile()) {
          return finish(undefined);
        }
        if (stat.size > MAX_SKILL_FILE_BYTES) {
          return finish({ file, stat });
        }
        if (mode === 'head') {
          headBuffer = freeHeadBuffers.pop() ?? Buffer.allocUnsafeSlow(FIRST_HEAD_READ_BYTES);
        }
        const reader = new TextReader(stat.size, mode, headBuffer);
        const readMore = (): void => {
          const room = reader.room();
          fs.read(fd, reader.buffer, reader.length, room, reader.length, (readError, bytesRead) => {
            if (readError) {
              return finish({ file, stat, error: readError });
            }
            const text = reader.took(bytesRead);
            if (text === undefined) {
              readMore();
            } else {
              finish(reader.read(file, stat, text));
            }
          });
        };
        readMore();
      });
    });
  });
}

/**
 * Head buffers of finished reads, for the next ones: discovery reads thousands of heads, and a
 * fresh buffer for each would leave the garbage collector a noticeable share of the work. The
 * text is decoded out of a buffer before it is returned here.
 */
const freeHeadBuffers: Buffer[] = [];

/**
 * Blocking reads happen one at a time, so they share one buffer: a buffer per file would leave the
 * garbage collector a large share of validating thousands of skills.
 */
const blockingScratch = Buffer.allocUnsafe(64 * 1024);

/** Where a blocking head read reads the byte at the size cap, if there is one. */
const capProbe = Buffer.allocUnsafe(1);

/** readSkillFile with blocking calls (see LoadOptions.blockingReads). */
function readSkillFileBlocking(file: string, mode: ReadMode): SkillFileRead | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_WITHOUT_WAITING);
  } catch (error) {
    return isMissing(error) ? undefined : { file, error: error as NodeJS.ErrnoException };
  }
  try {
    const first = mode === 'keep' ? 0 : readWithoutStat(file, fd, mode);
    return typeof first === 'number' ? readOpenFileBlocking(file, fd, mode, first) : first;
  } catch (error) {
    return { file, error: error as NodeJS.ErrnoException };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The usual read, without an fstat (building its Stats object costs more than a small read): the
 * first bytes in one read, or for a whole read as many as the scratch buffer holds; for a head read
 * that did not reach the end of the file, a one-byte read at the size cap tells whether the file is
 * over it. The size is then known only when the read reached the end, and the modification time
 * not at all (see LoadedSkillFile). When this cannot decide (nothing read: an empty file, or a
 * device; a frontmatter longer than the first read, a whole file longer than the scratch buffer, a
 * file over the cap), the read after an fstat does, going on from the bytes this one read: their
 * count is returned.
 */
function readWithoutStat(file: string, fd: number, mode: 'head' | 'whole'): SkillFileRead | number {
  const wanted = mode === 'head' ? FIRST_HEAD_READ_BYTES : blockingScratch.length;
  let bytesRead: number;
  try {
    bytesRead = fs.readSync(fd, blockingScratch, 0, wanted, 0);
  } catch (error) {
    // A folder says so here; anything else (a pipe or a terminal, which has no positions) the stat explains.
    return errorCode(error) === 'EISDIR' ? { file, error: isFolderError() } : 0;
  }
  if (bytesRead === 0) {
    return 0;
  }
  // A read of a file comes back short only at its end.
  const reachedEnd = bytesRead < wanted;
  if (mode === 'whole') {
    return reachedEnd ? { file, stat: { size: bytesRead, mtimeMs: 0 }, text: blockingScratch.toString('utf8', 0, bytesRead) } : bytesRead;
  }
  const needed = frontmatterHeadLength(blockingScratch, bytesRead) ?? (reachedEnd ? bytesRead : undefined);
  if (needed === undefined || (!reachedEnd && fs.readSync(fd, capProbe, 0, 1, MAX_SKILL_FILE_BYTES) > 0)) {
    return bytesRead;
  }
  return { file, stat: { size: reachedEnd ? bytesRead : 0, mtimeMs: 0 }, text: blockingScratch.toString('utf8', 0, needed) };
}

/**
 * Reads an open file after an fstat: its kind and size decide whether and how much. The first
 * `alreadyRead` bytes of the file are at the start of the scratch buffer.
 */
function readOpenFileBlocking(file: string, fd: number, mode: ReadMode, alreadyRead: number): SkillFileRead | undefined {
  let stat: Stats | undefined;
  try {
    stat = fs.fstatSync(fd);
    if (stat.isDirectory()) {
      return { file, stat, error: isFolderError() };
    }
    if (!stat.isFile()) {
      return undefined;
    }
    if (stat.size > MAX_SKILL_FILE_BYTES) {
      return { file, stat };
    }
    const reader = new TextReader(stat.size, mode, blockingScratch, alreadyRead);
    for (;;) {
      const room = reader.room();
      const text = reader.took(fs.readSync(fd, reader.buffer, reader.length, room, reader.length));
      if (text !== undefined) {
        return reader.read(file, stat, text);
      }
    }
  } catch (error) {
    return { file, stat, error: error as NodeJS.ErrnoException };
  }
}

/** A folder named SKILL.md gives way to a file in another spelling, as findSkillFile has it. */
function isFolderRead(read: SkillFileRead): boolean {
  return 'error' in read && read.error.code === 'EISDIR';
}

function isFolderError(): NodeJS.ErrnoException {
  return Object.assign(new Error('it is a folder, not a file. A skill needs a Markdown file named SKILL.md.'), { code: 'EISDIR' });
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reading a file's text from its start, until the frontmatter is complete (or, in the other modes,
 * the end); both readers above drive it. The usual small frontmatter takes one read; a longer one
 * grows the buffer. Only the needed bytes are decoded: in `keep` mode, the frontmatter, as the
 * bytes are handed back whole. One per file read, so its fields are only declared and set in the
 * constructor (see ParsedFrontmatter in parse.ts).
 */
class TextReader {
  /** Where reads go, from its start; a scratch buffer may be longer than what is read into it. */
  declare buffer: Buffer;
  /** Bytes read so far: where the next read goes in `buffer`, and its position in the file. */
  declare length: number;
  /** How much of `buffer` the reads may fill. */
  declare private capacity: number;
  declare private readonly whole: boolean;
  declare private readonly size: number;
  declare private readonly mode: ReadMode;

  /**
   * `scratch`, when given and large enough, is used instead of a new buffer; the text is copied out
   * of it. Its first `alreadyRead` bytes are the file's first bytes, which an earlier read put there.
   */
  constructor(size: number, mode: ReadMode, scratch?: Buffer, alreadyRead = 0) {
    this.size = size;
    this.mode = mode;
    this.whole = mode !== 'head';
    this.capacity = Math.max(1, this.whole ? size : Math.min(size, FIRST_HEAD_READ_BYTES));
    // The scratch buffer itself, not a view of it: a view per file costs about what the search does.
    this.buffer = scratch && scratch.length >= this.capacity ? scratch : Buffer.allocUnsafe(this.capacity);
    // No more of them than the file now holds, should it have shrunk since.
    this.length = Math.min(alreadyRead, this.capacity);
    scratch?.copy(this.buffer, 0, 0, this.length);
  }

  /** The read's result once `took` gave `text`; in `keep` mode with the bytes read, in a buffer of their own. */
  read(file: string, stat: FileFacts, text: string): SkillFileRead {
    if (this.mode !== 'keep') {
      return { file, stat, text };
    }
    // Not from the shared pool of small buffers, which a kept slice would hold whole.
    const bytes = Buffer.allocUnsafeSlow(this.length);
    this.buffer.copy(bytes, 0, 0, this.length);
    return { file, stat, text, bytes };
  }

  /** How many bytes the next read may take; call it before reading `buffer`, which it may replace. */
  room(): number {
    if (this.length === this.capacity) {
      // Doubling keeps a long unterminated frontmatter from being copied over and over.
      const grown = Buffer.allocUnsafe(Math.max(2 * this.capacity, HEAD_CHUNK_BYTES));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
      this.capacity = grown.length;
    }
    return this.capacity - this.length;
  }

  /** Takes the bytes of one read; returns the text once no more is needed. */
  took(bytesRead: number): string | undefined {
    this.length += bytesRead;
    const needed = this.whole ? undefined : frontmatterHeadLength(this.buffer, this.length);
    if (needed !== undefined) {
      return this.buffer.toString('utf8', 0, needed);
    }
    // A whole read stops at the size from the stat, as fs.readFile does, without a read to find the end.
    const ended = bytesRead === 0 || (this.whole && this.length >= this.size) || this.length > MAX_SKILL_FILE_BYTES;
    if (!ended) {
      return undefined;
    }
    const decoded = this.mode === 'keep' ? (frontmatterHeadLength(this.buffer, this.length) ?? this.length) : this.length;
    return this.buffer.toString('utf8', 0, decoded);
  }
}

function unreadableDiagnostic(file: string, error: unknown): SkillDiagnostic {
  return makeDiagnostic(file, 'file-unreadable', 'error', `Cannot read ${file}: ${errorMessage(error)}`, FILE_START_RANGE);
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

function isFileBlocking(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
