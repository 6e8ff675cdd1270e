// The command line's usage errors, command by command: each names the command it is about and the
// option at fault, so a user who typed several commands in a script knows which one to fix.

import * as assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/run';
import { MAX_RUNS } from '../../../src/core/defaults';
import { removeDir, tempDir } from '../../fixtures/trees/tree';

/** Every command and the options it takes, as its usage error lists them. */
const COMMAND_OPTIONS: readonly (readonly [string, string])[] = [
  ['validate', '--strict, --json, --target, --context, --project'],
  ['list', '--json, --project'],
  ['catalog', '--budget-chars, --verbose, --target, --context, --project'],
  ['find', '--json, --limit, --project'],
  ['eval', '--endpoint, --model, --api, --concurrency, --runs, --junit, --json, --baseline'],
  ['tune', '--endpoint, --model, --api, --concurrency, --project, --runs, --rounds, --seed, --write'],
  ['audit', '--json, --sarif'],
  ['add', '--skill, --to, --yes'],
  ['update', '--to, --yes'],
  ['check', '--to, --json'],
  ['remove', '--to, --yes'],
  ['publish', '--out, --legacy, --allow, --project'],
  ['mcp', '--user, --no-user, --builtin, --no-builtin, --allow, --budget-chars, --http, --token-file, --allow-host, --max-sessions, --replica, --project'],
];

const ENDPOINT = ['--endpoint', 'http://127.0.0.1:9', '--model', 'some-model'];

/** Command lines with a number option that is not a positive whole number, and the option's name. */
const BAD_NUMBERS: readonly (readonly [string[], string])[] = [
  [['catalog', '--budget-chars', '0'], 'catalog: --budget-chars'],
  [['catalog', '--context', '0'], 'catalog: --context'],
  [['validate', '--context', '0'], 'validate: --context'],
  [['find', 'query', '--limit', '0'], 'find: --limit'],
  [['eval', ...ENDPOINT, '--runs', '0'], 'eval: --runs'],
  [['eval', ...ENDPOINT, '--concurrency', '0'], 'eval: --concurrency'],
  [['tune', 'name', ...ENDPOINT, '--runs', '0'], 'tune: --runs'],
  [['tune', 'name', ...ENDPOINT, '--rounds', '0'], 'tune: --rounds'],
  [['tune', 'name', ...ENDPOINT, '--concurrency', '0'], 'tune: --concurrency'],
  [['mcp', '--budget-chars', '0'], 'mcp: --budget-chars'],
];

describe('agent-skills usage errors', () => {
  let dir: string;
  before(async () => (dir = await tempDir()));
  after(async () => removeDir(dir));

  async function firstErrorLine(argv: string[]): Promise<{ code: number; line: string }> {
    let stderr = '';
    const code = await runCli(argv, { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: dir });
    return { code, line: stderr.split('\n')[0] };
  }

  for (const [command, options] of COMMAND_OPTIONS) {
    it(`${command}: an unknown option is named with the command and the options it takes`, async () => {
      assert.deepEqual(await firstErrorLine([command, '--no-such-option']), {
        code: 2,
        line: `agent-skills: ${command}: unknown option --no-such-option (options: ${options}).`,
      });
    });
  }

  it('activate: an unknown option is named, and activate says it takes none', async () => {
    assert.deepEqual(await firstErrorLine(['activate', '--no-such-option']), {
      code: 2,
      line: 'agent-skills: activate: unknown option --no-such-option (this command takes no options).',
    });
  });

  for (const [argv, option] of BAD_NUMBERS) {
    it(`${option} takes only a positive whole number`, async () => {
      assert.deepEqual(await firstErrorLine(argv), { code: 2, line: `agent-skills: ${option} must be a positive whole number, not "0".` });
    });
  }

  it('names every unknown --target host, and the hosts there are', async () => {
    const { code, line } = await firstErrorLine(['validate', '--target', 'nope', '--target', 'other']);
    assert.equal(code, 2);
    assert.match(line, /^agent-skills: validate: unknown --target "nope", "other" \(hosts: vscode, [a-z, -]+\)\.$/);
  });

  it(`eval: --runs is at most ${MAX_RUNS}`, async () => {
    assert.deepEqual(await firstErrorLine(['eval', ...ENDPOINT, '--runs', String(MAX_RUNS + 1), 'skills']), { code: 2, line: `agent-skills: eval: --runs is at most ${MAX_RUNS}.` });
    assert.deepEqual(await firstErrorLine(['eval', ...ENDPOINT, '--runs', String(MAX_RUNS)]), {
      code: 2,
      line: 'agent-skills: eval: give at least one ROOT (a folder of skill folders whose skills have evals/triggers.json).',
    });
  });
});
