// The `agent-skills` command as a user runs it: whole processes, Node's start-up included, through
// the executable `dist/agent-skills.js` on the production bundle. Each figure is a ratio against a
// baseline process measured in alternation in the same run: `--help` against `node -e 0`; `list --json` and `validate --strict
// --json` over 3,000 synthetic skills against the floor, a plain Node script that reads every
// SKILL.md and parses its frontmatter with the same YAML library, checking nothing; the default
// `validate` against `--strict` over 3,000 skills whose descriptions are built from a few dozen
// words (thousands of alike pairs, so the competing-skills check is at its dearest); and, as
// information, the specification's reference validator, `skills-ref`, over the first tree. Each
// process also reports the CPU time it used, steadier than elapsed time on a busy machine, and
// the load average is printed beside: on a machine busier than its CPUs, the verdicts go by CPU
// time. The CPU-time ratio is also taken round by round (the two processes of a round run back to
// back, under about the same load), and the middle half of those ratios says how far one run's
// figure can be trusted.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeAlikeSkills, writeSyntheticSkills, type SyntheticSkill } from '../core/synthetic-skills';
import { similarDescriptions } from '../../src/core/evals/description-index';
import { alternatingMediansMs, median, percentile, type Repetitions } from '../measure';
import { checkGoal, formatNumber, printFigure, round, type BenchFigures, type Verdict } from '../section';

const SKILL_COUNT = 3000;
/** `list --json` ÷ the floor: listing adds little to reading and parsing. */
const LIST_GOAL = 1.25;
/** `validate --strict --json` ÷ the floor, in elapsed and in CPU time. */
const STRICT_GOAL = 1.3;
const STRICT_CPU_GOAL = 1.4;
/** The default `validate` (the competing-skills check included) ÷ `--strict`, on the alike tree. */
const DEFAULT_VS_STRICT_GOAL = 2;
/** `--help` ÷ `node -e 0`: the command line starts about as fast as Node itself. */
const HELP_GOAL = 1.3;
const RUNS = { warmups: 3, runs: 21 };
/** The validators are compared over more runs: their figure was the least steady on a busy machine. */
const VALIDATE_RUNS = { warmups: 3, runs: 31 };
const CLI_BUNDLE = path.join(repositoryRoot, 'dist', 'cli.js');
/** What `agent-skills` runs, and what every row runs: V8 tuned for a short run, and compiled code kept from an earlier start (src/cli/launcher.ts), then CLI_BUNDLE. */
const EXECUTABLE = path.join(repositoryRoot, 'dist', 'agent-skills.js');

/**
 * The floor: what any validator must do at least, started the same way: list the folders, read
 * each SKILL.md, and parse its frontmatter with the YAML library the product uses, checking nothing.
 */
const FLOOR_SCRIPT = `
const fs = require('node:fs'), path = require('node:path'), yaml = require('js-yaml');
const root = process.argv[1];
const parsed = [];
for (const name of fs.readdirSync(root)) {
  let text;
  try { text = fs.readFileSync(path.join(root, name, 'SKILL.md'), 'utf8'); } catch { continue; }
  const end = text.indexOf('\\n---', 3);
  if (text.startsWith('---') && end > 0) parsed.push(yaml.safeLoad(text.slice(3, end)));
}
process.stdout.write(JSON.stringify(parsed.length));
`;

/**
 * What a user of the reference validator would run: every folder through `skills-ref`'s
 * validate(), 32 at a time (the concurrency discovery uses), the verdicts printed as JSON.
 */
const REFERENCE_VALIDATE_SCRIPT = `
const fs = require('node:fs'), path = require('node:path');
const root = process.argv[1];
import('skills-ref').then(async ({ validate }) => {
  const folders = fs.readdirSync(root).map((name) => path.join(root, name));
  const verdicts = new Array(folders.length);
  let next = 0;
  const worker = async () => { while (next < folders.length) { const index = next++; verdicts[index] = await validate(folders[index]); } };
  await Promise.all(Array.from({ length: 32 }, worker));
  process.stdout.write(JSON.stringify(verdicts));
  if (verdicts.some((errors) => errors.length > 0)) process.exitCode = 1;
});
`;

