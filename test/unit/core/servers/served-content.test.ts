import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServedSkillFiles, ServedSkillError, frontmatterDifferences, type SkillFileSource } from '../../../../src/core/servers/served-content';
import { ENTRY_FILE_NAME, storeListing } from '../../../../src/core/servers/server-cache';
import { ResourceError } from '../../../../src/core/use/resources';
import type { SkillRecord } from '../../../../src/core/model/types';
import { sha256Digest } from '../../../../src/core/servers/served-skill';
import { servedSkill, skillText, temporaryFolder } from './served-fixtures';

const SKILL = skillText('pdf', 'Use pdf.', 'Fill the form in references/forms.md.');
const FORMS = 'The forms.\n';

/** A server answering `resources/read` from `files` (URI → text), counting reads. */
function fakeServer(files: Record<string, string>): SkillFileSource & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    readFile: async (uri) => {
      reads.push(uri);
      if (!(uri in files)) {
        throw new Error(`no ${uri}`);
      }
      return Buffer.from(files[uri]);
    },
  };
}

async function cachedRecord(): Promise<SkillRecord> {
  const server = temporaryFolder();
  await storeListing(server, [servedSkill('pdf', { 'SKILL.md': SKILL, 'references/forms.md': FORMS })]);
  const dir = path.join(server, 'pdf');
  return {
    name: 'pdf',
    dir,
    file: path.join(dir, 'SKILL.md'),
    realDir: dir,
    root: { path: server, kind: 'server', label: 'team', server: 'team' },
    diagnostics: [],
    status: 'available',
    mtimeMs: 0,
    size: 0,
  };
}

