// The workbench page of a suite: Debian's Chromium driven by playwright-core, opened on the VS Code
// server with the extension-test payload, with the extension host's console forwarded to the log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repositoryRoot } from './repository';
import type { SuiteFolders } from './suite-folders';

export const screenshotsFolder = path.join(repositoryRoot, 'test-output', 'screenshots');
const verbose = process.env.AGENT_SKILLS_TEST_VERBOSE === '1';
const viewport = { width: 1400, height: 900 };

export const chromiumArguments = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

/** The workbench in a headless Chromium, opened with the extension-test payload. */
export class WorkbenchPage {
  private browser: Browser | undefined;
  private current: Page | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly name: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The open page; throws before `open`. */
  get page(): Page {
    if (!this.current) {
      throw new Error('the browser is not open');
    }
    return this.current;
  }

  /**
   * Opens `opened` (a folder or a .code-workspace file) on the server at `port`, with
   * `developmentPath` as the extension under development and `testsModule` as its tests; resolves
   * with the tests' exit code. `openSkillsView`: the Skills view is opened as soon as the workbench
   * shows its activity bar, as for a user who keeps it open.
   */
  async openWithTests(port: number, opened: SuiteFolders['opened'], developmentPath: string, testsModule: string, openSkillsView = false): Promise<number> {
    this.browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: chromiumArguments,
      // The caller stops the browser itself, after the server.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const page = await this.browser.newPage({ viewport });
    this.current = page;
    let reportExit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationLog', (type: unknown, args: unknown) => this.forwardLog(type, args));
    // Builds differ in the order of (code, logs); the number is the exit code.
    await page.exposeFunction('codeAutomationExit', (first: unknown, second: unknown) => reportExit(typeof first === 'number' ? first : Number(second)));

    const remote = (absolutePath: string) => `vscode-remote://127.0.0.1:${port}${absolutePath}`;
    const payload = [
      ['extensionDevelopmentPath', remote(developmentPath)],
      ['extensionTestsPath', remote(testsModule)],
      ['enableProposedApi', ''],
      ['skipWelcome', 'true'],
    ];
    const target = `${opened.kind}=${encodeURIComponent(opened.path)}`;
    await page.goto(`http://127.0.0.1:${port}/?${target}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    if (openSkillsView) {
      await openSkillsViewAtStart(page);
    }
    return exited;
  }

  /** Saves a screenshot of the window to test-output/screenshots/<suite>-<name>.png. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(screenshotsFolder, { recursive: true });
    const file = path.join(screenshotsFolder, `${this.name}-${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
    await this.page.screenshot({ path: file, timeout: 15000 });
    return file;
  }

  close(): Promise<void> {
    this.stopping ??= this.browser ? Promise.race([this.browser.close().catch(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 5000))]) : Promise.resolve();
    return this.stopping;
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
      this.log(`[${this.name}${level}] ${line}`);
    }
  }
}

/**
 * Clicks the Skills item of the activity bar until the Skills view shows and stays (the workbench
 * restores the Explorer while it starts, over a click that came too early).
 */
async function openSkillsViewAtStart(page: Page): Promise<void> {
  const item = page.getByRole('tab', { name: /^Skills/ }).first();
  const view = page.locator('[id="workbench.view.extension.agentSkills"]');
  const deadline = Date.now() + 60000;
  let shownSince: number | undefined;
  while (shownSince === undefined || Date.now() - shownSince < 3000) {
    if (Date.now() > deadline) {
      throw new Error('the Skills view did not open at start-up');
    }
    if (await view.isVisible()) {
      shownSince ??= Date.now();
    } else {
      shownSince = undefined;
      if (await item.isVisible()) {
        await item.click({ timeout: 5000 }).catch(() => undefined);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
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

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