/**
 * Preloaded into every measured process: writes the CPU time the whole process used (Node's
 * start-up included) to file descriptor 3 as it exits.
 */
const CPU_REPORTER = `process.on('exit', () => require('node:fs').writeSync(3, JSON.stringify(process.cpuUsage())));`;

/** Runs a process to its end with its output discarded; resolves to its CPU time in ms, rejects on a non-zero exit. */
function runProcess(cpuReporter: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    // From the repository, where `skills-ref` is installed.
    const child = spawn(process.execPath, ['--require', cpuReporter, ...args], { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
    let report = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => (report += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        return reject(new Error(`node ${args.join(' ')} exited with ${code}`));
      }
      const { user, system } = JSON.parse(report) as NodeJS.CpuUsage;
      resolve((user + system) / 1000);
    });
  });
}

/** Alternating median elapsed times of processes, the median CPU time each used, and each one's CPU times round by round. */
async function measureProcesses<Name extends string>(
  cpuReporter: string,
  argsByName: Readonly<Record<Name, readonly string[]>>,
  repetitions: Repetitions,
): Promise<Record<Name, { wallMs: number; cpuMs: number; cpuByRound: number[] }>> {
  const names = Object.keys(argsByName) as Name[];
  const cpuSamples = new Map<Name, number[]>(names.map((name) => [name, []]));
  const tasks = Object.fromEntries(names.map((name) => [name, async () => cpuSamples.get(name)!.push(await runProcess(cpuReporter, argsByName[name]))])) as Record<Name, () => Promise<unknown>>;
  const wall = await alternatingMediansMs(tasks, repetitions);
  return Object.fromEntries(
    names.map((name) => {
      const cpuByRound = cpuSamples.get(name)!.slice(repetitions.warmups);
      return [name, { wallMs: wall[name], cpuMs: median(cpuByRound), cpuByRound }];
    }),
  ) as Record<Name, { wallMs: number; cpuMs: number; cpuByRound: number[] }>;
}

/**
 * Two whole processes compared: their alternating medians, the ratio judged against its goal, and
 * the load average before and after. On a machine busier than its CPUs (the load average above
 * their count at either end), elapsed time measures the queue for a CPU more than the work, so the
 * verdict goes by CPU time, and the output says which one it went by.
 */
