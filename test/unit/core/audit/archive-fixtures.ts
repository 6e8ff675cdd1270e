// Small zip and tar writers for the tests of the audit and of the archive readers: they write
// whatever entry names they are given (`../../.bashrc`, absolute paths, links) and, on request, sizes,
// checksums and modes that lie, which ordinary archivers refuse or rewrite.

import * as zlib from 'node:zlib';

export interface ZipEntry {
  name: string;
  data?: string | Buffer;
  /** Written as a Unix symbolic link whose content is this target. */
  symlinkTo?: string;
  /** Deflate the data (method 8) rather than store it. */
  deflate?: boolean;
  /** The Unix mode in the external attributes, when it is to differ from what the entry is. */
  mode?: number;
  /** The uncompressed size the headers claim, when it is to differ. */
  claimedSize?: number;
  /** The CRC-32 the headers claim, when it is to differ. */
  claimedCrc?: number;
}

/** A zip archive made by "Unix" (so its entries carry Unix modes), with UTF-8 names. */
export function zipOf(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = Buffer.from(entry.symlinkTo ?? entry.data ?? '');
    const data = entry.deflate ? zlib.deflateRawSync(raw) : raw;
    const mode = entry.mode ?? (entry.symlinkTo !== undefined ? 0o120777 : entry.name.endsWith('/') ? 0o040755 : 0o100644);
    const crc = (entry.claimedCrc ?? zlib.crc32(raw)) >>> 0;
    const size = entry.claimedSize ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The same archive with a comment after its end record (which may hold that record's signature). */
export function withComment(zip: Buffer, comment: Buffer): Buffer {
  const result = Buffer.concat([zip, comment]);
  result.writeUInt16LE(comment.length, zip.length - 2);
  return result;
}

/** The same archive in zip64 form: its end record points to a zip64 end record for the real counts. */
export function asZip64(zip: Buffer): Buffer {
  const end = zip.subarray(zip.length - 22);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeBigUInt64LE(BigInt(end.readUInt16LE(10)), 24);
  record.writeBigUInt64LE(BigInt(end.readUInt16LE(10)), 32);
  record.writeBigUInt64LE(BigInt(end.readUInt32LE(12)), 40);
  record.writeBigUInt64LE(BigInt(end.readUInt32LE(16)), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(zip.length - 22), 8);
  const newEnd = Buffer.from(end);
  newEnd.writeUInt16LE(0xffff, 8);
  newEnd.writeUInt16LE(0xffff, 10);
  newEnd.writeUInt32LE(0xffffffff, 12);
  newEnd.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([zip.subarray(0, zip.length - 22), record, locator, newEnd]);
}

export interface TarEntry {
  name: string;
  data?: string | Buffer;
  /** `0` file (default), `1` hard link, `2` symbolic link, `5` folder, `L` GNU long name, `x` pax header. */
  type?: string;
  linkTo?: string;
  /** Written in the ustar prefix field, joined to the name with `/`. */
  prefix?: string;
  /** Write the size in base-256 (as GNU tar does for sizes past 8 GiB), not in octal. */
  binarySize?: boolean;
  /** The size the header claims, when it is to differ from the data's. */
  claimedSize?: number;
  /** Spoils the header's checksum. */
  badChecksum?: boolean;
}

/** A ustar archive, ended by its two zero blocks. */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    const size = entry.claimedSize ?? data.length;
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, 'utf8');
    header.write('0000644\0', 100, 'latin1');
    header.write('0000000\0', 108, 'latin1');
    header.write('0000000\0', 116, 'latin1');
    if (entry.binarySize) {
      header[124] = 0x80;
      header.writeUIntBE(size, 130, 6);
    } else {
      header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
    }
    header.write('00000000000\0', 136, 'latin1');
    header.write(' '.repeat(8), 148, 'latin1');
    header.write(entry.type ?? '0', 156, 'latin1');
    header.write(entry.linkTo ?? '', 157, 100, 'utf8');
    header.write('ustar\x0000', 257, 'latin1');
    header.write(entry.prefix ?? '', 345, 155, 'utf8');
    const checksum = header.reduce((sum, byte) => sum + byte, 0) + (entry.badChecksum ? 1 : 0);
    header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

/** The ustar archive, gzipped. */
export function tarGzOf(entries: readonly TarEntry[]): Buffer {
  return zlib.gzipSync(tarOf(entries));
}

/** A pax extended header record, `LENGTH key=value\n`, whose length counts itself. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (`${length}${body}`.length !== length) {
    length++;
  }
  return `${length}${body}`;
}
