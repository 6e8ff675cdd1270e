// YAML read with the YAML 1.2 core schema, as MCP clients re-read a skill's frontmatter to check
// what the server published. js-yaml 3 (the reader gray-matter already ships) resolves plain
// scalars the YAML 1.1 way (`010` is octal, `1_000` and `1:30` are numbers, dates become Date
// objects), so the schema here holds the four implicit types of YAML 1.2 core and nothing else.

import { FAILSAFE_SCHEMA, Schema, Type, safeLoad } from 'js-yaml';

const NULL = /^(~|null|Null|NULL)?$/;
const TRUE = /^(true|True|TRUE)$/;
const FALSE = /^(false|False|FALSE)$/;
const DECIMAL = /^[-+]?[0-9]+$/;
const OCTAL = /^0o[0-7]+$/;
const HEXADECIMAL = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INFINITY = /^[-+]?\.(inf|Inf|INF)$/;
const NOT_A_NUMBER = /^\.(nan|NaN|NAN)$/;

const nullType = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (text: string) => NULL.test(text),
  construct: () => null,
});

const bool = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (text: string) => TRUE.test(text) || FALSE.test(text),
  construct: (text: string) => TRUE.test(text),
});

const int = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (text: string) => DECIMAL.test(text) || OCTAL.test(text) || HEXADECIMAL.test(text),
  // parseInt reads a 0x prefix in base 16, not a 0o prefix in base 8.
  construct: (text: string) => (OCTAL.test(text) ? parseInt(text.slice(2), 8) : HEXADECIMAL.test(text) ? parseInt(text, 16) : parseInt(text, 10)),
});

const float = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (text: string) => FLOAT.test(text) || INFINITY.test(text) || NOT_A_NUMBER.test(text),
  construct: (text: string) => (NOT_A_NUMBER.test(text) ? NaN : INFINITY.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : parseFloat(text)),
});

const YAML_1_2_CORE = new Schema({ include: [FAILSAFE_SCHEMA], implicit: [nullType, bool, int, float] });

/** The value of a YAML document under the YAML 1.2 core schema; throws on a syntax error. */
export function parseYamlCore(text: string): unknown {
  return safeLoad(text, { schema: YAML_1_2_CORE });
}
