// Reads the entry names of the archives a skill ships (zip; tar, plain or gzipped) without unpacking
// anything, bounded in bytes and entries, so the audit can name entries that would land outside the
// folder they are unpacked into ("zip slip").

import * as fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import * as zlib from 'node:zlib';
import { paxRecords, tarChecksumMatches, tarHeaderPath, tarNumber, tarText } from '../util/tar-header';
import { plural } from '../util/text';
import { capped, finding, quoted, type AuditFinding } from './rules';

/** More entries than a skill's archive needs; past it, the rest is not read. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/** Bytes read (after gunzip) over all the archives of one audit: gzip bombs stop here. */
export const ARCHIVE_READ_BUDGET = 256 * 1024 * 1024;
const BUDGET_SPENT = `the audit reads ${ARCHIVE_READ_BUDGET / (1024 * 1024)} MiB of archives at most`;
const MAX_ZIP_DIRECTORY_BYTES = 8 * 1024 * 1024;
/** A long name or a pax header is a few hundred bytes; past this it is not a name. */
const MAX_TAR_NAME_RECORD = 1024 * 1024;
const MAX_LINK_TARGET = 4096;
const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const UNIX_SYMLINK = 0o120000;
/** Zip archives by another name; some (.crx) start with a header of their own, so their leading bytes do not tell. */
const ZIP_FAMILY = /\.(?:zip|jar|war|whl|egg|crx|vsix|nupkg|apk)$/i;

export interface ArchiveEntry {
  name: string;
  /** A symbolic link's target, relative to the entry's folder; a hard link's, relative to the archive's top. */
  link?: { kind: 'symbolic' | 'hard'; target: string };
}

export interface ArchiveListing {
  format: 'zip' | 'tar' | 'tar.gz';
  entries: ArchiveEntry[];
  /** Why not every entry was read, when some were not. */
  unread?: string;
}

/** Bytes the audit of one folder may still read from its archives. */
export interface ArchiveBudget {
  bytesLeft: number;
}

/**
 * The entries of a zip (by its leading bytes or its extension) or a tar, plain or gzipped (by its
 * extension or its leading bytes; a gzipped file that holds no tar is no archive to list).
 * Undefined for other files.
 */
export async function listArchive(file: string, head: Buffer, budget: ArchiveBudget): Promise<ArchiveListing | undefined> {
  const magic = head.length >= 4 ? head.readUInt32LE(0) : 0;
  const reader =
    magic === LOCAL_HEADER || magic === END_OF_DIRECTORY || ZIP_FAMILY.test(file)
      ? { format: 'zip' as const, list: () => listZip(file, budget) }
      : head[0] === 0x1f && head[1] === 0x8b
        ? { format: 'tar.gz' as const, list: () => listTar(file, true, budget) }
        : /\.tar$/i.test(file) || head.toString('latin1', 257, 262) === 'ustar'
          ? { format: 'tar' as const, list: async () => (await listTar(file, false, budget)) ?? { format: 'tar' as const, entries: [], unread: 'it is not a tar archive' } }
          : undefined;
  if (reader && budget.bytesLeft <= 0) {
    return { format: reader.format, entries: [], unread: `it was not read (${BUDGET_SPENT})` };
  }
  try {
    return await reader?.list();
  } catch {
    // An archive whose recorded sizes and offsets lead nowhere readable.
    return reader && { format: reader.format, entries: [], unread: 'it could not be read' };
  }
}

/**
 * What the audit says of an archive: each entry that would land outside the folder it is unpacked
 * into (high), then the archive itself (medium: the files it holds are not audited).
 */
