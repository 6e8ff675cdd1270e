import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import nodeFs, { openSync, closeSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  MAX_SKILL_FILE_BYTES,
  SKILL_FILE_NAME,
  findSkillFile,
  loadSkillFile,
  loadSkillFileBlocking,
  readWholeSkillFile,
  skillTextProblem,
  validateSkillText,
  type LoadedSkillFile,
} from '../../../../src/core/skill-file/load';
import { fixtureSkill, fixtureSkillFolders, makeTempRoot, removeTempRoot, writeSkill } from '../../../fixtures/skills/temp-skills';
import { makeNamedPipe, printedByChild } from '../../named-pipe';

function skillText(name: string, body = 'Body.\n'): string {
  return `---\nname: ${name}\ndescription: Does one thing well.\n---\n${body}`;
}

function errorCodes(loaded: { diagnostics: Array<{ code: string; severity: string }> } | undefined): string[] {
  return (loaded?.diagnostics ?? []).filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.code);
}

/** What the blocking `read` returns, and how many stats (fstatSync) it took. */
function withStatsCounted<T>(read: () => T): [T, number] {
  const patched = nodeFs as unknown as { fstatSync: (...args: unknown[]) => unknown };
  const { fstatSync } = patched;
  let stats = 0;
  patched.fstatSync = (...args: unknown[]) => {
    stats++;
    return fstatSync(...args);
  };
  try {
    return [read(), stats];
  } finally {
    patched.fstatSync = fstatSync;
  }
}

async function load(dir: string, options = {}): Promise<LoadedSkillFile> {
  const loaded = await loadSkillFile(dir, options);
  assert.ok(loaded, `a SKILL.md is found in ${dir}`);
  return loaded;
}

