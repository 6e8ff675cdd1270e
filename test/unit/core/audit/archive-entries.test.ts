// The archive reader: entry names of zip and tar (plain or gzipped) archives, read without unpacking
// and within bounds, and what it says of archives it cannot read whole.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { ARCHIVE_READ_BUDGET, archiveFindings, leavesFolder, listArchive, MAX_ARCHIVE_ENTRIES, type ArchiveListing } from '../../../../src/core/audit/archive-entries';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';
import { asZip64, paxRecord, tarOf, withComment, zipOf } from './archive-fixtures';

describe('archive entries', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  /** Writes the archive and lists it as the audit does, with a fresh budget unless given one. */
  async function list(name: string, bytes: Buffer, budget = { bytesLeft: ARCHIVE_READ_BUDGET }): Promise<ArchiveListing | undefined> {
    const file = path.join(dir, name);
    await fs.writeFile(file, bytes);
    return listArchive(file, bytes.subarray(0, 4096), budget);
  }

  const names = (listing: ArchiveListing | undefined): string[] | undefined => listing?.entries.map((entry) => entry.name);

  it('tells how an entry path leaves its folder', () => {
    for (const [entry, how] of [
      ['a/b.txt', undefined],
      ['./a/../b', undefined],
      ['a//b/', undefined],
      ['../x', 'climbs'],
      ['a/../../x', 'climbs'],
      ['a\\..\\..\\x', 'climbs'],
      ['/etc/passwd', 'absolute'],
      ['\\\\server\\share', 'absolute'],
      ['C:/Windows', 'absolute'],
      ['c:x', 'absolute'],
      ['ab:c', undefined],
    ] as const) {
      assert.equal(leavesFolder(entry), how, entry);
    }
    assert.equal(leavesFolder('../x', 1), undefined);
    assert.equal(leavesFolder('../../x', 1), 'climbs');
  });

  it('reads a zip64 archive, one with a comment holding the end signature, and one after a header of its own', async () => {
    const zip = zipOf([
      { name: 'a.txt', data: 'a' },
      { name: '../b', data: 'b' },
    ]);
    assert.deepEqual(names(await list('x64.zip', asZip64(zip))), ['a.txt', '../b']);
    const signature = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
    assert.deepEqual(names(await list('commented.zip', withComment(zip, Buffer.concat([Buffer.from('see '), signature, Buffer.alloc(18), Buffer.from(' and more')])))), ['a.txt', '../b']);
    // A .crx holds a header before its zip, which shifts every offset the zip records.
    const crx = Buffer.concat([
      Buffer.from('Cr24\x03\x00\x00\x00\x10\x00\x00\x00'),
      Buffer.alloc(16),
      zipOf([
        { name: 'manifest.json', data: '{}' },
        { name: 'up', symlinkTo: '../../..' },
      ]),
    ]);
    assert.deepEqual((await list('extension.crx', crx))?.entries, [{ name: 'manifest.json' }, { name: 'up', link: { kind: 'symbolic', target: '../../..' } }]);
  });

  it('says what it could not read of a zip', async () => {
    const zip = zipOf([
      { name: 'a', data: 'a' },
      { name: 'b', data: 'b' },
    ]);
    const damaged = Buffer.from(zip);
    damaged.writeUInt32LE(0, damaged.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    assert.deepEqual(await list('damaged.zip', damaged), { format: 'zip', entries: [{ name: 'a' }], unread: 'its central directory is damaged after 1 entry' });
    const overCounted = Buffer.from(zip);
    overCounted.writeUInt16LE(3, overCounted.length - 12);
    assert.deepEqual(await list('over.zip', overCounted), { format: 'zip', entries: [{ name: 'a' }, { name: 'b' }], unread: 'only 2 entries could be read' });
    assert.deepEqual(await list('empty.zip', Buffer.from('not a zip at all')), { format: 'zip', entries: [], unread: 'its central directory was not found' });
    const pointsAway = Buffer.from(zip);
    pointsAway.writeUInt32LE(0xfffffff0, pointsAway.length - 6);
    assert.deepEqual(await list('away.zip', pointsAway), { format: 'zip', entries: [], unread: 'its entries could not be read' });
    const hugeOffset = asZip64(zip);
    hugeOffset.writeBigUInt64LE(2n ** 64n - 1n, hugeOffset.length - 22 - 20 + 8);
    assert.deepEqual(await list('huge.zip', hugeOffset), { format: 'zip', entries: [], unread: 'its entries could not be read' });
    // What the file system refuses to read (here a folder by an archive's name) is said, not thrown.
    await fs.mkdir(path.join(dir, 'folder.zip'));
    assert.deepEqual(await listArchive(path.join(dir, 'folder.zip'), Buffer.alloc(0), { bytesLeft: 100 }), { format: 'zip', entries: [], unread: 'it could not be read' });
  });

  it('reads the first 10,000 entries of an archive, and says so', async function () {
    this.timeout(30_000);
    const many = Array.from({ length: MAX_ARCHIVE_ENTRIES }, (_, index) => ({ name: `f${index}` }));
    const zip = await list('many.zip', zipOf([...many, { name: '../late' }]));
    assert.equal(zip?.entries.length, MAX_ARCHIVE_ENTRIES);
    assert.equal(zip?.unread, 'only its first 10,000 entries were read');
    const tar = await list('many.tgz', zlib.gzipSync(tarOf([...many, { name: '../late' }])));
    assert.equal(tar?.entries.length, MAX_ARCHIVE_ENTRIES);
    assert.equal(tar?.unread, 'only its first 10,000 entries were read');
  });

  it('reads GNU long link names, base-256 sizes, and skips data and global headers', async () => {
    const tar = tarOf([
      { name: 'pax_global_header', type: 'g', data: paxRecord('comment', 'x'.repeat(700)) },
      { name: 'big.bin', data: Buffer.alloc(1500, 7), binarySize: true },
      { name: '././@LongLink', type: 'K', data: `${'../'.repeat(40)}etc\0` },
      { name: 'link', type: '2', linkTo: 'short' },
      { name: 'empty-pax', type: 'x' },
      { name: 'last' },
    ]);
    assert.deepEqual((await list('gnu.tar', tar))?.entries, [{ name: 'big.bin' }, { name: 'link', link: { kind: 'symbolic', target: `${'../'.repeat(40)}etc` } }, { name: 'last' }]);
  });

  it('says what it could not read of a tar, and lists no gzipped file that is not a tar', async () => {
    const tar = tarOf([{ name: 'a', data: 'x' }, { name: 'b' }]);
    const damaged = Buffer.from(tar);
    damaged[1024] ^= 0xff;
    assert.deepEqual(await list('damaged.tar', damaged), { format: 'tar', entries: [{ name: 'a' }], unread: 'it is damaged after 1 entry' });
    assert.deepEqual(await list('notes.tar', Buffer.from('just text')), { format: 'tar', entries: [], unread: 'it is not a tar archive' });
    assert.equal(await list('notes.txt.gz', zlib.gzipSync('just text, compressed')), undefined);
    const gzipped = zlib.gzipSync(
      tarOf([
        { name: 'a', data: 'x'.repeat(5000) },
        { name: 'b', data: 'y'.repeat(5000) },
      ]),
      { level: 0 },
    );
    assert.deepEqual(await list('cut.tgz', gzipped.subarray(0, 7000)), { format: 'tar.gz', entries: [{ name: 'a' }, { name: 'b' }], unread: 'it is damaged after 2 entries' });
    assert.equal(await list('cut-early.tgz', gzipped.subarray(0, 100)), undefined);
    const longName = tarOf([{ name: '././@LongLink', type: 'L', data: 'x'.repeat(1024 * 1024 + 1) }, { name: 'hidden' }]);
    assert.deepEqual(await list('long.tar', longName), { format: 'tar', entries: [], unread: "an entry's name is over 1 MiB long" });
  });

  it('stops at the budget shared by the archives of one audit', async () => {
    const budget = { bytesLeft: 4096 };
    const tar = tarOf([{ name: 'a', data: Buffer.alloc(100_000) }, { name: '../b' }]);
    assert.deepEqual(await list('bomb.tar', tar, budget), { format: 'tar', entries: [], unread: 'only part of it was read (the audit reads 256 MiB of archives at most)' });
    assert.deepEqual(await list('after.zip', zipOf([{ name: 'a' }]), budget), { format: 'zip', entries: [], unread: 'it was not read (the audit reads 256 MiB of archives at most)' });
  });

  it('words the findings of a listed archive, one that is not, and caps entries leaving the folder', () => {
    const entries = Array.from({ length: 7 }, (_, index) => ({ name: `../${index}` }));
    const findings = archiveFindings({ format: 'tar', entries }, '.tar', 'x.tar');
    assert.deepEqual(
      findings.map((found) => `${found.severity} ${found.code}`),
      [...Array.from({ length: 5 }, () => 'high archive-entry-outside'), 'medium archive'],
    );
    assert.match(findings[4].message, /\(2 more entries leaving the folder in this file\)$/);
    assert.equal(findings[5].message, 'An archive (tar, 7 entries): the files it holds are not audited.');
    assert.deepEqual(archiveFindings({ format: 'zip', entries: [{ name: 'a' }] }, 'zip', 'x.zip')[0].message, 'An archive (zip, 1 entry): the files it holds are not audited.');
    assert.deepEqual(archiveFindings(undefined, '.7z', 'x.7z'), [{ code: 'archive', severity: 'medium', message: 'An archive (.7z): what it holds is not audited.', file: 'x.7z' }]);
    assert.equal(
      archiveFindings({ format: 'zip', entries: [{ name: `a\u001b[2J${'/b'.repeat(100)}/../../..${'/..'.repeat(100)}` }] }, 'zip', 'x.zip')[0].message,
      `The entry "a?[2J${'/b'.repeat(77)}…" of this archive climbs out of the folder it is unpacked into: unpacking it may write over the user's files.`,
    );
  });
});
