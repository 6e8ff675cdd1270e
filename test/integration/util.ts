// Helpers for integration tests running inside the extension host of a real VS Code.
import * as vscode from 'vscode';
import { harnessEnvironment, sendHarnessRequest, type DrawnTreeRow, type HarnessRequest, type UiTarget, type ViewName } from '../../scripts/harness/channel';
import type { RecordedRequest, ScriptedModelApi } from '../scripted-model/api';

export type { DrawnTreeRow, UiRole, UiTarget, ViewName } from '../../scripts/harness/channel';
export type { RecordedRequest, ScriptedAnswer, ScriptedModelApi, ScriptedResponder, ScriptedRuleSet } from '../scripted-model/api';

export const productExtensionId = 'agentskills.agent-skills';
export const scriptedModelExtensionId = 'agentskills-test.scripted-model';

/** The extension under test, activated; `exports` is what its activate() returned. */
export async function activateProduct<Api = unknown>(): Promise<vscode.Extension<Api>> {
  return activateExtension<Api>(productExtensionId);
}

/** The scripted model's control API. Call `reset()` in a test's setup to start from a clean slate. */
export async function scriptedModel(): Promise<ScriptedModelApi> {
  return (await activateExtension<ScriptedModelApi>(scriptedModelExtensionId)).exports;
}

/**
 * A scripted model as VS Code's chat API sees it, for `sendRequest` round trips: the default one
 * (the chat view's), or another of `(await scriptedModel()).models` by id.
 */
export async function scriptedChatModel(id?: string): Promise<vscode.LanguageModelChat> {
  const { vendor, modelId } = await scriptedModel();
  const wanted = id ?? modelId;
  return waitFor(async () => (await vscode.lm.selectChatModels({ vendor, id: wanted }))[0], { message: `no chat model "${wanted}" of vendor "${vendor}" is registered` });
}

async function activateExtension<Api>(id: string): Promise<vscode.Extension<Api>> {
  const extension = vscode.extensions.getExtension<Api>(id);
  if (!extension) {
    throw new Error(`The extension ${id} is not installed in this VS Code.`);
  }
  await extension.activate();
  return extension;
}

export interface WaitOptions {
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** Said in the error when the time is up; a function can describe the last state seen. */
  readonly message?: string | (() => string);
}

/** Polls until `probe` returns something other than undefined, null or false, and returns it. */
export async function waitFor<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) {
        return value;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const described = typeof options.message === 'function' ? options.message() : (options.message ?? 'the condition did not hold');
      const cause = lastError ? ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms: ${described}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** True when the browser harness runs the tests (screenshots and view text are available). */
export function harnessAvailable(): boolean {
  return !!process.env[harnessEnvironment.channelFolder];
}

/** Saves a PNG of the whole window as test-output/screenshots/<suite>-<name>.png; returns its path. */
export async function screenshot(name: string, timeoutMs = 20000): Promise<string | undefined> {
  const channelFolder = process.env[harnessEnvironment.channelFolder];
  if (!channelFolder) {
    // Desktop runs (test:electron) have no browser to photograph.
    return undefined;
  }
  return sendHarnessRequest(channelFolder, { kind: 'screenshot', name }, timeoutMs);
}

/**
 * The text a user sees in a part of the window (the DOM's innerText). Reveals the chat or the
 * Skills view first. Only under the browser harness: check `harnessAvailable()` to skip otherwise.
 */
export async function readViewText(view: ViewName, timeoutMs = 20000): Promise<string> {
  const channelFolder = process.env[harnessEnvironment.channelFolder];
  if (!channelFolder) {
    throw new Error('readViewText needs the browser harness (npm run test:integration); skip the test when harnessAvailable() is false.');
  }
  await revealView(view);
  return sendHarnessRequest(channelFolder, { kind: 'readViewText', view }, timeoutMs);
}

/** Opens the Skills view or the chat, so the workbench draws what a test is about to read. */
async function revealView(view: ViewName): Promise<void> {
  if (view === 'skills') {
    await vscode.commands.executeCommand('workbench.view.extension.agentSkills');
  } else if (view === 'chat') {
    await vscode.commands.executeCommand('workbench.action.chat.open');
  }
}

/** Polls the text of a view until it contains `expected` (a string or a pattern); returns the text. */
export async function waitForViewText(view: ViewName, expected: string | RegExp, timeoutMs = 15000): Promise<string> {
  let lastText = '';
  return waitFor(
    async () => {
      lastText = await readViewText(view);
      return (typeof expected === 'string' ? lastText.includes(expected) : expected.test(lastText)) && lastText;
    },
    { timeoutMs, intervalMs: 250, message: () => `the ${view} view did not show ${String(expected)}; it showed:\n${lastText}` },
  );
}

/** The notifications of this window, read from the notification center (toasts do not show here). Only under the browser harness. */
export async function notificationsText(): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  try {
    return await readViewText('notifications');
  } finally {
    await vscode.commands.executeCommand('notifications.hideList');
  }
}

