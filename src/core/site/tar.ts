// Gzip-compressed tar archives (POSIX ustar), written so that the same files always give the same
// bytes (sorted entries, fixed times, owner 0, one mode, a fixed gzip header) and read back with a
// bounded reader: the unpacked size is capped while decompressing, every header is checked, and
// links, devices and paths leaving the folder are refused (ArchiveContents).

import * as zlib from 'node:zlib';
import { paxRecords, TAR_BLOCK as BLOCK, tarChecksumMatches, tarHeaderPath, tarNumber, tarText } from '../util/tar-header';
import { ArchiveContents, ArchiveError, compareBytes, describeBytes, type ArchiveFile, type ArchiveLimits } from './archive';

/** 2000-01-01T00:00:00Z: any fixed time would do; tar tools warn about 1970 (zero) as implausibly old. */
const FIXED_MTIME = 946_684_800;
const FILE_MODE = 0o644;
const NAME_BYTES = 100;
const PREFIX_BYTES = 155;
/** What tar adds around the files at most for each one (header, padding) and at its end, beyond the files' bytes. */
const MAX_TAR_OVERHEAD_BYTES = 8 * 1024 * 1024;
/** The gzip header's operating-system byte: "unknown", rather than the platform zlib was built for. */
const GZIP_OS_UNKNOWN = 255;
const GZIP_OS_OFFSET = 9;

const TYPE = { file: 0x30, oldFile: 0, folder: 0x35, hardLink: 0x31, symbolicLink: 0x32, paxHeader: 0x78, paxGlobal: 0x67, gnuLongName: 0x4c } as const;

/** The files as a .tar.gz, byte for byte the same for the same paths and contents. */
export function writeTarGz(files: readonly ArchiveFile[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of [...files].sort((a, b) => compareBytes(a.path, b.path))) {
    blocks.push(tarHeader(file.path, file.bytes.length), file.bytes, Buffer.alloc((BLOCK - (file.bytes.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  const compressed = zlib.gzipSync(Buffer.concat(blocks), { level: 9 });
  compressed[GZIP_OS_OFFSET] = GZIP_OS_UNKNOWN;
  return compressed;
}

function tarHeader(filePath: string, size: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  const { name, prefix } = splitPath(filePath);
  header.write(name, 0, NAME_BYTES, 'utf8');
  writeOctal(header, 100, 8, FILE_MODE);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, FIXED_MTIME);
  header[156] = TYPE.file;
  header.write('ustar\0' + '00', 257, 'latin1');
  header.write(prefix, 345, PREFIX_BYTES, 'utf8');
  // The checksum is counted with its own field as spaces, then written as six digits, NUL, space.
  header.fill(0x20, 148, 156);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

/** A path as ustar holds it: the name (100 bytes at most) and the folders before it (155). */
function splitPath(filePath: string): { name: string; prefix: string } {
  if (Buffer.byteLength(filePath) <= NAME_BYTES) {
    return { name: filePath, prefix: '' };
  }
  for (let slash = filePath.indexOf('/'); slash > 0; slash = filePath.indexOf('/', slash + 1)) {
    const prefix = filePath.slice(0, slash);
    const name = filePath.slice(slash + 1);
    if (Buffer.byteLength(prefix) <= PREFIX_BYTES && Buffer.byteLength(name) <= NAME_BYTES) {
      return { name, prefix };
    }
  }
  throw new ArchiveError(`"${filePath}" is too long a path for a tar archive (${NAME_BYTES} bytes of file name after at most ${PREFIX_BYTES} bytes of folders).`);
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, 'latin1');
}

/** The files of a .tar.gz, within `limits`; an ArchiveError naming what is wrong otherwise. */
export function readTarGz(bytes: Buffer, limits: ArchiveLimits): ArchiveFile[] {
  let tar: Buffer;
  try {
    tar = zlib.gunzipSync(bytes, { maxOutputLength: limits.bytes + MAX_TAR_OVERHEAD_BYTES });
  } catch (error) {
    throw new ArchiveError(error instanceof RangeError ? `it unpacks to more than ${describeBytes(limits.bytes)}.` : 'it is not a valid gzip file.');
  }
  const contents = new ArchiveContents(limits);
  let longName: string | undefined;
  for (let offset = 0; offset + BLOCK <= tar.length;) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) {
      break;
    }
    if (!tarChecksumMatches(header)) {
      throw new ArchiveError(`the tar header at byte ${offset} is damaged (its checksum does not match).`);
    }
    const size = tarNumber(header, 124, 12);
    const type = header[156];
    const headerPath = tarHeaderPath(header);
    const dataStart = offset + BLOCK;
    if (size === undefined || dataStart + size > tar.length) {
      throw new ArchiveError(`the entry ${JSON.stringify(longName ?? headerPath)} says it holds more bytes than the archive has left.`);
    }
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    const entryPath = longName ?? headerPath;
    if (type === TYPE.paxHeader || type === TYPE.gnuLongName) {
      // The next entry's full path, when its header could not hold it.
      longName = type === TYPE.paxHeader ? (paxPath(data) ?? longName) : tarText(data, 0, data.length);
      continue;
    }
    longName = undefined;
    if (type === TYPE.paxGlobal) {
      continue;
    }
    if (type === TYPE.file || type === TYPE.oldFile) {
      contents.addFile(entryPath, Buffer.from(data));
    } else if (type === TYPE.folder) {
      contents.addFolder(entryPath);
    } else if (type === TYPE.hardLink || type === TYPE.symbolicLink) {
      throw new ArchiveError(`the entry ${JSON.stringify(entryPath)} is a link; links are not unpacked (they may point anywhere).`);
    } else {
      throw new ArchiveError(`the entry ${JSON.stringify(entryPath)} is neither a file nor a folder (tar type "${String.fromCharCode(type)}").`);
    }
  }
  return contents.finish();
}

/** The `path` record of a pax extended header, if it has one. */
function paxPath(data: Buffer): string | undefined {
  const { records, damaged } = paxRecords(data);
  if (damaged) {
    throw new ArchiveError('a pax extended header is damaged.');
  }
  return records.get('path');
}
