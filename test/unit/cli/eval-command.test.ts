// `agent-skills eval` against a fake chat endpoint started by the tests (OpenAI's and Anthropic's
// protocols, scripted failures), and `--baseline` against a git repository made in the test.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CliIo } from '../../../src/cli/io';
import { runCli } from '../../../src/cli/run';
import { SKILL_TOOL_DEFINITIONS } from '../../../src/core/chat/tool-definitions';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';
import { startFakeEndpoint, type FakeEndpoint } from '../fake-endpoint';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd, env };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const RELEASE_NOTES = 'Draft release notes and a changelog from merged pull requests.';
const COMMIT_MESSAGES = 'Write commit messages in the conventional style for staged changes.';

/** Misrouted by a word-overlap model: its words are commit-messages's words. */
const CONFUSED_QUERY = 'write commit style messages about this release';

function triggers(entries: [string, boolean][]): string {
  return JSON.stringify(entries.map(([query, shouldTrigger]) => ({ query, should_trigger: shouldTrigger })));
}

async function writeSkills(dir: string, options: { confused?: boolean; releaseDescription?: string } = {}): Promise<string> {
  const root = path.join(dir, '.agent', 'skills');
  await writeTree(root, {
    'release-notes': {
      'SKILL.md': skillText('release-notes', options.releaseDescription ?? RELEASE_NOTES),
      evals: {
        'triggers.json': triggers([
          ['draft the changelog from merged pull requests', true],
          ['prepare release notes for version 2', true],
          ...(options.confused ? [[CONFUSED_QUERY, true] as [string, boolean]] : []),
          ['rename this variable everywhere', false],
        ]),
      },
    },
    'commit-messages': {
      'SKILL.md': skillText('commit-messages', COMMIT_MESSAGES),
      evals: { 'triggers.json': triggers([['write a commit message for my staged changes', true]]) },
    },
  });
  return root;
}