describe('load', function () {
  let root: string;

  beforeEach(async function () {
    root = await makeTempRoot();
  });

  afterEach(async function () {
    await removeTempRoot(root);
  });

  describe('findSkillFile', function () {
    it('finds SKILL.md and returns its absolute path', async function () {
      assert.equal(await findSkillFile(fixtureSkill('valid')), path.join(fixtureSkill('valid'), SKILL_FILE_NAME));
    });

    it('matches the name case-insensitively and returns the real case', async function () {
      assert.equal(await findSkillFile(fixtureSkill('lowercase-file')), path.join(fixtureSkill('lowercase-file'), 'skill.md'));
      const dir = await writeSkill(root, 'mixed', skillText('mixed'), 'Skill.MD');
      assert.equal(await findSkillFile(dir), path.join(dir, 'Skill.MD'));
    });

    it('where file systems may ignore case (not on Linux), loads the file under its real name, which strict mode checks', async function () {
      const dir = await writeSkill(root, 'mixed', skillText('mixed'), 'Skill.md');
      const real = path.join(dir, 'Skill.md');
      // A file system that ignores case, as macOS and Windows usually have, opens SKILL.md as Skill.md.
      const ignoringCase = (file: unknown): unknown => (file === path.join(dir, SKILL_FILE_NAME) ? real : file);
      const patched = nodeFs as unknown as Record<'open' | 'openSync', (file: unknown, ...rest: unknown[]) => unknown>;
      const { open, openSync } = patched;
      patched.open = (file, ...rest) => open(ignoringCase(file), ...rest);
      patched.openSync = (file, ...rest) => openSync(ignoringCase(file), ...rest);
      const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
      Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' });
      try {
        for (const blockingReads of [false, true]) {
          const loaded = await load(dir, { strict: true, blockingReads });
          assert.equal(loaded.file, real);
          assert.deepEqual(errorCodes(loaded), ['skill-file-name']);
        }
      } finally {
        Object.defineProperty(process, 'platform', platform);
        patched.open = open;
        patched.openSync = openSync;
      }
    });

    it('prefers the exact spelling when several exist', async function () {
      const dir = await writeSkill(root, 'both', skillText('both'), 'skill.md');
      // Listed before SKILL.md in code-point order.
      await fs.writeFile(path.join(dir, 'SKILL.MD'), skillText('both'));
      await fs.writeFile(path.join(dir, 'SKILL.md'), skillText('both'));
      assert.equal(await findSkillFile(dir), path.join(dir, 'SKILL.md'));
    });

    it('takes the first other spelling the folder lists when the exact one is missing', async function () {
      const dir = await writeSkill(root, 'spellings', skillText('spellings'), 'skill.md');
      await fs.writeFile(path.join(dir, 'Skill.md'), skillText('spellings'));
      const [first] = (await fs.readdir(dir)).filter((name) => name.toLowerCase() === 'skill.md');
      assert.equal(await findSkillFile(dir), path.join(dir, first));
      assert.equal(loadSkillFileBlocking(dir)?.file, path.join(dir, first));
    });

    it('skips a link to nothing in one spelling for a file in another, whatever order they are listed in', async function () {
      // Listing order depends on the file system: by name, by creation, or neither.
      for (const [linkName, fileName] of [
        ['skill.md', 'Skill.md'],
        ['Skill.md', 'skill.md'],
      ]) {
        for (const linkFirst of [true, false]) {
          const dir = path.join(root, `${linkName}-${linkFirst}`);
          await fs.mkdir(dir);
          const link = (): Promise<void> => fs.symlink(path.join(root, 'nowhere.md'), path.join(dir, linkName));
          if (linkFirst) {
            await link();
          }
          await fs.writeFile(path.join(dir, fileName), skillText(path.basename(dir)));
          if (!linkFirst) {
            await link();
          }
          assert.equal(await findSkillFile(dir), path.join(dir, fileName), dir);
          for (const blockingReads of [false, true]) {
            assert.equal((await load(dir, { blockingReads })).file, path.join(dir, fileName), dir);
          }
        }
      }
    });

    it('prefers a file in another spelling to a folder named SKILL.md', async function () {
      const dir = await writeSkill(root, 'shadowed', skillText('shadowed'), 'skill.md');
      await fs.mkdir(path.join(dir, 'SKILL.md'));
      assert.equal(await findSkillFile(dir), path.join(dir, 'skill.md'));
      for (const blockingReads of [false, true]) {
        const loaded = await load(dir, { blockingReads });
        assert.equal(loaded.file, path.join(dir, 'skill.md'));
        assert.equal(loaded.metadata?.name, 'shadowed');
      }
    });

    it('skips a link to nothing or to a folder', async function () {
      await fs.mkdir(path.join(root, 'folder'));
      for (const [name, target] of [
        ['dangling', 'nowhere.md'],
        ['to-folder', 'folder'],
      ]) {
        const dir = path.join(root, name);
        await fs.mkdir(dir);
        await fs.symlink(path.join(root, target), path.join(dir, 'skill.md'));
        assert.equal(await findSkillFile(dir), undefined, name);
        for (const blockingReads of [false, true]) {
          assert.equal(await loadSkillFile(dir, { blockingReads }), undefined, name);
        }
      }
    });

    it('skips a link to a device, which is not a file, though it can be read', async function () {
      if (process.platform === 'win32') {
        this.skip();
      }
      for (const device of ['/dev/null', '/dev/zero']) {
        const dir = path.join(root, path.basename(device));
        await fs.mkdir(dir);
        await fs.symlink(device, path.join(dir, 'SKILL.md'));
        for (const blockingReads of [false, true]) {
          assert.equal(await loadSkillFile(dir, { blockingReads }), undefined, `${device}, blockingReads ${blockingReads}`);
        }
      }
    });

    it('skips a named pipe called SKILL.md without waiting for a writer, in both ways of reading', async function () {
      if (process.platform === 'win32') {
        this.skip();
      }
      const dir = path.join(root, 'pipe');
      await fs.mkdir(dir);
      makeNamedPipe(path.join(dir, 'SKILL.md'));
      const load = JSON.stringify(require.resolve('../../../../src/core/skill-file/load'));
      const printed = printedByChild(
        `Promise.all([false, true].map((blockingReads) => require(${load}).loadSkillFile(${JSON.stringify(dir)}, { blockingReads }))).then((loaded) => process.stdout.write(JSON.stringify(loaded.map(String))));`,
      );
      assert.equal(printed, JSON.stringify(['undefined', 'undefined']));
    });

    it('reports a folder named SKILL.md as an unreadable skill file, and follows a link to a file', async function () {
      const dir = path.join(root, 'odd');
      await fs.mkdir(path.join(dir, 'SKILL.md'), { recursive: true });
      assert.equal(await findSkillFile(dir), path.join(dir, 'SKILL.md'));
      for (const blockingReads of [false, true]) {
        const loaded = await loadSkillFile(dir, { blockingReads });
        assert.equal(loaded?.metadata, undefined);
        assert.deepEqual(
          loaded?.diagnostics.map(({ code, severity, message }) => [code, severity, message]),
          [['file-unreadable', 'error', `Cannot read ${path.join(dir, 'SKILL.md')}: it is a folder, not a file. A skill needs a Markdown file named SKILL.md.`]],
        );
      }
      await writeSkill(root, 'target', skillText('linked'), 'real.md');
      const linked = path.join(root, 'linked');
      await fs.mkdir(linked);
      await fs.symlink(path.join(root, 'target', 'real.md'), path.join(linked, 'skill.md'));
      assert.equal(await findSkillFile(linked), path.join(linked, 'skill.md'));
      assert.equal((await load(linked)).metadata?.name, 'linked');
    });

    it('tells a folder named SKILL.md by the first blocking read, without a stat, and by the stat in keep mode', async function () {
      const dir = path.join(root, 'odd');
      const file = path.join(dir, SKILL_FILE_NAME);
      await fs.mkdir(file, { recursive: true });
      const folderProblem = [['file-unreadable', 'error', `Cannot read ${file}: it is a folder, not a file. A skill needs a Markdown file named SKILL.md.`]];
      const problems = (loaded: LoadedSkillFile | undefined) => loaded?.diagnostics.map(({ code, severity, message }) => [code, severity, message]);
      for (const options of [{}, { checkBody: true }]) {
        const [loaded, stats] = withStatsCounted(() => loadSkillFileBlocking(dir, options));
        // Like any blocking read that took no stat, it knows no time or size (see LoadedSkillFile).
        assert.deepEqual([problems(loaded), loaded?.file, loaded?.mtimeMs, loaded?.size, stats], [folderProblem, file, 0, 0, 0], JSON.stringify(options));
      }
      // A kept file is read after a stat, which tells the folder as asynchronous reads do.
      const kept = loadSkillFileBlocking(dir, { keepFile: true });
      assert.deepEqual(problems(kept), folderProblem);
      assert.deepEqual(kept, await loadSkillFile(dir, { keepFile: true }));
    });

    it('finds a link or a folder in another spelling with blocking reads too', async function () {
      await writeSkill(root, 'target', skillText('linked'), 'real.md');
      const linked = path.join(root, 'linked');
      await fs.mkdir(linked);
      await fs.symlink(path.join(root, 'target', 'real.md'), path.join(linked, 'skill.md'));
      const folder = path.join(root, 'folder');
      await fs.mkdir(path.join(folder, 'skill.md'), { recursive: true });
      for (const blockingReads of [false, true]) {
        const loaded = await load(linked, { blockingReads });
        assert.equal(loaded.file, path.join(linked, 'skill.md'));
        assert.equal(loaded.metadata?.name, 'linked');
        assert.deepEqual(errorCodes(await load(folder, { blockingReads })), ['file-unreadable']);
      }
    });

    it('returns undefined for a folder without SKILL.md or a missing folder', async function () {
      const dir = await writeSkill(root, 'readme-only', '# Readme', 'README.md');
      assert.equal(await findSkillFile(dir), undefined);
      assert.equal(await findSkillFile(path.join(root, 'missing')), undefined);
      assert.equal(await loadSkillFile(dir), undefined);
      assert.equal(await loadSkillFile(path.join(root, 'missing')), undefined);
    });

    it('returns undefined for a path that is a file, and for a SKILL.md that is not a regular file', async function () {
      const notFolder = path.join(await writeSkill(root, 'plain', skillText('plain')), SKILL_FILE_NAME);
      const device = path.join(root, 'device');
      await fs.mkdir(device);
      await fs.symlink('/dev/null', path.join(device, SKILL_FILE_NAME));
      for (const blockingReads of [false, true]) {
        assert.equal(await loadSkillFile(notFolder, { blockingReads }), undefined);
        assert.equal(await loadSkillFile(device, { blockingReads }), undefined);
      }
    });
  });

  describe('loadSkillFile', function () {
    it('returns the metadata, the diagnostics, and the file time and size', async function () {
      const dir = fixtureSkill('valid');
      const loaded = await load(dir);
      const stat = await fs.stat(path.join(dir, SKILL_FILE_NAME));
      assert.equal(loaded.file, path.join(dir, SKILL_FILE_NAME));
      assert.equal(loaded.metadata?.name, 'valid');
      assert.deepEqual(loaded.diagnostics, []);
      assert.equal(loaded.mtimeMs, stat.mtimeMs);
      assert.equal(loaded.size, stat.size);
    });

    it('keeps no body text in the result', async function () {
      const loaded = await load(fixtureSkill('valid'), { checkBody: true });
      assert.doesNotMatch(JSON.stringify(loaded), /Follow \[the style guide\]/);
    });

    const expectedErrors: Record<string, string[]> = {
      valid: [],
      minimal: [],
      extensions: [],
      links: [],
      crlf: [],
      bom: [],
      café: [],
      'lowercase-file': [],
      'unknown-fields': [],
      'name-mismatch': [],
      'invalid-name': ['name-uppercase', 'name-invalid-characters'],
      αβγ: ['name-invalid-characters'],
      'bad-yaml': ['yaml-syntax'],
      'bad-indentation': ['yaml-syntax'],
      'no-frontmatter': ['missing-frontmatter'],
      unterminated: ['unterminated-frontmatter'],
      'missing-description': ['missing-description'],
      'js-frontmatter': ['frontmatter-language'],
      binary: ['binary-file'],
    };

    it('reports the expected errors for every fixture, and metadata only without errors', async function () {
      const folders = await fixtureSkillFolders();
      assert.deepEqual(folders.map((dir) => path.basename(dir)).sort(), Object.keys(expectedErrors).sort());
      for (const dir of folders) {
        const loaded = await load(dir);
        const expected = expectedErrors[path.basename(dir)];
        assert.deepEqual(errorCodes(loaded), expected, path.basename(dir));
        assert.equal(loaded.metadata !== undefined, expected.length === 0, path.basename(dir));
      }
    });

    it('reading only the head gives the same result as validating the whole text', async function () {
      for (const dir of await fixtureSkillFolders()) {
        const loaded = await load(dir);
        const whole = validateSkillText(await fs.readFile(loaded.file, 'utf8'), loaded.file);
        assert.deepEqual(loaded, { ...whole, mtimeMs: loaded.mtimeMs, size: loaded.size }, dir);
      }
    });

    it('reads the frontmatter, not the body, unless the body is checked', async function () {
      const text = skillText('long-body', 'A line of the body.\n'.repeat(10000));
      const dir = await writeSkill(root, 'long-body', text);
      const patched = nodeFs as unknown as Record<'read' | 'readSync', (...args: unknown[]) => unknown>;
      const { read, readSync } = patched;
      let bytesRead = 0;
      patched.read = (...args: unknown[]) => {
        const callback = args[args.length - 1] as (error: Error | null, bytes: number) => void;
        read(...args.slice(0, -1), (error: Error | null, bytes: number) => {
          bytesRead += bytes;
          callback(error, bytes);
        });
      };
      patched.readSync = (...args: unknown[]) => {
        const bytes = readSync(...args) as number;
        bytesRead += bytes;
        return bytes;
      };
      try {
        for (const blockingReads of [false, true]) {
          for (const checkBody of [false, true]) {
            bytesRead = 0;
            assert.equal((await load(dir, { blockingReads, checkBody })).metadata?.name, 'long-body');
            if (checkBody) {
              assert.equal(bytesRead, Buffer.byteLength(text));
            } else {
              assert.ok(bytesRead < Buffer.byteLength(text) / 10, `${bytesRead} bytes read with blockingReads ${blockingReads}`);
            }
          }
        }
      } finally {
        patched.read = read;
        patched.readSync = readSync;
      }
    });

    it('stops reading a file that grows past 1 MiB while it is read', async function () {
      // On disk an unfinished frontmatter; the reads find one that goes on past the limit, then ends.
      const dir = await writeSkill(root, 'growing', '---\nname: growing\n');
      const grown = Buffer.from(`---\nname: growing\ndescription: Grows.\n${'# more\n'.repeat(Math.ceil((3 * MAX_SKILL_FILE_BYTES) / 7))}---\n`);
      type Read = (fd: number, buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null, bytes: number) => void) => void;
      const patched = nodeFs as unknown as { read: Read };
      const { read } = patched;
      let served = 0;
      patched.read = (_fd, buffer, offset, length, position, callback) => {
        const bytes = grown.copy(buffer, offset, position, Math.min(position + length, grown.length));
        served += bytes;
        setImmediate(() => callback(null, bytes));
      };
      try {
        const loaded = await load(dir);
        assert.equal(loaded.metadata, undefined);
        assert.ok(served > MAX_SKILL_FILE_BYTES && served < grown.length, `${served} bytes read`);
      } finally {
        patched.read = read;
      }
    });

    it('reads a frontmatter longer than one read chunk, with characters split across chunks', async function () {
      const entries = Array.from({ length: 2000 }, (_, index) => `  key${index}: "é${'ü'.repeat(index % 7)}"`);
      const dir = await writeSkill(root, 'long-head', `---\nname: long-head\ndescription: Long.\nmetadata:\n${entries.join('\n')}\n---\nBody\n`);
      const loaded = await load(dir);
      assert.deepEqual(loaded.diagnostics, []);
      const metadata = loaded.metadata?.metadata ?? {};
      assert.equal(Object.keys(metadata).length, 2000);
      assert.equal(metadata.key1999, `é${'ü'.repeat(1999 % 7)}`);
      assert.ok(Object.values(metadata).every((value) => !value.includes('\uFFFD')));
    });

    it('runs body checks only when asked', async function () {
      const dir = fixtureSkill('links');
      assert.deepEqual((await load(dir)).diagnostics, []);
      const checked = await load(dir, { checkBody: true });
      assert.deepEqual(
        checked.diagnostics.map((diagnostic) => diagnostic.code),
        ['missing-link', 'missing-link', 'link-outside-skill', 'missing-link'],
      );
      assert.ok(checked.metadata, 'body warnings do not exclude the skill');
    });

    it('applies strict mode', async function () {
      const strict = await load(fixtureSkill('extensions'), { strict: true });
      assert.deepEqual(new Set(errorCodes(strict)), new Set(['extension-field']));
      assert.equal(strict.metadata, undefined);
    });

    it('requires the specification spelling of the file name in strict mode only', async function () {
      const dir = await writeSkill(root, 'mixed', skillText('mixed'), 'Skill.md');
      assert.ok((await load(dir)).metadata);
      const strict = await load(dir, { strict: true });
      assert.deepEqual(errorCodes(strict), ['skill-file-name']);
      assert.equal(strict.diagnostics[0].message, 'The file is named "Skill.md"; the specification names it SKILL.md (its reference validator also accepts skill.md). Rename the file.');
      assert.equal(strict.file, path.join(dir, 'Skill.md'));
      assert.deepEqual(errorCodes(await load(fixtureSkill('lowercase-file'), { strict: true })), []);
    });

    it('refuses a file over 1 MiB without parsing it', async function () {
      const text = `---\nname: [broken\n---\n${'x'.repeat(MAX_SKILL_FILE_BYTES)}`;
      const dir = await writeSkill(root, 'huge', text);
      const loaded = await load(dir);
      assert.deepEqual(errorCodes(loaded), ['file-too-large']);
      assert.equal(loaded.diagnostics.length, 1);
      assert.equal(loaded.size, Buffer.byteLength(text));
      assert.match(loaded.diagnostics[0].message, /1 MiB/);
      assert.deepEqual(loaded.diagnostics[0].range, { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } });
    });

    it('reads a file of exactly 1 MiB', async function () {
      const head = skillText('exact', '');
      const text = head + 'x'.repeat(MAX_SKILL_FILE_BYTES - head.length);
      const dir = await writeSkill(root, 'exact', text);
      for (const blockingReads of [false, true]) {
        const loaded = await load(dir, { checkBody: true, blockingReads });
        assert.equal(loaded.size, MAX_SKILL_FILE_BYTES);
        assert.deepEqual(errorCodes(loaded), []);
      }
      assert.deepEqual(errorCodes(validateSkillText(text, path.join(dir, SKILL_FILE_NAME))), []);
    });

    it('reports an unreadable file instead of throwing', async function () {
      if (process.getuid?.() === 0) {
        this.skip();
      } // root reads any file
      const dir = await writeSkill(root, 'locked', skillText('locked'));
      await fs.chmod(path.join(dir, SKILL_FILE_NAME), 0o000);
      const loaded = await load(dir);
      assert.deepEqual(errorCodes(loaded), ['file-unreadable']);
      assert.match(loaded.diagnostics[0].message, new RegExp(`Cannot read ${path.join(dir, SKILL_FILE_NAME)}`));
    });

    it('reports a SKILL.md that cannot be opened, without a time or size', async function () {
      if (process.platform !== 'linux') {
        this.skip();
      } // elsewhere the folder is listed, and a link that leads nowhere is skipped
      const dir = path.join(root, 'loop');
      await fs.mkdir(dir);
      const file = path.join(dir, SKILL_FILE_NAME);
      await fs.symlink(file, file);
      for (const blockingReads of [false, true]) {
        const loaded = await load(dir, { blockingReads });
        assert.equal(loaded.file, file);
        assert.deepEqual(errorCodes(loaded), ['file-unreadable']);
        assert.match(loaded.diagnostics[0].message, new RegExp(`^Cannot read ${file}: ELOOP`));
        assert.equal(loaded.mtimeMs, 0);
        assert.equal(loaded.size, 0);
      }
    });

    it('reports a file whose status or content cannot be read, with what it learnt of it', async function () {
      const dir = await writeSkill(root, 'failing', skillText('failing'));
      const file = path.join(dir, SKILL_FILE_NAME);
      const stat = await fs.stat(file);
      const patched = nodeFs as unknown as Record<'fstat' | 'read', (...args: unknown[]) => void>;
      for (const [call, mtimeMs, size] of [
        ['fstat', 0, 0],
        ['read', stat.mtimeMs, stat.size],
      ] as const) {
        const original = patched[call];
        // The first call fails as a failing disk would; any later one is the real call.
        patched[call] = (...args: unknown[]) => {
          patched[call] = original;
          const callback = args[args.length - 1] as (error: Error) => void;
          callback(Object.assign(new Error(`EIO: i/o error, ${call}`), { code: 'EIO' }));
        };
        try {
          const loaded = await load(dir);
          assert.deepEqual(
            loaded.diagnostics.map(({ code, message }) => [code, message]),
            [['file-unreadable', `Cannot read ${file}: EIO: i/o error, ${call}`]],
          );
          assert.equal(loaded.file, file);
          assert.equal(loaded.mtimeMs, mtimeMs);
          assert.equal(loaded.size, size);
        } finally {
          patched[call] = original;
        }
      }
    });

    it('reports a SKILL.md whose reads fail, with blocking reads as without', async function () {
      if (process.platform !== 'linux') {
        this.skip();
      }
      // A regular file to its stat, whose first byte cannot be read: this process's memory at address 0.
      const dir = path.join(root, 'memory');
      await fs.mkdir(dir);
      const file = path.join(dir, SKILL_FILE_NAME);
      await fs.symlink('/proc/self/mem', file);
      for (const options of [{}, { checkBody: true }, { keepFile: true }]) {
        const asynchronous = await load(dir, options);
        assert.deepEqual(
          asynchronous.diagnostics.map(({ code, message }) => [code, message]),
          [['file-unreadable', `Cannot read ${file}: EIO: i/o error, read`]],
        );
        assert.deepEqual(await load(dir, { ...options, blockingReads: true }), asynchronous, JSON.stringify(options));
      }
    });

    it('reports a file whose blocking reads fail after the first one, knowing no time or size', async function () {
      // Longer than the first read (3 KiB), which holds the whole frontmatter: the next read looks for bytes past the size cap.
      const dir = await writeSkill(root, 'failing', skillText('failing', 'A line of the body.\n'.repeat(500)));
      const file = path.join(dir, SKILL_FILE_NAME);
      const patched = nodeFs as unknown as { readSync: (...args: unknown[]) => number };
      const { readSync } = patched;
      let reads = 0;
      // A disk that fails every read after the first one.
      patched.readSync = (...args: unknown[]) => {
        if (reads++ > 0) {
          throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
        }
        return readSync(...args);
      };
      try {
        const loaded = loadSkillFileBlocking(dir);
        assert.deepEqual(
          [loaded?.file, loaded?.diagnostics.map(({ code, severity, message }) => [code, severity, message]), loaded?.mtimeMs, loaded?.size, reads],
          [file, [['file-unreadable', 'error', `Cannot read ${file}: EIO: i/o error, read`]], 0, 0, 2],
        );
      } finally {
        patched.readSync = readSync;
      }
    });

    it('reads during the call with blocking reads, and after it otherwise', async function () {
      const dir = await writeSkill(root, 'timing', skillText('before'));
      const file = path.join(dir, SKILL_FILE_NAME);
      for (const [blockingReads, name] of [
        [true, 'before'],
        [false, 'after'],
      ] as const) {
        writeFileSync(file, skillText('before'));
        const loading = loadSkillFile(dir, { blockingReads });
        writeFileSync(file, skillText('after'));
        assert.equal((await loading)?.metadata?.name, name);
      }
    });

    it('closes the file it reads with blocking reads', async function () {
      const dir = await writeSkill(root, 'closed', skillText('closed'));
      // A descriptor left open would take the number the next opened file gets.
      const nextDescriptor = (): number => {
        const fd = openSync(path.join(dir, SKILL_FILE_NAME), 'r');
        closeSync(fd);
        return fd;
      };
      // All synchronous, so that nothing else opens a file in between.
      const before = nextDescriptor();
      assert.ok(loadSkillFileBlocking(dir)?.metadata);
      assert.equal(nextDescriptor(), before);
    });

    it('reads a whole file with blocking reads without a stat when one read takes it, and after a stat when it is longer', async function () {
      const small = skillText('small', '[a](gone.md)\n');
      // Longer than one blocking read (64 KiB): the link at its end is found all the same.
      const long = skillText('long', `${'A line of the body.\n'.repeat(4000)}[b](gone.md)\n`);
      for (const [name, text, expectedStats] of [
        ['small', small, 0],
        ['long', long, 1],
      ] as const) {
        const dir = await writeSkill(root, name, text);
        const [loaded, stats] = withStatsCounted(() => loadSkillFileBlocking(dir, { checkBody: true }));
        assert.equal(stats, expectedStats, name);
        assert.deepEqual(loaded?.diagnostics, (await load(dir, { checkBody: true })).diagnostics, name);
        assert.deepEqual(
          loaded?.diagnostics.filter((diagnostic) => diagnostic.code === 'missing-link').map((diagnostic) => diagnostic.range.start.line),
          [text.split('\n').length - 2],
          name,
        );
        assert.equal(loaded?.size, Buffer.byteLength(text), name);
      }
    });

    it('reads no more than a file holds when it shrinks between its first read and its stat', async function () {
      const long = skillText('shrinking', 'A line of the body.\n'.repeat(4000));
      const short = skillText('shrinking', 'Short.\n');
      const dir = await writeSkill(root, 'shrinking', long);
      const patched = nodeFs as unknown as { fstatSync: (...args: unknown[]) => unknown };
      const { fstatSync } = patched;
      patched.fstatSync = (...args: unknown[]) => {
        writeFileSync(path.join(dir, SKILL_FILE_NAME), short);
        return fstatSync(...args);
      };
      try {
        const loaded = loadSkillFileBlocking(dir, { checkBody: true });
        assert.deepEqual(loaded?.diagnostics, []);
        assert.equal(loaded?.size, Buffer.byteLength(short));
      } finally {
        patched.fstatSync = fstatSync;
      }
    });
  });

  describe('validateSkillText', function () {
    it('checks the name against the folder of the file', function () {
      const result = validateSkillText(skillText('draft'), '/work/skills/other/SKILL.md');
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => diagnostic.code),
        ['name-mismatch'],
      );
      assert.equal(result.diagnostics[0].file, '/work/skills/other/SKILL.md');
      assert.equal(result.metadata?.name, 'draft');
    });

    it('resolves body links from the folder of the file', function () {
      const file = path.join(fixtureSkill('links'), SKILL_FILE_NAME);
      const result = validateSkillText(skillText('links', '[a](references/guide.md) [b](references/nope.md)\n'), file, { checkBody: true });
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => diagnostic.code),
        ['missing-link'],
      );
      assert.equal(result.diagnostics[0].range.start.column, 29);
    });

    it('reports undecodable bytes in the body only with the body checks', function () {
      const text = skillText('draft', 'Body \uFFFD\n');
      assert.deepEqual(validateSkillText(text, '/work/skills/draft/SKILL.md').diagnostics, []);
      const checked = validateSkillText(text, '/work/skills/draft/SKILL.md', { checkBody: true });
      assert.deepEqual(
        checked.diagnostics.map(({ code, severity }) => [code, severity]),
        [['invalid-utf8', 'warning']],
      );
    });

    it('refuses text over 1 MiB', function () {
      const result = validateSkillText(skillText('big', 'é'.repeat(MAX_SKILL_FILE_BYTES / 2)), '/work/skills/big/SKILL.md');
      assert.deepEqual(errorCodes(result), ['file-too-large']);
      assert.equal(result.metadata, undefined);
    });
  });

  describe('skillTextProblem', function () {
    const file = '/work/skills/notes/SKILL.md';

    it('gives the first error of text it cannot serve, not a warning listed before it', function () {
      const text = '---\nname: notes\ncolour: blue\n---\nBody.\n';
      assert.deepEqual(
        validateSkillText(text, file).diagnostics.map(({ code, severity }) => [code, severity]),
        [
          ['unknown-field', 'warning'],
          ['missing-description', 'error'],
        ],
      );
      assert.equal(skillTextProblem(text, file), 'The required field "description" is missing. Add one saying what the skill does and when to use it: the model chooses skills by their description.');
    });

    it('refuses a body with NUL bytes, and serves any other valid text, with warnings or without a body', function () {
      assert.equal(skillTextProblem(skillText('notes', 'A\0B\n'), file), 'it contains NUL bytes (binary content).');
      assert.equal(skillTextProblem(skillText('notes'), file), undefined);
      assert.equal(skillTextProblem('---\nname: notes\ndescription: Does one thing well.\ncolour: blue\n---', file), undefined);
    });
  });

  describe('readWholeSkillFile', function () {
    it('reads the current bytes from disk each time', async function () {
      const dir = await writeSkill(root, 'fresh', skillText('fresh', 'First version.\n'));
      const file = path.join(dir, SKILL_FILE_NAME);
      assert.deepEqual(await readWholeSkillFile(file), { ok: true, bytes: Buffer.from(skillText('fresh', 'First version.\n')) });
      await fs.writeFile(file, skillText('fresh', 'Second version.\n'));
      assert.deepEqual(await readWholeSkillFile(file), { ok: true, bytes: Buffer.from(skillText('fresh', 'Second version.\n')) });
    });

    it('reads a file that grows after its size was taken as it was then, like fs.readFile', async function () {
      const dir = await writeSkill(root, 'growing', skillText('growing', 'Written first.\n'));
      const file = path.join(dir, SKILL_FILE_NAME);
      // Another program appends to the file between the read's fstat and its first read.
      const fstat = nodeFs.fstat;
      nodeFs.fstat = ((fd: number, callback: (error: NodeJS.ErrnoException | null, stats: nodeFs.Stats) => void) =>
        fstat(fd, (error, stats) => {
          nodeFs.appendFileSync(file, 'Appended later.\n');
          callback(error, stats);
        })) as typeof nodeFs.fstat;
      const text = async () => {
        const read = await readWholeSkillFile(file);
        assert.ok(read.ok);
        return read.bytes.toString('utf8');
      };
      try {
        assert.equal(await text(), skillText('growing', 'Written first.\n'));
      } finally {
        nodeFs.fstat = fstat;
      }
      assert.equal(await text(), skillText('growing', 'Written first.\nAppended later.\n'));
    });

    it('says why it cannot read the file, naming it', async function () {
      const missing = path.join(root, 'gone', SKILL_FILE_NAME);
      assert.deepEqual(await readWholeSkillFile(missing), { ok: false, message: `Cannot read the skill file ${missing}: it does not exist or is not a file`, missing: true });
      const folder = path.join(root, 'folder', SKILL_FILE_NAME);
      await fs.mkdir(folder, { recursive: true });
      assert.deepEqual(await readWholeSkillFile(folder), {
        ok: false,
        message: `Cannot read the skill file ${folder}: it is a folder, not a file. A skill needs a Markdown file named SKILL.md.`,
        missing: false,
      });
      const huge = path.join(await writeSkill(root, 'huge', skillText('huge', 'x'.repeat(MAX_SKILL_FILE_BYTES))), SKILL_FILE_NAME);
      const tooBig = await readWholeSkillFile(huge);
      assert.ok(!tooBig.ok && tooBig.message.includes(huge) && /1 MiB/.test(tooBig.message), JSON.stringify(tooBig));
    });
  });

  describe('keepFile', function () {
    for (const blockingReads of [false, true]) {
      it(`hands back the whole valid file in a buffer of its own${blockingReads ? ', with blocking reads' : ''}`, async function () {
        const long = skillText('long', `${'Long body line.\n'.repeat(600)}`);
        await writeSkill(root, 'long', long);
        await writeSkill(root, 'short', skillText('short'));
        for (const name of ['long', 'short']) {
          const loaded = await load(path.join(root, name), { keepFile: true, blockingReads });
          assert.ok(loaded.metadata);
          assert.equal(loaded.bytes?.toString('utf8'), name === 'long' ? long : skillText('short'));
          // Not a slice of Node's shared pool of small buffers, which it would keep whole.
          assert.equal(loaded.bytes?.buffer.byteLength, loaded.bytes?.length);
        }
      });
    }

    it('reads a short file without frontmatter with blocking reads as without, whatever an earlier blocking read left in their shared buffer', async function () {
      // Its bytes stay in the buffer past the end of the shorter file read next.
      assert.deepEqual(errorCodes(loadSkillFileBlocking(await writeSkill(root, 'one-line', 'x'.repeat(5000)), { keepFile: true })), ['missing-frontmatter']);
      const dir = await writeSkill(root, 'plain', 'Plain text');
      const loaded = loadSkillFileBlocking(dir, { keepFile: true });
      assert.deepEqual(
        loaded?.diagnostics.map(({ code, range }) => [code, range]),
        [['missing-frontmatter', { start: { line: 0, column: 0 }, end: { line: 0, column: 'Plain text'.length } }]],
      );
      assert.deepEqual(loaded, await load(dir, { keepFile: true }));
    });

    it('keeps nothing of an invalid file, nor without being asked', async function () {
      await writeSkill(root, 'broken', '---\nname: broken\ndescription: [unclosed\n---\nBody.\n');
      await writeSkill(root, 'fine', skillText('fine'));
      assert.equal((await load(path.join(root, 'broken'), { keepFile: true })).bytes, undefined);
      assert.equal((await load(path.join(root, 'fine'))).bytes, undefined);
    });

    it('still checks the body when asked, though the text it parses for the frontmatter stops there', async function () {
      await writeSkill(root, 'linked', skillText('linked', 'See [missing](missing.md).\n'));
      const loaded = await load(path.join(root, 'linked'), { keepFile: true, checkBody: true });
      assert.ok(
        loaded.diagnostics.some((diagnostic) => /missing\.md/.test(diagnostic.message)),
        JSON.stringify(loaded.diagnostics),
      );
    });
  });
});
