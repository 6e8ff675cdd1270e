// Runs one integration suite inside a real VS Code: a throw-away copy of the suite's fixture
// workspace, a VS Code server with this repository as the extension under development, and a
// headless Chromium showing the workbench. Everything started here is stopped here, whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { describeUiTarget, harnessEnvironment, serveHarnessRequests, type HarnessRequest, type UiTarget, type ViewName } from './channel';
import { noCounts, readSuiteCounts, withAtLeastOneFailure, type SuiteCounts } from './counts';
import { installPackagedExtension } from './packaged-extension';
import { ensureVsCodeServer } from './vscode-server';
import { repositoryRoot } from './repository';
import { errorMessage } from '../../src/core/util/errors';

export interface IntegrationSuite {
  /** The suite's folder under test/integration/suites, holding its `*.test.ts` files. */
  readonly name: string;
  /** Fixture folders under test/workspaces, copied fresh for each run; several open as one multi-root workspace. */
  readonly workspaces: readonly string[];
  /** `false` runs in Restricted Mode: the server starts without `--disable-workspace-trust`. */
  readonly trusted: boolean;
  /** Fixture folder under test/workspaces copied as the user's home folder (else an empty home). */
  readonly home?: string;
  /**
   * Extra environment for the extension host. `${home}`, `${workspaceFolder}` (the first folder),
   * `${workspaceFolder:N}` and `${fixtures}` (test/workspaces, read-only!) are replaced by paths.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Workspace settings (the folder's .vscode/settings.json, or the .code-workspace file's settings). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Overrides the default time limit, unless AGENT_SKILLS_TEST_TIMEOUT is set. */
  readonly timeoutSeconds?: number;
  /**
   * Tests the packaged .vsix (`npm run package`), installed into the server, instead of the
   * repository; the scripted model then holds the development slot the test payload needs.
   */
  readonly installVsix?: boolean;
}

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

export const screenshotsFolder = path.join(repositoryRoot, 'test-output', 'screenshots');
const fixturesFolder = path.join(repositoryRoot, 'test', 'workspaces');
const scriptedModelFolder = path.join(repositoryRoot, 'test', 'scripted-model');

const defaultTimeoutSeconds = 240;
const serverStartSeconds = 90;
const verbose = process.env.AGENT_SKILLS_TEST_VERBOSE === '1';
const keepTemporaryFolders = process.env.AGENT_SKILLS_TEST_KEEP === '1';
const viewport = { width: 1400, height: 900 };

export const chromiumArguments = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Workbench console lines that come from this offline setup, not from the code under test. */
const offlineNoise = [
  /^\[AgentHost[\]:]/,
  /^\[ChatModelSelection\]/,
  /^\[RemoteAgentHostProtocol\]/,
  /^\[AccountPolicyGate\]/,
  /^\[reconnection-grace-time\]|^Resolv(ing|ed) connection token|^Creating a socket|^Updating additional builtin extensions cache/,
  /^\[Service Worker\] registration/,
  /Timed out waiting for authentication provider 'github'/,
  /Could not locate the bindings file/,
  /build\/Release\/(watchdog|vscode-sqlite3)/,
  /open-vsx\.org|ENOTFOUND|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED/,
];

