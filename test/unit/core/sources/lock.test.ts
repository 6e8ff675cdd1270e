// skills-lock.json as `npx skills` writes it: what is read and refused, how it is written, and what
// each entry says about where its skill came from.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import {
  LockError,
  credentialsNotice,
  entryOrigin,
  entrySource,
  followedRef,
  lockEntryFor,
  portableFolder,
  lockFile,
  parseLock,
  pinnedCommit,
  readLock,
  sameOrigin,
  writeLock,
  type LockEntry,
} from '../../../../src/core/sources/lock';
import { skillNameProblem } from '../../../../src/core/sources/confine';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const HASH = 'f'.repeat(64);

function gitEntry(overrides: Partial<LockEntry> = {}): LockEntry {
  return { source: 'team/skills', sourceType: 'github', skillPath: 'skills/pdf/SKILL.md', computedHash: HASH, ...overrides };
}

describe('skills-lock.json', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  describe('reading', () => {
    it('reads an absent lock as an empty one of version 1', async () => {
      assert.deepEqual(await readLock(dir), { version: 1, skills: {} });
    });

    it('names the file when it cannot be read', async () => {
      await fs.mkdir(lockFile(dir));
      await assert.rejects(readLock(dir), (error: unknown) => error instanceof LockError && error.message.startsWith(`${lockFile(dir)}: cannot read it: `) && error.message.includes('EISDIR'));
    });

    it('keeps fields it does not know, and reads a lock written by npx skills', async () => {
      const text = JSON.stringify({ version: 1, skills: { pdf: { ...gitEntry(), installedAt: '2026-11-01' } }, extra: true });
      await fs.writeFile(lockFile(dir), text);
      const lock = await readLock(dir);
      assert.deepEqual(lock, JSON.parse(text));
    });

    it('refuses text that is not JSON, naming the file', () => {
      assert.throws(
        () => parseLock('{', 'lock.json'),
        (error: unknown) => error instanceof LockError && /^lock\.json: not valid JSON \(.+\)\.$/.test(error.message),
      );
    });

    for (const [label, value] of [
      ['an array', []],
      ['null', null],
      ['a number', 3],
      ['no version', { skills: {} }],
      ['a version as text', { version: '1', skills: {} }],
      ['no skills', { version: 1 }],
      ['skills as an array', { version: 1, skills: [] }],
      ['skills as null', { version: 1, skills: null }],
    ] as const) {
      it(`refuses a lock that is ${label}`, () => {
        assert.throws(
          () => parseLock(JSON.stringify(value), 'lock.json'),
          (error: unknown) => error instanceof LockError && error.message === 'lock.json: expected {"version": 1, "skills": {…}}.',
        );
      });
    }

    it('refuses a lock version newer than it reads, and reads the current one', () => {
      assert.throws(
        () => parseLock('{"version":2,"skills":{}}', 'lock.json'),
        (error: unknown) => error instanceof LockError && error.message === 'lock.json: lock version 2 is newer than this tool reads (1).',
      );
      assert.deepEqual(parseLock('{"version":1,"skills":{}}', 'lock.json'), { version: 1, skills: {} });
    });

    it('names each field an entry lacks', () => {
      assert.throws(
        () => parseLock(JSON.stringify({ version: 1, skills: { pdf: { sourceType: 'git', source: 3 } } }), 'lock.json'),
        (error: unknown) => error instanceof LockError && error.message === 'lock.json: the entry of "pdf" has no source, computedHash.',
      );
      assert.throws(
        () => parseLock(JSON.stringify({ version: 1, skills: { pdf: 'text' } }), 'lock.json'),
        (error: unknown) => error instanceof LockError && error.message === 'lock.json: the entry of "pdf" has no source, sourceType, computedHash.',
      );
    });
  });

  describe('writing', () => {
    it('writes names sorted, two-space JSON and a final newline, leaving nothing beside it', async () => {
      await writeLock(dir, { version: 1, skills: { zeta: gitEntry({ source: 'z/z' }), alpha: gitEntry({ source: 'a/a' }) } });
      const text = await fs.readFile(lockFile(dir), 'utf8');
      assert.equal(text, `${JSON.stringify({ version: 1, skills: { alpha: gitEntry({ source: 'a/a' }), zeta: gitEntry({ source: 'z/z' }) } }, null, 2)}\n`);
      assert.deepEqual(await fs.readdir(dir), ['skills-lock.json']);
    });

    it('removes its temporary file when the rename fails', async () => {
      // A folder where the lock goes: the rename onto it fails.
      await fs.mkdir(path.join(lockFile(dir)));
      await fs.writeFile(path.join(lockFile(dir), 'inside'), '');
      await assert.rejects(writeLock(dir, { version: 1, skills: {} }));
      assert.deepEqual(await fs.readdir(dir), ['skills-lock.json']);
    });
  });

  describe('entries', () => {
    it('locks a git source at its commit and the ref asked for, HEAD when none', () => {
      const source = { kind: 'git', url: 'https://github.com/team/skills.git', subPath: '', lockSource: 'team/skills' } as const;
      assert.deepEqual(lockEntryFor(source, 'pdf/SKILL.md', HASH, COMMIT, dir), {
        source: 'team/skills',
        sourceUrl: 'https://github.com/team/skills.git',
        sourceType: 'git',
        skillPath: 'pdf/SKILL.md',
        computedHash: HASH,
        ref: COMMIT,
        requestedRef: 'HEAD',
      });
      assert.equal(lockEntryFor({ ...source, ref: 'v2' }, 'SKILL.md', HASH, COMMIT, dir).requestedRef, 'v2');
    });

    it('locks a folder source by a path relative to the project as npx skills writes it', () => {
      const folderEntry = (folder: string): LockEntry => lockEntryFor({ kind: 'folder', folder, subPath: '' }, 'SKILL.md', HASH, undefined, dir);
      assert.deepEqual(folderEntry(path.join(dir, 'shared', 'skills')), { source: './shared/skills', sourceType: 'local', skillPath: 'SKILL.md', computedHash: HASH });
      assert.equal(folderEntry(dir).source, '.');
      assert.equal(folderEntry(path.join(path.dirname(dir), 'elsewhere')).source, '../elsewhere');
      // On Windows, as there: a folder on the project's drive relative to it, one on another drive whole.
      assert.equal(portableFolder('C:\\work\\project\\shared\\skills', 'C:\\work\\project', path.win32), './shared/skills');
      assert.equal(portableFolder('C:\\work\\elsewhere', 'C:\\work\\project', path.win32), '../elsewhere');
      assert.equal(portableFolder('D:\\shared\\skills', 'C:\\work\\project', path.win32), 'D:/shared/skills');
    });

    it('reads each entry back as the source to fetch again', () => {
      assert.deepEqual(entrySource({ source: './shared', sourceType: 'local', skillPath: 'pdf/SKILL.md', computedHash: HASH }, dir, 'pdf'), {
        kind: 'folder',
        folder: path.join(dir, 'shared'),
        subPath: 'pdf',
      });
      // GitHub shorthand, with or without .git, becomes its https URL.
      assert.deepEqual(entrySource(gitEntry({ ref: 'v2' }), dir, 'pdf'), { kind: 'git', url: 'https://github.com/team/skills.git', ref: 'v2', subPath: 'skills/pdf', lockSource: 'team/skills' });
      assert.equal((entrySource(gitEntry({ source: 'team/skills.git' }), dir, 'pdf') as { url: string }).url, 'https://github.com/team/skills.git');
      assert.equal((entrySource(gitEntry({ source: 'team/my.github.io' }), dir, 'pdf') as { url: string }).url, 'https://github.com/team/my.github.io.git');
      // The recorded URL wins over the shorthand; a source that is no shorthand is the URL itself.
      assert.equal((entrySource(gitEntry({ sourceUrl: 'https://mirror.example/skills.git' }), dir, 'pdf') as { url: string }).url, 'https://mirror.example/skills.git');
      assert.equal((entrySource(gitEntry({ source: 'https://host/team/skills.git', sourceType: 'gitlab' }), dir, 'pdf') as { url: string }).url, 'https://host/team/skills.git');
      // Anything else is no URL git is given: a lock's source passes the checks a typed one does.
      for (const source of ['a/b/c', 'pre a/b', 'a/b post']) {
        assert.equal(entrySource(gitEntry({ source, sourceType: 'git' }), dir, 'pdf'), `"${source}" is not a git URL this tool fetches (https://, http://, ssh://, git://, file:// or user@host:path)`);
      }
      assert.equal(entrySource(gitEntry({ sourceType: 'node_modules' }), dir, 'pdf'), 'its source type "node_modules" is not a git repository, a folder or a site');
    });

    it('follows the ref asked for, else the recorded one, and the default branch for HEAD', () => {
      assert.equal(followedRef(gitEntry({ requestedRef: 'main', ref: COMMIT })), 'main');
      assert.equal(followedRef(gitEntry({ ref: COMMIT })), COMMIT);
      assert.equal(followedRef(gitEntry({ requestedRef: 'HEAD', ref: COMMIT })), undefined);
      assert.equal(followedRef(gitEntry()), undefined);
    });

    it('pins only a full commit', () => {
      assert.equal(pinnedCommit(gitEntry({ ref: COMMIT })), COMMIT);
      assert.equal(pinnedCommit(gitEntry({ ref: 'v2' })), undefined);
      assert.equal(pinnedCommit(gitEntry()), undefined);
    });

    it('finds the skill folder inside the source, the top for an entry without skillPath', () => {
      const subPath = (entry: LockEntry): string => (entrySource(entry, dir, 'pdf') as { subPath: string }).subPath;
      assert.equal(subPath(gitEntry()), 'skills/pdf');
      assert.equal(subPath(gitEntry({ skillPath: './skills//pdf/SKILL.md' })), 'skills/pdf');
      assert.equal(subPath(gitEntry({ skillPath: 'SKILL.md' })), '');
      assert.equal(subPath(gitEntry({ skillPath: undefined })), '');
    });

    it('tells the origin as people read it', () => {
      assert.equal(entryOrigin(gitEntry({ ref: COMMIT })), 'team/skills@0123456');
      assert.equal(entryOrigin(gitEntry({ ref: 'v2' })), 'team/skills#v2');
      assert.equal(entryOrigin(gitEntry()), 'team/skills');
    });

    it('tells whether an entry came from the same repository or folder', () => {
      const github = { kind: 'git', url: 'https://github.com/team/skills.git', subPath: '', lockSource: 'team/skills' } as const;
      assert.equal(sameOrigin(gitEntry(), github, dir), true);
      assert.equal(sameOrigin(gitEntry(), { ...github, url: 'https://github.com/team/other.git' }, dir), false);
      assert.equal(sameOrigin(gitEntry(), { kind: 'folder', folder: dir, subPath: '' }, dir), false);
      assert.equal(sameOrigin(gitEntry({ sourceType: 'node_modules' }), github, dir), false);
      const local = { source: './shared', sourceType: 'local', computedHash: HASH };
      assert.equal(sameOrigin(local, { kind: 'folder', folder: path.join(dir, 'shared'), subPath: 'x' }, dir), true);
      assert.equal(sameOrigin(local, { kind: 'folder', folder: path.join(dir, 'other'), subPath: '' }, dir), false);
      assert.equal(sameOrigin(local, github, dir), false);
      // A folder whose path reads like the URL of a repository is still a folder.
      assert.equal(sameOrigin({ ...local, source: 'https:/github.com/team/skills.git' }, { kind: 'folder', folder: 'https://github.com/team/skills.git', subPath: '' }, '/'), false);
      assert.equal(sameOrigin(gitEntry({ sourceUrl: '/srv/skills' }), { kind: 'folder', folder: '/srv/skills', subPath: '' }, dir), false);
    });
  });

  describe('what others wrote in it', () => {
    it('warns about each key an object holds more than once, naming the object and the key, once each', () => {
      const warnings: string[] = [];
      const text =
        '{"version":1,"version":1,"skills":{"pdf":{"a":1},"pdf":{"source":"x","source":"team/skills","sourceType":"git","computedHash":"h","list":[{"k":1,"k":2}]},"pdf":{"source":"team/skills","sourceType":"git","computedHash":"h","note":"\\"pdf\\":{},"}}}';
      const lock = parseLock(text, 'lock.json', (message) => warnings.push(message));
      assert.deepEqual(Object.keys(lock.skills), ['pdf']);
      assert.deepEqual(warnings, [
        'lock.json: the top level holds the key "version" more than once; only the last one counts.',
        'lock.json: "skills" holds the key "pdf" more than once; only the last one counts.',
        'lock.json: "skills.pdf" holds the key "source" more than once; only the last one counts.',
        'lock.json: "skills.pdf.list[]" holds the key "k" more than once; only the last one counts.',
      ]);
      const once: string[] = [];
      parseLock(JSON.stringify({ version: 1, skills: { pdf: gitEntry(), docx: gitEntry() } }, null, 2), 'lock.json', (message) => once.push(message));
      assert.deepEqual(once, []);
    });

    it('takes kept edits only as a SHA-256 hash, and warns about anything else there', () => {
      const warnings: string[] = [];
      const kept = 'a'.repeat(64);
      const text = JSON.stringify({
        version: 1,
        skills: { pdf: { ...gitEntry(), keptEditsHash: kept }, docx: { ...gitEntry(), keptEditsHash: '*' }, xlsx: { ...gitEntry(), keptEditsHash: { all: true } } },
      });
      const lock = parseLock(text, 'lock.json', (message) => warnings.push(message));
      assert.equal(lock.skills.pdf.keptEditsHash, kept);
      assert.equal('keptEditsHash' in lock.skills.docx, false);
      assert.equal('keptEditsHash' in lock.skills.xlsx, false);
      assert.deepEqual(warnings, [
        'lock.json: the entry of "docx" has a keptEditsHash that is not a SHA-256 hash; its edits are not taken as kept.',
        'lock.json: the entry of "xlsx" has a keptEditsHash that is not a SHA-256 hash; its edits are not taken as kept.',
      ]);
    });

    it('reads a lock nested deeper than any stack, without failing on it', () => {
      const deep = `{"version":1,"skills":{},"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
      assert.deepEqual(parseLock(deep, 'lock.json', () => assert.fail('nothing is repeated')).skills, {});
    });

    it('takes only a valid skill name as a key, since it names the installed folder', () => {
      assert.equal(skillNameProblem('pdf-tools'), undefined);
      assert.equal(skillNameProblem('café'), undefined);
      for (const key of ['', '.', '..', '../x', '../../../tmp/victim/.git/hooks', '/tmp/x', 'C:\\x', 'a/b', 'a\\b', 'PDF', 'a--b', '-a', 'a-', 'a.b', 'a b', 'a'.repeat(65), 'ｐｄｆ']) {
        assert.match(skillNameProblem(key) ?? '', /is not a valid skill name \(lowercase letters, digits and single hyphens, at most 64 characters\)$/, key);
      }
    });

    it('refuses an entry whose skillPath leaves its source, or whose URL or ref a typed source could not have', () => {
      for (const skillPath of ['../x/SKILL.md', 'a/../../SKILL.md', '/etc/SKILL.md', 'C:\\x\\SKILL.md', `${'../'.repeat(30)}tmp/x/SKILL.md`]) {
        assert.equal(entrySource(gitEntry({ skillPath }), dir, 'pdf'), `its skillPath "${skillPath}" must stay inside its source`, skillPath);
        assert.equal(entrySource({ source: './shared', sourceType: 'local', skillPath, computedHash: HASH }, dir, 'pdf'), `its skillPath "${skillPath}" must stay inside its source`, skillPath);
      }
      for (const url of ['ext::sh -c touch% x', 'fd::7', 'ssh://-oProxyCommand=x/repo', '-u@host:repo', 'git@-host:repo', 'https://host/re\npo.git', '/srv/skills.git', 'https://a:b@host:bad/x']) {
        assert.match(entrySource(gitEntry({ sourceUrl: url }), dir, 'pdf') as string, /is not a git URL this tool fetches/, url);
      }
      assert.equal(entrySource(gitEntry({ sourceUrl: 'https://alice:s3cret@host/skills.git' }), dir, 'pdf') instanceof Object, true);
      assert.equal(entrySource(gitEntry({ requestedRef: '--upload-pack=x' }), dir, 'pdf'), '"--upload-pack=x" is not a branch, tag or commit name');
      assert.equal(entrySource(gitEntry({ ref: 'main..v2' }), dir, 'pdf'), '"main..v2" is not a branch, tag or commit name');
    });

    it('never writes a URL with its user name or password, and never shows one', async () => {
      const leaked = gitEntry({ source: 'https://alice:s3cret@host/skills.git', sourceUrl: 'https://alice:s3cret@host/skills.git', ref: COMMIT });
      assert.equal(entryOrigin(leaked), 'https://host/skills.git@0123456');
      await writeLock(dir, { version: 1, skills: { pdf: leaked, ssh: gitEntry({ sourceUrl: 'ssh://git:pw@host/skills.git' }) } });
      const written = (await readLock(dir)).skills;
      assert.deepEqual([written.pdf.source, written.pdf.sourceUrl, written.ssh.sourceUrl], ['https://host/skills.git', 'https://host/skills.git', 'ssh://git@host/skills.git']);
      const source = { kind: 'git', url: 'https://alice:s3cret@host/skills.git', subPath: '', lockSource: 'https://host/skills.git' } as const;
      assert.equal(lockEntryFor(source, 'SKILL.md', HASH, COMMIT, dir).sourceUrl, 'https://host/skills.git');
      assert.match(credentialsNotice(source) ?? '', /serve this fetch only: skills-lock\.json and the output never hold them\. .*credential helper/);
      assert.equal(credentialsNotice({ ...source, url: 'https://host/skills.git' }), undefined);
      assert.equal(credentialsNotice({ kind: 'folder', folder: dir, subPath: '' }), undefined);
      // The same repository, whether or not the credentials were typed again.
      assert.equal(sameOrigin(gitEntry({ sourceUrl: 'https://host/skills.git' }), source, dir), true);
    });

    it('follows a commit asked for by its abbreviation as a pin to the commit it named', () => {
      assert.equal(followedRef(gitEntry({ requestedRef: COMMIT.slice(0, 7), ref: COMMIT })), COMMIT);
      assert.equal(followedRef(gitEntry({ requestedRef: 'abcdef0', ref: COMMIT })), 'abcdef0');
      assert.equal(followedRef(gitEntry({ ref: COMMIT.slice(0, 7) })), COMMIT.slice(0, 7));
    });
  });
});
