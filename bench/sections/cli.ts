// The `agent-skills` command as a user runs it: whole processes, Node's start-up included, on the
// production bundle `dist/cli.js`. Each figure is a ratio against a baseline process measured in
// alternation in the same run: `--help` against `node -e 0`, and `list --json` over 3,000
// synthetic skills against a plain Node script that lists the folders and reads every SKILL.md.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { repositoryRoot } from '../../scripts/harness/repository';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { alternatingMediansMs } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

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

/** Runs a process to its end with its output discarded; rejects on a non-zero exit. */
function runProcess(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited with ${code}`))));
  });
}

export async function run(): Promise<BenchFigures> {
  await fs.access(CLI_BUNDLE).catch(() => {
    throw new Error(`${CLI_BUNDLE} is missing: run "npm run build:prod" first.`);
  });
  const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-cli-')));
  try {
    const root = path.join(workspace, 'skills');
    await writeSyntheticSkills(root, SKILL_COUNT);
    const bundleBytes = (await fs.stat(CLI_BUNDLE)).size;
    printFigure('dist/cli.js size', bundleBytes / 1024, ' KB');

    const help = await alternatingMediansMs({ node: () => runProcess(['-e', '0']), help: () => runProcess([CLI_BUNDLE, '--help']) }, RUNS);
    printFigure('node -e 0', help.node, ' ms');
    printFigure('agent-skills --help', help.help, ' ms');
    const helpRatio = help.help / help.node;
    const helpGoal = checkGoal({ label: '--help ÷ node -e 0', value: helpRatio, unit: '×', target: 1.3, better: 'lower' });

    const list = await alternatingMediansMs({ plain: () => runProcess(['-e', PLAIN_SCRIPT, root]), list: () => runProcess([CLI_BUNDLE, 'list', '--json', root]) }, RUNS);
    printFigure(`plain script over ${SKILL_COUNT.toLocaleString('en-US')} skills`, list.plain, ' ms');
    printFigure(`agent-skills list --json over ${SKILL_COUNT.toLocaleString('en-US')} skills`, list.list, ' ms');
    const listRatio = list.list / list.plain;
    const listGoal = checkGoal({ label: 'list --json ÷ plain script', value: listRatio, unit: '×', target: 1.5, better: 'lower' });

    return {
      bundleBytes,
      nodeStartMs: round(help.node),
      helpMs: round(help.help),
      helpVsNodeRatio: round(helpRatio),
      helpGoal,
      plainListMs3000: round(list.plain),
      listJsonMs3000: round(list.list),
      listVsPlainRatio: round(listRatio),
      listGoal,
    };
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}