/** Where a part of the window lives in the workbench DOM. */
const viewSelectors: Record<Exclude<ViewName, `css:${string}`>, string> = {
  chat: '.interactive-session',
  skills: '[id="workbench.view.extension.agentSkills"]',
  sidebar: '[id="workbench.parts.sidebar"]',
  panel: '[id="workbench.parts.panel"]',
  editor: '[id="workbench.parts.editor"]',
  notifications: '.notifications-toasts, .notifications-center',
  window: '.monaco-workbench',
};

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
  const session = new SuiteSession(suite, temporaryRoot, log);
  let cleaning: Promise<void> | undefined;
  // Also run by the interrupt handler, so it must be safe to call twice.
  const stop = () =>
    (cleaning ??= session.stop().then(() => {
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
    await session.startServer(installation.nodeBinaryPath, installation.serverMainPath, serverArguments(suite, layout, port), env);
    await session.waitForServer(port);
    const outcome = session.runTests(port, layout, options.compiledTestsFolder);
    const timer = new Promise<'timed out'>((resolve) => {
      const handle = setTimeout(() => resolve('timed out'), timeoutSeconds * 1000);
      // The late outcome of a timed-out run is of no interest (and must not be unhandled).
      void outcome.finally(() => clearTimeout(handle)).catch(() => undefined);
    });
    const exitCode = await Promise.race([outcome, timer, session.serverExit()]);
    if (exitCode === 'timed out') {
      await session.screenshot('timeout').catch(() => undefined);
      const problem = `suite ${suite.name} timed out after ${timeoutSeconds} s`;
      log(problem);
      return finish(withAtLeastOneFailure(readSuiteCounts(layout.countsFile)), 1, problem);
    }
    if (typeof exitCode === 'string') {
      session.printServerOutput();
      return finish(withAtLeastOneFailure(readSuiteCounts(layout.countsFile)), 1, exitCode);
    }
    const counts = readSuiteCounts(layout.countsFile);
    if (exitCode !== 0 || !counts) {
      const problem = counts ? undefined : `suite ${suite.name} ended with exit code ${exitCode} before reporting its test counts`;
      if (problem) {
        log(problem);
        session.printServerOutput();
      }
      return finish(withAtLeastOneFailure(counts), exitCode === 0 ? 1 : exitCode, problem);
    }
    return finish(counts, 0);
  } catch (error) {
    const problem = `suite ${suite.name} could not run: ${errorMessage(error)}`;
    log(problem);
    session.printServerOutput();
    return finish(withAtLeastOneFailure(noCounts()), 1, problem);
  } finally {
    await stop();
    runningStops.delete(stop);
  }
}

export interface SuiteFolders {
  readonly userDataFolder: string;
  readonly serverDataFolder: string;
  readonly extensionsFolder: string;
  readonly homeFolder: string;
  readonly channelFolder: string;
  readonly countsFile: string;
  readonly workspaceFolders: readonly string[];
  /** What the window opens: a folder, or a generated .code-workspace file for several folders. */
  readonly opened: { kind: 'folder' | 'workspace'; path: string };
}

/** Lays out a suite's throw-away folders under `temporaryRoot` (also used by the desktop runner). */
export function prepareSuiteFolders(suite: IntegrationSuite, temporaryRoot: string): SuiteFolders {
  const folder = (name: string) => {
    const created = path.join(temporaryRoot, name);
    fs.mkdirSync(created, { recursive: true });
    return created;
  };
  const homeFolder = folder('home');
  if (suite.home) {
    copyFixture(suite.home, homeFolder);
  }
  if (suite.workspaces.length === 0) {
    throw new Error(`suite ${suite.name} names no workspace fixture`);
  }
  const workspacesRoot = folder('workspaces');
  // A fixture used twice gets two copies, so the folders stay distinct.
  const workspaceFolders = suite.workspaces.map((fixture, index) => {
    const target = path.join(workspacesRoot, suite.workspaces.indexOf(fixture) === index ? fixture : `${fixture}-${index + 1}`);
    copyFixture(fixture, target);
    return target;
  });
  let opened: SuiteFolders['opened'];
  if (workspaceFolders.length === 1) {
    opened = { kind: 'folder', path: workspaceFolders[0] };
    if (suite.settings) {
      mergeFolderSettings(workspaceFolders[0], suite.settings);
    }
  } else {
    const workspaceFile = path.join(workspacesRoot, `${suite.name}.code-workspace`);
    const content = { folders: workspaceFolders.map((workspaceFolder) => ({ path: workspaceFolder })), settings: suite.settings ?? {} };
    fs.writeFileSync(workspaceFile, JSON.stringify(content, undefined, 2));
    opened = { kind: 'workspace', path: workspaceFile };
  }
  const extensionsFolder = folder('extensions');
  installScriptedModel(extensionsFolder);
  return {
    userDataFolder: folder('user-data'),
    serverDataFolder: folder('server-data'),
    extensionsFolder,
    homeFolder,
    channelFolder: folder('channel'),
    countsFile: path.join(temporaryRoot, 'mocha-counts.json'),
    workspaceFolders,
    opened,
  };
}

function copyFixture(fixture: string, target: string): void {
  const source = path.join(fixturesFolder, fixture);
  if (!fs.statSync(source, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`the fixture folder ${path.relative(repositoryRoot, source)} does not exist`);
  }
  // Symlinks are copied as links: some fixtures test how skills behind links are found.
  fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
}

function mergeFolderSettings(workspaceFolder: string, settings: Readonly<Record<string, unknown>>): void {
  const settingsPath = path.join(workspaceFolder, '.vscode', 'settings.json');
  const existing = fs.existsSync(settingsPath) ? (JSON.parse(fs.readFileSync(settingsPath, 'utf8')) as Record<string, unknown>) : {};
  fs.mkdirSync(path.dirname(settingsPath), { recursive: true });
  fs.writeFileSync(settingsPath, JSON.stringify({ ...existing, ...settings }, undefined, 2));
}

/** The server loads the scripted model as an installed extension, beside the one under development. */
function installScriptedModel(extensionsFolder: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(scriptedModelFolder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  fs.cpSync(scriptedModelFolder, path.join(extensionsFolder, `${manifest.publisher}.${manifest.name}-${manifest.version}`), { recursive: true });
}

/** This process's environment, less what must not leak into a suite. */
function inheritedEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // The product reads AGENT_SKILLS_PATH; a developer's own value must not leak into a suite.
    if (!name.startsWith('AGENT_SKILLS') && !name.startsWith('VSCODE_')) {
      env[name] = value;
    }
  }
  return env;
}

