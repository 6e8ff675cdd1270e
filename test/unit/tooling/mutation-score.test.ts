// npm run mutate:score trusts no report: each refusal here is met with a small report made by hand
// over a few files in a temporary repository, with the mutants Stryker's instrumenter makes in them
// and statuses chosen by the test (no Stryker run).

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { enumerateMutants, formatEquivalents, type EnumeratedMutant, type EquivalentMutant } from '../../../scripts/mutation/equivalents';
import { filesToMutate, type MutantStatus } from '../../../scripts/mutation/report';
import { publishProblems, publishedSection, writePublishedSection } from '../../../scripts/mutation/publish';
import { gateLines, percent, scoreReport, scoreReports, type ScoreResult } from '../../../scripts/mutation/score';
import { removeDir, tempDir, writeTree } from '../../fixtures/trees/tree';

const PARITY = 'src/core/small/parity.ts';
const SIGN = 'src/core/small/sign.ts';
const RANGES = 'src/core/big/ranges.ts';
const LIST = 'test/mutation/equivalent-mutants.json';

const sources: Record<string, string> = {
  [PARITY]: 'export function isEven(value: number): boolean {\n  return value % 2 === 0;\n}\n',
  [SIGN]: "export function sign(value: number): string {\n  return value < 0 ? 'negative' : 'positive';\n}\n",
  // Many mutants, to outweigh a weak folder in the total.
  [RANGES]: Array.from({ length: 8 }, (_, index) => `export function inRange${index}(value: number): boolean {\n  return value > ${index} && value < ${index + 10};\n}\n`).join(''),
};

interface ReportOptions {
  /** The status of each mutant; the mutant is left out of the report where it gives undefined. */
  status?: (mutant: EnumeratedMutant, index: number) => MutantStatus | undefined;
  mutate?: string[] | null;
  config?: Record<string, unknown>;
  source?: (file: string) => string;
  testFiles?: Record<string, { source: string }>;
  staticMutants?: boolean;
}

