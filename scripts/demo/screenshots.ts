// `npm start -- --screenshots`: photographs the running demo in headless Chromium for the README
// (docs/images): the Skills view with a skill open, the Testing view after a run of the demo's
// trigger tests, and a chat where @skills uses a skill.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumPath, chromiumArguments } from '../harness/workbench-page';
import { repositoryRoot } from '../harness/repository';
import { errorMessage } from '../../src/core/util/errors';

export const screenshotsFolder = path.join(repositoryRoot, 'docs', 'images');
const viewport = { width: 1280, height: 800 };
const chatRequest = '@skills draft the release notes for the next version';
const uiTimeoutMs = 60000;

export async function takeDemoScreenshots(url: string, log: (line: string) => void): Promise<void> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArguments });
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: uiTimeoutMs });
    fs.mkdirSync(screenshotsFolder, { recursive: true });

    await page.locator('.activitybar [aria-label^="Skills"]').first().click();
    // The skill with the deliberate YAML error: the tree, the editor and the Problems panel all say why.
    const skillRow = page.locator('[id="workbench.view.extension.agentSkills"] .monaco-list-row', { hasText: 'db-migrations' }).first();
    await skillRow.waitFor({ timeout: uiTimeoutMs });
    // The startup editor (the demo's README) opens late; it must be there before it is closed.
    await page
      .locator('.tabs-container .tab')
      .first()
      .waitFor({ timeout: 15000 })
      .catch(() => undefined);
    await runCommand(page, 'View: Close All Editors');
    await widenSidebar(page);
    // The chat comes in the second picture; here the room goes to the skill and its problem.
    await page.locator('[aria-label^="Hide Secondary Side Bar"]').filter({ visible: true }).first().click();
    await skillRow.click();
    await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: uiTimeoutMs });
    await runCommand(page, 'View: Toggle Problems');
    await page.locator('[id="workbench.parts.panel"] .monaco-list-row', { hasText: 'Invalid YAML' }).first().waitFor({ timeout: uiTimeoutMs });
    await save(page, 'skills-view.png', log);

    await runCommand(page, 'View: Close All Editors');
    await page.locator('[id="workbench.parts.panel"] [aria-label^="Hide Panel"]').filter({ visible: true }).first().click();
    await photographTriggerTests(page, log);
    // The view's badge lies over its icon.
    await page.locator('.activitybar [aria-label^="Skills"]').first().click({ force: true });

    // A wide chat, with no open file attached to the request as context.
    await runCommand(page, 'View: Close All Editors');
    await widenChat(page);
    // The demo model must be the chat's model before the request is sent.
    await page.locator('.interactive-session').getByText('Demo model', { exact: false }).first().waitFor({ timeout: uiTimeoutMs });
    await page.locator('.interactive-input-editor .monaco-editor').first().click();
    await page.keyboard.type(chatRequest);
    await page.keyboard.press('Enter');
    await page.locator('.interactive-session .interactive-response', { hasText: 'it shows what the skill says' }).first().waitFor({ timeout: uiTimeoutMs });
    await page.locator('.interactive-session .chat-response-loading').waitFor({ state: 'detached', timeout: uiTimeoutMs });
    await save(page, 'chat.png', log);
  } catch (error) {
    const page = browser.contexts()[0]?.pages()[0];
    const failureFile = path.join(repositoryRoot, 'test-output', 'demo-screenshots-failure.png');
    fs.mkdirSync(path.dirname(failureFile), { recursive: true });
    await page?.screenshot({ path: failureFile }).catch(() => undefined);
    throw new Error(`Taking the screenshots failed (the window then: ${path.relative(process.cwd(), failureFile)}): ${errorMessage(error)}`);
  } finally {
    await browser.close();
  }
}

/**
 * Runs every trigger test of the demo against the demo model, then shows the release-notes skill
 * with its scores and the near miss it fails, its message at the entry in evals/triggers.json.
 */
