// SOURCE arguments: git URLs, local repositories and folders, GitHub shorthand, #ref and sub-paths.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSource, SourceError, type GitSource } from '../../../../src/core/sources/source-spec';
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
});
