// `npm test`: builds the extension, runs the unit tests, then every integration suite inside a
// real VS Code, and ends with the total over both as its last line: `N passed, N failed`.
//
//   tsx scripts/test.ts                      everything (SKIP_INTEGRATION=1: checks and unit tests only)
//   tsx scripts/test.ts --checks             the static checks only: typecheck, lint, format
//   tsx scripts/test.ts --unit               unit tests only
//   tsx scripts/test.ts --integration [name…] integration suites only (all, or those named)
//   AGENT_SKILLS_TEST_JOBS=N                 run N suites at a time (default 1)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addCounts, noCounts, readSuiteCounts, withAtLeastOneFailure, type SuiteCounts } from './harness/counts';
import { compileIntegrationTests } from './harness/compile-tests';
import { runSuite, type SuiteResult } from './harness/launcher';
import { screenshotsFolder } from './harness/workbench-page';
import { ensureServerNode, ensureVsCodeServer } from './harness/vscode-server';
import { repositoryRoot } from './harness/repository';
import { integrationSuites } from '../test/integration/registry';
import { errorMessage } from '../src/core/util/errors';

interface Plan {
  readonly checks: boolean;
  readonly unit: boolean;
  readonly integration: boolean;
  readonly suiteNames: readonly string[];
}

function planFromArguments(args: readonly string[]): Plan {
  const onlyChecks = args.includes('--checks');
  const onlyUnit = args.includes('--unit');
  const onlyIntegration = args.includes('--integration');
  const suiteNames = args.filter((arg) => !arg.startsWith('--'));
  const skipIntegration = process.env.SKIP_INTEGRATION === '1' || process.env.SKIP_INTEGRATION === 'true';
  const everything = !onlyChecks && !onlyUnit && !onlyIntegration;
  return { checks: everything || onlyChecks, unit: everything || onlyUnit, integration: onlyIntegration || (everything && !skipIntegration), suiteNames };
}

/** Kept outside main() so that even an unexpected crash reports what had run. */
const total = noCounts();

async function main(): Promise<number> {
  const plan = planFromArguments(process.argv.slice(2));
  let problems = 0;
  // Packaged before the build: the production bundle it makes is then replaced by the
  // development one that the other suites load.
  const packaged =
    !plan.integration ||
    !integrationSuites.some((suite) => suite.installVsix && (plan.suiteNames.length === 0 || plan.suiteNames.includes(suite.name))) ||
    (await run('npm', ['run', 'package'])) === 0;
  if (!packaged) {
    console.log('Packaging failed; the suite of the installed .vsix will fail.');
    problems++;
  }
  // The suites load dist/extension.js, so the bundle must be current.
  const built = !plan.integration || (await run('npm', ['run', 'build'])) === 0;
  if (!built) {
    console.log('The build failed; no integration suite can run.');
    problems++;
  }
  if (plan.checks) {
    const checks = await runStaticChecks();
    addCounts(total, checks);
    problems += checks.failed;
  }
  if (plan.unit) {
    // Unit tests of the executable's compile cache run on the harness's Node 24 (this Node may be
    // 20, which has none); a run with the integration suites installs it anyway, so it comes first.
    if (plan.integration) {
      await ensureServerNode();
    }
    const unit = await runUnitTests();
    addCounts(total, unit.counts);
    problems += unit.ok ? 0 : 1;
  }
  if (plan.integration && built) {
    const results = await runIntegrationSuites(plan.suiteNames);
    for (const result of results) {
      addCounts(total, result);
      problems += result.exitCode === 0 ? 0 : 1;
    }
  } else if (!plan.integration) {
    console.log('Integration suites skipped (SKIP_INTEGRATION, --checks or --unit).');
  }

  if (problems > 0) {
    Object.assign(total, withAtLeastOneFailure(total));
  }
  printTotal();
  return total.failed > 0 ? 1 : 0;
}

/** The last line of the run, read by CI: `N passed, N failed[, N skipped]`. */
function printTotal(): void {
  const skipped = total.pending > 0 ? `, ${total.pending} skipped` : '';
  console.log(`${total.passed} passed, ${total.failed} failed${skipped}`);
}

