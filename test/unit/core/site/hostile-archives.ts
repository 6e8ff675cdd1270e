// Archives as an attacker writes them, for the tests of the bounded readers: any entry name (`../`,
// absolute, a drive), links, devices, sizes that lie, damaged checksums. Ordinary archivers refuse
// or rewrite such entries, so these write the bytes themselves.

import * as zlib from 'node:zlib';

export interface TarEntry {
  name: string;
  data?: string | Buffer;
  /** The tar type flag: '0' a file (the default), '2' a symbolic link, '5' a folder, 'x' a pax header… */
  type?: string;
  linkName?: string;
  /** The size the header claims, when it is to differ from the data's. */
  claimedSize?: number;
  /** Spoils the header's checksum. */
  badChecksum?: boolean;
}

/** An uncompressed tar of the entries, then two zero blocks. */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, 'utf8');
    header.write('0000644\0', 100, 'latin1');
    header.write('0000000\0', 108, 'latin1');
    header.write('0000000\0', 116, 'latin1');
    header.write(`${(entry.claimedSize ?? data.length).toString(8).padStart(11, '0')}\0`, 124, 'latin1');
    header.write('00000000000\0', 136, 'latin1');
    header.write(entry.type ?? '0', 156, 'latin1');
    header.write(entry.linkName ?? '', 157, 100, 'utf8');
    header.write('ustar\0' + '00', 257, 'latin1');
    header.fill(0x20, 148, 156);
    const checksum = header.reduce((sum, byte) => sum + byte, 0) + (entry.badChecksum ? 1 : 0);
    header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export function tarGzOf(entries: readonly TarEntry[]): Buffer {
  return zlib.gzipSync(tarOf(entries));
}

/** A pax extended header record (`LENGTH key=value\n`, LENGTH counting itself). */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (String(length).length + body.length !== length) {
    length++;
  }
  return `${length}${body}`;
}

export interface ZipEntry {
  name: string;
  data?: string | Buffer;
  /** Unix mode in the external attributes (0o120777 makes a symbolic link). */
  mode?: number;
  deflate?: boolean;
  /** The uncompressed size the directory claims, when it is to differ. */
  claimedSize?: number;
  /** The CRC-32 the directory claims, when it is to differ. */
  claimedCrc?: number;
}

/** A zip of the entries made by "Unix" (modes in the external attributes), with UTF-8 names. */
export function zipOf(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = Buffer.from(entry.data ?? '');
    const stored = entry.deflate ? zlib.deflateRawSync(raw) : raw;
    const crc = entry.claimedCrc ?? zlib.crc32(raw);
    const size = entry.claimedSize ?? raw.length;
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? (entry.name.endsWith('/') ? 0o040755 : 0o100644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
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
