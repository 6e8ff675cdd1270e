// The command line reads skills with blocking calls (LoadOptions.blockingReads); it must load
// every skill exactly as the editor's asynchronous reads do.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { discoverSkills } from '../../../src/core/discovery/discover';
import { loadSkillFile, MAX_SKILL_FILE_BYTES, type LoadedSkillFile, type LoadOptions } from '../../../src/core/skill-file/load';
import { fixtureSkill, fixtureSkillFolders, makeTempRoot, removeTempRoot, writeSkill } from '../../fixtures/skills/temp-skills';
import { FIXTURE_TREES, root, skillText } from '../../fixtures/trees/tree';

const MODES: LoadOptions[] = [{}, { checkBody: true }, { strict: true, checkBody: true }];
/** A file shorter than this is read whole by a blocking head read, which then knows its size. */
const HEAD_READ_BYTES = 3 * 1024;
/** A file shorter than this is read whole by a blocking whole read (body checks) without an fstat. */
const WHOLE_READ_BYTES = 64 * 1024;

/** What a blocking read gives for a file an asynchronous read gave `loaded` for: no modification time when its first read took the file whole. */
function withoutStat(loaded: LoadedSkillFile | undefined, mode: LoadOptions): LoadedSkillFile | undefined {
  return loaded && loaded.size < (mode.checkBody ? WHOLE_READ_BYTES : HEAD_READ_BYTES) ? { ...loaded, mtimeMs: 0 } : loaded;
}

describe('blocking reads', () => {
  it('load every fixture skill as asynchronous reads do, in every mode', async () => {
    for (const dir of await fixtureSkillFolders()) {
      for (const mode of MODES) {
        const asynchronous = await loadSkillFile(dir, mode);
        const blocking = await loadSkillFile(dir, { ...mode, blockingReads: true });
        // The first read takes what it needs without an fstat (see LoadedSkillFile).
        assert.deepEqual(blocking, withoutStat(asynchronous, mode), `${path.basename(dir)} ${JSON.stringify(mode)}`);
      }
    }
  });

  it('learn the size of a file the head read takes whole, and leave the modification time and larger sizes out', async () => {
    const temp = await makeTempRoot();
    try {
      const text = skillText('small', 'A small skill.');
      const small = await writeSkill(temp, 'small', text);
      const longBody = await writeSkill(temp, 'long-body', `${text}${'A line of the body.\n'.repeat(500)}`);
      const facts = async (dir: string) => {
        const loaded = await loadSkillFile(dir, { blockingReads: true });
        return [loaded?.mtimeMs, loaded?.size, loaded?.metadata?.description];
      };
      assert.deepEqual(await facts(small), [0, Buffer.byteLength(text), 'A small skill.']);
      assert.deepEqual(await facts(longBody), [0, 0, 'A small skill.']);
    } finally {
      await removeTempRoot(temp);
    }
  });

  it('agree on over-size files, long frontmatter and missing files', async () => {
    const temp = await makeTempRoot();
    try {
      const huge = await writeSkill(temp, 'huge', `---\nname: huge\ndescription: x\n---\n${'x'.repeat(MAX_SKILL_FILE_BYTES)}`);
      // A frontmatter longer than the first head read, so the buffer has to grow.
      const long = await writeSkill(temp, 'long', `---\nname: long\ndescription: Long frontmatter.\nlicense: ${'word '.repeat(3000)}\n---\nBody.\n`);
      for (const dir of [huge, long, path.join(temp, 'absent')]) {
        for (const mode of MODES) {
          const asynchronous = await loadSkillFile(dir, mode);
          // The long frontmatter takes more than a head read, and fewer bytes than a whole read.
          const expected = dir === long && mode.checkBody ? withoutStat(asynchronous, mode) : asynchronous;
          assert.deepEqual(await loadSkillFile(dir, { ...mode, blockingReads: true }), expected, `${path.basename(dir)} ${JSON.stringify(mode)}`);
        }
      }
      assert.equal((await loadSkillFile(huge, { blockingReads: true }))?.diagnostics[0].code, 'file-too-large');
      assert.equal((await loadSkillFile(long, { blockingReads: true }))?.diagnostics.length, 0);
    } finally {
      await removeTempRoot(temp);
    }
  });

  it('discover the same skills as asynchronous reads', async () => {
    const roots = [root(path.join(FIXTURE_TREES, 'two-roots', 'workspace')), root(path.join(FIXTURE_TREES, 'two-roots', 'user'), 'user'), root(path.dirname(fixtureSkill('valid')), 'env')];
    const asynchronous = await discoverSkills(roots, { checkBody: true });
    const blocking = await discoverSkills(roots, { checkBody: true, blockingReads: true });
    // Every file is small enough for one read, which leaves the modification time out.
    assert.ok(asynchronous.skills.every((record) => record.mtimeMs > 0 && record.size < WHOLE_READ_BYTES));
    const withoutTimes = (result: unknown): unknown => JSON.parse(JSON.stringify(result, (key, value: unknown) => (key === 'mtimeMs' ? 0 : value)));
    assert.deepEqual(withoutTimes(blocking), withoutTimes(asynchronous));
    assert.ok(blocking.skills.every((record) => record.mtimeMs === 0));
    assert.ok(blocking.skills.length > 20);
  });
});
