// A skill's files packed in one archive, as a skills site serves them: read whole into memory and
// checked before anything is written (every path stays inside the skill folder, no links, no
// special files, the file count and unpacked size within limits, a SKILL.md at the top), whether
// the archive is a .tar.gz (tar.ts) or a .zip (zip.ts). The archive's root is the skill's folder.

import { normalizedRelativePath } from '../sources/confine';
import { SKILL_FILE_NAME } from '../skill-file/load';
import { InputProblem } from '../util/errors';

export interface ArchiveFile {
  /** Path inside the skill folder, `/`-separated. */
  path: string;
  bytes: Buffer;
}

export interface ArchiveLimits {
  /** Files at most. */
  files: number;
  /** Bytes unpacked at most, all files together. */
  bytes: number;
}

/** An archive that is damaged, hostile or too large; the message says which entry and why. */
export class ArchiveError extends InputProblem {}

// eslint-disable-next-line no-control-regex -- control characters are what an entry's name must not hold
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Bytes in a MiB, for messages. */
export function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * The path an entry names inside the skill folder, `/`-separated without `.` parts; an ArchiveError
 * when it could lead anywhere else or be read differently elsewhere: absolute, a drive, `..`, a
 * backslash, a control character.
 */
export function archiveEntryPath(rawPath: string): string {
  const normalized = CONTROL_CHARACTER.test(rawPath) || rawPath.includes('\\') || /^[A-Za-z]:/.test(rawPath) ? undefined : normalizedRelativePath(rawPath);
  if (normalized === undefined) {
    throw new ArchiveError(`the entry ${JSON.stringify(rawPath)} leads out of the skill folder (an absolute path, a drive, "..", a backslash or a control character).`);
  }
  return normalized;
}

/** Collects an archive's files while it is read, refusing what breaks a rule as soon as it is seen. */
export class ArchiveContents {
  private readonly files = new Map<string, Buffer>();
  private readonly folders = new Set<string>();
  private bytes = 0;

  constructor(private readonly limits: ArchiveLimits) {}

  /** Refuses an entry of `size` bytes before it is unpacked when it would take the total past the limit. */
  reserve(size: number): void {
    if (this.bytes + size > this.limits.bytes) {
      throw new ArchiveError(`it unpacks to more than ${describeBytes(this.limits.bytes)}.`);
    }
  }

  addFile(rawPath: string, bytes: Buffer): void {
    const entryPath = archiveEntryPath(rawPath);
    if (entryPath === '') {
      throw new ArchiveError(`the entry ${JSON.stringify(rawPath)} names the skill folder itself as a file.`);
    }
    if (this.files.has(entryPath)) {
      throw new ArchiveError(`it holds "${entryPath}" twice; which one counts would depend on the tool unpacking it.`);
    }
    if (this.files.size >= this.limits.files) {
      throw new ArchiveError(`it holds more than ${this.limits.files.toLocaleString('en-US')} files.`);
    }
    this.reserve(bytes.length);
    this.bytes += bytes.length;
    this.files.set(entryPath, bytes);
  }

  addFolder(rawPath: string): void {
    const entryPath = archiveEntryPath(rawPath);
    if (entryPath !== '') {
      this.folders.add(entryPath);
    }
  }

  /** The files, sorted by path, once the archive is known to unpack into one skill folder. */
  finish(): ArchiveFile[] {
    for (const file of this.files.keys()) {
      const parts = file.split('/');
      for (let depth = 1; depth < parts.length; depth++) {
        const folder = parts.slice(0, depth).join('/');
        if (this.files.has(folder)) {
          throw new ArchiveError(`it holds "${folder}" both as a file and as the folder of "${file}".`);
        }
      }
    }
    for (const folder of this.folders) {
      if (this.files.has(folder)) {
        throw new ArchiveError(`it holds "${folder}" both as a file and as a folder.`);
      }
    }
    if (!this.files.has(SKILL_FILE_NAME)) {
      throw new ArchiveError(`it has no ${SKILL_FILE_NAME} at its top (the archive's root is the skill's folder).`);
    }
    return [...this.files.keys()].sort(compareBytes).map((file) => ({ path: file, bytes: this.files.get(file)! }));
  }
}

/** Orders paths by their UTF-8 bytes (the order of `sort` on ASCII), the same on every platform. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