export function archiveFindings(listing: ArchiveListing | undefined, kind: string, file: string): AuditFinding[] {
  if (listing === undefined) {
    return [finding('archive', `An archive (${kind}): what it holds is not audited.`, file)];
  }
  const outside = listing.entries.flatMap((entry) => {
    const why = entryOutside(entry);
    return why ? [finding('archive-entry-outside', `The entry "${quoted(entry.name, 160)}" of this archive ${why}.`, file)] : [];
  });
  const summary = listing.unread
    ? `An archive (${listing.format}): ${listing.unread}, and the files it holds are not audited.`
    : `An archive (${listing.format}, ${plural(listing.entries.length, 'entry', 'entries')}): the files it holds are not audited.`;
  return [...capped(outside, 'entries leaving the folder'), finding('archive', summary, file)];
}

function entryOutside({ name, link }: ArchiveEntry): string | undefined {
  const how = leavesFolder(name);
  if (how) {
    return `${how === 'absolute' ? 'has an absolute path' : 'climbs out of the folder it is unpacked into'}: unpacking it may write over the user's files`;
  }
  // A symbolic link's target is read from the link's own folder, a hard link's from the archive's top.
  if (link && leavesFolder(link.target, link.kind === 'symbolic' ? folderDepth(name) : 0)) {
    return `is a link to "${quoted(link.target, 160)}", outside the folder it is unpacked into: what is unpacked through it may land outside`;
  }
  return undefined;
}

/** How deep an entry's folder is below the archive's top (for an entry that stays inside it). */
function folderDepth(entryPath: string): number {
  const parts = entryPath
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  return parts.slice(0, -1).reduce((depth, part) => depth + (part === '..' ? -1 : 1), 0);
}

/** How an entry unpacked into a folder leaves it: by an absolute path, by climbing with `..`, or not (undefined). */
export function leavesFolder(entryPath: string, depth = 0): 'absolute' | 'climbs' | undefined {
  const normal = entryPath.replace(/\\/g, '/');
  if (normal.startsWith('/') || /^[A-Za-z]:/.test(normal)) {
    return 'absolute';
  }
  for (const part of normal.split('/')) {
    if (part === '..') {
      if (--depth < 0) {
        return 'climbs';
      }
    } else if (part !== '' && part !== '.') {
      depth++;
    }
  }
  return undefined;
}

// ---- zip ----------------------------------------------------------------------------------------

async function listZip(file: string, budget: ArchiveBudget): Promise<ArchiveListing> {
  const handle = await fs.open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const tailStart = Math.max(0, size - (22 + 0xffff + 20));
    const tail = await readAt(handle, tailStart, size - tailStart, budget);
    const end = endOfDirectory(tail);
    if (end === undefined) {
      return { format: 'zip', entries: [], unread: 'its central directory was not found' };
    }
    let count = tail.readUInt16LE(end + 10);
    let directorySize = tail.readUInt32LE(end + 12);
    let directoryOffset = tail.readUInt32LE(end + 16);
    // Data before the archive (a self-extracting stub) shifts every offset the archive records.
    let shift = Math.max(0, tailStart + end - directorySize - directoryOffset);
    if ((count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) && end >= 20 && tail.readUInt32LE(end - 20) === ZIP64_LOCATOR) {
      const record = await readAt(handle, Number(tail.readBigUInt64LE(end - 12)), 56, budget);
      if (record.length === 56 && record.readUInt32LE(0) === ZIP64_END) {
        count = Number(record.readBigUInt64LE(32));
        directorySize = Number(record.readBigUInt64LE(40));
        directoryOffset = Number(record.readBigUInt64LE(48));
        shift = 0;
      }
    }
    const directory = await readAt(handle, directoryOffset + shift, Math.min(directorySize, MAX_ZIP_DIRECTORY_BYTES), budget);
    const entries: ArchiveEntry[] = [];
    let at = 0;
    while (entries.length < Math.min(count, MAX_ARCHIVE_ENTRIES) && at + 46 <= directory.length) {
      if (directory.readUInt32LE(at) !== DIRECTORY_ENTRY) {
        return { format: 'zip', entries, unread: `its central directory is damaged after ${plural(entries.length, 'entry', 'entries')}` };
      }
      const nameLength = directory.readUInt16LE(at + 28);
      const next = at + 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
      if (at + 46 + nameLength > directory.length) {
        break;
      }
      const utf8 = (directory.readUInt16LE(at + 8) & 0x0800) !== 0;
      const name = directory.toString(utf8 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
      const madeOnUnix = [3, 19].includes(directory[at + 5]);
      const mode = directory.readUInt32LE(at + 38) >>> 16;
      const entry: ArchiveEntry = { name };
      if (madeOnUnix && (mode & 0o170000) === UNIX_SYMLINK) {
        const target = await zipLinkTarget(handle, directory, at, shift, budget);
        entry.link = { kind: 'symbolic', target };
      }
      entries.push(entry);
      at = next;
    }
    return entries.length < count ? { format: 'zip', entries, unread: unreadEntries(entries.length) } : { format: 'zip', entries };
  } finally {
    await handle.close();
  }
}

