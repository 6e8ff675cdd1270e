// `npm run test:electron [suite…]`: the same integration suites in a desktop VS Code, through
// @vscode/test-electron. For machines with a desktop VS Code (set VSCODE_EXECUTABLE_PATH to its
// executable) or with internet access (a VS Code build is downloaded, VSCODE_VERSION picks which).
// The offline machines and CI use `npm run test:integration` (VS Code server + headless Chromium).
import { runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addCounts, noCounts, readSuiteCounts, withAtLeastOneFailure } from '../../scripts/harness/counts';
import { compileIntegrationTests } from '../../scripts/harness/compile-tests';
import { prepareSuiteFolders, suiteEnvironment } from '../../scripts/harness/suite-folders';
import { repositoryRoot } from '../../scripts/harness/repository';
import { integrationSuites } from '../integration/registry';
import { errorMessage } from '../../src/core/util/errors';

async function main(): Promise<number> {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !integrationSuites.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    console.log(`Unknown integration suite(s) ${unknown.join(', ')}; known: ${integrationSuites.map((suite) => suite.name).join(', ')}.`);
    return 1;
  }
  const selected = names.length > 0 ? integrationSuites.filter((suite) => names.includes(suite.name)) : integrationSuites;
  const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE_PATH;
  if (vscodeExecutablePath && !fs.existsSync(vscodeExecutablePath)) {
    console.log(`VSCODE_EXECUTABLE_PATH points to ${vscodeExecutablePath}, which does not exist.`);
    return 1;
  }
  if (spawnSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'inherit' }).status !== 0) {
    console.log('The build failed.');
    return 1;
  }
  const compiledTestsFolder = await compileIntegrationTests();
  const total = noCounts();
  for (const suite of selected) {
    console.log(`\n== Integration suite ${suite.name} (desktop VS Code) ==`);
    const temporaryRoot = fs.mkdtempSync(path.join(os.tmpdir(), `agent-skills-electron-${suite.name}-`));
    try {
      const folders = prepareSuiteFolders(suite, temporaryRoot);
      await runTests({
        ...(vscodeExecutablePath ? { vscodeExecutablePath } : process.env.VSCODE_VERSION ? { version: process.env.VSCODE_VERSION } : {}),
        extensionDevelopmentPath: repositoryRoot,
        extensionTestsPath: path.join(compiledTestsFolder, 'index.js'),
        // No channel folder: screenshots are skipped and readViewText tests skip themselves.
        extensionTestsEnv: suiteEnvironment(suite, folders, compiledTestsFolder),
        launchArgs: [
          folders.opened.path,
          '--user-data-dir',
          folders.userDataFolder,
          // Holds the scripted model, copied there by prepareSuiteFolders.
          '--extensions-dir',
          folders.extensionsFolder,
          '--disable-gpu',
          ...(suite.trusted ? ['--disable-workspace-trust'] : []),
        ],
      });
      const counts = readSuiteCounts(folders.countsFile);
      addCounts(total, counts ?? withAtLeastOneFailure(counts));
    } catch (error) {
      addCounts(total, withAtLeastOneFailure(readSuiteCounts(path.join(temporaryRoot, 'mocha-counts.json'))));
      console.log(`suite ${suite.name} failed: ${explain(error, vscodeExecutablePath)}`);
    } finally {
      fs.rmSync(temporaryRoot, { recursive: true, force: true, maxRetries: 3 });
    }
  }
  console.log(`${total.passed} passed, ${total.failed} failed`);
  return total.failed > 0 ? 1 : 0;
}

function explain(error: unknown, vscodeExecutablePath: string | undefined): string {
  const message = errorMessage(error);
  if (!vscodeExecutablePath && /fetch|download|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo|network|socket/i.test(message)) {
    return `${message}\nNo desktop VS Code could be downloaded. Set VSCODE_EXECUTABLE_PATH to an installed VS Code executable, or run the offline harness instead: npm run test:integration`;
  }
  return message;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.log(errorMessage(error));
    process.exit(1);
  },
);
