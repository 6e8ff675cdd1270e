import * as assert from 'node:assert/strict';
import {
  EXTENSION_FIELDS,
  fieldProperty,
  FRONTMATTER_FIELDS,
  isSpecNameCharacter,
  renderFieldTable,
  SPEC_FIELDS,
  TYPED_OPTIONAL_FIELDS,
  writtenFields,
  type TypedOptionalField,
} from '../../../../src/core/skill-file/schema';
import { validateFrontmatter } from '../../../../src/core/skill-file/validate-frontmatter';

describe('isSpecNameCharacter', function () {
  it('accepts the first and last character of each range the specification allows', function () {
    for (const character of ['0', '9', 'A', 'Z', 'a', 'z', '\u00c0', '\u024f', '\u0300', '\u036f', '\u0400', '\u04ff', '\u3400', '\u4dbf', '\u4e00', '\u9fff', '-']) {
      assert.equal(isSpecNameCharacter(character), true, `U+${character.codePointAt(0)?.toString(16)}`);
    }
  });

  it('refuses the characters just outside those ranges', function () {
    for (const character of ['/', ':', '@', '[', '`', '{', '\u00bf', '\u0250', '\u02ff', '\u0370', '\u03ff', '\u0500', '\u33ff', '\u4dc0', '\u4dff', '\ua000', '_', '']) {
      assert.equal(isSpecNameCharacter(character), false, `U+${character.codePointAt(0)?.toString(16)}`);
    }
  });
});

describe('the frontmatter field table', () => {
  const validate = (data: Record<string, unknown>, strict = false) =>
    validateFrontmatter({ name: 'a', description: 'A.', ...data }, { file: '/skills/a/SKILL.md', dirName: 'a', strict, locations: new Map() });

  /** A value of the field's type other than its default: what a skill writes to set it. */
  function sampleValue(field: TypedOptionalField): unknown {
    const { schema } = TYPED_OPTIONAL_FIELDS[field];
    return ['fork', 'some text', true, false].find((candidate) => schema.safeParse(candidate).success && candidate !== fieldProperty(field).default);
  }

  it('gives each typed field a value that lands in its metadata property, is shown as written, and refuses another type', () => {
    for (const field of Object.keys(TYPED_OPTIONAL_FIELDS) as TypedOptionalField[]) {
      const value = sampleValue(field);
      assert.notEqual(value, undefined, field);
      const { metadata, diagnostics } = validate({ [field]: value });
      assert.deepEqual(diagnostics, [], field);
      assert.equal(metadata?.[fieldProperty(field).property], value, field);
      assert.deepEqual(
        writtenFields(metadata!)
          .filter((written) => written.field === field)
          .map((written) => written.value),
        [String(value)],
        field,
      );
      const wrong = validate({ [field]: { not: 'a value' } });
      assert.deepEqual(
        wrong.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
        [['field-type', `"${field}" must be ${TYPED_OPTIONAL_FIELDS[field].expected}; this value is ignored.`]],
        field,
      );
    }
  });

  it('gives a field left unset its default, and shows no field holding its default', () => {
    const { metadata } = validate({});
    assert.deepEqual(metadata, { name: 'a', description: 'A.', userInvocable: true, disableModelInvocation: false });
    assert.deepEqual(writtenFields(metadata!), []);
  });

  it('accepts every field it names, refuses the extensions in strict mode, and warns about any other', () => {
    for (const field of Object.keys(FRONTMATTER_FIELDS)) {
      assert.equal(SPEC_FIELDS.has(field) !== EXTENSION_FIELDS.has(field), true, field);
    }
    const extension = [...EXTENSION_FIELDS][0];
    assert.deepEqual(
      validate({ [extension]: sampleValue(extension as TypedOptionalField) }, true).diagnostics.map((diagnostic) => diagnostic.code),
      ['extension-field'],
    );
    assert.deepEqual(
      validate({ colour: 'red' }).diagnostics.map((diagnostic) => diagnostic.code),
      ['unknown-field'],
    );
  });

  it('renders the README table from the table, every field named once', () => {
    const table = renderFieldTable();
    for (const field of Object.keys(FRONTMATTER_FIELDS)) {
      assert.equal(table.split(`\`${field}\``).length, 2, field);
    }
    assert.match(table, /^\| `name` \| required; 1–64 characters/m);
  });
});
