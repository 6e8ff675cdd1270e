// Runs one integration suite inside a real VS Code: a throw-away copy of the suite's fixture
// workspace (suite-folders.ts), a VS Code server with this repository as the extension under
// development (server-process.ts), and a headless Chromium showing the workbench (workbench-page.ts)
// that the tests drive through the channel (ui-driver.ts). Everything started here is stopped here,
// whatever happens.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harnessEnvironment, serveHarnessRequests } from './channel';
import { noCounts, readSuiteCounts, withAtLeastOneFailure, type SuiteCounts } from './counts';
import { installPackagedExtension } from './packaged-extension';
import { repositoryRoot } from './repository';
import { findFreePort, serverArguments, ServerProcess } from './server-process';
import { inheritedEnvironment, prepareSuiteFolders, scriptedModelFolder, suiteEnvironment, type IntegrationSuite } from './suite-folders';
import { UiDriver } from './ui-driver';
import { ensureVsCodeServer } from './vscode-server';
import { WorkbenchPage } from './workbench-page';
import { errorMessage } from '../../src/core/util/errors';

export interface SuiteResult extends SuiteCounts {
  readonly name: string;
  readonly exitCode: number;
  readonly seconds: number;
  /** Why the suite did not finish normally (time-out, crash, start-up failure). */
  readonly problem?: string;
}

export interface LaunchOptions {
  /** The compiled `test/integration` folder (with index.js and suites/). */
  readonly compiledTestsFolder: string;
  readonly log?: (line: string) => void;
}

export interface LaunchOptions {
  /** The compiled `test/integration` folder (with index.js and suites/). */
  readonly compiledTestsFolder: string;
  readonly log?: (line: string) => void;
}

const defaultTimeoutSeconds = 240;
const keepTemporaryFolders = process.env.AGENT_SKILLS_TEST_KEEP === '1';

/** Stops of the suites that are running, so an interrupt (Ctrl+C) leaves no process behind. */
const runningStops = new Set<() => Promise<void>>();
let interruptHandlersInstalled = false;

export async function runSuite(suite: IntegrationSuite, options: LaunchOptions): Promise<SuiteResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  const timeoutSeconds = Number(process.env.AGENT_SKILLS_TEST_TIMEOUT) || suite.timeoutSeconds || defaultTimeoutSeconds;
  const finish = (counts: SuiteCounts, exitCode: number, problem?: string): SuiteResult => ({
    name: suite.name,
    ...counts,
    exitCode,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    ...(problem ? { problem } : {}),
  });

  const installation = await ensureVsCodeServer(log);
  const temporaryRoot = fs.mkdtempSync(path.join(os.tmpdir(), `agent-skills-${suite.name}-`));
  const workbench = new WorkbenchPage(suite.name, log);
  let server: ServerProcess | undefined;
  let stopChannel: (() => Promise<void>) | undefined;
  let cleaning: Promise<void> | undefined;
  // Also run by the interrupt handler, so it must be safe to call twice.
  const stop = () =>
    (cleaning ??= (async () => {
      await stopChannel?.().catch(() => undefined);
      await workbench.close();
      await server?.stop();
    })().then(() => {
      if (keepTemporaryFolders) {
        log(`Kept the suite's folders in ${temporaryRoot}`);
      } else {
        fs.rmSync(temporaryRoot, { recursive: true, force: true, maxRetries: 3 });
      }
    }));
  runningStops.add(stop);
  installInterruptHandlers(log);
  try {
    const layout = prepareSuiteFolders(suite, temporaryRoot);
    if (suite.installVsix) {
      await installPackagedExtension(installation, layout);
    }
    const port = await findFreePort();
    const env = { ...inheritedEnvironment(), ...suiteEnvironment(suite, layout, options.compiledTestsFolder), [harnessEnvironment.channelFolder]: layout.channelFolder };
    server = new ServerProcess(installation.nodeBinaryPath, installation.serverMainPath, serverArguments(suite, layout, port), { cwd: temporaryRoot, env }, log, suite.name);
    await server.waitUntilListening(port);
    const driver = new UiDriver(workbench);
    stopChannel = serveHarnessRequests(layout.channelFolder, (request) => driver.answer(request));
    const developmentPath = suite.installVsix ? scriptedModelFolder : repositoryRoot;
    const outcome = workbench.openWithTests(port, layout.opened, developmentPath, path.join(options.compiledTestsFolder, 'index.js'), suite.openSkillsView);
    const timer = new Promise<'timed out'>((resolve) => {
      const handle = setTimeout(() => resolve('timed out'), timeoutSeconds * 1000);
      // The late outcome of a timed-out run is of no interest (and must not be unhandled).
      void outcome.finally(() => clearTimeout(handle)).catch(() => undefined);
    });
    const exitCode = await Promise.race([outcome, timer, server.exit()]);
    if (exitCode === 'timed out') {
      await workbench.screenshot('timeout').catch(() => undefined);
      const problem = `suite ${suite.name} timed out after ${timeoutSeconds} s`;
      log(problem);
      return finish(withAtLeastOneFailure(readSuiteCounts(layout.countsFile)), 1, problem);
    }
    if (typeof exitCode === 'string') {
      server.printOutput();
      return finish(withAtLeastOneFailure(readSuiteCounts(layout.countsFile)), 1, exitCode);
    }
    const counts = readSuiteCounts(layout.countsFile);
    if (exitCode !== 0 || !counts) {
      const problem = counts ? undefined : `suite ${suite.name} ended with exit code ${exitCode} before reporting its test counts`;
      if (problem) {
        log(problem);
        server.printOutput();
      }
      return finish(withAtLeastOneFailure(counts), exitCode === 0 ? 1 : exitCode, problem);
    }
    return finish(counts, 0);
  } catch (error) {
    const problem = `suite ${suite.name} could not run: ${errorMessage(error)}`;
    log(problem);
    server?.printOutput();
    return finish(withAtLeastOneFailure(noCounts()), 1, problem);
  } finally {
    await stop();
    runningStops.delete(stop);
  }
}

function installInterruptHandlers(log: (line: string) => void): void {
  if (interruptHandlersInstalled) {
    return;
  }
  interruptHandlersInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      log(`Received ${signal}: stopping VS Code and the browser …`);
      void Promise.allSettled([...runningStops].map((stop) => stop())).then(() => process.exit(130));
    });
  }
}
