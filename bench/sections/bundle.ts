// What ships, by size: `npm run package` (a production build, then the .vsix), each file against
// the same file before the bundles were cut down. Sizes are exact, so the baselines are fixed
// figures rather than a measurement in this run: commit fd1c7b3 (the layout before `zod/mini`),
// packaged with its own `npm run package`. To re-measure them, check that commit out in a
// `git worktree` beside this one, link `node_modules`, and run `npm run package` there.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { packagedExtensionPath } from '../../scripts/harness/packaged-extension';
import { repositoryRoot } from '../../scripts/harness/repository';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

const BEFORE_BYTES = { extension: 613_452, vsix: 412_804 };
/** Each shipped file at most this share of its size before. */
const GOAL_SHARE = 1 / 3;

async function bytes(file: string): Promise<number> {
  return (await fs.stat(file)).size;
}

export async function run(): Promise<BenchFigures> {
  const packaging = spawnSync('npm', ['run', 'package'], { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (packaging.status !== 0) {
    throw new Error('npm run package failed');
  }
  const dist = (file: string) => bytes(path.join(repositoryRoot, 'dist', file));
  const [extension, cli, mcpLibraries, vsix] = await Promise.all([dist('extension.js'), dist('cli.js'), dist('cli-mcp-libraries.js'), bytes(packagedExtensionPath())]);
  printFigure('dist/extension.js', extension / 1000, ' KB');
  const extensionShare = extension / BEFORE_BYTES.extension;
  const extensionGoal = checkGoal({ label: `dist/extension.js ÷ ${BEFORE_BYTES.extension / 1000} KB before`, value: extensionShare, unit: '×', target: GOAL_SHARE, better: 'lower' });
  printFigure('dist/cli.js (every command but mcp)', cli / 1000, ' KB');
  printFigure('dist/cli-mcp-libraries.js (loaded by mcp only)', mcpLibraries / 1000, ' KB');
  printFigure('.vsix', vsix / 1000, ' KB');
  const vsixShare = vsix / BEFORE_BYTES.vsix;
  const vsixGoal = checkGoal({ label: `.vsix ÷ ${BEFORE_BYTES.vsix / 1000} KB before`, value: vsixShare, unit: '×', target: GOAL_SHARE, better: 'lower' });
  return {
    extensionBytes: extension,
    extensionShareOfBefore: round(extensionShare, 3),
    extensionGoal,
    cliBytes: cli,
    cliMcpLibrariesBytes: mcpLibraries,
    vsixBytes: vsix,
    vsixShareOfBefore: round(vsixShare, 3),
    vsixGoal,
  };
}