/**
 * Where the end-of-directory record starts in the archive's tail: the last one whose comment ends
 * the file, else the last signature found (a comment may hold the signature's bytes too).
 */
function endOfDirectory(tail: Buffer): number | undefined {
  let last: number | undefined;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) === END_OF_DIRECTORY) {
      if (at + 22 + tail.readUInt16LE(at + 20) === tail.length) {
        return at;
      }
      last ??= at;
    }
  }
  return last;
}

/** A zip symbolic link's target: its entry's data, stored or deflated. */
async function zipLinkTarget(handle: fs.FileHandle, directory: Buffer, at: number, shift: number, budget: ArchiveBudget): Promise<string> {
  const method = directory.readUInt16LE(at + 10);
  const compressedSize = Math.min(directory.readUInt32LE(at + 20), MAX_LINK_TARGET);
  const localHeader = directory.readUInt32LE(at + 42) + shift;
  const header = await readAt(handle, localHeader, 30, budget);
  if (header.length < 30) {
    return '';
  }
  const data = await readAt(handle, localHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), compressedSize, budget);
  try {
    return (method === 8 ? zlib.inflateRawSync(data, { maxOutputLength: MAX_LINK_TARGET }) : data).toString('utf8');
  } catch {
    return ''; // Unreadable: the entry's name is still checked.
  }
}

async function readAt(handle: fs.FileHandle, position: number, length: number, budget: ArchiveBudget): Promise<Buffer> {
  const wanted = Math.max(0, Math.min(length, budget.bytesLeft));
  budget.bytesLeft -= wanted;
  const buffer = Buffer.alloc(wanted);
  const { bytesRead } = await handle.read(buffer, 0, wanted, position);
  return buffer.subarray(0, bytesRead);
}

function damagedAfter(read: number): string {
  return `it is damaged after ${plural(read, 'entry', 'entries')}`;
}

function unreadEntries(read: number): string {
  if (read === 0) {
    return 'its entries could not be read';
  }
  return read >= MAX_ARCHIVE_ENTRIES ? `only its first ${plural(MAX_ARCHIVE_ENTRIES, 'entry', 'entries')} were read` : `only ${plural(read, 'entry', 'entries')} could be read`;
}

// ---- tar ----------------------------------------------------------------------------------------

