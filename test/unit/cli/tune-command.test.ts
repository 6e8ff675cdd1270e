// `agent-skills tune` against the fake chat endpoint: the seeded fixture's test score rises, the
// change is printed as a diff with the scores per round, and SKILL.md changes only when asked.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_RUNS } from '../../../src/core/defaults';
import { cli as cliInProcess, type Answerer, type CliRun } from './run-in-process';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';
import { startFakeEndpoint, type FakeEndpoint } from '../fake-endpoint';
import { TUNE_FIXTURE, tuneFixtureTriggers } from '../../integration/word-overlap-model';

describe('agent-skills tune', function () {
  this.timeout(30_000);
  let endpoint: FakeEndpoint;
  let dir: string;
  let skillFile: string;

  /** The CLI in the test's folder, with no environment: no API key of the machine's reaches it. */
  function cli(argv: string[], ask?: Answerer): Promise<CliRun> {
    return cliInProcess(dir, argv, ask, {});
  }

  beforeEach(async () => {
    endpoint = await startFakeEndpoint();
    dir = await tempDir();
    const root = path.join(dir, '.agent', 'skills');
    await writeTree(root, {
      'release-notes': { 'SKILL.md': skillText('release-notes', TUNE_FIXTURE.description), evals: { 'triggers.json': tuneFixtureTriggers() } },
      ...Object.fromEntries(Object.entries(TUNE_FIXTURE.neighbours).map(([name, description]) => [name, { 'SKILL.md': skillText(name, description) }])),
    });
    skillFile = path.join(root, 'release-notes', 'SKILL.md');
  });

  afterEach(async () => {
    await endpoint.close();
    await removeDir(dir);
  });

  const base = (): string[] => ['tune', 'release-notes', '--endpoint', endpoint.url, '--model', 'fake', '--runs', '2', '--seed', '1'];

  it('prints the scores per round and the change, and writes nothing without --write', async () => {
    const before = await fs.readFile(skillFile, 'utf8');
    const run = await cli(base());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /tuning release-notes on fake with 10 queries, 2 runs each, up to 5 rounds: at most 125 requests\./);
    assert.match(run.stdout, /\| current \| 3\/6 \(50%\) \| 2\/4 \(50%\) \| 47 \| Writes release notes from merged pull requests\. \|/);
    assert.match(run.stdout, /\| \*\*1 \(picked\)\*\* \| 6\/6 \(100%\) \| 4\/4 \(100%\) \|/);
    assert.match(
      run.stdout,
      /## Proposed change \(test 2\/4 \(50%\) → 4\/4 \(100%\)\)\n\n```diff\n- description: Writes release notes from merged pull requests\.\n\+ description: Writes release notes from merged pull requests\. Also for: shipped/,
    );
    assert.match(run.stderr, /nothing written; run again with --write/);
    assert.equal(await fs.readFile(skillFile, 'utf8'), before);
    // The proposal request offers no tool and holds no test query.
    const proposals = endpoint.requests.filter((request) => request.instructions.startsWith('You improve the description'));
    assert.equal(proposals.length, 1);
    assert.equal(proposals[0].body.tools, undefined);
    for (const query of ['draft release notes for 2.4', 'announce what shipped this sprint', 'pivot of signups by region', 'chart the monthly costs']) {
      assert.ok(!proposals[0].instructions.includes(query), `test query "${query}" was shown to the model`);
    }
    assert.equal(endpoint.requests.length, 2 * 10 * 2 + 1);
  });

  it('writes the description with --write, leaving the rest of SKILL.md as it was', async () => {
    const before = await fs.readFile(skillFile, 'utf8');
    const run = await cli([...base(), '--write']);
    assert.equal(run.code, 0, run.stderr);
    const after = await fs.readFile(skillFile, 'utf8');
    assert.match(after, /^description: "Writes release notes from merged pull requests\. Also for: shipped, [^"]*\."$/m);
    assert.equal(after.replace(/^description: .*$/m, ''), before.replace(/^description: .*$/m, ''));
  });

  it('asks on a terminal, and writes only on yes', async () => {
    const before = await fs.readFile(skillFile, 'utf8');
    const declined = await cli(base(), async () => 'n');
    assert.deepEqual(declined.asked, ['Write the new description to .agent/skills/release-notes/SKILL.md? [y/N] ']);
    assert.equal(await fs.readFile(skillFile, 'utf8'), before);
    await cli(base(), async () => 'yes');
    assert.notEqual(await fs.readFile(skillFile, 'utf8'), before);
  });

  it('refuses a skill without enough queries of each kind, naming the file', async () => {
    await fs.writeFile(
      path.join(path.dirname(skillFile), 'evals', 'triggers.json'),
      JSON.stringify([
        { query: 'a', should_trigger: true },
        { query: 'b', should_trigger: false },
      ]),
    );
    const run = await cli(base());
    assert.equal(run.code, 1);
    assert.match(run.stderr, /agent-skills: \.agent\/skills\/release-notes\/evals\/triggers\.json: release-notes needs at least 2 queries that should trigger and 2 that should not/);
    assert.equal(endpoint.requests.length, 0);
  });

  it('says what is wrong with the command line', async () => {
    assert.match((await cli(['tune', '--endpoint', endpoint.url, '--model', 'm'])).stderr, /tune: give the NAME of the skill/);
    assert.match((await cli([...base(), '--rounds', '6'])).stderr, /tune: --rounds is at most 5\./);
    assert.match((await cli(['tune', 'nope', '--endpoint', endpoint.url, '--model', 'm'])).stderr, /no skill named "nope" in this project/);
  });

  it('refuses what it cannot tune before sending anything, saying why', async () => {
    const skills = path.join(dir, '.agent', 'skills');
    await writeTree(skills, {
      hidden: { 'SKILL.md': skillText('hidden', 'Runs only when asked for by name.', 'Body.', 'disable-model-invocation: true\n'), evals: { 'triggers.json': tuneFixtureTriggers() } },
      untested: { 'SKILL.md': skillText('untested', 'Has no trigger tests yet.') },
    });
    const endpointOptions = ['--endpoint', endpoint.url, '--model', 'fake'];
    const refusals: [string[], number, RegExp][] = [
      [[...base(), '--runs', String(MAX_RUNS + 1)], 2, new RegExp(`^agent-skills: tune: --runs is at most ${MAX_RUNS}\\.$`)],
      [[...base(), '--seed', 'abc'], 2, /^agent-skills: tune: --seed is a whole number, not "abc"\.$/],
      [[...base(), '--seed', '1.5'], 2, /^agent-skills: tune: --seed is a whole number, not "1\.5"\.$/],
      [['tune', 'hidden', ...endpointOptions], 1, /^agent-skills: cannot tune hidden: hidden is hidden from the model \(disable-model-invocation: true\)/],
      [['tune', 'untested', ...endpointOptions], 1, /^agent-skills: untested has no usable trigger tests \(evals\/triggers\.json\)/],
      [['tune', 'nope', ...endpointOptions, '.agent/skills', 'other'], 1, /^agent-skills: other: no such file or folder\.$/],
      [['tune', 'nope', ...endpointOptions, '.agent/skills'], 1, /^agent-skills: no skill named "nope" in \.agent\/skills\.$/],
    ];
    for (const [argv, code, message] of refusals) {
      const run = await cli(argv);
      assert.equal(run.code, code, argv.join(' '));
      assert.match(run.stderr.split('\n')[0], message, argv.join(' '));
    }
    assert.equal(endpoint.requests.length, 0);
  });

  it('writes nothing when the SKILL.md changed while tuning ran', async () => {
    const edited = `${await fs.readFile(skillFile, 'utf8')}\nAn edit made while tune ran.\n`;
    const run = await cli(base(), async () => {
      await fs.writeFile(skillFile, edited);
      return 'y';
    });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^agent-skills: \.agent\/skills\/release-notes\/SKILL\.md changed while tuning ran: nothing written\./m);
    assert.equal(await fs.readFile(skillFile, 'utf8'), edited);
  });

  it('says on stderr how each round goes, and where it wrote', async () => {
    const run = await cli([...base(), '--write']);
    assert.equal(run.code, 0, run.stderr);
    const said = run.stderr.trimEnd().split('\n');
    assert.ok(
      said.every((line) => line.startsWith('agent-skills: ')),
      run.stderr,
    );
    assert.ok(
      said.some((line) => line.endsWith('…')),
      run.stderr,
    );
    assert.equal(said.at(-1), 'agent-skills: wrote the new description to .agent/skills/release-notes/SKILL.md.');
  });

  it('says which model, runs and seed the report is for, and shows the other skills, never itself, to the model', async () => {
    const run = await cli(base());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^On fake, 2 runs per query\. Train queries: .* \(split with seed 1\)\./m);
    const proposal = endpoint.requests.find((request) => request.instructions.startsWith('You improve the description'))!;
    const others = Object.entries(TUNE_FIXTURE.neighbours).map(([name, description]) => `- ${name}: ${description}`);
    assert.ok(proposal.instructions.includes(`Other installed skills:\n${others.join('\n')}\n`), proposal.instructions);
  });

  it('refuses a proposal it could not write to SKILL.md, says why in the report, and asks again', async () => {
    const tooLong = `Writes release notes ${'and more '.repeat(130)}`.trim();
    // The 20 measurements of the current description (10 queries, 2 runs), then the proposal.
    endpoint.failNext(...Array.from({ length: 20 }, () => ({ delayMs: 0 })), {
      status: 200,
      body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: `<description>${tooLong}</description>` } }] }),
    });
    const run = await cli(base());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Round 1's proposal was refused \(.*1024.*\): Writes release notes and more and more/m);
    assert.match(run.stdout, /\| \*\*2 \(picked\)\*\* \| 6\/6 \(100%\) \| 4\/4 \(100%\) \|/);
  });

  it('asks nothing and writes nothing when no proposal beats the current description', async () => {
    await cli([...base(), '--write']);
    const tuned = await fs.readFile(skillFile, 'utf8');
    const run = await cli(base(), async () => 'y');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /No proposal scored better on the test queries than the current description: keep it\./);
    assert.deepEqual(run.asked, []);
    assert.doesNotMatch(run.stderr, /nothing written|wrote/);
    assert.equal(await fs.readFile(skillFile, 'utf8'), tuned);
  });

  it('writes only on an answer that is y or yes, whatever the case and spaces around it', async () => {
    const before = await fs.readFile(skillFile, 'utf8');
    for (const answer of ['okay', 'yep', 'no']) {
      const run = await cli(base(), async () => answer);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(await fs.readFile(skillFile, 'utf8'), before, `answered "${answer}"`);
    }
    await cli(base(), async () => ' Y \n');
    assert.notEqual(await fs.readFile(skillFile, 'utf8'), before);
  });

  it('tunes the usable skill of that name when a broken one comes first, takes 20 runs, and names every ROOT it looked in', async () => {
    await writeTree(path.join(dir, 'broken'), { 'release-notes': { 'SKILL.md': '---\nname: release-notes\n---\nNo description.\n' } });
    const run = await cli([...base(), 'broken', '.agent/skills']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^agent-skills: tuning release-notes on fake with 10 queries/m);

    const nowhere = await cli(['tune', 'nope', '--endpoint', endpoint.url, '--model', 'm', '--runs', String(MAX_RUNS), 'broken', '.agent/skills']);
    assert.equal(nowhere.code, 1, nowhere.stderr);
    assert.match(nowhere.stderr, /^agent-skills: no skill named "nope" in broken, \.agent\/skills\.$/m);
  });

  it('says how long it waits before retrying a request', async () => {
    endpoint.failNext({ status: 503, retryAfter: '1' });
    const run = await cli(base());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^agent-skills: .*HTTP 503: scripted 503; retrying in 1\.0 s\.$/m);
  });

  it('never shows the API key an endpoint echoes back, and exits 1 when the endpoint refuses every request', async () => {
    const key = 'sk-ant-0123456789abcdef';
    endpoint.failNext(...Array.from({ length: 100 }, () => ({ status: 401, body: JSON.stringify({ error: { message: `invalid x-api-key ${key}` } }) })));
    const { code, stdout, stderr } = await cliInProcess(dir, [...base(), '--api', 'anthropic', '--endpoint', endpoint.origin, '--rounds', '1'], undefined, { ANTHROPIC_API_KEY: key });
    assert.equal(code, 1, stderr);
    assert.match(
      stderr,
      /^agent-skills: no query reached a verdict with the current description of release-notes \(every request failed: .*\/v1\/messages refused the request: HTTP 401: invalid x-api-key \*\*\* \(check ANTHROPIC_API_KEY\)\)\.$/m,
    );
    assert.equal(endpoint.requests[0].headers['x-api-key'], key);
    assert.ok(!`${stdout}${stderr}`.includes(key), `${stdout}${stderr}`);
    assert.match(`${stdout}${stderr}`, /invalid x-api-key \*\*\*/);
  });
});
