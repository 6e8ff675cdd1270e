import * as assert from 'node:assert/strict';
import { parseArguments, positiveInteger, type OptionKind } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/io';

const SPEC: Record<string, OptionKind> = { json: 'flag', budget: 'value', allow: 'repeated' };

function usageError(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => error instanceof UsageError && error.message === message);
}

describe('parseArguments', () => {
  it('takes flags, values given after = or as the next argument, and repeated values in order, anywhere before --', () => {
    const parsed = parseArguments('list', ['a', '--json', '--budget=80', '--allow', 'x', 'b', '--allow=y', '--budget', '90', '-', '--', '--json', '-z'], SPEC);
    assert.deepEqual(
      parsed.options,
      new Map<string, string | true>([
        ['json', true],
        ['budget', '90'],
      ]),
    );
    assert.deepEqual(parsed.lists, new Map([['allow', ['x', 'y']]]));
    assert.deepEqual(parsed.operands, ['a', 'b', '-', '--json', '-z']);
  });

  it('takes everything after that many operands verbatim', () => {
    const parsed = parseArguments('activate', ['--json', 'root', 'skill', '--json', '--', '-x'], SPEC, 2);
    assert.deepEqual(parsed.options, new Map([['json', true]]));
    assert.deepEqual(parsed.operands, ['root', 'skill', '--json', '--', '-x']);
  });

  it('names the unknown option and the options the command takes', () => {
    usageError(() => parseArguments('list', ['--fast'], SPEC), 'list: unknown option --fast (options: --json, --budget, --allow).');
    usageError(() => parseArguments('list', ['--fast=1'], SPEC), 'list: unknown option --fast (options: --json, --budget, --allow).');
    usageError(() => parseArguments('list', ['-j'], SPEC), 'list: unknown option -j (options: --json, --budget, --allow).');
    usageError(() => parseArguments('help', ['--json'], {}), 'help: unknown option --json (this command takes no options).');
  });

  it('refuses a value for a flag and a missing or empty value', () => {
    usageError(() => parseArguments('list', ['--json='], SPEC), 'list: --json takes no value.');
    usageError(() => parseArguments('list', ['--budget'], SPEC), 'list: --budget needs a value.');
    usageError(() => parseArguments('list', ['--budget='], SPEC), 'list: --budget needs a value.');
    usageError(() => parseArguments('list', ['--allow='], SPEC), 'list: --allow needs a value.');
  });

  it('takes a value starting with = or holding one', () => {
    assert.deepEqual(parseArguments('list', ['--budget==a=b'], SPEC).options.get('budget'), '=a=b');
  });
});

describe('positiveInteger', () => {
  it('reads a positive whole number, and nothing when the option is absent', () => {
    assert.equal(positiveInteger('catalog', 'budget-chars', '8000'), 8000);
    assert.equal(positiveInteger('catalog', 'budget-chars', '1'), 1);
    assert.equal(positiveInteger('catalog', 'budget-chars', undefined), undefined);
    assert.equal(positiveInteger('catalog', 'budget-chars', true), undefined);
  });

  it('refuses zero, signs, fractions and text around the digits', () => {
    for (const value of ['0', '-1', '+1', '1.5', 'x1', '1x', '']) {
      usageError(() => positiveInteger('catalog', 'budget-chars', value), `catalog: --budget-chars must be a positive whole number, not "${value}".`);
    }
  });
});
