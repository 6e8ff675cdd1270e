// The discovery index read as hostile input: both forms, every entry checked, refused with the
// index and the entry named; and the legacy digest exactly as `npx skills` computes it.

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DISCOVERY_SCHEMA, IndexError, legacySkillDigest, parseIndex } from '../../../../src/core/site/discovery-index';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const WHERE = 'https://skills.example/.well-known/agent-skills/index.json';

function discovery(skills: unknown[]): string {
  return JSON.stringify({ $schema: DISCOVERY_SCHEMA, skills });
}

function refused(text: string, message: string): void {
  assert.throws(() => parseIndex(text, WHERE), new IndexError(`${WHERE}${message}`));
}

describe('the discovery index', () => {
  const entry = { name: 'alpha', description: 'Formats alpha reports.', type: 'archive', url: 'alpha.tar.gz', digest: DIGEST };

  it('reads the 0.2.0 form, and the legacy form (no $schema, files)', () => {
    assert.deepEqual(parseIndex(discovery([entry, { ...entry, name: 'beta', type: 'skill-md', extra: true }]), WHERE), {
      format: 'discovery',
      skills: [entry, { ...entry, name: 'beta', type: 'skill-md' }],
    });
    assert.deepEqual(parseIndex(JSON.stringify({ skills: [{ name: 'alpha', description: 'A.', files: ['SKILL.md', './scripts/run.sh'] }] }), WHERE), {
      format: 'legacy',
      skills: [{ name: 'alpha', description: 'A.', files: ['SKILL.md', 'scripts/run.sh'] }],
    });
  });

  it('refuses an index that is not JSON, not an index, of another schema, or too long', () => {
    assert.throws(() => parseIndex('{', WHERE), /index\.json: not valid JSON/);
    refused('[]', `: expected {"$schema": "${DISCOVERY_SCHEMA}", "skills": […]}.`);
    refused(JSON.stringify({ $schema: 'https://example/other.json', skills: [] }), `: its $schema "https://example/other.json" is not ${DISCOVERY_SCHEMA}, the discovery index this tool reads.`);
    refused(discovery(Array.from({ length: 1001 }, () => entry)), ': lists 1001 skills, more than 1000 are read.');
  });

  it('refuses an entry whose name could name another folder, naming the entry', () => {
    for (const name of ['../../etc', '/tmp/x', '.', 'Alpha', 'a--b', 'x'.repeat(65)]) {
      assert.throws(
        () => parseIndex(discovery([{ ...entry, name }]), WHERE),
        (error: unknown) => error instanceof IndexError && error.message.startsWith(`${WHERE}: skills[0]: "${name}" is not a valid skill name`),
        name,
      );
    }
  });

  it('refuses an entry without a usable description, type, url or digest', () => {
    refused(discovery([{ ...entry, description: ' ' }]), ': skills[0] ("alpha"): its description must be text of 1 to 1024 characters.');
    refused(discovery([{ ...entry, type: 'zip' }]), ': skills[0] ("alpha"): its type "zip" is neither "skill-md" nor "archive".');
    refused(discovery([{ ...entry, url: '' }]), ': skills[0] ("alpha") has no url.');
    refused(discovery([{ ...entry, digest: 'sha256:ABC' }]), ': skills[0] ("alpha"): its digest must be "sha256:" and 64 lowercase hexadecimal digits.');
    refused(discovery([entry, entry]), ': lists the skill "alpha" twice.');
  });

  it('refuses a legacy entry whose files leave the skill folder or leave out SKILL.md', () => {
    const legacy = (files: unknown): string => JSON.stringify({ skills: [{ name: 'alpha', description: 'A.', files }] });
    assert.throws(() => parseIndex(legacy(['SKILL.md', '../../.bashrc']), WHERE), /skills\[0\] \("alpha"\): the entry "\.\.\/\.\.\/\.bashrc" leads out of the skill folder/);
    assert.throws(() => parseIndex(legacy(['SKILL.md', '/etc/passwd']), WHERE), /"\/etc\/passwd" leads out/);
    refused(legacy(['README.md']), ': skills[0] ("alpha"): its files do not include SKILL.md.');
    refused(legacy([]), ': skills[0] ("alpha"): its files must list 1 to 1000 paths.');
    refused(legacy(['SKILL.md', 'SKILL.md']), ': skills[0] ("alpha"): its files name a path twice or name the skill folder itself.');
  });

  it('computes the legacy digest as npx skills does: sorted paths, each with its bytes, NUL-separated', () => {
    const files = new Map([
      ['scripts/run.sh', Buffer.from('echo\n')],
      ['SKILL.md', Buffer.from('# Hello\n')],
    ]);
    const expected = createHash('sha256').update('SKILL.md\0# Hello\n\0scripts/run.sh\0echo\n\0').digest('hex');
    assert.equal(legacySkillDigest(files), `sha256:${expected}`);
  });
});
