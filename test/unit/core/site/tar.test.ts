// The .tar.gz a site publishes: the same files give the same bytes, any tar reads it, and the
// bounded reader refuses every hostile entry before anything is unpacked.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { ArchiveError, type ArchiveFile } from '../../../../src/core/site/archive';
import { readTarGz, writeTarGz } from '../../../../src/core/site/tar';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';
import { paxRecord, tarGzOf, type TarEntry } from '../audit/archive-fixtures';

const LIMITS = { files: 10, bytes: 4096 };
const SKILL = { name: 'SKILL.md', data: '---\nname: a\ndescription: b\n---\n' };

function files(entries: Record<string, string>): ArchiveFile[] {
  return Object.entries(entries).map(([file, text]) => ({ path: file, bytes: Buffer.from(text) }));
}

function refused(entries: TarEntry[], message: RegExp, limits = LIMITS): void {
  assert.throws(
    () => readTarGz(tarGzOf(entries), limits),
    (error: unknown) => error instanceof ArchiveError && message.test(error.message),
  );
}

describe('tar.gz archives', () => {
  describe('writing', () => {
    it('gives the same bytes for the same files, whatever their order, with fixed times, owner and gzip header', () => {
      const one = writeTarGz(files({ 'SKILL.md': 'skill', 'scripts/run.sh': 'echo', 'references/a.md': 'a' }));
      const two = writeTarGz(files({ 'references/a.md': 'a', 'scripts/run.sh': 'echo', 'SKILL.md': 'skill' }));
      assert.ok(one.equals(two));
      assert.equal(one.readUInt32LE(4), 0, 'gzip mtime');
      assert.equal(one[9], 255, 'gzip OS: unknown');
      const tar = zlib.gunzipSync(one);
      const names = [0, 1024, 2048].map((offset) => tar.toString('utf8', offset, offset + 100).replace(/\0+$/, ''));
      assert.deepEqual(names, ['SKILL.md', 'references/a.md', 'scripts/run.sh']);
      assert.equal(parseInt(tar.toString('latin1', 136, 147), 8), Date.UTC(2000, 0, 1) / 1000, 'mtime 2000-01-01');
      assert.equal(tar.toString('latin1', 108, 115), '0000000', 'uid 0');
    });

    it('is read by the system tar, long paths split into the ustar prefix', async () => {
      const dir = await tempDir();
      try {
        const deep = `${'folder-'.repeat(15)}/${'file-'.repeat(15)}.md`;
        const archive = path.join(dir, 'skill.tar.gz');
        await fs.writeFile(archive, writeTarGz(files({ 'SKILL.md': 'skill', [deep]: 'deep' })));
        assert.deepEqual(execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n'), ['SKILL.md', deep]);
        execFileSync('tar', ['-xzf', archive, '-C', dir]);
        assert.equal(await fs.readFile(path.join(dir, deep), 'utf8'), 'deep');
      } finally {
        await removeDir(dir);
      }
    });

    it('refuses a path no ustar header can hold, naming it', () => {
      const long = 'x'.repeat(101);
      assert.throws(
        () => writeTarGz(files({ 'SKILL.md': 's', [long]: 'x' })),
        new ArchiveError(`"${long}" is too long a path for a tar archive (100 bytes of file name after at most 155 bytes of folders).`),
      );
    });
  });

  describe('reading', () => {
    it('reads back what it writes', () => {
      const written = files({ 'SKILL.md': 'skill', 'scripts/run.sh': 'echo hi', [`${'d'.repeat(120)}/f.md`]: 'deep' });
      assert.deepEqual(
        readTarGz(writeTarGz(written), LIMITS).map((file) => [file.path, file.bytes.toString()]),
        written.map((file) => [file.path, file.bytes.toString()]).sort(),
      );
    });

    it('reads archives of other tools: ./ prefixes, folder entries, pax and GNU long names', () => {
      const long = `${'p'.repeat(120)}/name.md`;
      const read = readTarGz(
        tarGzOf([
          { name: './', type: '5' },
          { name: './SKILL.md', data: 'skill' },
          { name: 'PaxHeader', type: 'x', data: paxRecord('path', long) + paxRecord('mtime', '1.5') },
          { name: 'truncated', data: 'pax' },
          { name: '././@LongLink', type: 'L', data: 'gnu/long/name.md\0' },
          { name: 'gnu/long/na', data: 'gnu' },
          { name: 'global', type: 'g', data: paxRecord('comment', 'x') },
        ]),
        LIMITS,
      );
      assert.deepEqual(
        read.map((file) => [file.path, file.bytes.toString()]),
        [
          ['SKILL.md', 'skill'],
          ['gnu/long/name.md', 'gnu'],
          [long, 'pax'],
        ],
      );
    });

    it('refuses entries that leave the skill folder, whichever way they are written', () => {
      for (const name of ['../escape.md', 'a/../../escape.md', '/etc/passwd', 'C:/Windows/x', 'C:x', 'a\\..\\..\\x', 'new\nline.md']) {
        refused([SKILL, { name, data: 'x' }], /leads out of the skill folder/);
      }
      refused([SKILL, { name: 'PaxHeader', type: 'x', data: paxRecord('path', '../../escape.md') }, { name: 'innocent.md', data: 'x' }], /"\.\.\/\.\.\/escape\.md" leads out/);
    });

    it('refuses links, devices and pipes', () => {
      refused([SKILL, { name: 'link', type: '2', linkTo: '/etc/passwd' }], /"link" is a link; links are not unpacked/);
      refused([SKILL, { name: 'hard', type: '1', linkTo: 'SKILL.md' }], /"hard" is a link/);
      refused([SKILL, { name: 'device', type: '3' }], /"device" is neither a file nor a folder \(tar type "3"\)/);
      refused([SKILL, { name: 'fifo', type: '6' }], /"fifo" is neither a file nor a folder/);
    });

    it('refuses more files or bytes than the limits, and a gzip bomb before it is inflated whole', () => {
      refused([SKILL, ...Array.from({ length: 10 }, (_, index) => ({ name: `f${index}`, data: 'x' }))], /more than 10 files/);
      refused([SKILL, { name: 'big', data: 'x'.repeat(4096) }], /unpacks to more than 4,096 bytes/);
      const bomb = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024));
      assert.ok(bomb.length < 64 * 1024);
      assert.throws(() => readTarGz(bomb, LIMITS), new ArchiveError('it unpacks to more than 4,096 bytes.'));
    });

    it('refuses an entry whose header claims more bytes than there are, and a damaged header', () => {
      refused([SKILL, { name: 'liar', data: 'short', claimedSize: 1_000_000 }], /"liar" says it holds more bytes than the archive has left/);
      refused([SKILL, { name: 'damaged', data: 'x', badChecksum: true }], /the tar header at byte \d+ is damaged/);
      assert.throws(() => readTarGz(Buffer.from('not gzip'), LIMITS), new ArchiveError('it is not a valid gzip file.'));
    });

    it('refuses a path given twice, a file that is also a folder, and an archive without SKILL.md at its top', () => {
      refused([SKILL, { name: 'a.md', data: '1' }, { name: './a.md', data: '2' }], /holds "a\.md" twice/);
      refused([SKILL, { name: 'a', data: '1' }, { name: 'a/b', data: '2' }], /holds "a" both as a file and as the folder of "a\/b"/);
      refused([SKILL, { name: 'a/', type: '5' }, { name: 'a', data: '1' }], /holds "a" both as a file and as a folder/);
      refused([{ name: 'skill/SKILL.md', data: 'x' }], /has no SKILL\.md at its top/);
    });
  });
});