/** Sends a request to the launcher; only under the browser harness. */
function askHarness(request: HarnessRequest, timeoutMs: number): Promise<string> {
  const channelFolder = process.env[harnessEnvironment.channelFolder];
  if (!channelFolder) {
    throw new Error(`Acting in the workbench (${request.kind}) needs the browser harness (npm run test:integration); skip the test when harnessAvailable() is false.`);
  }
  // The launcher waits `timeoutMs` for the element; the channel waits a little longer for its answer.
  return sendHarnessRequest(channelFolder, request, timeoutMs + 5000);
}

/**
 * Clicks an element of the workbench with the mouse, as a user would, once it is visible:
 * `click({ role: 'button', name: 'Trust', exact: true, within: '.workspace-trust-editor' })` or
 * `click({ selector: '.notification-toast .monaco-button' })`. Fails when several elements match.
 * Only under the browser harness.
 */
export async function click(target: UiTarget, timeoutMs = 10000): Promise<void> {
  await askHarness({ kind: 'click', target, timeoutMs }, timeoutMs);
}

/** Rests the mouse on an element found like `click` finds it, which shows its hover. Only under the browser harness. */
export async function hover(target: UiTarget, timeoutMs = 10000): Promise<void> {
  await askHarness({ kind: 'hover', target, timeoutMs }, timeoutMs);
}

/** Right-clicks an element like `click` does, which opens its context menu. Only under the browser harness. */
export async function rightClick(target: UiTarget, timeoutMs = 10000): Promise<void> {
  await askHarness({ kind: 'click', target, timeoutMs, button: 'right' }, timeoutMs);
}

/**
 * The rows a tree view draws (label, description, nesting level, expanded), top to bottom: what
 * VS Code made of the extension's tree items, not the extension's own model. Reveals the Skills
 * view first. Only under the browser harness.
 */
export async function readTreeRows(view: ViewName, timeoutMs = 20000): Promise<DrawnTreeRow[]> {
  await revealView(view);
  return JSON.parse(await askHarness({ kind: 'readTreeRows', view }, timeoutMs)) as DrawnTreeRow[];
}

/** A row the workbench is watched for; see `watchTreeRow`. */
export interface TreeRowWatch {
  /** Resolves with the time the row was first drawn, or rejects after `timeoutMs`. */
  drawnAt(timeoutMs?: number): Promise<number>;
}

/**
 * Starts watching a tree view for a row with `label` showing `description`, before a change that
 * should draw it. `drawnAt()` gives the moment the workbench first drew it as
 * `performance.timeOrigin + performance.now()` in the page: both processes read the machine's
 * clock, so subtract the same sum taken here just before the change to time it, with no channel
 * round trip in the figure. The row's label must already be drawn (the list draws only rows on
 * screen). Reveals the Skills view first. Only under the browser harness.
 */
export async function watchTreeRow(view: ViewName, row: { label: string; description: string }): Promise<TreeRowWatch> {
  await revealView(view);
  const watch = await askHarness({ kind: 'watchTreeRow', view, ...row }, 10000);
  return { drawnAt: async (timeoutMs = 10000) => Number(await askHarness({ kind: 'awaitTreeRow', watch, timeoutMs }, timeoutMs)) };
}

/** Presses keys one after the other where the keyboard focus is (Playwright names: `F1`, `Enter`, `Control+Shift+P`). */
export async function pressKeys(...keys: string[]): Promise<void> {
  await askHarness({ kind: 'pressKeys', keys }, 10000);
}

