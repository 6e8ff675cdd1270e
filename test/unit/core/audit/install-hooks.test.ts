// Install-time hooks: Python .pth files and npm's install-time scripts.

import * as assert from 'node:assert/strict';
import { findInstallScripts, pthFileHook } from '../../../../src/core/audit/install-hooks';

describe('install hooks', () => {
  it('reports every .pth file, by its name', () => {
    assert.deepEqual(pthFileHook('lib/site/helper.PTH'), [
      {
        code: 'install-hook',
        severity: 'high',
        message: 'A Python .pth file: once in a site-packages folder, its lines that start with "import" run each time Python starts.',
        file: 'lib/site/helper.PTH',
      },
    ]);
    assert.deepEqual(pthFileHook('notes.pth.md'), []);
    assert.deepEqual(pthFileHook('depth'), []);
  });

  it('reports each install-time script of a package.json at its key, in the order npm runs them, and leaves other scripts alone', () => {
    const manifest = JSON.stringify({ name: 'x', scripts: { build: 'tsc', test: 'mocha', install: 'node-gyp rebuild', prepare: 'husky', postinstall: 'node \u001b[2Jx.js' } }, null, 2);
    assert.deepEqual(
      findInstallScripts(manifest, 'scripts/package.json').map((found) => `${found.position!.line + 1}:${found.position!.column + 1} ${found.message}`),
      [
        '6:5 An install-time script, "install": "node-gyp rebuild": npm runs it when the packages of this folder are installed.',
        '8:5 An install-time script, "postinstall": "node ?[2Jx.js": npm runs it when the packages of this folder are installed.',
        '7:5 An install-time script, "prepare": "husky": npm runs it when the packages of this folder are installed.',
      ],
    );
  });

  it('reads only files named package.json that hold a scripts object', () => {
    const hook = '{"scripts":{"preinstall":"sh x"}}';
    assert.equal(findInstallScripts(hook, 'package.json').length, 1);
    assert.deepEqual(findInstallScripts(hook, 'my-package.json'), []);
    assert.deepEqual(findInstallScripts(hook, 'package.json.bak'), []);
    for (const text of ['{"scripts": {"preinstall": 3}}', '{"scripts": "preinstall"}', '{"scripts": null}', 'null', '[]', '{"preinstall": "sh x"}', '{ not json']) {
      assert.deepEqual(findInstallScripts(text, 'package.json'), [], text);
    }
  });
});
