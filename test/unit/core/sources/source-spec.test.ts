// SOURCE arguments: git URLs, local repositories and folders, GitHub shorthand, #ref and sub-paths.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkedGitUrl, parseSource, SourceError, type GitSource } from '../../../../src/core/sources/source-spec';
import { removeDir, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('parseSource', () => {
  function gitSource(text: string): GitSource {
    const source = parseSource(text, dir);
    assert.equal(source.kind, 'git');
    return source as GitSource;
  }

  let dir: string;

  before(async () => {
    dir = await tempDir();
    await writeTree(dir, { plain: { pdf: { 'SKILL.md': 'x' } }, clone: { '.git': { HEAD: 'ref: refs/heads/main\n' } } });
    await fs.mkdir(path.join(dir, 'bare.git', 'objects'), { recursive: true });
    await fs.mkdir(path.join(dir, 'bare.git', 'refs'));
    await fs.writeFile(path.join(dir, 'bare.git', 'HEAD'), 'ref: refs/heads/main\n');
  });

  after(async () => {
    await removeDir(dir);
  });

  it('reads git URLs with an optional #ref and :sub-path', () => {
    assert.deepEqual(parseSource('https://git.example.com/team/skills.git#v2:tools/pdf', dir), {
      kind: 'git',
      url: 'https://git.example.com/team/skills.git',
      ref: 'v2',
      subPath: 'tools/pdf',
      lockSource: 'https://git.example.com/team/skills.git',
    });
    assert.deepEqual(parseSource('git@git.example.com:team/skills.git', dir), {
      kind: 'git',
      url: 'git@git.example.com:team/skills.git',
      ref: undefined,
      subPath: '',
      lockSource: 'git@git.example.com:team/skills.git',
    });
    assert.equal(gitSource('ssh://git@host/team/skills.git#:skills').subPath, 'skills');
    assert.equal(gitSource('file:///srv/skills.git#main').ref, 'main');
  });

  it('reads GitHub shorthand and page URLs as owner/repo', () => {
    assert.deepEqual(parseSource('team/skills/skills/pdf#v2', dir), { kind: 'git', url: 'https://github.com/team/skills.git', ref: 'v2', subPath: 'skills/pdf', lockSource: 'team/skills' });
    assert.deepEqual(parseSource('https://github.com/team/skills/tree/main/skills/pdf', dir), {
      kind: 'git',
      url: 'https://github.com/team/skills.git',
      ref: 'main',
      subPath: 'skills/pdf',
      lockSource: 'team/skills',
    });
    assert.equal(gitSource('https://github.com/team/skills.git').lockSource, 'team/skills');
  });

  it('tells a local repository (working tree or bare) from a plain folder', () => {
    assert.deepEqual(parseSource('./clone#main:skills', dir), {
      kind: 'git',
      url: pathToFileURL(path.join(dir, 'clone')).href,
      ref: 'main',
      subPath: 'skills',
      lockSource: pathToFileURL(path.join(dir, 'clone')).href,
    });
    assert.equal(parseSource(path.join(dir, 'bare.git'), dir).kind, 'git');
    assert.deepEqual(parseSource('plain#:pdf', dir), { kind: 'folder', folder: path.join(dir, 'plain'), subPath: 'pdf' });
  });

  it('refuses what cannot be a source, naming it', () => {
    const refused = (text: string, pattern: RegExp): void =>
      assert.throws(
        () => parseSource(text, dir),
        (error: Error) => error instanceof SourceError && pattern.test(error.message),
      );
    refused('./missing', /\.\/missing: no such folder/);
    refused('plain#v1', /is a folder, not a git repository/);
    refused('--upload-pack=evil', /is not a source/);
    refused('https://host/r.git#--orphan', /is not a branch, tag or commit name/);
    refused('https://host/r.git#main:../../etc', /must stay inside the source/);
    refused('not a source at all', /not a git URL/);
  });

  it('trims the text, and reads a trailing hyphen as part of a name', () => {
    assert.equal(gitSource('  team/skills-  ').lockSource, 'team/skills-');
    assert.equal(gitSource('team/skills.git').url, 'https://github.com/team/skills.git');
    assert.equal(gitSource('team/my.github.io').url, 'https://github.com/team/my.github.io.git');
    assert.equal(gitSource('https://host/team/skills.git/').url, 'https://host/team/skills.git');
    assert.equal(gitSource('https://github.com/team/skills').lockSource, 'team/skills');
    // A URL that may be a site or a repository is git once no site answers there.
    const either = parseSource('https://mirror.example/https://github.com/team/skills', dir);
    assert.equal(either.kind === 'site' && either.gitFallback?.lockSource, 'https://mirror.example/https://github.com/team/skills');
    assert.equal(gitSource('https://github.com/team/skills.gitx').lockSource, 'team/skills.gitx');
  });

  it('joins the sub-path of a page or shorthand with the one after #, and tidies it', () => {
    assert.equal(gitSource('https://github.com/team/skills/tree/main#:extra').subPath, 'extra');
    assert.equal(gitSource('team/skills/a#:b').subPath, 'a/b');
    assert.equal(gitSource('https://host/r.git#main:./a//b/.').subPath, 'a/b');
    assert.equal(gitSource('https://host/r.git#main:a\\b').subPath, 'a/b');
  });

  it('reads the part before # as the folder, the current one when empty', () => {
    assert.deepEqual(parseSource('#:plain', dir), { kind: 'folder', folder: dir, subPath: 'plain' });
  });

  it('reads ~ as the home folder', () => {
    const savedHome = process.env.HOME;
    process.env.HOME = dir;
    try {
      assert.deepEqual(parseSource('~/plain', '/'), { kind: 'folder', folder: path.join(dir, 'plain'), subPath: '' });
      assert.deepEqual(parseSource('~', '/'), { kind: 'folder', folder: dir, subPath: '' });
    } finally {
      process.env.HOME = savedHome;
    }
  });

  it('takes a folder with HEAD, objects and refs at its top for a bare repository, and nothing less', async () => {
    await writeTree(dir, { 'half-bare': { HEAD: 'x', 'refs.txt': '' }, 'head-only': { HEAD: 'x' }, 'no-objects': { HEAD: 'x' } });
    for (const folder of ['half-bare/objects', 'refs-only/refs', 'no-objects/refs', 'no-head/objects', 'no-head/refs']) {
      await fs.mkdir(path.join(dir, folder), { recursive: true });
    }
    for (const name of ['half-bare', 'head-only', 'refs-only', 'no-objects', 'no-head']) {
      assert.equal(parseSource(name, dir).kind, 'folder', name);
    }
  });

  it('says what is wrong with a path that looks local', () => {
    const refused = (text: string, cwd: string, message: string): void =>
      assert.throws(
        () => parseSource(text, cwd),
        (error: Error) => error instanceof SourceError && error.message === message,
      );
    refused('../missing-folder', dir, '../missing-folder: no such folder.');
    refused('C:/skills', dir, 'C:/skills: no such folder.');
    refused('c:\\skills', dir, 'c:\\skills: no such folder.');
    refused('.', path.join(dir, 'deleted'), '.: no such folder.');
    refused('..', path.join(dir, 'deleted', 'deeper'), '..: no such folder.');
    refused('./plain/pdf/SKILL.md', dir, './plain/pdf/SKILL.md: not a folder.');
    refused('', dir, '"" is not a source: give a git URL, a local folder or repository, or owner/repo.');
    refused('  ', dir, '"  " is not a source: give a git URL, a local folder or repository, or owner/repo.');
  });

  it('clones with the credentials typed in a URL, and labels and locks it without them', () => {
    const source = gitSource('http://alice:s3cret@host/team/skills.git#v2');
    assert.equal(source.url, 'http://alice:s3cret@host/team/skills.git');
    assert.equal(source.lockSource, 'http://host/team/skills.git');
    assert.equal(gitSource('https://TOKEN@github.com/team/skills.git').lockSource, 'team/skills');
  });

  it('refuses a URL git could take for another transport or an option, typed or from a lock, without showing its password', () => {
    for (const url of [
      'ext::sh -c touch% x',
      'fd::3',
      'ssh://-oProxyCommand=touch%20x/r',
      'ssh://-user@host/r',
      '-oProxyCommand=x@host:r',
      'u@-host:r',
      'https://host/a\nb',
      'https://[bad/x',
      'mailto:x@host',
      'a/b/c',
    ]) {
      assert.throws(
        () => checkedGitUrl(url),
        (error: unknown) => error instanceof SourceError && error.message.endsWith('is not a git URL this tool fetches (https://, http://, ssh://, git://, file:// or user@host:path).'),
        url,
      );
    }
    assert.throws(
      () => checkedGitUrl('ssh://alice:pw@-host/r'),
      (error: unknown) => error instanceof SourceError && error.message.startsWith('"ssh://alice@-host/r" is not'),
    );
    for (const url of ['https://host/r.git', 'http://127.0.0.1:8080/r', 'ssh://git@host:22/r.git', 'git://host/r', 'file:///srv/r.git', 'git@host:team/r.git']) {
      assert.equal(checkedGitUrl(url), url);
    }
    assert.throws(
      () => parseSource('ssh://-oProxyCommand=x/r', dir),
      (error: unknown) => error instanceof SourceError && /is not a git URL/.test(error.message),
    );
  });
});
