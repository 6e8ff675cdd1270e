import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { joinChild, lastName, parentFolder, relativeInside, resolveChild, resolveInside } from '../../../../src/core/util/paths';

describe('resolveChild', function () {
  it('gives what path.resolve gives, for resolved folders and for any other', function () {
    const folders = ['/', '/a', '/a/b', '/a/b/', '/a//b', '/a/./b', '/a/.', '/a/..', '/a/../b', '/a/.b', '/a/..b', '/a/b.', '', '.', 'a', 'a/b', './a', '../a', '//a'];
    for (const folder of folders) {
      for (const name of ['SKILL.md', 'x', '.hidden']) {
        assert.equal(resolveChild(folder, name), path.resolve(folder, name), JSON.stringify([folder, name]));
      }
    }
  });

  it('gives what path.win32.resolve gives on Windows, where a folder written with slashes gets backslashes', function () {
    for (const folder of ['/a', '/a/b', 'C:\\a', 'C:/a', '\\\\server\\share\\a']) {
      assert.equal(resolveChild(folder, 'SKILL.md', path.win32), path.win32.resolve(folder, 'SKILL.md'), folder);
    }
  });
});

describe('resolveInside', function () {
  /** What resolveInside must give: path.resolve's answer when path.relative finds it inside the folder (or the folder itself). */
  function expected(folder: string, relativePath: string, paths: path.PlatformPath): string | undefined {
    const resolved = paths.resolve(folder, relativePath);
    const relative = paths.relative(folder, resolved);
    return relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative) ? undefined : resolved;
  }

  const folders = ['/s/docs', '/s/docs/', '/s//docs', '/s/./docs', '/s/x/../docs', '/', '', '.', 'docs', '../docs'];
  const targets = [
    'references/guide.md',
    'guide.md',
    '..guide.md',
    '.hidden/x.md',
    'a..b/c.',
    '../docs-extra/file.md', // a sibling folder whose name starts with the folder's name
    '../docs/references/guide.md',
    '..',
    '../',
    '.',
    './',
    'a/../../docs/x.md',
    'a/../b.md',
    'a/./b.md',
    'references/',
    'references//guide.md',
    '/etc/passwd',
    '//etc/passwd',
    '../../outside.md',
    'references\\..\\..\\x.md',
    '',
  ];

  it('gives what path.resolve and path.relative give, for resolved folders and for any other', function () {
    for (const folder of folders) {
      for (const target of targets) {
        assert.equal(resolveInside(folder, target), expected(folder, target, path), JSON.stringify([folder, target]));
      }
    }
  });

  it("finds a `..` that leaves the folder, even through a sibling whose name starts with the folder's", function () {
    assert.equal(resolveInside('/s/docs', '../docs-extra/file.md'), undefined);
    assert.equal(resolveInside('/s/docs', 'references/../../docs-extra/file.md'), undefined);
    assert.equal(resolveInside('/s/docs', '../docs/references/guide.md'), '/s/docs/references/guide.md');
    assert.equal(resolveInside('/s/docs', 'references/guide.md/'), '/s/docs/references/guide.md');
  });

  it('judges Windows paths as path.win32 does: case-insensitively, either separator, drives', function () {
    for (const [folder, target] of [
      ['C:\\s\\docs', 'references\\guide.md'],
      ['C:\\s\\docs', 'references/guide.md'],
      ['C:\\s\\docs', '..\\docs-extra\\file.md'],
      ['C:\\s\\docs', '../DOCS/x.md'],
      ['C:\\s\\docs', 'D:\\x.md'],
      ['C:\\s\\docs', 'C:x.md'],
      ['\\\\server\\share\\docs', '..\\..\\x.md'],
    ]) {
      assert.equal(resolveInside(folder, target, path.win32), expected(folder, target, path.win32), JSON.stringify([folder, target]));
    }
    assert.equal(resolveInside('C:\\s\\docs', '../DOCS/x.md', path.win32), 'C:\\s\\DOCS\\x.md');
  });
});

describe('relativeInside', function () {
  it('is undefined outside the folder, also for a sibling whose name starts with its name', function () {
    assert.equal(relativeInside('/s/docs', '/s/docs-extra/x'), undefined);
    assert.equal(relativeInside('/s/docs', '/s'), undefined);
    assert.equal(relativeInside('/s/docs', '/s/docs'), '');
    assert.equal(relativeInside('/s/docs', '/s/docs/a/b'), 'a/b');
    assert.equal(relativeInside('C:\\s', 'D:\\s', path.win32), undefined);
    assert.equal(relativeInside('C:\\s', 'c:\\S\\x', path.win32), 'x');
  });
});

describe('lastName, parentFolder and joinChild', function () {
  /** Every path of up to five characters of these, which covers roots, repeated and final separators, and dot names. */
  function shortPaths(characters: readonly string[], length = 5): string[] {
    let level = [''];
    const all = [''];
    for (let index = 0; index < length; index++) {
      level = level.flatMap((start) => characters.map((character) => start + character));
      all.push(...level);
    }
    return all;
  }

  it('give what path.basename, path.dirname and path.join give, for any path', function () {
    for (const [paths, characters] of [
      [path.posix, ['/', 'a', '.', '\\']],
      [path.win32, ['/', '\\', 'a', '.', 'C:']],
    ] as const) {
      for (const file of shortPaths(characters)) {
        const label = JSON.stringify([paths.sep, file]);
        assert.equal(lastName(file, paths), paths.basename(file), label);
        assert.equal(parentFolder(file, paths), paths.dirname(file), label);
        assert.equal(joinChild(file, 'evals/triggers.json', paths), paths.join(file, 'evals/triggers.json'), label);
      }
    }
  });

  it('keep the roots path.dirname keeps, and the folder a path names with a final separator', function () {
    assert.equal(parentFolder('/SKILL.md', path.posix), '/');
    assert.equal(parentFolder('//SKILL.md', path.posix), '//');
    assert.equal(parentFolder('/s/docs/', path.posix), '/s');
    assert.equal(lastName('/s/docs/', path.posix), 'docs');
    assert.equal(joinChild('/s/docs/', 'x', path.posix), '/s/docs/x');
    assert.equal(joinChild('s/../docs', 'x', path.posix), 'docs/x');
  });
});