describe('reading a skill server skill', () => {
  it('fetches a file on first use, verifies it, keeps it, and serves the kept copy after', async () => {
    const record = await cachedRecord();
    const server = fakeServer({ 'skill://pdf/SKILL.md': SKILL, 'skill://pdf/references/forms.md': FORMS });
    const files = new ServedSkillFiles(
      async () => server,
      () => undefined,
    );
    assert.equal(await files.content.readBody(record), 'Fill the form in references/forms.md.\n');
    assert.equal(fs.readFileSync(record.file, 'utf8'), SKILL);
    await files.content.readBody(record);
    assert.deepEqual(server.reads, ['skill://pdf/SKILL.md']);
    const resource = await files.content.readResource(record, './references/forms.md');
    assert.deepEqual(resource, { kind: 'text', path: 'references/forms.md', text: FORMS, size: FORMS.length, truncated: false });
    assert.deepEqual(await files.content.listResources(record), { files: ['references/forms.md'], total: 1, complete: true });
  });

  it('refuses a file whose bytes are not the listed ones: nothing used, nothing kept, the refusal logged with server and file', async () => {
    const record = await cachedRecord();
    const logged: string[] = [];
    const altered = SKILL.replace('form', 'farm');
    const files = new ServedSkillFiles(
      async () => fakeServer({ 'skill://pdf/SKILL.md': altered }),
      (line) => logged.push(line),
    );
    await assert.rejects(files.content.readBody(record), (error: unknown) => {
      assert.ok(error instanceof ServedSkillError);
      assert.equal(error.reason, 'refused');
      assert.match(
        error.message,
        /^Refused SKILL\.md of skill "pdf" from skill server "team" \(skill:\/\/pdf\/SKILL\.md\): its SHA-256 digest is sha256:\w+ where the server's entry says sha256:\w+\. It was not used or kept\.$/,
      );
      return true;
    });
    assert.equal(fs.existsSync(record.file), false);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /Refused SKILL\.md of skill "pdf" from skill server "team"/);
  });

  it('refuses a SKILL.md whose frontmatter is not the listed one, even with the listed digest', async () => {
    const server = temporaryFolder();
    const text = skillText('pdf', 'Something else.');
    await storeListing(server, [{ ...servedSkill('pdf', { 'SKILL.md': text }), frontmatter: { name: 'pdf', description: 'Use pdf.' } }]);
    const record = { ...(await cachedRecord()), dir: path.join(server, 'pdf'), file: path.join(server, 'pdf', 'SKILL.md') };
    const files = new ServedSkillFiles(
      async () => fakeServer({ 'skill://pdf/SKILL.md': text }),
      () => undefined,
    );
    await assert.rejects(files.content.readBody(record), /its frontmatter differs from the listed one \(description\)/);
    assert.deepEqual(frontmatterDifferences(skillText('pdf', 'Use pdf.'), { description: 'Use pdf.', name: 'pdf' }), []);
    assert.deepEqual(frontmatterDifferences('no frontmatter', { name: 'pdf', description: 'x' }), ['(the file has no readable frontmatter)']);
  });

  it('compares frontmatter values whatever their key order, lists and maps apart, and names the fields that differ in order', () => {
    const text = '---\nname: pdf\ndescription: Use pdf.\nlicense: MIT\nmetadata:\n  b: "1"\n  a: "2"\n---\nBody\n';
    assert.deepEqual(frontmatterDifferences(text, { name: 'pdf', description: 'Use pdf.', license: 'MIT', metadata: { a: '2', b: '1' } }), []);
    assert.deepEqual(frontmatterDifferences(text, { name: 'pdf', description: 'Other.', metadata: { a: '2', b: '1' }, compatibility: 'x' }), ['compatibility', 'description', 'license']);
    const list = '---\nname: pdf\ndescription: Use pdf.\nmetadata:\n  - a\n---\n';
    assert.deepEqual(frontmatterDifferences(list, { name: 'pdf', description: 'Use pdf.', metadata: { '0': 'a' } }), ['metadata']);
    assert.deepEqual(frontmatterDifferences(text, { name: 'pdf', description: 'Use pdf.', license: 'MIT', metadata: { a: '2', b: '3' } }), ['metadata']);
  });

  it('takes a value YAML 1.1 reads as a date, number or boolean as listed either way: as the JSON of that reading, or as the YAML 1.2 reading', () => {
    const text = '---\nname: pdf\ndescription: Use pdf.\ncreated: 2024-01-15\nversion: 010\nbeta: yes\nratio: 1:30\nwhen: 2024-01-15 10:30:00\nmetadata:\n  since: 2024-01-15\n---\n';
    // As a server whose YAML reader follows YAML 1.2 (the reference SDK, this product's own server) lists it.
    const core = { name: 'pdf', description: 'Use pdf.', created: '2024-01-15', version: 10, beta: 'yes', ratio: '1:30', when: '2024-01-15 10:30:00', metadata: { since: '2024-01-15' } };
    assert.deepEqual(frontmatterDifferences(text, core), []);
    // As a YAML 1.1 reader gives it, turned into JSON: dates as ISO text, 010 as octal.
    const yaml11 = { ...core, created: '2024-01-15T00:00:00.000Z', version: 8, beta: 'yes', ratio: 90, when: '2024-01-15T10:30:00.000Z', metadata: { since: '2024-01-15T00:00:00.000Z' } };
    assert.deepEqual(frontmatterDifferences(text, yaml11), []);
    // Anything else is still a difference: another date, another number, a type that no reading gives.
    assert.deepEqual(frontmatterDifferences(text, { ...core, created: '2024-01-16', version: '010', metadata: { since: 20240115 } }), ['created', 'metadata', 'version']);
  });

  it('works offline from verified copies, and says what is missing when a file was never fetched', async () => {
    const record = await cachedRecord();
    const online = new ServedSkillFiles(
      async () => fakeServer({ 'skill://pdf/SKILL.md': SKILL }),
      () => undefined,
    );
    await online.content.readBody(record);
    const offline = new ServedSkillFiles(
      async () => undefined,
      () => undefined,
    );
    assert.equal(await offline.content.readBody(record), 'Fill the form in references/forms.md.\n');
    await assert.rejects(
      offline.content.readResource(record, 'references/forms.md'),
      /^ServedSkillError: Skill server "team" cannot be reached, and no verified copy of references\/forms\.md of skill "pdf" is cached\.$/,
    );
    // A kept copy edited on disk is no longer served.
    fs.writeFileSync(record.file, SKILL.replace('Fill', 'Burn'));
    await assert.rejects(offline.content.readBody(record), /cannot be reached, and no verified copy of SKILL\.md/);
  });

  it('reads only listed files, suggesting the near ones', async () => {
    const record = await cachedRecord();
    const server = fakeServer({});
    const files = new ServedSkillFiles(
      async () => server,
      () => undefined,
    );
    await assert.rejects(files.content.readResource(record, 'references/form.md'), (error: unknown) => {
      assert.ok(error instanceof ResourceError);
      assert.equal(error.message, 'Skill "pdf" from skill server "team" has no file "references/form.md". Did you mean: references/forms.md?');
      return true;
    });
    await assert.rejects(files.content.readResource(record, '../other/SKILL.md'), /leads outside the skill folder/);
    assert.deepEqual(server.reads, []);
  });
  /** Rejects with a ServedSkillError of `reason` whose message is exactly `message`. */
  async function rejectsWith(promise: Promise<unknown>, reason: ServedSkillError['reason'], message: string): Promise<void> {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof ServedSkillError, String(error));
      assert.deepEqual([error.reason, error.message], [reason, message]);
      return true;
    });
  }

  it('names the server, not its label, and says why an entry cannot be read: missing, not JSON, or not a usable entry', async () => {
    const record = { ...(await cachedRecord()), root: { path: '', kind: 'server' as const, label: 'team (offline, cached)', server: 'team' } };
    const files = new ServedSkillFiles(
      async () => undefined,
      () => undefined,
    );
    const entryFile = path.join(record.dir, ENTRY_FILE_NAME);
    fs.writeFileSync(entryFile, '{"uri": "skill://pdf/SKILL.md"');
    await rejectsWith(files.content.readBody(record), 'unavailable', 'The entry of skill "pdf" from skill server "team" is not cached (.skill-entry.json is not JSON); refresh the skills.');
    fs.writeFileSync(entryFile, '{"uri": 1}');
    await rejectsWith(files.entry(record), 'unavailable', 'The entry of skill "pdf" from skill server "team" is not cached (the entry has no "uri"); refresh the skills.');
    fs.rmSync(entryFile);
    await rejectsWith(files.entry(record), 'unavailable', 'The entry of skill "pdf" from skill server "team" is not cached; refresh the skills.');
    fs.mkdirSync(entryFile);
    await rejectsWith(files.entry(record), 'unavailable', `The entry of skill "pdf" from skill server "team" is not cached (EISDIR: illegal operation on a directory, read); refresh the skills.`);
    assert.deepEqual(await files.content.listResources(record), { files: [], total: 0, complete: true });
  });

  it('says which file a server did not send, and which a server that cannot be reached never sent', async () => {
    const record = await cachedRecord();
    const failing = new ServedSkillFiles(
      async () => fakeServer({}),
      () => undefined,
    );
    await rejectsWith(
      failing.content.readResource(record, 'references/forms.md'),
      'unavailable',
      'Skill server "team" did not send references/forms.md of skill "pdf": no skill://pdf/references/forms.md',
    );
    const offline = new ServedSkillFiles(
      async () => undefined,
      () => undefined,
    );
    await rejectsWith(offline.content.readBody(record), 'unavailable', 'Skill server "team" cannot be reached, and no verified copy of SKILL.md of skill "pdf" is cached.');
  });

  it('suggests nothing for a name like no listed file, and several near ones in order', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': SKILL, 'forms-a.md': FORMS, 'forms-b.md': FORMS, 'zzz.md': FORMS })]);
    const record = { ...(await cachedRecord()), dir: path.join(server, 'pdf') };
    const files = new ServedSkillFiles(
      async () => undefined,
      () => undefined,
    );
    await assert.rejects(files.content.readResource(record, 'forms.md'), (error: unknown) => {
      assert.ok(error instanceof ResourceError);
      assert.deepEqual([error.code, error.message], ['not-found', 'Skill "pdf" from skill server "team" has no file "forms.md". Did you mean: forms-a.md, forms-b.md?']);
      return true;
    });
    await assert.rejects(files.content.readResource(record, 'quarterly-report.txt'), {
      message: 'Skill "pdf" from skill server "team" has no file "quarterly-report.txt".',
    });
  });

  it('lists the files but SKILL.md sorted by path, as many as asked, with the total', async () => {
    const server = temporaryFolder();
    await storeListing(server, [servedSkill('pdf', { 'SKILL.md': SKILL, 'scripts/fill.py': 'x', 'references/b.md': 'b', 'references/a.md': 'a' })]);
    const record = { ...(await cachedRecord()), dir: path.join(server, 'pdf') };
    const files = new ServedSkillFiles(
      async () => undefined,
      () => undefined,
    );
    assert.deepEqual(await files.content.listResources(record), { files: ['references/a.md', 'references/b.md', 'scripts/fill.py'], total: 3, complete: true });
    assert.deepEqual(await files.content.listResources(record, 2), { files: ['references/a.md', 'references/b.md'], total: 3, complete: true });
  });

  it('names every frontmatter field that differs, and refuses a kept SKILL.md that matches its digest but has no frontmatter', async () => {
    const server = temporaryFolder();
    const text = skillText('pdf', 'Something else.').replace('---\n', '---\nlicense: MIT\n');
    await storeListing(server, [{ ...servedSkill('pdf', { 'SKILL.md': text }), frontmatter: { name: 'pdf', description: 'Use pdf.' } }]);
    const record = { ...(await cachedRecord()), dir: path.join(server, 'pdf'), file: path.join(server, 'pdf', 'SKILL.md') };
    const files = new ServedSkillFiles(
      async () => fakeServer({ 'skill://pdf/SKILL.md': text }),
      () => undefined,
    );
    await assert.rejects(files.content.readBody(record), /its frontmatter differs from the listed one \(description, license\)\. It was not used or kept\.$/);

    const plain = 'No frontmatter here.\n';
    const tampered = temporaryFolder();
    await storeListing(tampered, [{ ...servedSkill('pdf', {}), resources: [{ uri: 'skill://pdf/SKILL.md', digest: sha256Digest(Buffer.from(plain)), size: plain.length }] }]);
    fs.writeFileSync(path.join(tampered, 'pdf', 'SKILL.md'), plain);
    const kept = { ...record, dir: path.join(tampered, 'pdf'), file: path.join(tampered, 'pdf', 'SKILL.md') };
    await rejectsWith(files.content.readBody(kept), 'refused', 'SKILL.md of skill "pdf" from skill server "team" has no complete frontmatter.');
  });
});
