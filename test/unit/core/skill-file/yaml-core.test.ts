import * as assert from 'node:assert/strict';
import { parse as parseWithYamlLibrary } from 'yaml';
import { parseYamlCore } from '../../../../src/core/skill-file/yaml-core';

// Every plain scalar where YAML 1.1 and YAML 1.2 core disagree, and the ones both read alike.
const SCALARS = [
  ...['~', 'null', 'Null', 'NULL', '', 'nul', 'NUll'],
  ...['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'tRUE'],
  ...['0', '7', '-12', '+12', '010', '0o17', '0o18', '0x1F', '0X1F', '0b101', '1_000', '1:30', '190:20:30', '08', '123456789012'],
  ...['1.5', '-1.5', '.5', '5.', '1e3', '1E-3', '+1.5e+2', '1_000.5', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', '.NAn', '1.2.3'],
  ...['2024-01-15', '2024-01-15T10:00:00Z', '1.0.0', 'v2', '=', '<<'],
  // Each form with text before or after it, several digits where one would do, and explicit tags.
  ...[
    'xtrue',
    'truex',
    'xfalse',
    'falsex',
    'x0o17',
    'x0x1F',
    '0x1Fg',
    '.55',
    '12.5',
    '1e10',
    'x.inf',
    '.infx',
    'x.nan',
    '.nanx',
    '!!null',
    "!!null ''",
    "!!bool 'true'",
    "!!int '12'",
    "!!float '1.5'",
  ],
];

describe('parseYamlCore', () => {
  it('reads every plain scalar as the yaml library does under the YAML 1.2 core schema', () => {
    for (const scalar of SCALARS) {
      const document = `value: ${scalar}\n`;
      assert.deepEqual(parseYamlCore(document), parseWithYamlLibrary(document, { schema: 'core' }), `value: ${scalar}`);
    }
  });

  it('keeps dates, versions and YAML 1.1 numbers as the text the author wrote', () => {
    assert.deepEqual(parseYamlCore('created: 2024-01-15\nversion: 010\nrunTime: 1:30\nsize: 1_000\nenabled: yes\n'), {
      created: '2024-01-15',
      version: 10,
      runTime: '1:30',
      size: '1_000',
      enabled: 'yes',
    });
  });

  it('reads nested frontmatter as the yaml library does', () => {
    const document = [
      'name: pdf-tools',
      'description: >-',
      '  Fills PDF forms.',
      '  Use for PDFs.',
      'metadata:',
      '  version: "1.0"',
      '  tags: [pdf, 0x10, .5]',
      'allowed-tools: Bash(git:*) Read',
      'other: !!str 12',
      '',
    ].join('\n');
    assert.deepEqual(parseYamlCore(document), parseWithYamlLibrary(document, { schema: 'core' }));
  });

  it('refuses a JavaScript function tag and merge keys are plain keys', () => {
    assert.throws(() => parseYamlCore('run: !!js/function "function () {}"\n'));
    assert.deepEqual(parseYamlCore('base: &base {a: 1}\nother:\n  <<: *base\n'), { base: { a: 1 }, other: { '<<': { a: 1 } } });
  });

  it('throws on a syntax error', () => {
    assert.throws(() => parseYamlCore('name: [unclosed\n'));
  });
});
