// The request channel between integration tests (inside the extension host, which cannot reach
// the browser) and the launcher (which drives the browser). A test drops a request file into a
// folder named by an environment variable; the launcher answers with a response file beside it.
// Both sides are Node processes on the same machine, so plain files are the simplest robust link.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

/** Environment variables the launcher sets for the extension host. */
export const harnessEnvironment = {
  /** Folder of request/response files; absent when tests run outside the browser harness. */
  channelFolder: 'AGENT_SKILLS_TEST_CHANNEL',
  /** Folder of the suite's compiled `*.test.js` files. */
  testsFolder: 'AGENT_SKILLS_TEST_FOLDER',
  suiteName: 'AGENT_SKILLS_TEST_SUITE',
  /** Where the tests module writes the suite's mocha totals (SuiteCounts as JSON). */
  countsFile: 'AGENT_SKILLS_TEST_COUNTS_FILE',
  /** Optional mocha `grep` to run only matching tests. */
  grep: 'AGENT_SKILLS_TEST_GREP',
} as const;

/**
 * What `readViewText` can read: a part of the window by name, any element by CSS selector
 * (`css:.monaco-workbench .statusbar`), or elements inside the open webviews' pages
 * (`webview:table`). `skills` is the product's own view container.
 */
export type ViewName = 'chat' | 'skills' | 'sidebar' | 'panel' | 'editor' | 'notifications' | 'window' | `css:${string}` | `webview:${string}`;

/** ARIA roles as Playwright knows them (`button`, `option`, `link`, `tab`, …). */
export type UiRole = Parameters<Page['getByRole']>[0];

/**
 * An element of the workbench a test acts on like a user: an ARIA role and accessible name (what a
 * screen reader announces; `name` matches a case-insensitive part unless `exact`), or a CSS
 * selector. `within` (CSS) narrows the search, e.g. to `.quick-input-widget` or `.monaco-dialog-box`;
 * `inWebview` searches the pages of the open webviews instead of the workbench.
 * Exactly one visible element must match, so a test never clicks something it did not mean.
 */
export type UiTarget = ({ readonly role: UiRole; readonly name: string; readonly exact?: boolean } | { readonly selector: string }) & { readonly within?: string; readonly inWebview?: boolean };

export type HarnessRequest =
  | { kind: 'screenshot'; name: string }
  | { kind: 'readViewText'; view: ViewName }
  /** The rows a tree in the view draws, top to bottom, as JSON `DrawnTreeRow[]`. */
  | { kind: 'readTreeRows'; view: ViewName }
  /**
   * Starts watching the view for a tree row with this label and description and answers at once
   * with the watch's id, for `awaitTreeRow`. Fails unless a row with the label is drawn already:
   * the list is virtual, and a row off screen would never be drawn.
   */
  | { kind: 'watchTreeRow'; view: ViewName; label: string; description: string }
  /**
   * Waits up to `timeoutMs` for a watched row, then answers with the page's
   * `performance.timeOrigin + performance.now()` at the frame that first drew it. The channel's
   * polling is not in that time, so a test can compare it with the same sum taken before a change.
   */
  | { kind: 'awaitTreeRow'; watch: string; timeoutMs: number }
  /** Waits up to `timeoutMs` for the target to be visible and clickable, then clicks it (`right` opens its context menu). */
  | { kind: 'click'; target: UiTarget; timeoutMs: number; button?: 'left' | 'right' }
  /** Waits up to `timeoutMs` for the target to be visible, then rests the mouse on it (which shows its hover). */
  | { kind: 'hover'; target: UiTarget; timeoutMs: number }
  /** Playwright key names, pressed one after the other: `F1`, `Enter`, `Escape`, `Control+Shift+P`. */
  | { kind: 'pressKeys'; keys: readonly string[] }
  /** Types into `into` (focused first, once visible) or else wherever the keyboard focus is. */
  | { kind: 'typeText'; text: string; into?: UiTarget; timeoutMs: number };

/**
 * One row of a tree as the workbench draws it: nesting level (1 = top), label, description, whether
 * it is expanded, and its first icon (the codicon id, e.g. `testing-passed-icon`; '' without one).
 */
