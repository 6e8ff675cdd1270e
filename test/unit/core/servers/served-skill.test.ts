import * as assert from 'node:assert/strict';
import { checkServedSkill, contentMismatch, servedFilePath, sha256Digest, MAX_SERVED_BYTES, MAX_SERVED_FILES } from '../../../../src/core/servers/served-skill';
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

  it('says exactly why an entry is refused, at each limit', () => {
    const reason = (value: unknown): string | undefined => {
      const check = checkServedSkill(value);
      return check.ok ? undefined : check.reason;
    };
    const empty = { digest: sha256Digest(Buffer.from('')), size: 0 };
    assert.equal(reason('skill://pdf/SKILL.md'), 'the entry has no "uri"');
    assert.equal(reason({ ...pdf(), uri: 3 }), 'the entry has no "uri"');
    for (const uri of ['pdf/SKILL.md', '://pdf/SKILL.md', 'skill:///SKILL.md', 'skill://pdf/skill.md']) {
      assert.equal(reason({ ...pdf(), uri }), `its URI is not that of a SKILL.md (scheme://path/SKILL.md)`, uri);
    }
    assert.equal(checkServedSkill(servedSkill('a', { 'SKILL.md': 'x' })).ok, true);
    assert.deepEqual(checkServedSkill({ ...pdf(), uri: 'pdf/SKILL.md' }), { ok: false, uri: 'pdf/SKILL.md', reason: 'its URI is not that of a SKILL.md (scheme://path/SKILL.md)' });
    assert.equal(reason({ ...pdf(), frontmatter: ['pdf'] }), 'its frontmatter lacks a "name" or a "description"');
    assert.equal(reason({ ...pdf(), frontmatter: { description: 'x' } }), 'its frontmatter lacks a "name" or a "description"');
    assert.equal(reason({ ...pdf(), resources: { 'SKILL.md': {} } }), '"resources" is neither a list of files nor "dynamic"');
    assert.equal(reason({ ...pdf(), resources: 'dynamic' }), 'its content is generated ("resources": "dynamic"), so there are no digests to check it against; such skills are not loaded');
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, 'x.md'] }), 'a file in "resources" lacks its "uri", "digest" or "size"');
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, { uri: 'skill://pdf/x.md', digest: empty.digest }] }), 'a file in "resources" lacks its "uri", "digest" or "size"');
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, { uri: 'skill://pdf/x.md', size: 0 }] }), 'a file in "resources" lacks its "uri", "digest" or "size"');
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, { ...empty }] }), 'a file in "resources" lacks its "uri", "digest" or "size"');
    assert.equal(
      reason({ ...pdf(), resources: [...pdf().resources, { ...empty, uri: 'skill://pdf/x.md', digest: `${empty.digest}0` }] }),
      'the digest of skill://pdf/x.md is not "sha256:" and 64 lowercase hexadecimal digits',
    );
    assert.equal(
      reason({ ...pdf(), resources: [...pdf().resources, { ...empty, uri: 'skill://pdf/x.md', digest: `x${empty.digest}` }] }),
      'the digest of skill://pdf/x.md is not "sha256:" and 64 lowercase hexadecimal digits',
    );
    for (const size of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      assert.equal(reason({ ...pdf(), resources: [...pdf().resources, { ...empty, uri: 'skill://pdf/x.md', size }] }), 'the size of skill://pdf/x.md is not a whole number of bytes', String(size));
    }
    assert.equal(
      reason({ ...pdf(), resources: [...pdf().resources, { ...empty, uri: 'skill://other/x.md' }] }),
      "file skill://other/x.md: skill://other/x.md is not inside the skill's folder skill://pdf",
    );
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, { ...empty, uri: 'skill://pdf/references/./forms.md' }] }), 'the file references/forms.md is listed twice');
    assert.equal(reason({ ...pdf(), resources: pdf().resources.slice(1) }), 'its files do not include its own SKILL.md');
    // Exactly at the limits: accepted.
    const files = (count: number) => Array.from({ length: count }, (_, index) => ({ ...empty, uri: `skill://pdf/f${index}` }));
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, ...files(MAX_SERVED_FILES - 2)] }), undefined);
    assert.equal(reason({ ...pdf(), resources: [...pdf().resources, ...files(MAX_SERVED_FILES - 1)] }), 'it has 513 files, more than the 512 a skill may have');
    const [skillFile] = pdf().resources;
    assert.equal(reason({ ...pdf(), resources: [{ ...skillFile, size: MAX_SERVED_BYTES }] }), undefined);
    assert.equal(
      reason({
        ...pdf(),
        resources: [
          { ...skillFile, size: MAX_SERVED_BYTES - 5 },
          { ...empty, uri: 'skill://pdf/a', size: 6 },
        ],
      }),
      'its files add up to 16777217 bytes, more than the 16777216 a skill may hold',
    );
  });

  it('keeps only the fields of a file it knows, and names the frontmatter fields it needs first', () => {
    const entry = pdf();
    const check = checkServedSkill({ ...entry, resources: entry.resources.map((file) => ({ ...file, mimeType: 'text/markdown' })), extra: 1 });
    assert.ok(check.ok);
    assert.deepEqual(check.skill, entry);
    assert.equal(servedFilePath(entry, { uri: 'skill://pdf/a.md#part' }), 'a.md');
  });
});
