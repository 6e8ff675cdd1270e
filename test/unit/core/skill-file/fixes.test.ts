import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { validateSkillText } from '../../../../src/core/skill-file/load';
import { applyEdits, fixesForDiagnostic, yamlScalar, type SkillFix } from '../../../../src/core/skill-file/fixes';
import type { SkillDiagnostic } from '../../../../src/core/model/types';

const file = path.resolve('/skills/pdf-tools/SKILL.md');

function diagnostic(text: string, code: string): SkillDiagnostic {
  const found = validateSkillText(text, file).diagnostics.find((candidate) => candidate.code === code);
  assert.ok(found, `expected a ${code} diagnostic`);
  return found;
}

function fixesFor(text: string, code: string): SkillFix[] {
  return fixesForDiagnostic(text, file, diagnostic(text, code));
}

/** Applies a fix and returns the new text and what validation says about it. */
function apply(text: string, fix: SkillFix): { text: string; codes: string[] } {
  const fixed = applyEdits(text, fix.edits);
  return { text: fixed, codes: validateSkillText(fixed, file).diagnostics.map((found) => found.code) };
}

describe('fixesForDiagnostic', () => {
  describe('name-mismatch', () => {
    const text = '---\nname: pdf\ndescription: Work with PDFs.\n---\nBody\n';

    it('sets the name to the folder name (preferred) or renames the folder to the name', () => {
      const [setName, rename] = fixesFor(text, 'name-mismatch');
      assert.equal(setName.title, 'Set name to "pdf-tools" (the folder name)');
      assert.equal(setName.preferred, true);
      assert.deepEqual(apply(text, setName), { text: text.replace('name: pdf', 'name: pdf-tools'), codes: [] });
      assert.deepEqual(rename.renameFolder, { from: path.dirname(file), to: path.resolve('/skills/pdf') });
      assert.deepEqual(rename.edits, []);
    });

    it('does not suggest a name that breaks the rules', () => {
      const upper = path.resolve('/skills/PDF_Tools/SKILL.md');
      const found = validateSkillText(text, upper).diagnostics.find((candidate) => candidate.code === 'name-mismatch')!;
      const titles = fixesForDiagnostic(text, upper, found).map((fix) => fix.title);
      assert.deepEqual(titles, ['Rename the folder to "pdf"']);
    });
  });

  describe('yaml-syntax', () => {
    it('quotes a description holding ": "', () => {
      const text = '---\nname: pdf-tools\ndescription: Use it when: the user has a PDF\nlicense: MIT\n---\nBody\n';
      const [fix] = fixesFor(text, 'yaml-syntax');
      assert.equal(fix.title, 'Quote the value of "description"');
      const result = apply(text, fix);
      assert.equal(result.text, '---\nname: pdf-tools\ndescription: "Use it when: the user has a PDF"\nlicense: MIT\n---\nBody\n');
      assert.deepEqual(result.codes, []);
    });

    it('quotes values starting with a reserved character, folding continuation lines, keeping CRLF', () => {
      const text = '---\r\nname: pdf-tools\r\ndescription: `pdf` tools: extract\r\n  and fill forms\r\n---\r\nBody\r\n';
      const [fix] = fixesFor(text, 'yaml-syntax');
      const result = apply(text, fix);
      assert.equal(result.text, '---\r\nname: pdf-tools\r\ndescription: "`pdf` tools: extract and fill forms"\r\n---\r\nBody\r\n');
      assert.deepEqual(result.codes, []);
    });

    it('offers nothing when quoting would not help', () => {
      const text = '---\nname: pdf-tools\ndescription: "unclosed\nlicense: MIT\n---\n';
      assert.deepEqual(fixesFor(text, 'yaml-syntax'), []);
    });
  });

  describe('unknown-field', () => {
    it('moves one field, or all unknown fields, into a new metadata block', () => {
      const text = '---\nname: pdf-tools\ndescription: Work with PDFs.\nauthor: Ann\nversion: 2\n---\nBody\n';
      const [one, all] = fixesFor(text, 'unknown-field');
      assert.equal(one.title, 'Move "author" under metadata');
      assert.deepEqual(apply(text, one), {
        text: '---\nname: pdf-tools\ndescription: Work with PDFs.\nversion: 2\nmetadata:\n  author: "Ann"\n---\nBody\n',
        codes: ['unknown-field'],
      });
      assert.equal(all.title, 'Move all 2 unknown fields under metadata');
      assert.deepEqual(apply(text, all), {
        text: '---\nname: pdf-tools\ndescription: Work with PDFs.\nmetadata:\n  author: "Ann"\n  version: "2"\n---\nBody\n',
        codes: [],
      });
    });

    it('appends to an existing metadata block with its indentation', () => {
      const text = '---\nname: pdf-tools\nmetadata:\n    team: docs\nauthor: Ann\ndescription: Work with PDFs.\n---\n';
      const [fix] = fixesFor(text, 'unknown-field');
      assert.deepEqual(apply(text, fix), {
        text: '---\nname: pdf-tools\nmetadata:\n    team: docs\n    author: "Ann"\ndescription: Work with PDFs.\n---\n',
        codes: [],
      });
    });

    it('leaves structured values alone', () => {
      const text = '---\nname: pdf-tools\ndescription: Work with PDFs.\ntags:\n  - a\n---\n';
      assert.deepEqual(fixesFor(text, 'unknown-field'), []);
    });
  });

  describe('over-long fields', () => {
    it('trims the description to the limit', () => {
      const long = 'word '.repeat(300).trim();
      const text = `---\nname: pdf-tools\ndescription: ${long}\n---\n`;
      const [fix] = fixesFor(text, 'description-too-long');
      assert.equal(fix.title, 'Trim description to 1024 characters');
      const result = apply(text, fix);
      assert.deepEqual(result.codes, []);
      assert.ok(validateSkillText(result.text, file).metadata!.description.length <= 1024);
    });
  });

  it('quotes scalars only when needed', () => {
    assert.equal(yamlScalar('pdf-tools'), 'pdf-tools');
    assert.equal(yamlScalar('true'), '"true"');
    assert.equal(yamlScalar('a: b'), '"a: b"');
  });
});
