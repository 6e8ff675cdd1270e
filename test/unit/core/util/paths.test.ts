import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { resolveChild } from '../../../../src/core/util/paths';

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
