// The tests module VS Code loads into the extension host (`extensionTestsPath`): it runs the
// compiled `*.test.js` files of one suite with mocha and reports the totals to the launcher.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { harnessEnvironment } from '../../scripts/harness/channel';
import type { SuiteCounts } from '../../scripts/harness/counts';
import { screenshot } from './util';

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
  for (const file of testFiles) {
    mocha.addFile(path.join(testsFolder, file));
  }
  const counts = await new Promise<SuiteCounts>((resolve) => {
    const runner = mocha.run(() => {
      const stats = runner.stats;
      resolve({ passed: stats?.passes ?? 0, failed: stats?.failures ?? 0, pending: stats?.pending ?? 0 });
    });
  });
  // Taken before the extension host stops, while views still show the extension's data.
  await screenshot('end').catch((error: unknown) => console.log(`No end-of-suite screenshot: ${String(error)}`));
  const countsFile = process.env[harnessEnvironment.countsFile];
  if (countsFile) {
    fs.writeFileSync(countsFile, JSON.stringify(counts));
  }
  if (counts.failed > 0) {
    throw new Error(`${counts.failed} integration test(s) failed.`);
  }
}
