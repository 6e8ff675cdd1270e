// Each command's help lives beside the options it parses (src/cli/usage/): the two must name the
// same options, and the overview gives each command one line.

import * as assert from 'node:assert/strict';
import { COMMAND_USAGES, commandHelp, USAGE } from '../../../src/cli/help';

/** The `--name` options a text mentions, `--help` aside. */
function optionsNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map(([, name]) => name))].filter((name) => name !== 'help').sort();
}

describe('command usages', () => {
  it('name in their synopses exactly the options their command parses', () => {
    for (const usage of COMMAND_USAGES) {
      assert.deepEqual(optionsNamed(usage.synopses.flat().join(' ')), Object.keys(usage.options).sort(), usage.name);
    }
  });

  it('describe only options their command parses', () => {
    for (const usage of COMMAND_USAGES) {
      const unknown = optionsNamed(usage.description).filter((name) => !Object.hasOwn(usage.options, name));
      assert.deepEqual(unknown, [], usage.name);
    }
  });

  it('give the overview one line per command, and keep it to one screen', () => {
    const commandLines = USAGE.slice(USAGE.indexOf('\nCommands:\n') + '\nCommands:\n'.length)
      .split('\n\n')[0]
      .split('\n');
    assert.deepEqual(
      commandLines,
      COMMAND_USAGES.map((usage) => `  ${usage.name.padEnd(11)}${usage.summary}`),
    );
    assert.ok(commandLines.every((line) => line.length <= 100));
    assert.ok(USAGE.split('\n').length <= 50, `${USAGE.split('\n').length} lines`);
  });

  it("print a command's description only in its own help", () => {
    for (const usage of COMMAND_USAGES) {
      assert.ok(commandHelp(usage.name)!.includes(usage.description), usage.name);
      assert.ok(!USAGE.includes(usage.description), usage.name);
    }
    assert.equal(commandHelp('frobnicate'), undefined);
  });
});
