import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { brokenSkillMessage, servedSkillFile } from '../../../../src/core/use/served-skill-file';
import { MAX_SKILL_FILE_BYTES, SKILL_FILE_NAME } from '../../../../src/core/skill-file/load';
import { fixtureSkill } from '../../../fixtures/skills/temp-skills';
import { fakeRecord, removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import type { SkillRecord } from '../../../../src/core/model/types';

describe('servedSkillFile', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  /** A usable record of the SKILL.md at `file`, as the registry would publish it. */
  function recordOf(file: string, lastValidFile?: string): SkillRecord {
    const record = fakeRecord('notes', 'Take notes.', { dir: path.dirname(file), file, realDir: path.dirname(file) });
    return lastValidFile === undefined ? record : { ...record, lastValidFile: Buffer.from(lastValidFile) };
  }

  async function write(text: string | Buffer): Promise<string> {
    await writeTree(dir, { notes: { [SKILL_FILE_NAME]: text } });
    return path.join(dir, 'notes', SKILL_FILE_NAME);
  }

  it('serves the file on disk while it is valid, each time as it is now', async () => {
    const file = await write(skillText('notes', 'Take notes.', 'First.'));
    const kept = skillText('notes', 'Take notes.', 'Kept.');
    const first = await servedSkillFile(recordOf(file, kept));
    assert.ok(first.ok);
    assert.deepEqual([first.body, first.lastValid], ['\nFirst.\n', false]);
    await fs.writeFile(file, skillText('notes', 'Take notes.', 'Second.'));
    const second = await servedSkillFile(recordOf(file, kept));
    assert.ok(second.ok);
    assert.equal(second.text, skillText('notes', 'Take notes.', 'Second.'));
    assert.deepEqual(second.bytes, Buffer.from(second.text));
  });

  it('skips a byte-order mark and keeps CRLF line endings in the body', async () => {
    for (const [fixture, body] of [
      ['bom', 'Body.\n'],
      ['crlf', '# Body\r\n\r\nSee [nothing](nothing.md).\r\n'],
    ]) {
      const served = await servedSkillFile(recordOf(path.join(fixtureSkill(fixture), SKILL_FILE_NAME)));
      assert.ok(served.ok);
      assert.equal(served.body, body);
    }
  });

  it('serves the last valid version while the file is broken, and says so', async () => {
    const file = await write('---\nname: notes\ndescription: [unclosed\n---\nBROKEN\n');
    const kept = skillText('notes', 'Take notes.', 'Kept.');
    const served = await servedSkillFile(recordOf(file, kept));
    assert.ok(served.ok);
    assert.deepEqual([served.text, served.body, served.lastValid], [kept, '\nKept.\n', true]);
  });

  it('without a last valid version, names the file and what is wrong with it', async () => {
    const cases: [string | Buffer, RegExp][] = [
      ['---\nname: notes\ndescription: [unclosed\n---\nBROKEN\n', /Invalid YAML in the frontmatter \(line 3, column 23\)/],
      ['No frontmatter here.\n', /must start with YAML frontmatter/],
      [Buffer.from('---\nname: notes\ndescription: Take notes.\n---\nA\0B\n'), /NUL bytes/],
      ['---\nname: notes\n---\nBody.\n', /"description" is missing/],
    ];
    for (const [text, problem] of cases) {
      const file = await write(text);
      const served = await servedSkillFile(recordOf(file));
      assert.ok(!served.ok);
      assert.ok(served.message.startsWith(`Skill "notes" is invalid: `) && served.message.endsWith(` (${file}).`), served.message);
      assert.match(served.message, problem);
    }
  });

  it('does not serve a kept version that is itself unusable (a NUL byte in its body)', async () => {
    const file = await write('---\nname: notes\ndescription: [unclosed\n---\n');
    const served = await servedSkillFile(recordOf(file, '---\nname: notes\ndescription: Take notes.\n---\nA\0B\n'));
    assert.ok(!served.ok && /Invalid YAML/.test(served.message));
  });

  it('stands in for a file over the size limit or unreadable, not for one that is gone', async () => {
    const kept = skillText('notes', 'Take notes.', 'Kept.');
    const missing = path.join(dir, 'gone', SKILL_FILE_NAME);
    assert.deepEqual(await servedSkillFile(recordOf(missing, kept)), {
      ok: false,
      message: `Could not read skill "notes": Cannot read the skill file ${missing}: it does not exist or is not a file`,
    });
    const huge = await write(skillText('notes', 'Take notes.', 'x'.repeat(MAX_SKILL_FILE_BYTES)));
    const tooBig = await servedSkillFile(recordOf(huge));
    assert.ok(!tooBig.ok && tooBig.message.includes(huge) && /1 MiB/.test(tooBig.message));
    const keptInstead = await servedSkillFile(recordOf(huge, kept));
    assert.ok(keptInstead.ok && keptInstead.lastValid && keptInstead.text === kept);
    await fs.rm(huge);
    await fs.mkdir(huge);
    const folder = await servedSkillFile(recordOf(huge, kept));
    assert.ok(folder.ok && folder.lastValid);
  });

  it('words the message every surface gives', () => {
    assert.equal(brokenSkillMessage('a', '/s/a/SKILL.md', 'Bad YAML.'), 'Skill "a" is invalid: Bad YAML. (/s/a/SKILL.md).');
    assert.equal(brokenSkillMessage('a', '/s/a/SKILL.md', undefined), 'Skill "a" is invalid (/s/a/SKILL.md).');
  });
});
