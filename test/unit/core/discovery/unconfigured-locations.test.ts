import * as assert from 'node:assert/strict';
import { findUnconfiguredLocations, unconfiguredMessage } from '../../../../src/core/discovery/unconfigured-locations';
import { removeDir, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

describe('findUnconfiguredLocations', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, {
      '.claude': { skills: { pdf: { 'SKILL.md': skillText('pdf', 'x') } } },
      '.github': { skills: { 'README.md': 'no skill folders here', docs: { 'README.md': 'a folder without SKILL.md' } } },
      '.agents': { skills: { notes: { 'skill.md': skillText('notes', 'x') } } },
    });
  });

  afterEach(() => removeDir(dir));

  it('finds well-known folders holding skills that the locations leave out', async () => {
    assert.deepEqual(await findUnconfiguredLocations(dir, ['.agent/skills']), ['.agents/skills', '.claude/skills']);
  });

  it('finds each of the four well-known locations, in their order', async () => {
    await writeTree(dir, {
      '.github': { skills: { review: { 'SKILL.md': skillText('review', 'x') } } },
      '.agent': { skills: { docs: { 'SKILL.md': skillText('docs', 'x') } } },
    });
    assert.deepEqual(await findUnconfiguredLocations(dir, []), ['.agents/skills', '.github/skills', '.claude/skills', '.agent/skills']);
  });

  it('treats "./x/" and "x" as the same location', async () => {
    assert.deepEqual(await findUnconfiguredLocations(dir, ['./.claude/skills/', '.agents/skills']), []);
  });

  it('recognises a location written with backslashes, doubled slashes or "." segments, as the roots resolve it', async () => {
    assert.deepEqual(await findUnconfiguredLocations(dir, ['.claude\\skills', '.agents//skills//']), []);
    assert.deepEqual(await findUnconfiguredLocations(dir, ['.claude/./skills', './.agents/skills']), []);
  });
});

describe('unconfiguredMessage', () => {
  it('names the folders found, and says nothing when there are none', () => {
    assert.equal(unconfiguredMessage([]), undefined);
    assert.equal(unconfiguredMessage(['.claude/skills']), 'Skills in .claude/skills are not used: the folder is not in agentSkills.locations. "Add Found Skill Folders" in the view\'s menu adds it.');
    assert.equal(
      unconfiguredMessage(['.claude/skills', '.github/skills']),
      'Skills in .claude/skills, .github/skills are not used: the folders are not in agentSkills.locations. "Add Found Skill Folders" in the view\'s menu adds them.',
    );
  });
});