/** What the extension host of a suite needs on top of an ordinary environment. */
export function suiteEnvironment(suite: IntegrationSuite, folders: SuiteFolders, compiledTestsFolder: string): Record<string, string> {
  const env: Record<string, string> = {};
  const replacements: Record<string, string> = { home: folders.homeFolder, fixtures: fixturesFolder, workspaceFolder: folders.workspaceFolders[0] };
  folders.workspaceFolders.forEach((workspaceFolder, index) => (replacements[`workspaceFolder:${index}`] = workspaceFolder));
  for (const [name, value] of Object.entries(suite.env ?? {})) {
    env[name] = value.replace(/\$\{([^}]+)\}/g, (whole, key: string) => {
      const replacement = replacements[key];
      if (replacement === undefined) {
        throw new Error(`suite ${suite.name}: unknown placeholder ${whole} in env ${name}`);
      }
      return replacement;
    });
  }
  const grep = process.env[harnessEnvironment.grep];
  return {
    ...env,
    HOME: folders.homeFolder,
    USERPROFILE: folders.homeFolder,
    [harnessEnvironment.testsFolder]: path.join(compiledTestsFolder, 'suites', suite.name),
    [harnessEnvironment.suiteName]: suite.name,
    [harnessEnvironment.countsFile]: folders.countsFile,
    ...(grep ? { [harnessEnvironment.grep]: grep } : {}),
  };
}

function serverArguments(suite: IntegrationSuite, folders: SuiteFolders, port: number): string[] {
  return [
    '--host', '127.0.0.1',
    '--port', String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    // Without it the workbench ignores the extension-test payload in the URL.
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    '--user-data-dir', folders.userDataFolder,
    '--server-data-dir', folders.serverDataFolder,
    '--extensions-dir', folders.extensionsFolder,
    ...(suite.trusted ? ['--disable-workspace-trust'] : []),
  ];
}

