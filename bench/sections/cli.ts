// The `agent-skills` command as a user runs it: whole processes, Node's start-up included, on the
// production bundle `dist/cli.js`. Each figure is a ratio against a baseline process measured in
// alternation in the same run: `--help` against `node -e 0`, and `list --json` over 3,000
// synthetic skills against a plain Node script that lists the folders and reads every SKILL.md.
// Each process also reports the CPU time it used, steadier than elapsed time on a busy machine.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { alternatingMediansMs, median } from '../measure';
import { checkGoal, formatNumber, printFigure, round, type BenchFigures } from '../section';

const SKILL_COUNT = 3000;
const RUNS = { warmups: 3, runs: 15 };
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
 * Preloaded into every measured process: writes the CPU time the whole process used (Node's
 * start-up included) to file descriptor 3 as it exits.
 */
const CPU_REPORTER = `process.on('exit', () => require('node:fs').writeSync(3, JSON.stringify(process.cpuUsage())));`;

/** Runs a process to its end with its output discarded; resolves to its CPU time in ms, rejects on a non-zero exit. */
function runProcess(cpuReporter: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', cpuReporter, ...args], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
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
async function measureProcesses<Name extends string>(cpuReporter: string, argsByName: Readonly<Record<Name, readonly string[]>>): Promise<Record<Name, { wallMs: number; cpuMs: number }>> {
  const names = Object.keys(argsByName) as Name[];
  const cpuSamples = new Map<Name, number[]>(names.map((name) => [name, []]));
  const tasks = Object.fromEntries(names.map((name) => [name, async () => cpuSamples.get(name)!.push(await runProcess(cpuReporter, argsByName[name]))])) as Record<Name, () => Promise<unknown>>;
  const wall = await alternatingMediansMs(tasks, RUNS);
  return Object.fromEntries(names.map((name) => [name, { wallMs: wall[name], cpuMs: median(cpuSamples.get(name)!.slice(RUNS.warmups)) }])) as Record<Name, { wallMs: number; cpuMs: number }>;
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
    const listGoal = checkGoal({ label: 'list --json ÷ plain script', value: listRatio, unit: '×', target: 1.5, better: 'lower' });
    const listCpuRatio = list.list.cpuMs / list.plain.cpuMs;
    printFigure(`the same in CPU time (${formatNumber(list.list.cpuMs)} ÷ ${formatNumber(list.plain.cpuMs)} ms)`, listCpuRatio, '×');

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
    };
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}