/** Types text key by key, into `into` once it is visible, else where the keyboard focus is. */
export async function typeText(text: string, into?: UiTarget, timeoutMs = 10000): Promise<void> {
  await askHarness({ kind: 'typeText', text, ...(into ? { into } : {}), timeoutMs }, timeoutMs);
}

/**
 * Runs a command the way a user does: F1, type its title, pick it from the list. For what tests
 * cannot reach through `executeCommand` (e.g. UI that asks the user, like Workspace Trust).
 * `title` is the title shown in the palette, e.g. `Workspaces: Manage Workspace Trust`.
 */
export async function runFromCommandPalette(title: string, timeoutMs = 10000): Promise<void> {
  await pressKeys('F1');
  await typeText(title, { selector: '.quick-input-box input', within: '.quick-input-widget' }, timeoutMs);
  await click({ role: 'option', name: title, within: '.quick-input-widget' }, timeoutMs);
}

export interface ChatTurn {
  /** What VS Code reported for the request: `errorDetails` when it failed, else timings. */
  readonly result: ChatRequestOutcome | undefined;
  /** The requests the scripted model received during this turn, in order. */
  readonly modelRequests: readonly RecordedRequest[];
  /** The chat view's text once the response finished ('' outside the browser harness). */
  readonly chatText: string;
}

export interface ChatRequestOutcome {
  readonly errorDetails?: { readonly message: string; readonly responseIsIncomplete?: boolean };
  readonly timings?: { readonly firstProgress?: number; readonly totalElapsed?: number };
}

export interface OpenChatOptions {
  /** Start a new chat session first, so earlier turns are neither shown nor sent as history. */
  readonly newSession?: boolean;
  readonly timeoutMs?: number;
}

/**
 * Sends `query` from the chat view as a user would, and resolves once the response is complete.
 * Address a participant: `@skills /list`, `@skills summarise the pdf`, or `@relay …` (the
 * scripted-model extension's stand-in for other agents; VS Code's own agent is not there offline).
 * Use `newSession` when asserting on `chatText`: a send repeated because the model was not ready
 * yet leaves its error in the transcript of a continued session.
 */
export async function openChat(query: string, options: OpenChatOptions = {}): Promise<ChatTurn> {
  const { newSession = false, timeoutMs = 30000 } = options;
  const deadline = Date.now() + timeoutMs;
  const model = await scriptedModel();
  await scriptedChatModel();
  const requestsBefore = model.requests().length;
  for (;;) {
    if (newSession) {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
    }
    const attemptStart = model.requests().length;
    // blockOnResponse: the command resolves only once the response reached a final state.
    const result = await withTimeout(
      vscode.commands.executeCommand<ChatRequestOutcome | undefined>('workbench.action.chat.open', { query, isPartialQuery: false, blockOnResponse: true }),
      deadline - Date.now(),
      `The chat response to "${query}" did not complete within ${timeoutMs} ms (is the query addressed to a participant, e.g. @skills?).`,
    );
    // Right after start-up the chat view may not have resolved its model yet; the request then
    // fails before reaching any model. Send it again once the view has caught up.
    const modelNotReady = result?.errorDetails?.message === 'Language model unavailable' && model.requests().length === attemptStart;
    if (modelNotReady && Date.now() + 1000 < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    const chatText = harnessAvailable() ? await chatTextWhenIdle(Math.max(deadline - Date.now(), 2000)) : '';
    return { result, modelRequests: model.requests().slice(requestsBefore), chatText };
  }
}

/** The chat view's text once no response in it is still streaming. */
async function chatTextWhenIdle(timeoutMs: number): Promise<string> {
  const channelFolder = process.env[harnessEnvironment.channelFolder] ?? '';
  return waitFor(
    async () => {
      const streaming = await sendHarnessRequest(channelFolder, { kind: 'readViewText', view: 'css:.interactive-session .chat-response-loading' }, 5000).then(
        () => true,
        () => false,
      );
      return !streaming && (await readViewText('chat'));
    },
    { timeoutMs, intervalMs: 200, message: 'the chat view still shows a response in progress' },
  );
}

/** `work`, or a rejection with `message` once `timeoutMs` passed. */
export function withTimeout<T>(work: Thenable<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), Math.max(timeoutMs, 0))));
  return Promise.race([Promise.resolve(work), timeout]).finally(() => clearTimeout(timer));
}