/** One suite's processes: the server (its own process group) and the browser. */
class SuiteSession {
  private server: ChildProcess | undefined;
  private serverExited: Promise<string> | undefined;
  private readonly serverOutput: string[] = [];
  private browser: Browser | undefined;
  private page: Page | undefined;
  private stopChannel: (() => Promise<void>) | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly suite: IntegrationSuite,
    private readonly temporaryRoot: string,
    private readonly log: (line: string) => void,
  ) {}

  async startServer(nodeBinary: string, serverMain: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
    const server = spawn(nodeBinary, [serverMain, ...args], { cwd: this.temporaryRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.server = server;
    const remember = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter((text) => text.trim() !== '')) {
        this.serverOutput.push(line);
        if (this.serverOutput.length > 300) {
          this.serverOutput.shift();
        }
        if (verbose) {
          this.log(`[${this.suite.name}:server] ${line}`);
        }
      }
    };
    server.stdout?.on('data', remember);
    server.stderr?.on('data', remember);
    this.serverExited = new Promise((resolve) => {
      server.on('error', (error) => resolve(`the VS Code server could not start: ${error.message}`));
      server.on('exit', (code, signal) => resolve(`the VS Code server exited early (code ${code}, signal ${signal})`));
    });
  }

  serverExit(): Promise<string> {
    return this.serverExited ?? new Promise(() => undefined);
  }

  async waitForServer(port: number): Promise<void> {
    const deadline = Date.now() + serverStartSeconds * 1000;
    while (Date.now() < deadline) {
      const listening = this.serverOutput.some((line) => line.includes('Extension host agent listening'));
      if (listening && (await answersHttp(port))) {
        return;
      }
      const exited = await Promise.race([this.serverExit(), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200))]);
      if (exited) {
        throw new Error(exited);
      }
    }
    throw new Error(`the VS Code server did not answer on port ${port} within ${serverStartSeconds} s`);
  }

  /** Opens the workbench with the test payload; resolves with the tests' exit code. */
  async runTests(port: number, folders: SuiteFolders, compiledTestsFolder: string): Promise<number> {
    this.browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: chromiumArguments,
      // This module stops the browser itself, after the server.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const page = await this.browser.newPage({ viewport });
    this.page = page;
    let reportExit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationLog', (type: unknown, args: unknown) => this.forwardLog(type, args));
    // Builds differ in the order of (code, logs); the number is the exit code.
    await page.exposeFunction('codeAutomationExit', (first: unknown, second: unknown) => reportExit(typeof first === 'number' ? first : Number(second)));
    this.stopChannel = serveHarnessRequests(folders.channelFolder, (request) => this.answer(request));

    const remote = (absolutePath: string) => `vscode-remote://127.0.0.1:${port}${absolutePath}`;
    const payload = [
      ['extensionDevelopmentPath', remote(this.suite.installVsix ? scriptedModelFolder : repositoryRoot)],
      ['extensionTestsPath', remote(path.join(compiledTestsFolder, 'index.js'))],
      ['enableProposedApi', ''],
      ['skipWelcome', 'true'],
    ];
    const opened = `${folders.opened.kind}=${encodeURIComponent(folders.opened.path)}`;
    await page.goto(`http://127.0.0.1:${port}/?${opened}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    return exited;
  }

  async screenshot(name: string): Promise<string> {
    if (!this.page) {
      throw new Error('the browser is not open');
    }
    fs.mkdirSync(screenshotsFolder, { recursive: true });
    const file = path.join(screenshotsFolder, `${this.suite.name}-${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
    await this.page.screenshot({ path: file, timeout: 15000 });
    return file;
  }

  printServerOutput(): void {
    if (!verbose && this.serverOutput.length > 0) {
      this.log(`[${this.suite.name}] last lines of the VS Code server:`);
      for (const line of this.serverOutput.slice(-40)) {
        this.log(`[${this.suite.name}:server] ${line}`);
      }
    }
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopEverything();
    return this.stopping;
  }

  private async stopEverything(): Promise<void> {
    await this.stopChannel?.().catch(() => undefined);
    if (this.browser) {
      await Promise.race([this.browser.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
    const server = this.server;
    if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      killGroup(server.pid, 'SIGTERM');
      const exitedInTime = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5000))]);
      if (!exitedInTime) {
        killGroup(server.pid, 'SIGKILL');
      }
    }
    if (server?.pid !== undefined) {
      // The extension host and other helpers share the server's group; make sure none stays.
      killGroup(server.pid, 'SIGKILL');
    }
  }

  private async answer(request: HarnessRequest): Promise<string> {
    if (request.kind === 'screenshot') {
      return this.screenshot(request.name);
    }
    const page = this.page;
    if (!page) {
      throw new Error('the browser is not open');
    }
    switch (request.kind) {
      case 'readViewText':
        return readViewText(page, request.view);
      case 'click':
        await (await uniqueVisible(page, request.target, request.timeoutMs)).click({ timeout: request.timeoutMs });
        return '';
      case 'pressKeys':
        for (const key of request.keys) {
          await page.keyboard.press(key);
        }
        return '';
      case 'typeText':
        if (request.into) {
          // Typed key by key, like a user: quick inputs filter on every keystroke.
          await (await uniqueVisible(page, request.into, request.timeoutMs)).pressSequentially(request.text, { timeout: request.timeoutMs });
        } else {
          await page.keyboard.type(request.text);
        }
        return '';
    }
  }

  private forwardLog(type: unknown, args: unknown): void {
    const parts = (Array.isArray(args) ? args : [args]).map((part) => (typeof part === 'string' || typeof part === 'number' ? part : safeJson(part)));
    // Console calls arrive as printf-style arguments (mocha's reporter uses them).
    const text = format(...parts);
    if (!verbose && offlineNoise.some((pattern) => pattern.test(text))) {
      return;
    }
    const level = type === 'error' || type === 'warn' ? ` ${String(type)}` : '';
    // Stack traces of expected errors would drown the test output; verbose mode keeps them whole.
    let stackFrames = 0;
    const shown = text.split('\n').filter((line) => verbose || !/^\s*at /.test(line) || ++stackFrames <= 3);
    for (const line of shown) {
      this.log(`[${this.suite.name}${level}] ${line}`);
    }
  }
}

