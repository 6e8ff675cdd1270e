import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { folderBirthTime } from '../../../../src/core/util/files';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';

describe('folderBirthTime', () => {
  let dir: string;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(() => removeDir(dir));

  it("is a folder's birth time, not moved by changes inside it, and the later of a link's and its folder's", async function () {
    const folder = path.join(dir, 'skill');
    fs.mkdirSync(folder);
    const born = fs.statSync(folder).birthtimeMs;
    if (born === 0) {
      this.skip(); // This file system keeps no birth time.
    }
    assert.equal(await folderBirthTime(folder), born);
    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.writeFileSync(path.join(folder, 'SKILL.md'), 'changed');
    assert.equal(await folderBirthTime(folder), born);
    const link = path.join(dir, 'linked');
    fs.symlinkSync(folder, link);
    const linked = fs.lstatSync(link).birthtimeMs;
    assert.ok(linked > born);
    assert.equal(await folderBirthTime(link), linked);
    assert.equal(await folderBirthTime(path.join(dir, 'missing')), undefined);
  });
});