async function photographTriggerTests(page: Page, log: (line: string) => void): Promise<void> {
  await page.locator('.activitybar [aria-label^="Testing"]').first().click();
  const rows = page.locator('[id="workbench.parts.sidebar"] .monaco-list-row');
  // The source, then the skill whose queries the picture shows, expanded as a user would.
  await rows.filter({ hasText: '.agent/skills' }).first().click({ timeout: uiTimeoutMs });
  await rows.filter({ hasText: 'release-notes' }).first().click({ timeout: uiTimeoutMs });
  await palette(page, 'Test: Run All Tests');
  // Asked only when there are several models to run on.
  const modelPick = page.locator('.quick-input-widget', { hasText: 'Model for trigger tests' }).filter({ visible: true });
  if (
    await modelPick.waitFor({ timeout: 3000 }).then(
      () => true,
      () => false,
    )
  ) {
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo model' }).first().click();
  }
  // Each skill's row gets its precision and recall when its queries are done.
  for (const skill of ['api-docs', 'commit-messages', 'release-notes']) {
    await rows.filter({ hasText: skill }).filter({ hasText: 'precision' }).first().waitFor({ timeout: uiTimeoutMs });
  }
  const nearMiss = rows.filter({ hasText: 'explain what semantic versioning means' }).first();
  await nearMiss.waitFor({ timeout: uiTimeoutMs });
  await nearMiss.dblclick();
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: uiTimeoutMs });
  await palette(page, 'Testing: Peek Output');
  await page.locator('.peekview-widget').first().waitFor({ timeout: uiTimeoutMs });
  // Test Results opened at the start of the run; the picture is about the Testing view and the file.
  await page.locator('[id="workbench.parts.panel"] [aria-label^="Hide Panel"]').filter({ visible: true }).first().click();
  await save(page, 'trigger-tests.png', log);
  await page.keyboard.press('Escape');
  await palette(page, 'View: Close All Editors');
}

/** Wide enough for the skills' descriptions and problems to show beside their names. */
async function widenSidebar(page: Page): Promise<void> {
  const sidebar = await page.locator('[id="workbench.parts.sidebar"]').boundingBox();
  if (sidebar) {
    const y = sidebar.y + sidebar.height / 2;
    await page.mouse.move(sidebar.x + sidebar.width + 1, y);
    await page.mouse.down();
    await page.mouse.move(sidebar.x + 440, y, { steps: 10 });
    await page.mouse.up();
  }
}

/** The chat over the whole window, without the list of sessions beside it. */
async function widenChat(page: Page): Promise<void> {
  await runCommand(page, 'View: Maximize Secondary Side Bar');
  const hideSessions = page.locator('[id="workbench.parts.auxiliarybar"] [aria-label="Hide Agent Sessions Sidebar"]').filter({ visible: true });
  if ((await hideSessions.count()) > 0) {
    await hideSessions.first().click();
  }
}

async function runCommand(page: Page, title: string): Promise<void> {
  // Keys typed while a webview (the README preview) has focus never reach the workbench: focus
  // the Skills tree first, clicking below its last row so no item opens.
  const tree = page.locator('[id="workbench.view.extension.agentSkills"] .monaco-list').first();
  const box = await tree.boundingBox();
  await tree.click({ position: { x: 20, y: Math.max((box?.height ?? 40) - 10, 1) } });
  await palette(page, title);
}

/**
 * Runs a command from the Command Palette, where the keyboard focus is. A busy window may close the
 * palette while it is typed into (an editor opening late takes the focus): then it asks again.
 */
async function palette(page: Page, title: string, attempts = 3): Promise<void> {
  const row = page
    .locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^View: /, '') })
    .filter({ visible: true })
    .first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').filter({ visible: true }).waitFor({ timeout: uiTimeoutMs });
    await page.keyboard.type(title);
    if (
      await row.waitFor({ timeout: uiTimeoutMs / attempts }).then(
        () => true,
        () => attempt === attempts,
      )
    ) {
      break;
    }
    await page.keyboard.press('Escape');
  }
  await page.keyboard.press('Enter');
}

async function save(page: Page, name: string, log: (line: string) => void): Promise<void> {
  // Lets hovers and animations settle, so the picture shows the steady state.
  await page.mouse.move(viewport.width / 2, viewport.height - 5);
  await page.waitForTimeout(1000);
  const file = path.join(screenshotsFolder, name);
  await page.screenshot({ path: file });
  log(`Saved ${path.relative(process.cwd(), file)} (${Math.round(fs.statSync(file).size / 1024)} KB).`);
}