async function readViewText(page: Page, view: ViewName): Promise<string> {
  const selector = view.startsWith('css:') ? view.slice('css:'.length) : viewSelectors[view as keyof typeof viewSelectors];
  if (!selector) {
    throw new Error(`unknown view "${view}"`);
  }
  const texts = await page.locator(selector).filter({ visible: true }).allInnerTexts();
  if (texts.length === 0) {
    throw new Error(`no visible element shows the ${view} view (selector ${selector}); open or focus it first`);
  }
  return texts.join('\n');
}

/** The one visible element a UI target names, once it shows up; several matches are an error. */
async function uniqueVisible(page: Page, target: UiTarget, timeoutMs: number): Promise<Locator> {
  const scope = target.within ? page.locator(target.within).filter({ visible: true }) : page.locator(':root');
  const candidates = ('selector' in target ? scope.locator(target.selector) : scope.getByRole(target.role, { name: target.name, exact: target.exact ?? false })).filter({ visible: true });
  try {
    await candidates.first().waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    throw new Error(`no visible ${describeUiTarget(target)} appeared within ${timeoutMs} ms`);
  }
  const count = await candidates.count();
  if (count > 1) {
    const names = await Promise.all((await candidates.all()).slice(0, 5).map((candidate) => candidate.innerText().catch(() => '?')));
    throw new Error(`${count} visible elements match ${describeUiTarget(target)} (${names.map((name) => JSON.stringify(name.trim().slice(0, 60))).join(', ')}); narrow it with exact or within`);
  }
  return candidates;
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
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

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((candidate): candidate is string => !!candidate);
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) {
    throw new Error('Chromium was not found (looked for /usr/bin/chromium). Install it with `apt-get install -y chromium`, or set CHROMIUM_PATH.');
  }
  return found;
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

export function answersHttp(port: number, requestPath = '/'): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: requestPath, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