describe('agent-skills eval', function () {
  this.timeout(20_000);
  let dir: string;
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    dir = await tempDir();
    endpoint = await startFakeEndpoint();
  });

  afterEach(async () => {
    await endpoint.close();
    await removeDir(dir);
  });

  it("sends @skills's first turn to an OpenAI-compatible endpoint, and reports the misrouted query, who took it, and JUnit", async () => {
    const root = await writeSkills(dir, { confused: true });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'local-model', '--runs', '2', '--junit', 'reports/triggers.xml', root], dir, { OPENAI_API_KEY: 'sk-test' });

    assert.equal(run.code, 1, run.stderr);
    const first = endpoint.requests[0];
    assert.equal(first.path, '/v1/chat/completions');
    assert.equal(first.headers.authorization, 'Bearer sk-test');
    assert.equal(first.body.model, 'local-model');
    assert.equal(first.body.tool_choice, 'auto');
    assert.deepEqual(
      first.body.tools,
      SKILL_TOOL_DEFINITIONS.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })),
    );
    assert.match(first.instructions, /^You are @skills in VS Code\./);
    assert.ok(first.instructions.includes(`release-notes: ${RELEASE_NOTES}`));
    assert.ok(first.instructions.includes(`commit-messages: ${COMMIT_MESSAGES}`));
    // 5 queries, 2 runs each; every answer is an activation, so no second round.
    assert.equal(endpoint.requests.length, 10);

    assert.match(run.stdout, new RegExp(`FAIL "${CONFUSED_QUERY}": .*0% is under the threshold\\. All 2 runs loaded commit-messages\\.`));
    assert.match(run.stdout, /ok {3}"prepare release notes for version 2"/);
    assert.match(run.stdout, /ok {3}"rename this variable everywhere"/);
    assert.match(run.stdout, new RegExp(`note: commit-messages took 2 runs of release-notes's queries \\("${CONFUSED_QUERY}"\\)`));
    assert.match(run.stdout, /Routing, worst first \(should trigger → loaded\):\n {2}release-notes → commit-messages: 2 runs of 6/);
    assert.match(run.stdout, /4 passed, 1 failed, 0 without a verdict\n$/);

    const junit = await fs.readFile(path.join(dir, 'reports', 'triggers.xml'), 'utf8');
    assert.match(junit, /<testsuites name="agent-skills eval \(local-model\)" tests="5" failures="1" errors="0"/);
    assert.match(junit, /<testsuite name="release-notes" tests="4" failures="1" errors="0"/);
    assert.match(junit, new RegExp(`<testcase classname="release-notes" name="${CONFUSED_QUERY}" time="[\\d.]+">\\n {6}<failure message="Triggered release-notes in 0 of 2 runs`));
    assert.match(junit, /<testcase classname="commit-messages" name="write a commit message for my staged changes" time="[\d.]+"\/>/);
  });

  it('speaks the Anthropic Messages API, and exits 0 when every threshold holds', async () => {
    const root = await writeSkills(dir);
    const run = await cli(['eval', '--api', 'anthropic', '--endpoint', endpoint.origin, '--model', 'claude-test', '--runs', '1', root], dir, {
      ANTHROPIC_API_KEY: 'ak-test',
      OPENAI_API_KEY: 'sk-wrong',
    });

    assert.equal(run.code, 0, run.stdout + run.stderr);
    const first = endpoint.requests[0];
    assert.equal(first.path, '/v1/messages');
    assert.equal(first.headers['x-api-key'], 'ak-test');
    assert.equal(first.headers['anthropic-version'], '2023-06-01');
    assert.equal(first.headers.authorization, undefined);
    assert.deepEqual(
      first.body.tools,
      SKILL_TOOL_DEFINITIONS.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
    );
    assert.match(run.stdout, /4 passed, 0 failed, 0 without a verdict\n$/);
    assert.doesNotMatch(run.stdout, /Routing/);
  });

  it('retries rate limits and server errors as the server asks, and counts no verdict from them', async () => {
    const root = await writeSkills(dir);
    endpoint.failNext({ status: 429, retryAfter: '0' }, { status: 503, retryAfter: '0' });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '1', root], dir);

    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(endpoint.requests.length, 6);
    assert.match(run.stderr, /HTTP 429: scripted 429; retrying in 0\.0 s\./);
    assert.match(run.stderr, /HTTP 503: scripted 503; retrying in 0\.0 s\./);
    assert.match(run.stdout, /2 requests retried \(rate limits or server errors\); none counted as a verdict\.\n4 passed, 0 failed, 0 without a verdict\n$/);
  });

  it('exits 3 when no request could be answered, naming the refusal', async () => {
    const root = await writeSkills(dir);
    endpoint.failNext(...Array.from({ length: 8 }, () => ({ status: 400, body: JSON.stringify({ error: { message: 'model "m" not found' } }) })));
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--junit', 'out.xml', root], dir);

    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.equal(endpoint.requests.length, 4, 'a refusal is not retried');
    assert.match(run.stdout, /ERR {2}"prepare release notes for version 2": .*\/v1\/chat\/completions refused the request: HTTP 400: model "m" not found/);
    assert.match(run.stdout, /0 passed, 0 failed, 4 without a verdict\n$/);
    assert.match(await fs.readFile(path.join(dir, 'out.xml'), 'utf8'), /tests="4" failures="0" errors="4"/);
  });

  it("prints JSON with each query's loaded skills and the routing", async () => {
    const root = await writeSkills(dir, { confused: true });
    const run = await cli(['eval', '--json', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', root], dir);

    assert.equal(run.code, 1);
    const result = JSON.parse(run.stdout) as {
      model: string;
      skills: { name: string; recall?: number; queries: { query: string; verdict: string; message: string; loaded: Record<string, number> }[] }[];
      routing: { confusions: { expected: string; loaded: string; runs: number }[]; rows: { expected: string; rate: number }[] };
    };
    assert.equal(result.model, 'm');
    const releaseNotes = result.skills.find((skill) => skill.name === 'release-notes')!;
    assert.equal(releaseNotes.recall, 2 / 3);
    const confused = releaseNotes.queries.find((query) => query.query === CONFUSED_QUERY)!;
    assert.equal(confused.verdict, 'failed');
    assert.deepEqual(confused.loaded, { 'commit-messages': 1 });
    assert.match(confused.message, /^Triggered release-notes in 0 of 1 run/);
    assert.deepEqual(
      result.routing.confusions.map(({ expected, loaded, runs }) => ({ expected, loaded, runs })),
      [{ expected: 'release-notes', loaded: 'commit-messages', runs: 1 }],
    );
    assert.deepEqual(
      result.routing.rows.map(({ expected, rate }) => ({ expected, rate })),
      [
        { expected: 'commit-messages', rate: 1 },
        { expected: 'release-notes', rate: 2 / 3 },
      ],
    );
  });

  it('--baseline runs the same queries with the descriptions at a git ref, and fails on a regression', async () => {
    const root = await writeSkills(dir);
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'skills');
    // A vaguer description: the changelog query no longer finds the skill.
    await writeSkills(dir, { releaseDescription: 'Release notes.' });

    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--baseline', 'HEAD', root], dir);

    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /Against HEAD:\n {2}commit-messages: 1\/1 → 1\/1 passed \(same\)\n {2}release-notes: 3\/3 → 2\/3 passed \(worse\)\n/);
    const baselineRequests = endpoint.requests.slice(4);
    assert.equal(baselineRequests.length, 4);
    assert.ok(baselineRequests.every((request) => request.instructions.includes(`release-notes: ${RELEASE_NOTES}`)));
    assert.ok(endpoint.requests.slice(0, 4).every((request) => request.instructions.includes('release-notes: Release notes.')));
  });

  it('says on stderr what it sends before sending, and prints no retry line when nothing was retried', async () => {
    const root = await writeSkills(dir);
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '2', root], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, `agent-skills: 4 queries of 2 skills, 8 runs on m (openai at ${endpoint.url}).\n`);
    assert.doesNotMatch(run.stdout, /retried/);
    assert.match(run.stdout, /^release-notes \(\.agent\/skills\/release-notes\/evals\/triggers\.json\): /m);
  });

  it('--baseline with --json gives each skill before and after, and a better description is not a regression', async () => {
    const root = await writeSkills(dir, { releaseDescription: 'Release notes.' });
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'skills');
    await writeSkills(dir);

    const run = await cli(['eval', '--json', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--baseline', 'HEAD', root], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stderr, /^agent-skills: baseline HEAD: 4 queries of 2 skills with the descriptions at HEAD\.$/m);
    const result = JSON.parse(run.stdout) as { baseline: { ref: string; skills: { skill: string; before: object; after: object; regressed: boolean }[] } };
    assert.deepEqual(result.baseline, {
      ref: 'HEAD',
      skills: [
        { skill: 'commit-messages', before: { passed: 1, judged: 1 }, after: { passed: 1, judged: 1 }, regressed: false },
        { skill: 'release-notes', before: { passed: 2, judged: 3 }, after: { passed: 3, judged: 3 }, regressed: false },
      ],
    });
    const text = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--baseline', 'HEAD', root], dir);
    assert.match(text.stdout, /Against HEAD:\n {2}commit-messages: 1\/1 → 1\/1 passed \(same\)\n {2}release-notes: 2\/3 → 3\/3 passed \(better\)\n/);
  });

  it('--baseline names a ref that does not exist, and a folder outside git', async () => {
    const root = await writeSkills(dir);
    const outside = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--baseline', 'HEAD', root], dir);
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /is not in a git repository, so --baseline cannot read it\.\n$/);

    execFileSync('git', ['init', '-q'], { cwd: dir });
    const unknown = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--baseline', 'no-such-branch', root], dir);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /--baseline no-such-branch: no such commit, branch or tag in the repository of /);
  });

  it('says what is wrong with the command line or the skills before sending anything', async () => {
    const root = await writeSkills(dir);
    const noEndpoint = await cli(['eval', '--model', 'm', root], dir);
    assert.equal(noEndpoint.code, 2);
    assert.match(noEndpoint.stderr, /eval: give --endpoint URL/);
    const badApi = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--api', 'gemini', root], dir);
    assert.equal(badApi.code, 2);
    assert.match(badApi.stderr, /eval: --api is openai or anthropic, not "gemini"\./);
    const notUrl = await cli(['eval', '--endpoint', 'localhost:11434', '--model', 'm', root], dir);
    assert.match(notUrl.stderr, /--endpoint must be an http:\/\/ or https:\/\/ URL, not "localhost:11434"\./);
    const tooMany = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '21', root], dir);
    assert.match(tooMany.stderr, /--runs is at most 20\./);

    const empty = path.join(dir, 'empty');
    await writeTree(empty, { plain: { 'SKILL.md': skillText('plain', 'A skill without trigger tests.') } });
    const none = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', empty], dir);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no trigger tests to run in .*empty: add evals\/triggers\.json to a skill/);

    await fs.writeFile(path.join(root, 'commit-messages', 'evals', 'triggers.json'), '[{"query": "x", "should_trigger": "yes"}]');
    const broken = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', root], dir);
    assert.equal(broken.code, 1, 'a trigger file with errors fails the run');
    assert.match(broken.stderr, /commit-messages\/evals\/triggers\.json:1:\d+: error: .*\[triggers-should-trigger-type\]/);
    assert.equal(endpoint.requests.length, 3, 'the other skill still ran');
  });

  it('runs the tests of the skills the model may invoke, names a shadowed skill it skips, and reads no file of a hidden one', async () => {
    const root = await writeSkills(dir);
    const other = path.join(dir, 'other');
    await writeTree(other, {
      'release-notes': { 'SKILL.md': skillText('release-notes', 'An older copy.'), evals: { 'triggers.json': triggers([['older copy query', true]]) } },
      'by-hand': {
        'SKILL.md': skillText('by-hand', 'Only for the user.', 'Body.', 'disable-model-invocation: true\n'),
        evals: { 'triggers.json': '[{"query": "x", "should_trigger": "yes"}]' },
      },
    });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', root, other], dir);

    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(run.stderr.split('\n').slice(0, 2), [
      `agent-skills: other/release-notes/evals/triggers.json: not run, release-notes is shadowed by ${path.join(root, 'release-notes', 'SKILL.md')}.`,
      `agent-skills: 4 queries of 2 skills, 4 runs on m (openai at ${endpoint.url}).`,
    ]);
    assert.deepEqual(endpoint.requests.map((request) => request.query).sort(), [
      'draft the changelog from merged pull requests',
      'prepare release notes for version 2',
      'rename this variable everywhere',
      'write a commit message for my staged changes',
    ]);
  });

  it('counts a trigger file with warnings only as no failure, and reports a file that is no JSON without running it', async () => {
    const root = await writeSkills(dir);
    await fs.writeFile(path.join(root, 'commit-messages', 'evals', 'triggers.json'), '[{"query": "write a commit message for my staged changes", "should_trigger": true, "note": "x"}]');
    const warned = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', root], dir);
    assert.equal(warned.code, 0, warned.stdout + warned.stderr);
    assert.match(warned.stderr, /commit-messages\/evals\/triggers\.json:1:\d+: warning: Unknown field "note".*\[triggers-unknown-field\]/);
    assert.match(warned.stdout, /4 passed, 0 failed, 0 without a verdict\n$/);

    await fs.writeFile(path.join(root, 'commit-messages', 'evals', 'triggers.json'), '[{"query": ');
    const broken = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', root], dir);
    assert.equal(broken.code, 1, broken.stdout + broken.stderr);
    assert.match(broken.stderr, /commit-messages\/evals\/triggers\.json:1:\d+: error: /);
    assert.match(broken.stdout, /3 passed, 0 failed, 0 without a verdict\n$/);
  });

  it('exits 3 when some queries reached no verdict and none failed; --json gives rates only to queries with a verdict, and no baseline without --baseline', async () => {
    const root = await writeSkills(dir);
    endpoint.failNext({ status: 400, body: JSON.stringify({ error: { message: 'refused once' } }) });
    const run = await cli(['eval', '--json', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '1', root], dir);

    assert.equal(run.code, 3, run.stdout + run.stderr);
    const result = JSON.parse(run.stdout) as { skills: { name: string; queries: Record<string, unknown>[] }[] };
    assert.equal('baseline' in result, false);
    const queries = result.skills.flatMap((skill) => skill.queries);
    const refused = queries.find((query) => query.query === endpoint.requests[0].query)!;
    assert.equal(refused.verdict, 'errored');
    assert.equal('rate' in refused, false);
    assert.equal('runs' in refused, false);
    assert.match(refused.message as string, /refused once/);
    const passed = queries.filter((query) => query !== refused);
    assert.equal(passed.length, 3);
    for (const query of passed) {
      assert.equal(query.verdict, 'passed');
      assert.equal(query.rate, query.shouldTrigger ? 1 : 0, String(query.query));
      assert.equal(query.runs, 1);
    }
  });

  it('reports the queries in the order of the files however the answers arrive, each with the time it took', async () => {
    const root = await writeSkills(dir);
    endpoint.failNext({ delayMs: 400 });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '2', '--junit', 'out.xml', root], dir);

    assert.equal(run.code, 0, run.stdout + run.stderr);
    const slow = endpoint.requests[0].query;
    assert.equal(slow, 'write a commit message for my staged changes', 'the first query of the first skill is asked first');
    assert.deepEqual(
      [...run.stdout.matchAll(/^ {2}ok {3}"(.*)":/gm)].map((match) => match[1]),
      ['write a commit message for my staged changes', 'draft the changelog from merged pull requests', 'prepare release notes for version 2', 'rename this variable everywhere'],
    );
    const junit = await fs.readFile(path.join(dir, 'out.xml'), 'utf8');
    const seconds = new Map([...junit.matchAll(/<testcase classname="[^"]*" name="([^"]*)" time="([\d.]+)"/g)].map((match) => [match[1], Number(match[2])]));
    assert.equal(seconds.size, 4);
    assert.ok(seconds.get(slow)! >= 0.4 && seconds.get(slow)! < 30, `the slow query took ${seconds.get(slow)} s`);
    for (const [query, time] of seconds) {
      assert.ok(time >= 0 && time < 30, `${query} took ${time} s`);
    }
  });

  it('says how long it waits before retrying, in seconds', async () => {
    const root = await writeSkills(dir);
    endpoint.failNext({ status: 429, retryAfter: '1' });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '1', root], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stderr, /HTTP 429: scripted 429; retrying in 1\.0 s\.\n/);
  });

  it('lists every query of a routing confusion', async () => {
    const root = await writeSkills(dir, { confused: true });
    const secondConfused = 'write commit messages in this style for the release';
    const triggersFile = path.join(root, 'release-notes', 'evals', 'triggers.json');
    const entries = JSON.parse(await fs.readFile(triggersFile, 'utf8')) as unknown[];
    await fs.writeFile(triggersFile, JSON.stringify([...entries, { query: secondConfused, should_trigger: true }]));
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', root], dir);

    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`\n {2}release-notes → commit-messages: 2 runs of 4 \\("${CONFUSED_QUERY}", "${secondConfused}"\\)\n`));
  });

  it('--baseline leaves out skills that were missing or broken at the ref, and compares only queries judged both times', async () => {
    const root = await writeSkills(dir);
    await fs.writeFile(path.join(root, 'release-notes', 'SKILL.md'), 'no frontmatter at this commit\n');
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'skills');
    await writeSkills(dir);
    await writeTree(path.join(root, 'docs-writer'), {
      'SKILL.md': skillText('docs-writer', 'Writes documentation pages.'),
      evals: { 'triggers.json': triggers([['write documentation pages', true]]) },
    });
    const argv = ['eval', '--json', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '1', '--baseline', 'HEAD', root];

    const judged = await cli(argv, dir);
    assert.equal(judged.code, 0, judged.stdout + judged.stderr);
    assert.match(judged.stderr, /^agent-skills: baseline HEAD: 1 query of 1 skill with the descriptions at HEAD\.$/m);
    assert.equal(endpoint.requests.length, 6, '5 queries now, 1 at HEAD');
    assert.deepEqual((JSON.parse(judged.stdout) as { baseline: object }).baseline, {
      ref: 'HEAD',
      skills: [{ skill: 'commit-messages', before: { passed: 1, judged: 1 }, after: { passed: 1, judged: 1 }, regressed: false }],
    });

    // commit-messages is asked first now: refused, it has no verdict to compare.
    endpoint.failNext({ status: 400 });
    const erroredNow = await cli(argv, dir);
    assert.equal(erroredNow.code, 3, erroredNow.stdout + erroredNow.stderr);
    assert.deepEqual((JSON.parse(erroredNow.stdout) as { baseline: object }).baseline, { ref: 'HEAD', skills: [] });

    // Refused at the baseline (the sixth request), neither.
    endpoint.failNext({ delayMs: 0 }, { delayMs: 0 }, { delayMs: 0 }, { delayMs: 0 }, { delayMs: 0 }, { status: 400 });
    const erroredThen = await cli(argv, dir);
    assert.equal(erroredThen.code, 0, erroredThen.stdout + erroredThen.stderr);
    assert.deepEqual((JSON.parse(erroredThen.stdout) as { baseline: object }).baseline, { ref: 'HEAD', skills: [] });
  });

  it('names what is missing or wrong in the endpoint options and every ROOT without trigger tests', async () => {
    const root = await writeSkills(dir);
    const noModel = await cli(['eval', '--endpoint', endpoint.url, root], dir);
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /eval: give --endpoint URL \(the base URL, e\.g\. http:\/\/localhost:11434\/v1\) and --model ID\./);
    const pasted = await cli(['eval', '--endpoint', ` ${endpoint.url}`, '--model', 'm', root], dir);
    assert.equal(pasted.code, 2);
    assert.match(pasted.stderr, /--endpoint must be an http:\/\/ or https:\/\/ URL, not " http:/);

    await writeTree(dir, { first: { a: { 'SKILL.md': skillText('a', 'A skill.') } }, second: { b: { 'SKILL.md': skillText('b', 'B skill.') } } });
    const none = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', 'first', 'second'], dir);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no trigger tests to run in first, second: /);
    assert.equal(endpoint.requests.length, 0);
  });

  it('says "1 query" for a single query', async () => {
    await writeTree(dir, { skills: { solo: { 'SKILL.md': skillText('solo', 'Writes solo songs.'), evals: { 'triggers.json': triggers([['write solo songs', true]]) } } } });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', 'skills'], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, `agent-skills: 1 query of 1 skill, 1 run on m (openai at ${endpoint.url}).\n`);
  });

  it('answers the tools the model calls before it loads a skill from the skills it evaluates', async () => {
    const root = await writeSkills(dir);
    const find = { id: 'find-1', type: 'function', function: { name: 'skills_find', arguments: JSON.stringify({ query: 'changelog' }) } };
    endpoint.failNext({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [find] } }] }) });
    const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '1', root], dir);

    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(endpoint.requests.length, 5, 'the run that searched asked again with the answer');
    const messages = endpoint.requests[1].body.messages as { role: string; tool_call_id?: string; content?: string }[];
    const answer = messages.find((message) => message.role === 'tool');
    assert.equal(answer?.tool_call_id, 'find-1');
    assert.match(answer?.content ?? '', /release-notes/);
  });

  it('never shows the API key an endpoint echoes back: not on stdout or stderr, in JSON or in the JUnit file', async () => {
    const root = await writeSkills(dir);
    const key = 'sk-live-0123456789abcdef';
    const echo = (status: number): { status: number; body: string } => ({ status, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }) });
    for (const json of [false, true]) {
      endpoint.failNext(echo(500), ...Array.from({ length: 4 }, () => echo(401)));
      const run = await cli(['eval', '--endpoint', endpoint.url, '--model', 'm', '--runs', '1', '--concurrency', '1', '--junit', 'out.xml', ...(json ? ['--json'] : []), root], dir, {
        OPENAI_API_KEY: key,
      });
      assert.equal(run.code, 3, run.stderr);
      const junit = await fs.readFile(path.join(dir, 'out.xml'), 'utf8');
      for (const [where, text] of [
        ['stdout', run.stdout],
        ['stderr', run.stderr],
        ['JUnit', junit],
      ]) {
        assert.ok(!text.includes(key), `${where} holds the key:\n${text}`);
      }
      assert.match(json ? run.stdout : junit, /Incorrect API key provided: \*\*\*/);
      assert.match(run.stderr, /HTTP 500: Incorrect API key provided: \*\*\*; retrying/);
    }
    assert.equal(endpoint.requests[0].headers.authorization, `Bearer ${key}`);
  });

  it('refuses an endpoint URL holding a user name or password, without showing them', async () => {
    const root = await writeSkills(dir);
    const run = await cli(['eval', '--endpoint', endpoint.url.replace('http://', 'http://me:s3cret@'), '--model', 'm', root], dir);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^agent-skills: eval: --endpoint must not hold a user name or password \(the key comes from OPENAI_API_KEY or ANTHROPIC_API_KEY\): http:\/\/127\.0\.0\.1:\d+\/v1\.$/m);
    assert.doesNotMatch(run.stderr, /s3cret/);
    assert.equal(endpoint.requests.length, 0);
  });
});
