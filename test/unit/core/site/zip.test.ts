// The .zip archives a hand-built site may serve: read when they are plain, refused when an entry
// leaves the folder, is a link, lies about its size or checksum, or the whole is too large.

import * as assert from 'node:assert/strict';
import { ArchiveError } from '../../../../src/core/site/archive';
import { readZip } from '../../../../src/core/site/zip';
import { zipOf, type ZipEntry } from '../audit/archive-fixtures';

const LIMITS = { files: 10, bytes: 4096 };
const SKILL: ZipEntry = { name: 'SKILL.md', data: '---\nname: a\ndescription: b\n---\n' };

function refused(entries: ZipEntry[], message: RegExp, limits = LIMITS): void {
  assert.throws(
    () => readZip(zipOf(entries), limits),
    (error: unknown) => error instanceof ArchiveError && message.test(error.message),
  );
}

describe('zip archives', () => {
  it('reads stored and deflated files and skips folder entries', () => {
    const read = readZip(zipOf([{ name: 'scripts/' }, SKILL, { name: 'scripts/run.sh', data: 'echo hi\n'.repeat(50), deflate: true }]), LIMITS);
    assert.deepEqual(
      read.map((file) => [file.path, file.bytes.length]),
      [
        ['SKILL.md', 31],
        ['scripts/run.sh', 400],
      ],
    );
  });

  it('refuses entries that leave the skill folder', () => {
    for (const name of ['../escape.md', '/etc/passwd', 'a/../../x', 'C:/x', 'a\\b']) {
      refused([SKILL, { name, data: 'x' }], /leads out of the skill folder/);
    }
  });

  it('refuses links and other special files', () => {
    refused([SKILL, { name: 'link', data: '/etc/passwd', mode: 0o120777 }], /"link" is a link/);
    refused([SKILL, { name: 'fifo', mode: 0o010644 }], /"fifo" is neither a file nor a folder/);
  });

  it('refuses an entry that unpacks past the size it declares, or to another size, or with another checksum', () => {
    refused([SKILL, { name: 'bomb', data: Buffer.alloc(100_000), deflate: true, claimedSize: 10 }], /"bomb" unpacks to more than the 10 bytes it declares/);
    refused([SKILL, { name: 'short', data: 'abc', claimedSize: 5 }], /"short" unpacks to 3 bytes where the archive says 5/);
    refused([SKILL, { name: 'crc', data: 'abc', claimedCrc: 1 }], /"crc" is damaged \(its CRC-32 does not match\)/);
  });

  it('refuses more entries or bytes than the limits, before inflating them', () => {
    refused([SKILL, ...Array.from({ length: 10 }, (_, index) => ({ name: `f${index}`, data: 'x' }))], /holds 11 entries, more than 10/);
    refused([SKILL, { name: 'huge', data: Buffer.alloc(100), deflate: true, claimedSize: 1_000_000 }], /unpacks to more than 4,096 bytes/);
  });

  it('refuses what is not a zip, and an archive without SKILL.md at its top', () => {
    assert.throws(() => readZip(Buffer.from('PK but no directory, just text'), LIMITS), new ArchiveError('it is not a valid zip archive (no central directory).'));
    refused([{ name: 'nested/SKILL.md', data: 'x' }], /has no SKILL\.md at its top/);
  });
});