describe('mutation score', function () {
  // The instrumenter parses each file with Babel: seconds on a busy machine.
  this.timeout(60_000);
  let root: string;
  let mutants: EnumeratedMutant[];
  let reportCount = 0;

  before(async () => {
    root = await tempDir();
    await writeTree(root, {
      ...sources,
      'src/core/small/types.d.ts': 'export type Parity = boolean;\n',
      'test/unit/parity.test.ts': "import { isEven } from '../../src/core/small/parity';\n",
      'stryker.config.json': JSON.stringify({ mutate: ['src/core/**/*.ts'] }),
      [LIST]: '[]\n',
    });
    mutants = await enumerateMutants([PARITY, SIGN, RANGES], root);
  });

  after(async () => {
    await removeDir(root);
  });

  /** Writes a report of `files` in Stryker's JSON shape and returns its path. */
  function report(files: readonly string[], options: ReportOptions = {}): string {
    const status = options.status ?? (() => 'Killed');
    const config = options.mutate === null ? undefined : { mutate: options.mutate ?? files, ignoreStatic: true, ...options.config };
    const reported = Object.fromEntries(
      files.map((file) => [
        file,
        {
          language: 'typescript',
          source: options.source?.(file) ?? sources[file],
          mutants: mutants.flatMap((mutant, index) => {
            const result = mutant.file === file ? status(mutant, index) : undefined;
            return result === undefined
              ? []
              : [
                  {
                    id: String(index),
                    mutatorName: mutant.mutator,
                    replacement: mutant.replacement,
                    status: result,
                    ...(options.staticMutants ? { static: true, statusReason: 'Static mutant (and "ignoreStatic" was enabled)' } : {}),
                    location: { start: { line: mutant.line, column: mutant.column }, end: mutant.end },
                  },
                ];
          }),
        },
      ]),
    );
    const file = path.join(root, 'reports', `report-${++reportCount}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ schemaVersion: '1.0', files: reported, ...(options.testFiles ? { testFiles: options.testFiles } : {}), ...(config ? { config } : {}) }));
    return file;
  }

  const score = (...reportFiles: string[]) => scoreReports(root, reportFiles, path.join(root, LIST));
  const writeList = (entries: EquivalentMutant[]) => fs.writeFileSync(path.join(root, LIST), formatEquivalents(entries));
  const refusals = (result: ScoreResult) => result.read.refusals.join('\n');
  const countIn = (file: string) => mutants.filter((mutant) => mutant.file === file).length;

  afterEach(() => writeList([]));

  it('scores a report that holds every mutant of its files, per folder', async () => {
    const result = await score(report([PARITY, SIGN], { mutate: ['src/core/small/**/*.ts'] }));
    assert.deepEqual(result.read.refusals, []);
    assert.equal(result.passed, true);
    assert.deepEqual(
      result.rows.map((row) => [row.folder, row.tally.killed, row.score]),
      [['src/core/small', countIn(PARITY) + countIn(SIGN), 1]],
    );
    const printed = scoreReport(result).join('\n');
    assert.match(printed, /src\/core\/small: 100\.0 % with 0 equivalent mutants excused \(goal ≥ 85\.0 %\) PASS/);
    assert.match(printed, /A narrowed run: stryker\.config\.json also mutates 1 file outside it/);
  });

  it('refuses a report of two killed mutants', async () => {
    const firstTwo = new Set(mutants.filter((mutant) => mutant.file === PARITY).slice(0, 2));
    const twoKilled = (mutant: EnumeratedMutant) => (firstTwo.has(mutant) ? 'Killed' : undefined);
    const result = await score(report([PARITY], { status: twoKilled }));
    assert.equal(result.passed, false);
    assert.match(refusals(result), new RegExp(`${PARITY}: the reports lack ${countIn(PARITY) - 2} of its ${countIn(PARITY)} mutants \\(${PARITY}:\\d+:\\d+ `));
    assert.match(scoreReport(result)[0], /cannot be scored/);
    // Without the run's own patterns, a report is held to stryker.config.json's.
    assert.match(refusals(await score(report([PARITY], { mutate: null, status: twoKilled }))), /src\/core\/big\/ranges\.ts: in no report/);
  });

  it('refuses Ignored mutants with no cause, and gives no score to a folder whose mutants were all left out', async () => {
    const unexplained = await score(report([PARITY], { status: () => 'Ignored' }));
    assert.match(refusals(unexplained), new RegExp(`${PARITY}: ${countIn(PARITY)} mutants Ignored with no cause Stryker gives`));

    const allStatic = await score(report([PARITY], { status: () => 'Ignored', staticMutants: true }));
    assert.deepEqual(allStatic.read.refusals, []);
    assert.equal(allStatic.passed, false);
    assert.deepEqual(gateLines(allStatic.rows), [`src/core/small: none of its ${countIn(PARITY)} mutants was tested (goal ≥ 85.0 %) MISS`]);
    // Static mutants count as Ignored only in a run that left them out.
    assert.match(refusals(await score(report([PARITY], { status: () => 'Ignored', staticMutants: true, config: { ignoreStatic: false } }))), /Ignored with no cause/);
  });

  it('refuses a report that lacks a file its run was asked to mutate', async () => {
    const result = await score(report([PARITY], { mutate: ['src/core/small/**/*.ts'] }));
    assert.match(refusals(result), new RegExp(`^${SIGN}: in no report, though the run of reports/report-\\d+\\.json was asked to mutate it; its ${countIn(SIGN)} mutants are unmeasured$`, 'm'));
    // A file without mutants (types only) need not be there.
    assert.doesNotMatch(refusals(result), /types\.d\.ts/);
  });

  it('refuses a report whose source or tests differ from the work tree', async () => {
    const edited = await score(report([PARITY], { source: (file) => sources[file].replace('=== 0', '=== 1') }));
    assert.match(refusals(edited), new RegExp(`report-\\d+\\.json: ${PARITY}: the report's source differs from the file on disk from line 2 on; the report is of other code`));

    const testsChanged = await score(report([PARITY], { testFiles: { 'test/unit/parity.test.ts': { source: '// an older test\n' } } }));
    assert.match(refusals(testsChanged), /the test file test\/unit\/parity\.test\.ts differs from the file on disk from line 1 on: the tests changed since the run/);
    const testsGone = await score(report([PARITY], { testFiles: { 'test/unit/gone.test.ts': { source: '' } } }));
    assert.match(refusals(testsGone), /its tests ran from test\/unit\/gone\.test\.ts, which is no longer a file in the work tree/);
    // A link is not followed out of the repository to compare what it points at.
    fs.symlinkSync(path.join(root, 'stryker.config.json'), path.join(root, 'test/unit/linked.test.ts'));
    const linked = await score(report([PARITY], { testFiles: { 'test/unit/linked.test.ts': { source: fs.readFileSync(path.join(root, 'stryker.config.json'), 'utf8') } } }));
    assert.match(refusals(linked), /its tests ran from test\/unit\/linked\.test\.ts, which is no longer a file in the work tree/);
  });

  it('refuses file names outside the repository and files the run was not asked to mutate', async () => {
    const outside = report([PARITY]);
    const text = JSON.parse(fs.readFileSync(outside, 'utf8')) as { files: Record<string, unknown> };
    text.files['../../etc/passwd'] = text.files[PARITY];
    fs.writeFileSync(outside, JSON.stringify(text));
    assert.match(refusals(await score(outside)), /names a file outside the repository: "\.\.\/\.\.\/etc\/passwd"/);
    assert.match(refusals(await score(report([PARITY, SIGN], { mutate: [PARITY] }))), new RegExp(`${SIGN} is not among the files its run was asked to mutate \\(${PARITY}\\)`));
  });

  it('refuses a report that is no Stryker report, naming the field', async () => {
    const broken = path.join(root, 'reports', 'broken.json');
    fs.writeFileSync(broken, JSON.stringify({ files: { [PARITY]: { source: sources[PARITY], mutants: [{ mutatorName: 'X', status: 'Great' }] } } }));
    assert.match(refusals(await score(broken)), /broken\.json: \.files\.src\/core\/small\/parity\.ts\.mutants\[0\]\.status: /);
    fs.writeFileSync(broken, '{');
    assert.match(refusals(await score(broken)), /broken\.json: cannot be read as JSON/);
  });

  it('gates every folder: a weak folder fails inside a passing total', async () => {
    // One of the small folder's mutants killed, every one of the big folder's.
    const result = await score(report([PARITY, SIGN, RANGES], { mutate: ['src/core/**/*.ts'], status: (mutant) => (mutant.file === RANGES || mutant.file === PARITY ? 'Killed' : 'Survived') }));
    assert.deepEqual(result.read.refusals, []);
    assert.ok(result.total.score !== undefined && result.total.score >= 0.85, `total ${result.total.score}`);
    assert.equal(result.passed, false);
    const gates = gateLines(result.rows);
    assert.match(gates.join('\n'), /^src\/core\/big: 100\.0 % .* PASS$/m);
    assert.match(gates.join('\n'), /^src\/core\/small: \d+\.\d % .* MISS$/m);
    // Just under the goal never prints as the goal.
    assert.deepEqual([percent(0.8499), percent(0.85), percent(1)], ['84.9 %', '85.0 %', '100.0 %']);
  });

  it('counts a mutant of two merged reports once', async () => {
    const first = report([PARITY], { status: () => 'Survived' });
    const second = report([PARITY, SIGN], { mutate: ['src/core/small/*.ts'] });
    const result = await score(first, second);
    assert.deepEqual(result.read.refusals, []);
    assert.deepEqual(result.read.duplicates, { count: countIn(PARITY), disagreeing: countIn(PARITY) });
    assert.equal(result.read.mutants.length, countIn(PARITY) + countIn(SIGN));
    // The later report's results win: every mutant killed.
    assert.deepEqual(
      result.rows.map((row) => [row.folder, row.tally.killed, row.tally.survived]),
      [['src/core/small', countIn(PARITY) + countIn(SIGN), 0]],
    );
    assert.match(scoreReport(result).join('\n'), new RegExp(`${countIn(PARITY)} mutants in more than one report count once`));
  });

  it('excuses a listed equivalent mutant, and refuses an entry marked for review until a person removes the mark', async () => {
    const survivor = mutants.find((mutant) => mutant.file === PARITY && mutant.mutator === 'ArithmeticOperator');
    assert.ok(survivor);
    const { file, line, column, mutator, original, replacement } = survivor;
    const entry: EquivalentMutant = { file, line, column, mutator, original, replacement, reason: 'a reason long enough to say why' };
    const reportFile = report([PARITY], { status: (mutant) => (mutant === survivor ? 'Survived' : 'Killed') });

    writeList([entry]);
    const excused = await score(reportFile);
    assert.equal(excused.passed, true);
    assert.equal(excused.rows[0].tally.excused, 1);

    writeList([{ ...entry, review: 'moved from 1:1; confirm the reason' }]);
    const marked = await score(reportFile);
    assert.equal(marked.passed, false);
    assert.match(
      marked.listProblems.join('\n'),
      /marked for review \(moved from 1:1; confirm the reason\): check that "a reason long enough to say why" holds for this mutant, then delete the "review" field/,
    );
  });
});

describe('files a mutation run is asked to mutate', () => {
  let root: string;

  before(async () => {
    root = await tempDir();
    await writeTree(root, { src: { core: { 'a.ts': '', 'b.ts': '', deep: { 'c.ts': '' } }, cli: { 'main.ts': '', 'run.ts': '' } }, node_modules: { 'x.ts': '' } });
  });

  after(async () => {
    await removeDir(root);
  });

  it('reads the patterns in order, as Stryker does', () => {
    assert.deepEqual(filesToMutate(root, ['src/**/*.ts', '!src/cli/main.ts']), ['src/cli/run.ts', 'src/core/a.ts', 'src/core/b.ts', 'src/core/deep/c.ts']);
    assert.deepEqual(filesToMutate(root, ['src/core/*.ts', '!src/core/{a,b}.ts', 'src/core/b.ts']), ['src/core/b.ts']);
  });

  it('refuses a pattern outside the repository or over part of a file', () => {
    assert.throws(() => filesToMutate(root, ['../elsewhere/**/*.ts']), /the mutate pattern "\.\.\/elsewhere\/\*\*\/\*\.ts" reaches outside the repository/);
    assert.throws(() => filesToMutate(root, ['src/core/a.ts:1-10']), /mutates part of a file only/);
  });
});

describe('publishing a full mutation run', function () {
  this.timeout(60_000);
  let root: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

  before(async () => {
    root = await tempDir();
    await writeTree(root, {
      [PARITY]: sources[PARITY],
      'stryker.config.json': JSON.stringify({ mutate: ['src/core/**/*.ts'] }),
      [LIST]: '[]\n',
      'docs/mutation-testing.md': '# Mutation testing\n\n<!-- full-mutation-run:begin -->\nNone yet.\n<!-- full-mutation-run:end -->\n\nMore.\n',
      '.gitignore': 'reports/\n',
    });
    git('init', '--quiet');
    git('add', '.');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'sources');
  });

  after(async () => {
    await removeDir(root);
  });

  async function reportOfRun(config: Record<string, unknown>): Promise<string> {
    const mutants = await enumerateMutants([PARITY], root);
    const file = path.join(root, 'reports', 'mutation.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        files: {
          [PARITY]: {
            source: sources[PARITY],
            mutants: mutants.map((mutant) => ({
              mutatorName: mutant.mutator,
              replacement: mutant.replacement,
              status: 'Killed',
              location: { start: { line: mutant.line, column: mutant.column }, end: mutant.end },
            })),
          },
        },
        config: { mutate: ['src/core/**/*.ts'], ...config },
        framework: { name: 'StrykerJS', version: '9.6.1' },
      }),
    );
    return file;
  }

  it('publishes only a run that re-tested every mutant, at a commit without changes', async () => {
    const incremental = await reportOfRun({ incremental: true });
    assert.match(publishProblems(root, await scoreReports(root, [incremental], path.join(root, LIST))).join('\n'), /its run reused results of earlier runs \(incremental, without --force\)/);

    const forced = await reportOfRun({ incremental: true, force: true, concurrency: 2 });
    fs.writeFileSync(path.join(root, 'notes.txt'), 'uncommitted');
    fs.appendFileSync(path.join(root, '.gitignore'), 'out/\n');
    assert.match(publishProblems(root, await scoreReports(root, [forced], path.join(root, LIST))).join('\n'), /the work tree has changes \(\.gitignore, notes\.txt\); commit them first/);
    fs.rmSync(path.join(root, 'notes.txt'));
    git('checkout', '--', '.gitignore');

    const result = await scoreReports(root, [forced], path.join(root, LIST));
    assert.deepEqual(publishProblems(root, result), []);
    const doc = path.join(root, 'docs', 'mutation-testing.md');
    writePublishedSection(doc, publishedSection(root, result, forced));
    const text = fs.readFileSync(doc, 'utf8');
    const commit = git('rev-parse', 'HEAD').trim();
    assert.match(text, new RegExp(`<!-- full-mutation-run:begin -->\\n\\nCommit \`${commit}\` \\([^)]+\\), measured with \`npm run mutate -- --force\` \\(StrykerJS 9\\.6\\.1, concurrency 2;`));
    assert.match(text, /\| src\/core\/small \| \d+ \| 0 \| 0 \| 0 \| 0 \| 100\.0 % \|/);
    assert.match(text, /Every folder reaches 85\.0 %; 0 mutants neither killed nor listed as equivalent\.\n\n<!-- full-mutation-run:end -->\n\nMore\.\n$/);
    assert.doesNotMatch(text, /None yet/);
  });

  it('publishes no narrowed run', async () => {
    fs.writeFileSync(path.join(root, 'src/core/extra.ts'), 'export const three = () => 1 + 2;\n');
    git('add', '.');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'another file');
    const narrowed = await reportOfRun({ force: true, mutate: ['src/core/small/**/*.ts'] });
    const problems = publishProblems(root, await scoreReports(root, [narrowed], path.join(root, LIST)));
    assert.match(problems.join('\n'), /its run left out 1 file stryker\.config\.json mutates \(src\/core\/extra\.ts\); publish a run of npm run mutate -- --force/);
  });
});