/** Reads tar headers from a stream of chunks, skipping the data between them. */
class TarHeaders {
  readonly entries: ArchiveEntry[] = [];
  /** Set once reading should stop: the end of the archive, a bound, or damage. */
  stopped?: 'end' | 'not-tar' | string;
  private pending = Buffer.alloc(0);
  private skip = 0;
  private record?: { type: string; size: number; parts: Buffer[]; collected: number };
  private longName?: string;
  private longLink?: string;
  private pax = new Map<string, string>();

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length && this.stopped === undefined) {
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, chunk.length - offset);
        this.skip -= skipped;
        offset += skipped;
      } else if (this.record) {
        const part = chunk.subarray(offset, offset + Math.min(this.record.size - this.record.collected, chunk.length - offset));
        this.record.parts.push(part);
        this.record.collected += part.length;
        offset += part.length;
        if (this.record.collected === this.record.size) {
          this.endRecord(this.record.type, Buffer.concat(this.record.parts));
          this.skip = padding(this.record.size);
          this.record = undefined;
        }
      } else {
        const part = chunk.subarray(offset, offset + 512 - this.pending.length);
        this.pending = Buffer.concat([this.pending, part]);
        offset += part.length;
        if (this.pending.length === 512) {
          this.header(this.pending);
          this.pending = Buffer.alloc(0);
        }
      }
    }
  }

  private header(block: Buffer): void {
    if (block.every((byte) => byte === 0)) {
      this.stopped = 'end';
      return;
    }
    const size = tarNumber(block, 124, 12);
    if (!tarChecksumMatches(block) || size === undefined) {
      this.stopped = this.entries.length === 0 ? 'not-tar' : damagedAfter(this.entries.length);
      return;
    }
    const type = block[156] === 0 ? '0' : String.fromCharCode(block[156]);
    if (type === 'L' || type === 'K' || type === 'x') {
      if (size > MAX_TAR_NAME_RECORD) {
        this.stopped = `an entry's name is over ${MAX_TAR_NAME_RECORD / (1024 * 1024)} MiB long`;
      } else if (size > 0) {
        this.record = { type, size, parts: [], collected: 0 };
      }
      return;
    }
    // Links, devices, folders and FIFOs have no data, whatever their size field says.
    this.skip = '123456'.includes(type) ? 0 : size + padding(size);
    if (type === 'g') {
      return; // Global pax settings: no entry.
    }
    const name = this.pax.get('path') ?? this.longName ?? tarHeaderPath(block);
    const target = this.pax.get('linkpath') ?? this.longLink ?? tarText(block, 157, 100);
    this.entries.push(type === '1' || type === '2' ? { name, link: { kind: type === '1' ? 'hard' : 'symbolic', target } } : { name });
    this.longName = this.longLink = undefined;
    this.pax = new Map();
    if (this.entries.length >= MAX_ARCHIVE_ENTRIES) {
      this.stopped = unreadEntries(this.entries.length);
    }
  }

  private endRecord(type: string, data: Buffer): void {
    if (type === 'L') {
      this.longName = tarText(data, 0, data.length);
    } else if (type === 'K') {
      this.longLink = tarText(data, 0, data.length);
    } else {
      this.pax = new Map([...this.pax, ...paxRecords(data).records]);
    }
  }
}

function padding(size: number): number {
  return (512 - (size % 512)) % 512;
}

/** A tar's entries; undefined when the (gunzipped) data is not a tar. */
async function listTar(file: string, gzipped: boolean, budget: ArchiveBudget): Promise<ArchiveListing | undefined> {
  const format = gzipped ? 'tar.gz' : 'tar';
  const reader = new TarHeaders();
  const source = createReadStream(file);
  const stream = gzipped ? pipeline(source, zlib.createGunzip(), () => {}) : source;
  let failed = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (budget.bytesLeft < chunk.length) {
        budget.bytesLeft = 0;
        return { format, entries: reader.entries, unread: `only part of it was read (${BUDGET_SPENT})` };
      }
      budget.bytesLeft -= chunk.length;
      reader.push(chunk);
      if (reader.stopped !== undefined) {
        break;
      }
    }
  } catch {
    failed = true; // Unreadable, or gzip data cut short or damaged.
  } finally {
    source.destroy();
  }
  // Data that ends before the archive's end marker is cut short, or was never a tar.
  const stopped = reader.stopped ?? (reader.entries.length === 0 ? 'not-tar' : damagedAfter(reader.entries.length));
  if (stopped === 'not-tar') {
    return failed && !gzipped ? { format, entries: [], unread: 'it could not be read' } : undefined;
  }
  return stopped === 'end' ? { format, entries: reader.entries } : { format, entries: reader.entries, unread: stopped };
}
