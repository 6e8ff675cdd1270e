// What ships, by size: `npm run package` (a production build, then the .vsix), each bundle the
// .vsix ships and the .vsix itself against its budget. A budget makes growth a decision: a change
// that needs more raises the budget here, in the same commit, and says why in its message.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { packagedExtensionPath } from '../../scripts/harness/packaged-extension';
import { repositoryRoot } from '../../scripts/harness/repository';
import { checkGoal, type BenchFigures } from '../section';

/** Each shipped file's budget in kilobytes (1,000 bytes), and the key of its figures. */
const BUDGETS = [
  { key: 'extension', label: 'dist/extension.js (the extension, minified)', file: path.join('dist', 'extension.js'), budgetKb: 260 },
  { key: 'cli', label: 'dist/cli.js (every command but mcp)', file: path.join('dist', 'cli.js'), budgetKb: 220 },
  { key: 'cliMcpLibraries', label: 'dist/cli-mcp-libraries.js (loaded by mcp only)', file: path.join('dist', 'cli-mcp-libraries.js'), budgetKb: 380 },
  { key: 'vsix', label: '.vsix (everything above, media, skills, docs)', file: undefined, budgetKb: 340 },
] as const;

export async function run(): Promise<BenchFigures> {
  const packaging = spawnSync('npm', ['run', 'package'], { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (packaging.status !== 0) {
    throw new Error('npm run package failed');
  }
  const figures: BenchFigures = {};
  for (const { key, label, file, budgetKb } of BUDGETS) {
    const bytes = (await fs.stat(file ? path.join(repositoryRoot, file) : packagedExtensionPath())).size;
    figures[`${key}Bytes`] = bytes;
    figures[`${key}BudgetBytes`] = budgetKb * 1000;
    figures[`${key}Goal`] = checkGoal({ label, value: bytes / 1000, unit: ' KB', target: budgetKb, better: 'lower' });
  }
  return figures;
}
