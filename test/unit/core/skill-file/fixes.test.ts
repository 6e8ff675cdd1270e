import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { validateSkillText } from '../../../../src/core/skill-file/load';
import { applyEdits, fixesForDiagnostic, setFieldValueEdit, yamlScalar, type SkillFix, type TextEdit } from '../../../../src/core/skill-file/fixes';
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

/** The fixes for a diagnostic `code` said to be on `line`, as an editor may ask after the text changed. */
function fixesOnLine(text: string, code: string, line: number): SkillFix[] {
  return fixesForDiagnostic(text, file, { code, range: { start: { line, column: 0 }, end: { line, column: 1 } } });
}

/** Title, code and preference of each fix. */
function summary(fixes: SkillFix[]): Array<[string, string, boolean]> {
  return fixes.map((fix) => [fix.title, fix.code, fix.preferred === true]);
}

function edit(startLine: number, startColumn: number, endLine: number, endColumn: number, newText: string): TextEdit {
  return { range: { start: { line: startLine, column: startColumn }, end: { line: endLine, column: endColumn } }, newText };
}

const BROKEN = '---\nname: [pdf\ndescription: Work with PDFs.\nauthor: Ann\n---\n';

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

    it('does not offer to rename the folder to a name that breaks the rules, and reads the name trimmed', () => {
      assert.deepEqual(summary(fixesFor('---\nname: PDF\ndescription: Work with PDFs.\n---\n', 'name-mismatch')), [['Set name to "pdf-tools" (the folder name)', 'name-mismatch', true]]);
      const fixes = fixesFor('---\nname: " pdf "\ndescription: Work with PDFs.\n---\n', 'name-mismatch');
      assert.deepEqual(summary(fixes), [
        ['Set name to "pdf-tools" (the folder name)', 'name-mismatch', true],
        ['Rename the folder to "pdf"', 'name-mismatch', false],
      ]);
      assert.deepEqual(fixes[1].renameFolder, { from: path.dirname(file), to: path.resolve('/skills/pdf') });
    });

    it('quotes a folder name that YAML would read as a number', () => {
      const numeric = path.resolve('/skills/1e5/SKILL.md');
      const found = validateSkillText(text, numeric).diagnostics.find((candidate) => candidate.code === 'name-mismatch')!;
      const [setName] = fixesForDiagnostic(text, numeric, found);
      const fixed = applyEdits(text, setName.edits);
      assert.equal(fixed, text.replace('name: pdf', 'name: "1e5"'));
      assert.deepEqual(validateSkillText(fixed, numeric).diagnostics, []);
    });

    it('offers nothing once the name is gone, is not text, or the frontmatter no longer parses', () => {
      for (const changed of ['---\ndescription: Work with PDFs.\n---\n', '---\nname: 123\ndescription: Work with PDFs.\n---\n', BROKEN]) {
        assert.deepEqual(fixesOnLine(changed, 'name-mismatch', 1), [], changed);
      }
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

    it('finds the key above an error reported on a continuation line', () => {
      const text = '---\nname: pdf-tools\ndescription: Use it\n  when: the user has a PDF\n---\n';
      assert.deepEqual(fixesFor(text, 'yaml-syntax'), [
        { title: 'Quote the value of "description"', code: 'yaml-syntax', edits: [edit(2, 13, 3, 26, '"Use it when: the user has a PDF"')], preferred: true },
      ]);
    });

    it('folds a continuation line indented by one space, leaving out trailing blanks', () => {
      const text = '---\nname: pdf-tools\ndescription: Use it when: x  \n and more\n---\n';
      assert.deepEqual(fixesFor(text, 'yaml-syntax')[0].edits, [edit(2, 13, 3, 9, '"Use it when: x and more"')]);
    });

    it('quotes the broken value even when one further down is broken too', () => {
      const text = '---\nname: pdf-tools\ndescription: Use it when: x\nlicense: see: LICENSE\n---\n';
      assert.deepEqual(fixesFor(text, 'yaml-syntax')[0].edits, [edit(2, 13, 2, 27, '"Use it when: x"')]);
    });

    it('quotes the value while another problem of the file stays, such as undecodable bytes in an earlier field', () => {
      const text = '---\nname: pdf-tools\nlicense: MIT \uFFFD\ndescription: Use it when: x\n---\n';
      assert.deepEqual(fixesFor(text, 'yaml-syntax')[0].edits, [edit(3, 13, 3, 27, '"Use it when: x"')]);
      assert.deepEqual(apply(text, fixesFor(text, 'yaml-syntax')[0]).codes, ['invalid-utf8']);
    });

    it('quotes the value of a key written with blanks around its colon, keeping them', () => {
      const text = '---\nname: pdf-tools\ndescription \t:  Use it when: x\n---\n';
      const [fix] = fixesFor(text, 'yaml-syntax');
      assert.deepEqual(fix.edits, [edit(2, 16, 2, 30, '"Use it when: x"')]);
      assert.deepEqual(apply(text, fix).codes, []);
    });

    it('keeps a byte-order mark', () => {
      const text = '\uFEFF---\nname: pdf-tools\ndescription: Use it when: x\n---\n';
      assert.equal(applyEdits(text, fixesFor(text, 'yaml-syntax')[0].edits), '\uFEFF---\nname: pdf-tools\ndescription: "Use it when: x"\n---\n');
    });

    it('leaves alone quoted values, block scalars, values below their key and frontmatter that is not a mapping', () => {
      for (const value of ['"a", b', "'a', b", '|x: y', '>x: y', '\n  a: b: c']) {
        const text = `---\nname: pdf-tools\ndescription: ${value}\nlicense: MIT\n---\n`;
        assert.deepEqual(fixesFor(text, 'yaml-syntax'), [], value);
      }
      assert.deepEqual(fixesFor('---\n- a\n- b: c: d\n---\n', 'yaml-syntax'), []);
    });

    it('never takes the first line for a key', () => {
      assert.deepEqual(fixesOnLine('description: a: b\n', 'yaml-syntax', 0), []);
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

    it("moves the field on the diagnostic's line, and offers moving all only when there are several", () => {
      const text = '---\nname: pdf-tools\ndescription: Work with PDFs.\nauthor: Ann\nversion: 2\n---\nBody\n';
      assert.deepEqual(summary(fixesOnLine(text, 'unknown-field', 4)), [
        ['Move "version" under metadata', 'unknown-field', true],
        ['Move all 2 unknown fields under metadata', 'unknown-field', false],
      ]);
      assert.deepEqual(summary(fixesFor('---\nname: pdf-tools\ndescription: Work with PDFs.\nauthor: Ann\n---\n', 'unknown-field')), [['Move "author" under metadata', 'unknown-field', true]]);
    });

    it('moves all unknown fields, booleans and values spanning lines too, into a new or an existing metadata block, keeping CRLF', () => {
      for (const [text, moved] of [
        [
          '---\r\nname: pdf-tools\r\ndescription: Work with PDFs.\r\nbeta: true\r\nnotes: first\r\n  second\r\n---\r\n',
          '---\r\nname: pdf-tools\r\ndescription: Work with PDFs.\r\nmetadata:\r\n  beta: "true"\r\n  notes: "first second"\r\n---\r\n',
        ],
        [
          '---\nname: pdf-tools\nmetadata:\n  team: docs\nauthor: Ann\nversion: 2\ndescription: Work with PDFs.\n---\n',
          '---\nname: pdf-tools\nmetadata:\n  team: docs\n  author: "Ann"\n  version: "2"\ndescription: Work with PDFs.\n---\n',
        ],
      ]) {
        const [, all] = fixesFor(text, 'unknown-field');
        assert.deepEqual(apply(text, all), { text: moved, codes: [] });
      }
    });

    it('adds the metadata block at the closing fence, after a value ending in "---"', () => {
      const text = '---\nname: pdf-tools\ndescription: Work with PDFs ---\nauthor: Ann\n---\n';
      assert.equal(apply(text, fixesFor(text, 'unknown-field')[0]).text, '---\nname: pdf-tools\ndescription: Work with PDFs ---\nmetadata:\n  author: "Ann"\n---\n');
    });

    it('leaves metadata written as a flow mapping or a block scalar alone', () => {
      for (const metadata of ['metadata: {team: docs}', 'metadata: |\n  team: docs']) {
        assert.deepEqual(fixesFor(`---\nname: pdf-tools\ndescription: Work with PDFs.\n${metadata}\nauthor: Ann\n---\n`, 'unknown-field'), [], metadata);
      }
    });

    it('offers nothing once the frontmatter no longer parses or the line holds no unknown field', () => {
      assert.deepEqual(fixesOnLine(BROKEN, 'unknown-field', 3), []);
      assert.deepEqual(fixesOnLine('---\nname: pdf-tools\ndescription: Work with PDFs.\nauthor: Ann\n---\n', 'unknown-field', 2), []);
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

    it('trims the compatibility to its limit', () => {
      const text = `---\nname: pdf-tools\ndescription: Work with PDFs.\ncompatibility: ${'needs python '.repeat(50).trim()}\n---\n`;
      const [fix] = fixesFor(text, 'compatibility-too-long');
      assert.equal(fix.title, 'Trim compatibility to 500 characters');
      assert.equal(fix.code, 'compatibility-too-long');
      const result = apply(text, fix);
      assert.deepEqual(result.codes, []);
      assert.ok(validateSkillText(result.text, file).metadata!.compatibility!.length <= 500);
    });

    it('cuts at the limit and drops the blanks the cut leaves at the end', () => {
      const long = 'abc '.repeat(300).trim();
      const [fix] = fixesFor(`---\nname: pdf-tools\ndescription: ${long}\n---\n`, 'description-too-long');
      assert.deepEqual(fix, {
        title: 'Trim description to 1024 characters',
        code: 'description-too-long',
        edits: [edit(2, 13, 2, 13 + long.length, JSON.stringify('abc '.repeat(256).trimEnd()))],
      });
    });

    it('offers nothing once the value fits, is not text, or the frontmatter no longer parses', () => {
      for (const description of ['d'.repeat(1024), 'Short.', '12345']) {
        assert.deepEqual(fixesOnLine(`---\nname: pdf-tools\ndescription: ${description}\n---\n`, 'description-too-long', 2), [], description);
      }
      assert.deepEqual(fixesOnLine(BROKEN, 'description-too-long', 2), []);
    });
  });

  it('offers nothing for diagnostics without a fix', () => {
    assert.deepEqual(fixesOnLine('---\nname: pdf-tools\n---\n', 'missing-description', 0), []);
  });

  it('quotes scalars only when needed', () => {
    assert.equal(yamlScalar('pdf-tools'), 'pdf-tools');
    assert.equal(yamlScalar('true'), '"true"');
    assert.equal(yamlScalar('a: b'), '"a: b"');
    assert.equal(yamlScalar('no-op'), 'no-op');
    assert.equal(yamlScalar('release-2'), 'release-2');
    for (const value of ['@pdf', '12', '1e5', '1E-10', '0x1f', '0o17', 'True', 'off']) {
      assert.equal(yamlScalar(value), JSON.stringify(value), value);
    }
  });

  it('quotes what a YAML reader would not read back as the same text', () => {
    // js-yaml (the validating reader) reads 0b101 as 5 and 2024-01-01 as a date.
    for (const value of ['0b101', '2024-01-01']) {
      assert.equal(yamlScalar(value), JSON.stringify(value), value);
    }
    // The words YAML 1.1 readers take for booleans, whole and in any case.
    for (const value of ['yes', 'No', 'ON', 'off']) {
      assert.equal(yamlScalar(value), JSON.stringify(value), value);
    }
    for (const value of ['0b2', '2024-1-1', '12-1', 'v2024-01-01', 'nan', 'python', 'online', 'yes-no']) {
      assert.equal(yamlScalar(value), value, value);
    }
  });

  it('"Set name to the folder name" writes a name validation reads back as that folder name', () => {
    for (const folder of ['0b101', '2024-01-01', '1e5']) {
      const folderFile = path.resolve(`/skills/${folder}/SKILL.md`);
      const text = '---\nname: other\ndescription: Does things. Use when testing.\n---\n';
      const mismatch = validateSkillText(text, folderFile).diagnostics.find((found) => found.code === 'name-mismatch');
      assert.ok(mismatch, folder);
      const [fix] = fixesForDiagnostic(text, folderFile, mismatch);
      const fixed = applyEdits(text, fix.edits);
      assert.deepEqual(validateSkillText(fixed, folderFile).diagnostics, [], `${folder}: ${fixed}`);
    }
  });
});

describe('setFieldValueEdit', () => {
  const file = path.resolve('/skills/pdf/SKILL.md');
  const text = '---\nname: pdf\ndescription: Old words.\n---\nBody.\n';

  it('replaces the value of a top-level field, quoted as YAML needs', () => {
    const edit = setFieldValueEdit(text, file, 'description', 'New: words.');
    assert.ok(edit);
    assert.equal(applyEdits(text, [edit]), '---\nname: pdf\ndescription: "New: words."\n---\nBody.\n');
  });

  it('gives nothing for a field the frontmatter lacks, or a file without frontmatter', () => {
    assert.equal(setFieldValueEdit(text, file, 'license', 'MIT'), undefined);
    assert.equal(setFieldValueEdit('Just a body.\n', file, 'description', 'New.'), undefined);
  });
});

describe('applyEdits', () => {
  it('applies edits given in any order, on one line or several', () => {
    const text = 'one two\nthree\n';
    const edits = [edit(0, 0, 0, 3, '1'), edit(0, 4, 0, 7, '2'), edit(1, 0, 1, 5, '3')];
    for (const ordered of [edits, [...edits].reverse(), [edits[1], edits[2], edits[0]]]) {
      assert.equal(applyEdits(text, ordered), '1 2\n3\n');
    }
  });

  it('takes a position past the last line as the end of the text, and counts an empty first line', () => {
    assert.equal(applyEdits('a\nb', [edit(1, 0, 2, 0, '')]), 'a\n');
    assert.equal(applyEdits('\nabc', [edit(1, 1, 1, 2, 'X')]), '\naXc');
  });

  it('does not count a byte-order mark in positions on the first line', () => {
    assert.equal(applyEdits('\uFEFF---\nname: a\n', [edit(0, 0, 0, 3, '+++'), edit(1, 6, 1, 7, 'bb')]), '\uFEFF+++\nname: bb\n');
  });
});