async function compareProcesses(
  cpuReporter: string,
  args: { baseline: readonly string[]; ours: readonly string[] },
  labels: { baseline: string; ours: string; ratio: string },
  goal: { target: number; cpuTarget?: number; better: 'lower' | 'higher' } | undefined,
  repetitions: Repetitions,
): Promise<{
  times: Record<'baseline' | 'ours', { wallMs: number; cpuMs: number }>;
  wallRatio: number;
  cpuRatio: number;
  /** The 25th and 75th percentiles of the CPU-time ratios of single rounds. */
  cpuRatioMiddleHalf: [number, number];
  /** Absent for a comparison given as information, without a goal. */
  verdict: Verdict | undefined;
  byCpu: boolean;
  load: [number, number];
}> {
  const loadBefore = os.loadavg()[0];
  const times = await measureProcesses(cpuReporter, args, repetitions);
  const loadAfter = os.loadavg()[0];
  // The ratio that grows with the goal's direction: ours ÷ baseline when lower is better (and without a goal).
  const better = goal?.better ?? 'lower';
  const ratio = (of: 'wallMs' | 'cpuMs') => (better === 'lower' ? times.ours[of] / times.baseline[of] : times.baseline[of] / times.ours[of]);
  const wallRatio = ratio('wallMs');
  const cpuRatio = ratio('cpuMs');
  const roundRatios = times.ours.cpuByRound.map((ours, round) => (better === 'lower' ? ours / times.baseline.cpuByRound[round] : times.baseline.cpuByRound[round] / ours)).sort((a, b) => a - b);
  const cpuRatioMiddleHalf: [number, number] = [percentile(roundRatios, 0.25), percentile(roundRatios, 0.75)];
  const byCpu = Math.max(loadBefore, loadAfter) > os.cpus().length;
  printFigure(labels.baseline, times.baseline.wallMs, ` ms (CPU ${formatNumber(times.baseline.cpuMs)} ms)`);
  printFigure(labels.ours, times.ours.wallMs, ` ms (CPU ${formatNumber(times.ours.cpuMs)} ms)`);
  const cpuLabel = `${labels.ratio}, in CPU time`;
  const wallLabel = `${labels.ratio}, in elapsed time`;
  let verdict: Verdict | undefined;
  if (!goal) {
    printFigure(wallLabel, wallRatio, '×');
    printFigure(cpuLabel, cpuRatio, '×');
  } else if (goal.cpuTarget !== undefined) {
    // Two goals: CPU time always; elapsed time unless the machine was too busy for it to mean anything.
    const cpuVerdict = checkGoal({ label: cpuLabel, value: cpuRatio, unit: '×', target: goal.cpuTarget, better: goal.better });
    const wallVerdict = byCpu ? undefined : checkGoal({ label: wallLabel, value: wallRatio, unit: '×', target: goal.target, better: goal.better });
    if (byCpu) {
      printFigure(wallLabel, wallRatio, '×');
    }
    verdict = cpuVerdict === 'PASS' && wallVerdict !== 'MISS' ? 'PASS' : 'MISS';
  } else if (byCpu) {
    printFigure(wallLabel, wallRatio, '×');
    verdict = checkGoal({ label: cpuLabel, value: cpuRatio, unit: '×', target: goal.target, better: goal.better });
  } else {
    verdict = checkGoal({ label: wallLabel, value: wallRatio, unit: '×', target: goal.target, better: goal.better });
    printFigure(cpuLabel, cpuRatio, '×');
  }
  printFigure(`${labels.ratio}, in CPU time round by round, middle half from`, cpuRatioMiddleHalf[0], `× to ${formatNumber(cpuRatioMiddleHalf[1])}× (${roundRatios.length} rounds)`);
  const cpus = os.cpus().length;
  console.log(
    `  load average (1 min) ${formatNumber(loadBefore)} before, ${formatNumber(loadAfter)} after, on ${cpus} CPUs: verdict by ${byCpu ? `CPU time (the machine was busier than its ${cpus} CPUs, which distorts elapsed time)` : 'elapsed time'}`,
  );
  return { times, wallRatio, cpuRatio, cpuRatioMiddleHalf, verdict, byCpu, load: [loadBefore, loadAfter] };
}

/** Where a comparison's figures go in the results file (the keys of earlier runs, kept). */
interface ComparisonKeys {
  baselineMs: string;
  baselineCpuMs: string;
  oursMs: string;
  oursCpuMs: string;
  ratio: string;
  cpuRatio: string;
  /** The 25th and 75th percentiles of the round-by-round CPU-time ratios. */
  cpuRatioMiddleHalf: [string, string];
  /** Absent for a comparison without a goal. */
  goal?: string;
  verdictBy: string;
  /** The load averages before and after. */
  load: [string, string];
}

function comparisonFigures(compared: Awaited<ReturnType<typeof compareProcesses>>, keys: ComparisonKeys): BenchFigures {
  return {
    [keys.baselineMs]: round(compared.times.baseline.wallMs),
    [keys.baselineCpuMs]: round(compared.times.baseline.cpuMs),
    [keys.oursMs]: round(compared.times.ours.wallMs),
    [keys.oursCpuMs]: round(compared.times.ours.cpuMs),
    [keys.ratio]: round(compared.wallRatio),
    [keys.cpuRatio]: round(compared.cpuRatio),
    [keys.cpuRatioMiddleHalf[0]]: round(compared.cpuRatioMiddleHalf[0]),
    [keys.cpuRatioMiddleHalf[1]]: round(compared.cpuRatioMiddleHalf[1]),
    ...(keys.goal && compared.verdict ? { [keys.goal]: compared.verdict } : {}),
    [keys.verdictBy]: compared.byCpu ? 'cpu' : 'elapsed',
    [keys.load[0]]: round(compared.load[0], 2),
    [keys.load[1]]: round(compared.load[1], 2),
  };
}

