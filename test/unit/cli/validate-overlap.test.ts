// `agent-skills validate` over a folder of skills also says which skills compete for the same
// queries: a trigger query another skill ranks first for, and descriptions too alike.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/run';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';

describe('agent-skills validate: skills that compete', () => {
  let dir: string;
  beforeEach(async () => (dir = await tempDir()));
  afterEach(() => removeDir(dir));

  const alike = 'Review a cloud architecture against the well-architected framework pillars for CLOUD workloads and report the risks.';
  const competing = {
    'aws-review': { 'SKILL.md': skillText('aws-review', alike.replace('CLOUD', 'AWS')) },
    'azure-review': {
      'SKILL.md': skillText('azure-review', alike.replace('CLOUD', 'Azure')),
      evals: { 'triggers.json': '[\n  { "query": "review my AWS workloads", "should_trigger": true }\n]' },
    },
  };

  it('warns on the competing query and on both alike descriptions, and still exits 0', async () => {
    await writeTree(dir, competing);
    let stdout = '';
    const code = await runCli(['validate', '.'], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: dir });

    assert.equal(code, 0, stdout);
    assert.match(stdout, /^aws-review\/SKILL\.md:3:14: warning: The description of aws-review is \d+% alike to azure-review's: .* \[overlap-description\]$/m);
    assert.match(stdout, /^azure-review\/SKILL\.md:3:14: warning: The description of azure-review is \d+% alike to aws-review's: .* \[overlap-description\]$/m);
    assert.match(
      stdout,
      /^azure-review\/evals\/triggers\.json:2:3: warning: "review my AWS workloads" ranks aws-review above azure-review in the skill search \(azure-review comes 2nd\).* \[overlap-query\]$/m,
    );
    assert.ok(!stdout.includes(path.join(dir, 'aws-review')), 'paths are relative to the working folder');
  });

  it('leaves competing skills out with --strict, which applies the specification alone', async () => {
    await writeTree(dir, competing);
    let stdout = '';
    const code = await runCli(['validate', '--strict', '.'], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: dir });

    assert.equal(code, 0, stdout);
    assert.doesNotMatch(stdout, /overlap-/);
    assert.match(stdout, /^2 skills checked: 0 errors, 0 warnings$/m);
  });

  it('checks a skill reached twice once, and never compares it with itself', async () => {
    await writeTree(dir, {
      skills: { 'pdf-forms': { 'SKILL.md': skillText('pdf-forms', 'Fills in PDF forms.') }, 'release-notes': { 'SKILL.md': skillText('release-notes', 'Drafts release notes.') } },
    });
    await fs.symlink(path.join(dir, 'skills'), path.join(dir, 'link'));
    for (const args of [
      ['skills', 'skills'],
      ['skills', 'link'],
      ['skills', 'skills/pdf-forms'],
      ['skills/pdf-forms/SKILL.md', 'link/pdf-forms', 'skills'],
    ]) {
      let stdout = '';
      const code = await runCli(['validate', ...args], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: dir });
      assert.equal(code, 0, stdout);
      assert.equal(stdout, '2 skills checked: 0 errors, 0 warnings\n', args.join(' '));
    }
  });

  it('places the warning on an alike description past a long frontmatter, and before a long body', async () => {
    const description = alike.replace('CLOUD', 'GCP');
    const longMetadata = Array.from({ length: 120 }, (_, index) => `  note-${index}: ${'x'.repeat(40)}\n`).join('');
    await writeTree(dir, {
      'long-frontmatter': { 'SKILL.md': `---\nname: long-frontmatter\nmetadata:\n${longMetadata}description: ${description}\n---\n\nShort body.\n` },
      'long-body': { 'SKILL.md': skillText('long-body', description, `${'Step by step. '.repeat(40)}\n`.repeat(30)) },
    });
    let stdout = '';
    const code = await runCli(['validate', '.'], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: dir });

    assert.equal(code, 0, stdout);
    assert.match(stdout, /^long-frontmatter\/SKILL\.md:124:14: warning: The description of long-frontmatter is 100% alike to long-body's: .* \[overlap-description\]$/m);
    assert.match(stdout, /^long-body\/SKILL\.md:3:14: warning: The description of long-body is 100% alike to long-frontmatter's: .* \[overlap-description\]$/m);
  });

  it('places the warning where the description stands with CRLF line ends, a byte-order mark or a folded value', async () => {
    const description = alike.replace('CLOUD', 'GCP');
    await writeTree(dir, {
      'crlf-bom': { 'SKILL.md': `\uFEFF---\r\n# owner: platform\r\nname: crlf-bom\r\n\r\ndescription:   ${description}\r\n---\r\nBody.\r\n` },
      folded: { 'SKILL.md': `---\nname: folded\ndescription: >-\n  ${description}\nlicense: MIT\n---\nBody.\n` },
    });
    let stdout = '';
    const code = await runCli(['validate', '.'], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: dir });

    assert.equal(code, 0, stdout);
    assert.match(stdout, /^crlf-bom\/SKILL\.md:5:16: warning: The description of crlf-bom is 100% alike to folded's: .* \[overlap-description\]$/m);
    assert.match(stdout, /^folded\/SKILL\.md:3:14: warning: The description of folded is 100% alike to crlf-bom's: .* \[overlap-description\]$/m);
  });

  it('names the three most alike skills on each description and counts the rest, however many compete', async () => {
    const copies = Object.fromEntries(
      Array.from({ length: 12 }, (_, index) => [`deploy-${index}`, { 'SKILL.md': skillText(`deploy-${index}`, 'Deploys the web service to the cloud and rolls back a failed release.') }]),
    );
    await writeTree(dir, copies);
    let stdout = '';
    const code = await runCli(['validate', '--json', '.'], { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: dir });
    assert.equal(code, 0, stdout);
    const skills = (JSON.parse(stdout) as { skills: Array<{ name: string; diagnostics: Array<{ code: string; message: string }> }> }).skills;
    assert.equal(skills.length, 12);
    for (const skill of skills) {
      const alike = skill.diagnostics.filter((diagnostic) => diagnostic.code === 'overlap-description');
      assert.equal(alike.length, 3, skill.name);
      assert.match(alike[2].message, new RegExp(`8 more skills are as alike \\(80% or more\\) to ${skill.name}\\.$`));
    }
  });
});
