// What tests ask of the workbench through the harness channel: read a view's text, click, hover,
// press keys, type, take a screenshot. Targets are found the way a user sees them: visible, by role and name.
import type { Frame, JSHandle, Locator, Page } from 'playwright-core';
import { describeUiTarget, type DrawnTreeRow, type HarnessRequest, type UiTarget, type ViewName } from './channel';
import type { WorkbenchPage } from './workbench-page';

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

/** Answers the tests' requests (see channel.ts) by acting on the workbench as a user would. */
export class UiDriver {
  /** Tree rows being watched in the page (see `watchTreeRow`), by the id given to the test. */
  private readonly rowWatches = new Map<string, JSHandle<RowWatch>>();
  private rowWatchCount = 0;

  constructor(private readonly workbench: WorkbenchPage) {}

  async answer(request: HarnessRequest): Promise<string> {
    if (request.kind === 'screenshot') {
      return this.workbench.screenshot(request.name);
    }
    const page = this.workbench.page;
    switch (request.kind) {
      case 'readViewText':
        return readViewText(page, request.view);
      case 'readTreeRows':
        return JSON.stringify(await readTreeRows(page, request.view));
      case 'watchTreeRow': {
        const id = String(++this.rowWatchCount);
        this.rowWatches.set(id, await watchTreeRow(page, request.view, request.label, request.description));
        return id;
      }
      case 'awaitTreeRow': {
        const watch = this.rowWatches.get(request.watch);
        if (!watch) {
          throw new Error(`no tree row watch ${request.watch} is waiting`);
        }
        this.rowWatches.delete(request.watch);
        try {
          return String(await watch.evaluate(drawnWithin, request.timeoutMs));
        } finally {
          await watch.evaluate((row) => row.observer.disconnect());
          await watch.dispose();
        }
      }
      case 'click':
        await (await uniqueVisible(page, request.target, request.timeoutMs)).click({ timeout: request.timeoutMs, button: request.button ?? 'left' });
        return '';
      case 'hover':
        await (await uniqueVisible(page, request.target, request.timeoutMs)).hover({ timeout: request.timeoutMs });
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
}

function viewSelector(view: ViewName): string {
  const selector = view.startsWith('css:') ? view.slice('css:'.length) : viewSelectors[view as keyof typeof viewSelectors];
  if (!selector) {
    throw new Error(`unknown view "${view}"`);
  }
  return selector;
}

/** The tree rows the view draws (only those rendered: the list is virtual), in screen order. */
async function readTreeRows(page: Page, view: ViewName): Promise<DrawnTreeRow[]> {
  const rows = page.locator(viewSelector(view)).filter({ visible: true }).locator('.monaco-list-row[aria-level]');
  const drawn = await rows.evaluateAll((elements) =>
    elements.map((element) => ({
      top: Number.parseFloat(/top:\s*(-?[\d.]+)px/.exec(element.getAttribute('style') ?? '')?.[1] ?? '0'),
      level: Number(element.getAttribute('aria-level')),
      // Most trees draw an icon label (.label-name); the Testing views' own trees a .label whose
      // description is a span inside it.
      label: (element.querySelector('.label-name') ?? element.querySelector('.label')?.firstChild)?.textContent?.trim() ?? '',
      description: (element.querySelector('.label-description') ?? element.querySelector('.test-label-description'))?.textContent?.trim() ?? '',
      expanded: element.hasAttribute('aria-expanded') ? element.getAttribute('aria-expanded') === 'true' : undefined,
      icon: /(?:^|\s)codicon-([\w-]+)/.exec(element.querySelector('.codicon')?.getAttribute('class') ?? '')?.[1] ?? '',
    })),
  );
  // Rows are positioned absolutely; their DOM order is not always the order on screen.
  return drawn.sort((a, b) => a.top - b.top).map(({ level, label, description, expanded, icon }) => ({ level, label, description, expanded, icon }));
}

/** The browser APIs the page functions below use: this project compiles without the DOM library. */
interface PageElement {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
interface PageObserver {
  observe(target: PageElement, options: object): void;
  disconnect(): void;
}
interface PageGlobals {
  MutationObserver: new (callback: () => void) => PageObserver;
  requestAnimationFrame(callback: () => void): number;
}

/** A watch living in the page: when the row was first drawn, and the observer to stop. */
interface RowWatch {
  drawn: Promise<number>;
  observer: PageObserver;
}

/**
 * Installs a watch in the page for a row with `label` showing `description`. A mutation observer
 * sees the row change as soon as the DOM does; the time taken is that of the next animation frame,
 * the one that paints it. The page function binds no function to a name: tsx, which runs the
 * harness, would wrap it in a helper (`__name`) that the page does not have.
 */
async function watchTreeRow(page: Page, view: ViewName, label: string, description: string): Promise<JSHandle<RowWatch>> {
  const root = page.locator(viewSelector(view)).filter({ visible: true }).first();
  return root.evaluateHandle(
    (element: PageElement, wanted): RowWatch => {
      const browser = globalThis as unknown as PageGlobals;
      const rowSelector = '.monaco-list-row[aria-level]';
      if (![...element.querySelectorAll(rowSelector)].some((row) => row.querySelector('.label-name')?.textContent?.trim() === wanted.label)) {
        throw new Error(`no row "${wanted.label}" is drawn in the view (only rows on screen are)`);
      }
      let markDrawn: ((at: number) => void) | undefined;
      const drawn = new Promise<number>((resolve) => (markDrawn = resolve));
      const observer = new browser.MutationObserver(() => {
        const shown = [...element.querySelectorAll(rowSelector)].some(
          (row) => row.querySelector('.label-name')?.textContent?.trim() === wanted.label && row.querySelector('.label-description')?.textContent?.trim() === wanted.description,
        );
        if (shown) {
          observer.disconnect();
          browser.requestAnimationFrame(() => markDrawn?.(performance.timeOrigin + performance.now()));
        }
      });
      observer.observe(element, { childList: true, subtree: true, characterData: true });
      return { drawn, observer };
    },
    { label, description },
  );
}

/** Runs in the page (so, like watchTreeRow's, it names no function): the watch's time, or an error once `timeoutMs` passed without the row. */
function drawnWithin(watch: RowWatch, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the row was not drawn within ${timeoutMs} ms`)), timeoutMs);
    void watch.drawn.then((at) => {
      clearTimeout(timer);
      resolve(at);
    });
  });
}

/**
 * The documents of the open webviews: each webview is an iframe of the workbench holding the
 * page's own frame, so every frame below the workbench's is one of them (or its host).
 */
function webviewFrames(page: Page): Frame[] {
  return page.frames().filter((frame) => frame !== page.mainFrame());
}

async function readViewText(page: Page, view: ViewName): Promise<string> {
  if (view.startsWith('webview:')) {
    const selector = view.slice('webview:'.length);
    const texts = (
      await Promise.all(
        webviewFrames(page).map((frame) =>
          frame
            .locator(selector)
            .filter({ visible: true })
            .allInnerTexts()
            .catch(() => []),
        ),
      )
    ).flat();
    if (texts.length === 0) {
      throw new Error(`no visible element of an open webview matches ${selector}`);
    }
    return texts.join('\n');
  }
  const selector = viewSelector(view);
  const texts = await page.locator(selector).filter({ visible: true }).allInnerTexts();
  if (texts.length === 0) {
    throw new Error(`no visible element shows the ${view} view (selector ${selector}); open or focus it first`);
  }
  return texts.join('\n');
}

/** The one visible element a UI target names, once it shows up; several matches are an error. */
async function uniqueVisible(page: Page, target: UiTarget, timeoutMs: number): Promise<Locator> {
  if (target.inWebview) {
    return uniqueVisibleInWebview(page, target, timeoutMs);
  }
  return uniqueVisibleIn(page, target, timeoutMs);
}

/** In a webview the frame that shows the target is not known ahead: each is asked until one has it. */
async function uniqueVisibleInWebview(page: Page, target: UiTarget, timeoutMs: number): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  do {
    for (const frame of webviewFrames(page)) {
      if (
        (await candidatesIn(frame, target)
          .count()
          .catch(() => 0)) > 0
      ) {
        return uniqueVisibleIn(frame, target, Math.max(deadline - Date.now(), 1));
      }
    }
    await page.waitForTimeout(100);
  } while (Date.now() < deadline);
  throw new Error(`no visible ${describeUiTarget(target)} appeared within ${timeoutMs} ms`);
}

function candidatesIn(scopeOf: Page | Frame, target: UiTarget): Locator {
  const scope = target.within ? scopeOf.locator(target.within).filter({ visible: true }) : scopeOf.locator(':root');
  return ('selector' in target ? scope.locator(target.selector) : scope.getByRole(target.role, { name: target.name, exact: target.exact ?? false })).filter({ visible: true });
}

async function uniqueVisibleIn(scopeOf: Page | Frame, target: UiTarget, timeoutMs: number): Promise<Locator> {
  const candidates = candidatesIn(scopeOf, target);
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
