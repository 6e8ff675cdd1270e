import * as assert from 'node:assert/strict';
import { checkServedSkill, contentMismatch, servedFilePath, sha256Digest, MAX_SERVED_FILES } from '../../../../src/core/servers/served-skill';
import { servedSkill, skillText } from './served-fixtures';

const pdf = () => servedSkill('pdf', { 'SKILL.md': skillText('pdf', 'Use pdf.'), 'references/forms.md': 'forms' });

describe('skill server entries', () => {
  it('accepts a complete entry and keeps its frontmatter whole', () => {
    const entry = { ...pdf(), frontmatter: { name: 'pdf', description: 'Use pdf.', license: 'MIT', metadata: { team: 'docs' } } };
    const check = checkServedSkill(entry);
    assert.ok(check.ok);
    assert.deepEqual(check.skill.frontmatter, entry.frontmatter);
    assert.deepEqual(
      check.skill.resources.map((file) => servedFilePath(check.skill, file)),
      ['SKILL.md', 'references/forms.md'],
    );
  });

  it('refuses, with the reason, entries that cannot be verified or placed', () => {
    const reasons = (value: unknown) => {
      const check = checkServedSkill(value);
      assert.ok(!check.ok, JSON.stringify(value));
      return check.reason;
    };
    assert.match(reasons({ ...pdf(), resources: 'dynamic' }), /generated .*no digests/);
    assert.match(reasons({ ...pdf(), uri: 'skill://pdf/README.md' }), /not that of a SKILL\.md/);
    assert.match(reasons({ ...pdf(), frontmatter: { name: 'other', description: 'x' } }), /ends in "pdf" but its name is "other"/);
    assert.match(reasons({ ...pdf(), frontmatter: { name: 'pdf' } }), /lacks a "name" or a "description"/);
    assert.match(reasons({ ...pdf(), resources: pdf().resources.slice(1) }), /do not include its own SKILL\.md/);
    assert.match(reasons({ ...pdf(), resources: [...pdf().resources, { ...pdf().resources[1], digest: 'sha256:ABC' }] }), /not "sha256:" and 64 lowercase/);
    assert.match(reasons({ ...pdf(), resources: [...pdf().resources, { uri: 'skill://other/x.md', digest: sha256Digest(Buffer.from('')), size: 0 }] }), /not inside the skill's folder/);
    assert.match(reasons({ ...pdf(), resources: [...pdf().resources, { uri: 'skill://pdf/../x.md', digest: sha256Digest(Buffer.from('')), size: 0 }] }), /outside the skill folder/);
    assert.match(reasons({ ...pdf(), resources: [...pdf().resources, pdf().resources[1]] }), /listed twice/);
    const many = Array.from({ length: MAX_SERVED_FILES }, (_, index) => ({ uri: `skill://pdf/f${index}`, digest: sha256Digest(Buffer.from('')), size: 0 }));
    assert.match(reasons({ ...pdf(), resources: [...pdf().resources, ...many] }), /more than the 512/);
    assert.match(reasons({ ...pdf(), resources: [{ ...pdf().resources[0], size: 17 * 1024 * 1024 }] }), /17825792 bytes, more than the 16777216/);
  });

  it('tells bytes that are not the listed file apart, by size and by digest', () => {
    const file = pdf().resources[1];
    assert.equal(contentMismatch(Buffer.from('forms'), file), undefined);
    assert.match(contentMismatch(Buffer.from('form'), file)!, /4 bytes long where the server's entry says 5/);
    assert.match(contentMismatch(Buffer.from('fXrms'), file)!, /SHA-256 digest is sha256:[0-9a-f]{64} where the server's entry says sha256:/);
  });

  it('reads percent-encoded file names as the names they stand for', () => {
    const entry = servedSkill('pdf', { 'SKILL.md': 'x' });
    assert.equal(servedFilePath(entry, { uri: 'skill://pdf/my%20notes/a.md' }), 'my notes/a.md');
  });
});
