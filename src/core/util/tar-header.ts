// The fields of a tar header block (POSIX ustar, with GNU and pax extensions), read the same way
// by the audit, which lists a skill's archives, and by the site reader, which unpacks artifacts.

export const TAR_BLOCK = 512;
const NAME_BYTES = 100;
const PREFIX_AT = 345;
const PREFIX_BYTES = 155;

/** Whether the header's checksum field matches its bytes, counted with that field as spaces. */
export function tarChecksumMatches(block: Buffer): boolean {
  let sum = 0;
  for (let index = 0; index < TAR_BLOCK; index++) {
    sum += index >= 148 && index < 156 ? 0x20 : block[index];
  }
  return tarNumber(block, 148, 8) === sum;
}

/** A numeric field: octal digits padded with spaces or NULs, or base-256 when its first byte has the high bit set; undefined when it is neither. */
export function tarNumber(block: Buffer, at: number, length: number): number | undefined {
  if (block[at] & 0x80) {
    let value = block[at] & 0x7f;
    for (let index = at + 1; index < at + length; index++) {
      value = value * 256 + block[index];
    }
    return value;
  }
  const text = block
    .toString('latin1', at, at + length)
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  return text === '' ? 0 : /^[0-7]{1,12}$/.test(text) ? parseInt(text, 8) : undefined;
}

/** A NUL-terminated text field. */
export function tarText(block: Buffer, at: number, length: number): string {
  const end = block.indexOf(0, at);
  return block.toString('utf8', at, end >= at && end < at + length ? end : at + length);
}

/** The entry's path from its header: the ustar prefix (only in a POSIX ustar header) and the name. */
export function tarHeaderPath(block: Buffer): string {
  const name = tarText(block, 0, NAME_BYTES);
  const prefix = block.toString('latin1', 257, 263) === 'ustar\0' ? tarText(block, PREFIX_AT, PREFIX_BYTES) : '';
  return prefix === '' ? name : `${prefix}/${name}`;
}

/** The `LENGTH key=value\n` records of a pax extended header, and whether reading them stopped at damage. */
export function paxRecords(data: Buffer): { records: Map<string, string>; damaged: boolean } {
  const records = new Map<string, string>();
  for (let offset = 0; offset < data.length;) {
    const space = data.indexOf(0x20, offset);
    const length = space < 0 ? NaN : Number(data.toString('latin1', offset, space));
    if (!Number.isSafeInteger(length) || length <= space - offset || offset + length > data.length) {
      return { records, damaged: true };
    }
    const record = data.toString('utf8', space + 1, offset + length).replace(/\n$/, '');
    const equals = record.indexOf('=');
    if (equals > 0) {
      records.set(record.slice(0, equals), record.slice(equals + 1));
    }
    offset += length;
  }
  return { records, damaged: false };
}
