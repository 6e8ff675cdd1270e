// The tests module VS Code loads into the extension host (`extensionTestsPath`): it runs the
// compiled `*.test.js` files of one suite with mocha and reports the totals to the launcher.
// Files named `*.after-reload.test.js` run after the window reloads, as Developer: Reload Window
// does it: the other files run first, their totals are kept on disk, and the reloaded window runs
// this module again, which then runs those files and reports the sum. Only the browser harness's
// page runs the tests again after a reload; elsewhere those files are left out.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { harnessEnvironment } from '../../scripts/harness/channel';
import type { SuiteCounts } from '../../scripts/harness/counts';
import { screenshot } from './util';

const AFTER_RELOAD = '.after-reload.test.js';

export async function run(): Promise<void> {
  const testsFolder = process.env[harnessEnvironment.testsFolder];
  if (!testsFolder || !fs.existsSync(testsFolder)) {
    throw new Error(`No compiled suite folder in ${harnessEnvironment.testsFolder} (got "${testsFolder}").`);
  }
  const grep = process.env[harnessEnvironment.grep];
  // The output goes through the workbench console to the launcher, which does not render colours.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60000, ...(grep ? { grep } : {}) });
  const testFiles = fs
    .readdirSync(testsFolder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort();
  if (testFiles.length === 0) {
    throw new Error(`The suite folder ${testsFolder} has no *.test.js file.`);
  }
  const countsFile = process.env[harnessEnvironment.countsFile];
  const underHarness = process.env[harnessEnvironment.channelFolder] !== undefined && countsFile !== undefined;
  const beforeReloadFile = countsFile && `${countsFile}.before-reload`;
  const beforeReload = beforeReloadFile && fs.existsSync(beforeReloadFile) ? (JSON.parse(fs.readFileSync(beforeReloadFile, 'utf8')) as SuiteCounts) : undefined;
  const afterReload = testFiles.filter((file) => file.endsWith(AFTER_RELOAD));
  const reloadNext = underHarness && beforeReload === undefined && afterReload.length > 0;
  const phaseFiles = beforeReload ? afterReload : testFiles.filter((file) => !file.endsWith(AFTER_RELOAD));
  for (const file of phaseFiles) {
    mocha.addFile(path.join(testsFolder, file));
  }
  const earlier = beforeReload ?? { passed: 0, failed: 0, pending: 0 };
  const counts = await new Promise<SuiteCounts>((resolve) => {
    const runner = mocha.run(() => {
      const stats = runner.stats;
      resolve({ passed: earlier.passed + (stats?.passes ?? 0), failed: earlier.failed + (stats?.failures ?? 0), pending: earlier.pending + (stats?.pending ?? 0) });
    });
  });
  if (reloadNext && beforeReloadFile) {
    fs.writeFileSync(beforeReloadFile, JSON.stringify(counts));
    await vscode.commands.executeCommand('workbench.action.reloadWindow');
    // This extension host ends with the window; the reloaded one runs the rest and reports.
    return new Promise<void>(() => undefined);
  }
  // Taken before the extension host stops, while views still show the extension's data.
  await screenshot('end').catch((error: unknown) => console.log(`No end-of-suite screenshot: ${String(error)}`));
  if (countsFile) {
    fs.writeFileSync(countsFile, JSON.stringify(counts));
  }
  if (counts.failed > 0) {
    throw new Error(`${counts.failed} integration test(s) failed.`);
  }
}
