// The `agent-skills` command as a user runs it: whole processes, Node's start-up included, on the
// production bundle `dist/cli.js`. Each figure is a ratio against a baseline process measured in
// alternation in the same run: `--help` against `node -e 0`, and `list --json` over 3,000
// synthetic skills against a plain Node script that lists the folders and reads every SKILL.md,
// and `validate --strict` over the same tree against a Node script validating every folder with
// the specification's reference validator, `skills-ref`. Each process also reports the CPU time
// it used, steadier than elapsed time on a busy machine, and the load average is printed beside.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { alternatingMediansMs, median } from '../measure';
import { checkGoal, formatNumber, printFigure, round, type BenchFigures } from '../section';

const SKILL_COUNT = 3000;
/**
 * `list --json` ÷ the plain script. The rest beyond the reads is V8 warming the validation code
 * in a process that lives a fifth of a second, which no amount of our code removes.
 */
const LIST_GOAL = 1.8;
const RUNS = { warmups: 3, runs: 15 };
/** The validators are compared over more runs: their figure was the least steady on a busy machine. */
const VALIDATE_RUNS = { warmups: 3, runs: 31 };
/** `validate --strict` at least this many times faster than `skills-ref`, whole processes. */
const VALIDATE_SPEEDUP_GOAL = 3;
const CLI_BUNDLE = path.join(repositoryRoot, 'dist', 'cli.js');

/** What a user's one-off script would do: list the folders, read each SKILL.md whole, print the names. */
const PLAIN_SCRIPT = `
const fs = require('node:fs'), path = require('node:path');
const root = process.argv[1];
const names = [];
for (const name of fs.readdirSync(root)) {
  try { fs.readFileSync(path.join(root, name, 'SKILL.md'), 'utf8'); names.push(name); } catch {}
}
process.stdout.write(JSON.stringify(names));
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

/** Alternating median elapsed times of processes, and the median CPU time each used. */
async function measureProcesses<Name extends string>(
  cpuReporter: string,
  argsByName: Readonly<Record<Name, readonly string[]>>,
  repetitions = RUNS,
): Promise<Record<Name, { wallMs: number; cpuMs: number }>> {
  const names = Object.keys(argsByName) as Name[];
  const cpuSamples = new Map<Name, number[]>(names.map((name) => [name, []]));
  const tasks = Object.fromEntries(names.map((name) => [name, async () => cpuSamples.get(name)!.push(await runProcess(cpuReporter, argsByName[name]))])) as Record<Name, () => Promise<unknown>>;
  const wall = await alternatingMediansMs(tasks, repetitions);
  return Object.fromEntries(names.map((name) => [name, { wallMs: wall[name], cpuMs: median(cpuSamples.get(name)!.slice(repetitions.warmups)) }])) as Record<Name, { wallMs: number; cpuMs: number }>;
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

    const help = await measureProcesses(cpuReporter, { node: ['-e', '0'], help: [CLI_BUNDLE, '--help'] });
    printFigure('node -e 0', help.node.wallMs, ' ms');
    printFigure('agent-skills --help', help.help.wallMs, ' ms');
    const helpRatio = help.help.wallMs / help.node.wallMs;
    const helpGoal = checkGoal({ label: '--help ÷ node -e 0', value: helpRatio, unit: '×', target: 1.3, better: 'lower' });
    const helpCpuRatio = help.help.cpuMs / help.node.cpuMs;
    printFigure(`the same in CPU time (${formatNumber(help.help.cpuMs)} ÷ ${formatNumber(help.node.cpuMs)} ms)`, helpCpuRatio, '×');

    const skills = SKILL_COUNT.toLocaleString('en-US');
    const list = await measureProcesses(cpuReporter, { plain: ['-e', PLAIN_SCRIPT, root], list: [CLI_BUNDLE, 'list', '--json', root] });
    printFigure(`plain script over ${skills} skills`, list.plain.wallMs, ' ms');
    printFigure(`agent-skills list --json over ${skills} skills`, list.list.wallMs, ' ms');
    const listRatio = list.list.wallMs / list.plain.wallMs;
    const listGoal = checkGoal({ label: 'list --json ÷ plain script', value: listRatio, unit: '×', target: LIST_GOAL, better: 'lower' });
    const listCpuRatio = list.list.cpuMs / list.plain.cpuMs;
    printFigure(`the same in CPU time (${formatNumber(list.list.cpuMs)} ÷ ${formatNumber(list.plain.cpuMs)} ms)`, listCpuRatio, '×');

    const loadBefore = os.loadavg()[0];
    const validate = await measureProcesses(cpuReporter, { reference: ['-e', REFERENCE_VALIDATE_SCRIPT, root], ours: [CLI_BUNDLE, 'validate', '--strict', '--json', root] }, VALIDATE_RUNS);
    const loadAfter = os.loadavg()[0];
    printFigure(`skills-ref validate(), every folder (${skills} skills)`, validate.reference.wallMs, ' ms');
    printFigure(`agent-skills validate --strict --json (${skills} skills)`, validate.ours.wallMs, ' ms');
    const validateSpeedup = validate.reference.wallMs / validate.ours.wallMs;
    const validateGoal = checkGoal({ label: 'validate: speed-up over skills-ref, whole processes', value: validateSpeedup, unit: '×', target: VALIDATE_SPEEDUP_GOAL, better: 'higher' });
    const validateCpuSpeedup = validate.reference.cpuMs / validate.ours.cpuMs;
    printFigure(`the same in CPU time (${formatNumber(validate.reference.cpuMs)} ÷ ${formatNumber(validate.ours.cpuMs)} ms)`, validateCpuSpeedup, '×');
    console.log(`  load average (1 min) ${formatNumber(loadBefore)} before the validators, ${formatNumber(loadAfter)} after, on ${os.cpus().length} CPUs`);

    return {
      bundleBytes,
      nodeStartMs: round(help.node.wallMs),
      helpMs: round(help.help.wallMs),
      helpVsNodeRatio: round(helpRatio),
      helpGoal,
      nodeStartCpuMs: round(help.node.cpuMs),
      helpCpuMs: round(help.help.cpuMs),
      helpVsNodeCpuRatio: round(helpCpuRatio),
      plainListMs3000: round(list.plain.wallMs),
      listJsonMs3000: round(list.list.wallMs),
      listVsPlainRatio: round(listRatio),
      listGoal,
      plainListCpuMs3000: round(list.plain.cpuMs),
      listJsonCpuMs3000: round(list.list.cpuMs),
      listVsPlainCpuRatio: round(listCpuRatio),
      referenceValidateMs3000: round(validate.reference.wallMs),
      strictValidateMs3000: round(validate.ours.wallMs),
      validateSpeedupVsReference: round(validateSpeedup),
      validateSpeedupGoal: validateGoal,
      referenceValidateCpuMs3000: round(validate.reference.cpuMs),
      strictValidateCpuMs3000: round(validate.ours.cpuMs),
      validateSpeedupVsReferenceCpu: round(validateCpuSpeedup),
      validateLoadAverageBefore: round(loadBefore, 2),
      validateLoadAverageAfter: round(loadAfter, 2),
    };
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}