export async function run(): Promise<BenchFigures> {
  await fs.access(CLI_BUNDLE).catch(() => {
    throw new Error(`${CLI_BUNDLE} is missing: run "npm run build:prod" first.`);
  });
  const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-cli-')));
  try {
    const root = path.join(workspace, 'skills');
    await writeSyntheticSkills(root, SKILL_COUNT);
    const cpuReporter = path.join(workspace, 'cpu-reporter.js');
    await fs.writeFile(cpuReporter, CPU_REPORTER);
    const bundleBytes = (await fs.stat(CLI_BUNDLE)).size;
    printFigure('dist/cli.js size', bundleBytes / 1024, ' KB');

    const skills = SKILL_COUNT.toLocaleString('en-US');
    const compileCache = 'enableCompileCache' in (await import('node:module')) ? "Node's" : 'its own (src/cli/code-cache.ts)';
    console.log(`  (Node ${process.version}: the executable keeps compiled code in ${compileCache} cache)`);
    const help = await compareProcesses(
      cpuReporter,
      { baseline: ['-e', '0'], ours: [EXECUTABLE, '--help'] },
      { baseline: 'node -e 0', ours: 'agent-skills --help', ratio: '--help ÷ node -e 0' },
      { target: HELP_GOAL, better: 'lower' },
      RUNS,
    );
    const floor = ['-e', FLOOR_SCRIPT, root];
    const list = await compareProcesses(
      cpuReporter,
      { baseline: floor, ours: [EXECUTABLE, 'list', '--json', root] },
      { baseline: `floor: read and parse every frontmatter (${skills} skills)`, ours: `agent-skills list --json over ${skills} skills`, ratio: 'list --json ÷ floor' },
      { target: LIST_GOAL, better: 'lower' },
      RUNS,
    );
    const strict = await compareProcesses(
      cpuReporter,
      { baseline: floor, ours: [EXECUTABLE, 'validate', '--strict', '--json', root] },
      { baseline: `floor: read and parse every frontmatter (${skills} skills)`, ours: `agent-skills validate --strict --json (${skills} skills)`, ratio: 'validate --strict ÷ floor' },
      { target: STRICT_GOAL, cpuTarget: STRICT_CPU_GOAL, better: 'lower' },
      VALIDATE_RUNS,
    );
    const alikeRoot = path.join(workspace, 'alike');
    const alikePairs = alikePairCount(await writeAlikeSkills(alikeRoot, SKILL_COUNT));
    const defaultMode = await compareProcesses(
      cpuReporter,
      { baseline: [EXECUTABLE, 'validate', '--strict', '--json', alikeRoot], ours: [EXECUTABLE, 'validate', '--json', alikeRoot] },
      {
        baseline: `validate --strict --json, ${skills} alike skills`,
        ours: `validate --json (${alikePairs.toLocaleString('en-US')} alike pairs)`,
        ratio: 'validate ÷ validate --strict',
      },
      { target: DEFAULT_VS_STRICT_GOAL, better: 'lower' },
      VALIDATE_RUNS,
    );
    const reference = await compareProcesses(
      cpuReporter,
      { baseline: ['-e', REFERENCE_VALIDATE_SCRIPT, root], ours: [EXECUTABLE, 'validate', '--strict', '--json', root] },
      {
        baseline: `skills-ref validate(), every folder, 32 at a time (${skills} skills)`,
        ours: `agent-skills validate --strict --json (${skills} skills)`,
        ratio: 'validate --strict ÷ skills-ref (information)',
      },
      undefined,
      RUNS,
    );

    return {
      bundleBytes,
      ...comparisonFigures(help, {
        baselineMs: 'nodeStartMs',
        baselineCpuMs: 'nodeStartCpuMs',
        oursMs: 'helpMs',
        oursCpuMs: 'helpCpuMs',
        ratio: 'helpVsNodeRatio',
        cpuRatio: 'helpVsNodeCpuRatio',
        cpuRatioMiddleHalf: ['helpVsNodeCpuRatioP25', 'helpVsNodeCpuRatioP75'],
        goal: 'helpGoal',
        verdictBy: 'helpVerdictBy',
        load: ['helpLoadAverageBefore', 'helpLoadAverageAfter'],
      }),
      ...comparisonFigures(list, {
        baselineMs: 'floorMs3000',
        baselineCpuMs: 'floorCpuMs3000',
        oursMs: 'listJsonMs3000',
        oursCpuMs: 'listJsonCpuMs3000',
        ratio: 'listVsFloorRatio',
        cpuRatio: 'listVsFloorCpuRatio',
        cpuRatioMiddleHalf: ['listVsFloorCpuRatioP25', 'listVsFloorCpuRatioP75'],
        goal: 'listGoal',
        verdictBy: 'listVerdictBy',
        load: ['listLoadAverageBefore', 'listLoadAverageAfter'],
      }),
      ...comparisonFigures(strict, {
        baselineMs: 'floorMs3000Strict',
        baselineCpuMs: 'floorCpuMs3000Strict',
        oursMs: 'strictValidateMs3000',
        oursCpuMs: 'strictValidateCpuMs3000',
        ratio: 'strictVsFloorRatio',
        cpuRatio: 'strictVsFloorCpuRatio',
        cpuRatioMiddleHalf: ['strictVsFloorCpuRatioP25', 'strictVsFloorCpuRatioP75'],
        goal: 'strictGoal',
        verdictBy: 'strictVerdictBy',
        load: ['strictLoadAverageBefore', 'strictLoadAverageAfter'],
      }),
      alikePairs3000: alikePairs,
      ...comparisonFigures(defaultMode, {
        baselineMs: 'alikeStrictMs3000',
        baselineCpuMs: 'alikeStrictCpuMs3000',
        oursMs: 'alikeDefaultMs3000',
        oursCpuMs: 'alikeDefaultCpuMs3000',
        ratio: 'defaultVsStrictRatio',
        cpuRatio: 'defaultVsStrictCpuRatio',
        cpuRatioMiddleHalf: ['defaultVsStrictCpuRatioP25', 'defaultVsStrictCpuRatioP75'],
        goal: 'defaultVsStrictGoal',
        verdictBy: 'defaultVsStrictVerdictBy',
        load: ['defaultVsStrictLoadAverageBefore', 'defaultVsStrictLoadAverageAfter'],
      }),
      ...comparisonFigures(reference, {
        baselineMs: 'referenceValidateMs3000',
        baselineCpuMs: 'referenceValidateCpuMs3000',
        oursMs: 'strictValidateVsReferenceMs3000',
        oursCpuMs: 'strictValidateVsReferenceCpuMs3000',
        ratio: 'strictVsReferenceRatio',
        cpuRatio: 'strictVsReferenceCpuRatio',
        cpuRatioMiddleHalf: ['strictVsReferenceCpuRatioP25', 'strictVsReferenceCpuRatioP75'],
        verdictBy: 'referenceVerdictBy',
        load: ['referenceLoadAverageBefore', 'referenceLoadAverageAfter'],
      }),
    };
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

/** How many pairs of the skills the competing-skills check finds alike. */
function alikePairCount(skills: readonly SyntheticSkill[]): number {
  const records = skills.map(({ name, description, file }) => ({
    name,
    file,
    dir: path.dirname(file),
    realDir: path.dirname(file),
    root: { path: path.dirname(path.dirname(file)), kind: 'env' as const, label: 'bench' },
    metadata: { name, description, userInvocable: true, disableModelInvocation: false },
    diagnostics: [],
    status: 'available' as const,
    mtimeMs: 0,
    size: 0,
  }));
  return similarDescriptions(records).length;
}
