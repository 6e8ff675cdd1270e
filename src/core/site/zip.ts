// Reads a .zip archive from its central directory, bounded: the entry count and each entry's size
// are checked before it is inflated, inflating stops past the size the entry declares, and the
// result must match that size and its CRC-32. Links, encrypted entries and zip64 archives are
// refused (a skill needs none of them); paths are checked by ArchiveContents.

import * as zlib from 'node:zlib';
import { ArchiveContents, ArchiveError, type ArchiveFile, type ArchiveLimits } from './archive';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
const CENTRAL_HEADER_BYTES = 46;
const LOCAL_HEADER_BYTES = 30;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8 = 0x800;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
const UNIX_FILE_TYPE = 0o170000;
const UNIX_FILE = 0o100000;
const UNIX_FOLDER = 0o040000;
const UNIX_LINK = 0o120000;

/** The files of a .zip, within `limits`; an ArchiveError naming what is wrong otherwise. */
export function readZip(bytes: Buffer, limits: ArchiveLimits): ArchiveFile[] {
  const end = findEndRecord(bytes);
  const entries = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (entries === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    throw new ArchiveError('it is a zip64 archive, which is not read (a skill never needs one: use a plain .zip or a .tar.gz).');
  }
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0 || directoryOffset + directorySize > end) {
    throw new ArchiveError('its central directory is damaged or spans several disks.');
  }
  if (entries > limits.files) {
    throw new ArchiveError(`it holds ${entries.toLocaleString('en-US')} entries, more than ${limits.files.toLocaleString('en-US')}.`);
  }
  const contents = new ArchiveContents(limits);
  let offset = directoryOffset;
  for (let index = 0; index < entries; index++) {
    need(bytes, offset, CENTRAL_HEADER_BYTES, directoryOffset + directorySize);
    if (bytes.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) {
      throw new ArchiveError('its central directory is damaged.');
    }
    const flags = bytes.readUInt16LE(offset + 8);
    const method = bytes.readUInt16LE(offset + 10);
    const crc = bytes.readUInt32LE(offset + 16);
    const compressedSize = bytes.readUInt32LE(offset + 20);
    const size = bytes.readUInt32LE(offset + 24);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const variableLength = nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
    const unixMode = bytes.readUInt32LE(offset + 38) >>> 16;
    const localOffset = bytes.readUInt32LE(offset + 42);
    need(bytes, offset + CENTRAL_HEADER_BYTES, variableLength, directoryOffset + directorySize);
    const name = entryName(bytes.subarray(offset + CENTRAL_HEADER_BYTES, offset + CENTRAL_HEADER_BYTES + nameLength), (flags & FLAG_UTF8) !== 0);
    offset += CENTRAL_HEADER_BYTES + variableLength;

    const fileType = unixMode & UNIX_FILE_TYPE;
    if (fileType === UNIX_LINK) {
      throw new ArchiveError(`the entry ${JSON.stringify(name)} is a link; links are not unpacked (they may point anywhere).`);
    }
    if (fileType !== 0 && fileType !== UNIX_FILE && fileType !== UNIX_FOLDER) {
      throw new ArchiveError(`the entry ${JSON.stringify(name)} is neither a file nor a folder.`);
    }
    if (name.endsWith('/') || fileType === UNIX_FOLDER) {
      contents.addFolder(name);
      continue;
    }
    if ((flags & FLAG_ENCRYPTED) !== 0) {
      throw new ArchiveError(`the entry ${JSON.stringify(name)} is encrypted.`);
    }
    contents.reserve(size);
    const data = inflate(bytes, { name, method, compressedSize, size, localOffset, directoryOffset });
    if (zlib.crc32(data) >>> 0 !== crc) {
      throw new ArchiveError(`the entry ${JSON.stringify(name)} is damaged (its CRC-32 does not match).`);
    }
    contents.addFile(name, data);
  }
  return contents.finish();
}

/** The end-of-central-directory record, searched from the end past at most a full-length comment. */
function findEndRecord(bytes: Buffer): number {
  for (let offset = bytes.length - END_RECORD_BYTES; offset >= 0 && offset >= bytes.length - END_RECORD_BYTES - MAX_COMMENT_BYTES; offset--) {
    if (bytes.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) {
      return offset;
    }
  }
  throw new ArchiveError('it is not a valid zip archive (no central directory).');
}

function need(bytes: Buffer, offset: number, length: number, limit = bytes.length): void {
  if (offset + length > Math.min(limit, bytes.length)) {
    throw new ArchiveError('it is damaged: an entry runs past its end.');
  }
}

/** A name as UTF-8 (flagged so, or plain ASCII); names in an old code page are refused rather than guessed. */
function entryName(bytes: Buffer, utf8: boolean): string {
  if (!utf8 && bytes.some((byte) => byte >= 0x80)) {
    throw new ArchiveError('an entry is named in a legacy code page rather than UTF-8.');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ArchiveError('an entry name is not valid UTF-8.');
  }
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  directoryOffset: number;
}

/** The entry's bytes, found through its local header and never inflated past the size it declares. */
function inflate(bytes: Buffer, entry: ZipEntry): Buffer {
  need(bytes, entry.localOffset, LOCAL_HEADER_BYTES, entry.directoryOffset);
  if (bytes.readUInt32LE(entry.localOffset) !== LOCAL_FILE_HEADER) {
    throw new ArchiveError(`the entry ${JSON.stringify(entry.name)} is damaged (no local header where the directory says).`);
  }
  const dataStart = entry.localOffset + LOCAL_HEADER_BYTES + bytes.readUInt16LE(entry.localOffset + 26) + bytes.readUInt16LE(entry.localOffset + 28);
  need(bytes, dataStart, entry.compressedSize, entry.directoryOffset);
  const stored = bytes.subarray(dataStart, dataStart + entry.compressedSize);
  let data: Buffer;
  if (entry.method === METHOD_STORED) {
    data = Buffer.from(stored);
  } else if (entry.method === METHOD_DEFLATED) {
    try {
      data = zlib.inflateRawSync(stored, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      throw new ArchiveError(
        `the entry ${JSON.stringify(entry.name)} ${error instanceof RangeError ? `unpacks to more than the ${entry.size} bytes it declares` : 'is damaged (it does not inflate)'}.`,
      );
    }
  } else {
    throw new ArchiveError(`the entry ${JSON.stringify(entry.name)} is compressed with method ${entry.method}; only stored and deflated entries are read.`);
  }
  if (data.length !== entry.size) {
    throw new ArchiveError(`the entry ${JSON.stringify(entry.name)} unpacks to ${data.length} bytes where the archive says ${entry.size}.`);
  }
  return data;
}
