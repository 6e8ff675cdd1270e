// What ships, by size: `npm run package` (a production build, then the .vsix), each file the
// .vsix ships and the .vsix itself against its budget, and the npm package of the command line
// (dist/npm-package, which the same build assembles) as `npm pack` would write it. A budget makes
// growth a decision: a change that needs more raises the budget here, in the same commit, and says
// why in its message. A file the package ships that no budget covers is a miss too, so a new
// bundle cannot slip in unweighed.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { packagedExtensionPath } from '../../scripts/harness/packaged-extension';
import { repositoryRoot } from '../../scripts/harness/repository';
import { checkGoal, printFigure, type BenchFigures } from '../section';

interface FileBudget {
  key: string;
  label: string;
  /** The shipped files it covers (paths relative to the repository, `/`-separated); their sizes add up. */
  covers: (file: string) => boolean;
  budgetKb: number;
}

const exactly =
  (name: string) =>
  (file: string): boolean =>
    file === name;
const under =
  (folder: string) =>
  (file: string): boolean =>
    file.startsWith(`${folder}/`);

/** Budgets in kilobytes (1,000 bytes) of the files as shipped, before the .vsix compresses them. */
const FILE_BUDGETS: readonly FileBudget[] = [
  { key: 'extension', label: 'dist/extension.js (what the Skills view needs until its first rows, minified)', covers: exactly('dist/extension.js'), budgetKb: 200 },
  {
    key: 'extensionDeferred',
    label: 'dist/extension-deferred.js (diagnostics, chat, tools, trigger tests, usage, sources; right after the first rows)',
    covers: exactly('dist/extension-deferred.js'),
    // 150 until the per-host warnings were kept across snapshots (src/core/targets/warnings.ts, 3.8 KB).
    budgetKb: 154,
  },
  { key: 'extensionSources', label: 'dist/extension-sources.js (git and site sources, on first use)', covers: exactly('dist/extension-sources.js'), budgetKb: 86 },
  { key: 'extensionTriggerTools', label: 'dist/extension-trigger-tools.js (drafts, tuning, routing report)', covers: exactly('dist/extension-trigger-tools.js'), budgetKb: 36 },
  { key: 'extensionServers', label: 'dist/extension-servers.js (skill servers, once configured)', covers: exactly('dist/extension-servers.js'), budgetKb: 25 },
  { key: 'cliLauncher', label: 'dist/agent-skills.js (the executable: V8 tuned for a short run, compiled code kept, then dist/cli.js)', covers: exactly('dist/agent-skills.js'), budgetKb: 3 },
  { key: 'cli', label: 'dist/cli.js (--help and the commands used on every edit)', covers: exactly('dist/cli.js'), budgetKb: 225 },
  { key: 'cliRareCommands', label: 'dist/cli-rare-commands.js (eval, tune, add, update, check, remove, install, audit, publish)', covers: exactly('dist/cli-rare-commands.js'), budgetKb: 145 },
  { key: 'cliMcpCommand', label: "dist/cli-mcp-command.js (the mcp command's own code, loaded by mcp only)", covers: exactly('dist/cli-mcp-command.js'), budgetKb: 30 },
  { key: 'cliMcpLibraries', label: 'dist/cli-mcp-libraries.js (loaded by mcp only)', covers: exactly('dist/cli-mcp-libraries.js'), budgetKb: 410 },
  { key: 'manifest', label: 'package.json (the manifest)', covers: exactly('package.json'), budgetKb: 40 },
  { key: 'readme', label: 'README.md (the Extensions view page; the rest is in docs/, not packaged)', covers: exactly('README.md'), budgetKb: 20 },
  { key: 'changelog', label: 'CHANGELOG.md', covers: exactly('CHANGELOG.md'), budgetKb: 20 },
  { key: 'license', label: 'LICENSE', covers: exactly('LICENSE'), budgetKb: 2 },
  { key: 'media', label: 'media/ (icons)', covers: under('media'), budgetKb: 10 },
  { key: 'builtinSkills', label: 'skills/ (the built-in skills)', covers: under('skills'), budgetKb: 40 },
];
const VSIX_BUDGET_KB = 470;
/** The CLI's npm package as `npm pack` compresses it: its bundles, the built-in skills, README and LICENSE. */
const NPM_PACKAGE_BUDGET_KB = 265;

export async function run(): Promise<BenchFigures> {
  const packaging = spawnSync('npm', ['run', 'package'], { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (packaging.status !== 0) {
    throw new Error('npm run package failed');
  }
  // The list `npm run package` copies into the package (what `vsce ls` prints).
  const shipped = (await listFiles({ cwd: repositoryRoot, packageManager: PackageManager.None })).map((file) => file.split(path.sep).join('/'));
  const sizes = new Map(await Promise.all(shipped.map(async (file) => [file, (await fs.stat(path.join(repositoryRoot, file))).size] as const)));
  const figures: BenchFigures = {};
  for (const { key, label, covers, budgetKb } of FILE_BUDGETS) {
    const bytes = shipped.filter(covers).reduce((total, file) => total + sizes.get(file)!, 0);
    figures[`${key}Bytes`] = bytes;
    figures[`${key}BudgetBytes`] = budgetKb * 1000;
    figures[`${key}Goal`] = checkGoal({ label, value: bytes / 1000, unit: ' KB', target: budgetKb, better: 'lower' });
  }
  const unbudgeted = shipped.filter((file) => !FILE_BUDGETS.some(({ covers }) => covers(file)));
  for (const file of unbudgeted) {
    printFigure(`${file} (shipped, no budget)`, sizes.get(file)! / 1000, ' KB');
  }
  figures.unbudgetedFiles = unbudgeted.length;
  figures.everyFileBudgetedGoal = checkGoal({ label: 'shipped files without a budget', value: unbudgeted.length, unit: '', target: 0, better: 'lower' });
  const vsixBytes = (await fs.stat(packagedExtensionPath())).size;
  figures.vsixBytes = vsixBytes;
  figures.vsixBudgetBytes = VSIX_BUDGET_KB * 1000;
  figures.vsixGoal = checkGoal({ label: '.vsix (all of the above, compressed)', value: vsixBytes / 1000, unit: ' KB', target: VSIX_BUDGET_KB, better: 'lower' });
  Object.assign(figures, npmPackageFigures());
  return figures;
}

/** The npm package's tarball, measured by `npm pack --dry-run` (nothing is written). */
function npmPackageFigures(): BenchFigures {
  // `./`: npm would read a bare `dist/npm-package` as a GitHub repository.
  const packing = spawnSync('npm', ['pack', '--dry-run', '--json', './dist/npm-package'], { cwd: repositoryRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (packing.status !== 0) {
    throw new Error('npm pack --dry-run ./dist/npm-package failed');
  }
  const [{ size, unpackedSize }] = JSON.parse(packing.stdout) as { size: number; unpackedSize: number }[];
  printFigure('npm package, unpacked', unpackedSize / 1000, ' KB');
  return {
    npmPackageBytes: size,
    npmPackageUnpackedBytes: unpackedSize,
    npmPackageBudgetBytes: NPM_PACKAGE_BUDGET_KB * 1000,
    npmPackageGoal: checkGoal({ label: 'npm package .tgz (the CLI and MCP server)', value: size / 1000, unit: ' KB', target: NPM_PACKAGE_BUDGET_KB, better: 'lower' }),
  };
}