/** Each static check counts as one test: the types, the lint rules (layers included) and the formatting. */
async function runStaticChecks(): Promise<SuiteCounts> {
  console.log('\n== Static checks ==');
  const counts = noCounts();
  for (const check of ['typecheck', 'lint', 'format:check']) {
    const ok = (await run('npm', ['run', '--silent', check])) === 0;
    console.log(`  ${ok ? '✔' : '✗'} npm run ${check}`);
    addCounts(counts, { passed: ok ? 1 : 0, failed: ok ? 0 : 1, pending: 0 });
  }
  return counts;
}

async function runUnitTests(): Promise<{ counts: SuiteCounts; ok: boolean }> {
  console.log('\n== Unit tests ==');
  const countsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-unit-')), 'counts.json');
  const mocha = require.resolve('mocha/bin/mocha.js');
  const reporter = path.join(repositoryRoot, 'scripts', 'harness', 'counting-reporter.cjs');
  let errorOutput = '';
  const code = await run(process.execPath, [mocha, '--reporter', reporter], { MOCHA_COUNTS_FILE: countsFile }, (text) => (errorOutput += text));
  const counts = readSuiteCounts(countsFile);
  fs.rmSync(path.dirname(countsFile), { recursive: true, force: true });
  if (!counts && /No test files found/.test(errorOutput)) {
    console.log('No unit test files yet.');
    return { counts: noCounts(), ok: true };
  }
  if (!counts) {
    console.log(`The unit test run crashed (exit code ${code}).`);
    return { counts: withAtLeastOneFailure(undefined), ok: false };
  }
  return { counts, ok: code === 0 };
}

async function runIntegrationSuites(names: readonly string[]): Promise<SuiteResult[]> {
  const unknown = names.filter((name) => !integrationSuites.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    throw new Error(`Unknown integration suite(s) ${unknown.join(', ')}; known: ${integrationSuites.map((suite) => suite.name).join(', ')}.`);
  }
  const selected = names.length > 0 ? integrationSuites.filter((suite) => names.includes(suite.name)) : integrationSuites;
  const compiledTestsFolder = await compileIntegrationTests();
  // The folder shows the last run only, not a mix with stale pictures.
  fs.rmSync(screenshotsFolder, { recursive: true, force: true });
  // Installed once up front: parallel suites must not install it concurrently.
  await ensureVsCodeServer();
  // Each suite has its own server, browser and folders, so suites can run side by side; their
  // output lines carry the suite's name.
  const jobs = Math.max(1, Math.floor(Number(process.env.AGENT_SKILLS_TEST_JOBS)) || 1);
  const results: SuiteResult[] = [];
  let nextSuite = 0;
  const worker = async (): Promise<void> => {
    while (nextSuite < selected.length) {
      const index = nextSuite++;
      const suite = selected[index];
      console.log(`\n== Integration suite ${suite.name} (${suite.trusted ? 'trusted' : 'Restricted Mode'}, ${suite.workspaces.join(' + ')}) ==`);
      results[index] = await runSuite(suite, { compiledTestsFolder });
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, selected.length) }, worker));
  console.log('\n== Integration suites ==');
  for (const result of results) {
    const outcome = result.problem ?? (result.exitCode === 0 ? 'ok' : `exit code ${result.exitCode}`);
    console.log(`  ${result.name.padEnd(24)} ${String(result.passed).padStart(4)} ok ${String(result.failed).padStart(4)} not ok  ${result.seconds} s  ${outcome}`);
  }
  return results;
}

function run(command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}, onErrorOutput?: (text: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repositoryRoot,
      env: { ...process.env, ...extraEnv },
      stdio: ['ignore', 'inherit', onErrorOutput ? 'pipe' : 'inherit'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      onErrorOutput?.(chunk.toString());
    });
    child.on('error', (error) => {
      console.log(`${command} could not start: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.log(errorMessage(error));
    Object.assign(total, withAtLeastOneFailure(total));
    printTotal();
    process.exit(1);
  },
);
