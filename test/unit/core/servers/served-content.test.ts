import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServedSkillFiles, ServedSkillError, frontmatterDifferences, type SkillFileSource } from '../../../../src/core/servers/served-content';
import { storeListing } from '../../../../src/core/servers/server-cache';
import { ResourceError } from '../../../../src/core/use/resources';
import type { SkillRecord } from '../../../../src/core/model/types';
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
});
