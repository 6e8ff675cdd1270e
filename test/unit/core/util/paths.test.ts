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
});