export interface DrawnTreeRow {
  level: number;
  label: string;
  description: string;
  expanded: boolean | undefined;
  icon: string;
}

export type HarnessResponse = { ok: true; value: string } | { ok: false; error: string };

const requestSuffix = '.request.json';
const responseSuffix = '.response.json';
const pollMilliseconds = 50;

let requestCounter = 0;

/** Test side: sends one request and waits for the launcher's answer. */
export async function sendHarnessRequest(channelFolder: string, request: HarnessRequest, timeoutMs: number): Promise<string> {
  const id = `${process.pid}-${Date.now()}-${requestCounter++}`;
  writeAtomically(path.join(channelFolder, id + requestSuffix), JSON.stringify(request));
  const responsePath = path.join(channelFolder, id + responseSuffix);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(responsePath)) {
      const response = JSON.parse(fs.readFileSync(responsePath, 'utf8')) as HarnessResponse;
      fs.rmSync(responsePath, { force: true });
      if (!response.ok) {
        throw new Error(`The test harness could not ${describeRequest(request)}: ${response.error}`);
      }
      return response.value;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMilliseconds));
  }
  fs.rmSync(path.join(channelFolder, id + requestSuffix), { force: true });
  throw new Error(`The test harness did not answer the request to ${describeRequest(request)} within ${timeoutMs} ms.`);
}

/** Launcher side: answers requests until the returned function is called. */
export function serveHarnessRequests(channelFolder: string, answer: (request: HarnessRequest) => Promise<string>): () => Promise<void> {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const handle = async (fileName: string): Promise<void> => {
    const requestPath = path.join(channelFolder, fileName);
    const responsePath = path.join(channelFolder, fileName.slice(0, -requestSuffix.length) + responseSuffix);
    let response: HarnessResponse;
    try {
      const request = JSON.parse(fs.readFileSync(requestPath, 'utf8')) as HarnessRequest;
      fs.rmSync(requestPath, { force: true });
      response = { ok: true, value: await answer(request) };
    } catch (error) {
      fs.rmSync(requestPath, { force: true });
      response = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    writeAtomically(responsePath, JSON.stringify(response));
  };
  const seen = new Set<string>();
  const poll = (): void => {
    if (stopped) {
      return;
    }
    for (const fileName of fs.readdirSync(channelFolder)) {
      if (fileName.endsWith(requestSuffix) && !seen.has(fileName)) {
        seen.add(fileName);
        const work = handle(fileName).finally(() => inFlight.delete(work));
        inFlight.add(work);
      }
    }
    timer = setTimeout(poll, pollMilliseconds);
  };
  let timer = setTimeout(poll, 0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await Promise.allSettled([...inFlight]);
  };
}

/** Readers never see a half-written file: write beside it, then rename in one step. */
function writeAtomically(filePath: string, content: string): void {
  const partialPath = `${filePath}.partial`;
  fs.writeFileSync(partialPath, content);
  fs.renameSync(partialPath, filePath);
}

function describeRequest(request: HarnessRequest): string {
  switch (request.kind) {
    case 'screenshot':
      return `take the screenshot "${request.name}"`;
    case 'readViewText':
      return `read the text of the ${request.view} view`;
    case 'readTreeRows':
      return `read the tree rows of the ${request.view} view`;
    case 'watchTreeRow':
      return `watch the ${request.view} view for the row "${request.label}" — "${request.description}"`;
    case 'awaitTreeRow':
      return `wait for the watched tree row ${request.watch}`;
    case 'click':
      return `${request.button === 'right' ? 'right-click' : 'click'} ${describeUiTarget(request.target)}`;
    case 'hover':
      return `hover over ${describeUiTarget(request.target)}`;
    case 'pressKeys':
      return `press ${request.keys.join(', ')}`;
    case 'typeText':
      return `type "${request.text}"${request.into ? ` into ${describeUiTarget(request.into)}` : ''}`;
  }
}

export function describeUiTarget(target: UiTarget): string {
  const what = 'selector' in target ? `the element ${target.selector}` : `the ${target.role} "${target.name}"`;
  const where = target.within ? `${what} in ${target.within}` : what;
  return target.inWebview ? `${where} of a webview` : where;
}
