// Measurements for bench/sections/editor.ts, taken inside a real VS Code; not part of
// `npm run test:integration` (the suite is not in registry.ts). The bench section launches it with
// AGENT_SKILLS_PATH pointing at a synthetic tree and AGENT_SKILLS_BENCH_OUTPUT naming the file
// the figures go to.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillText, treeItem, workspaceSkillsFolder, writeSkillOnDisk, type AgentSkillsApi } from '../../editor-helpers';
import { readTreeRows, waitFor, watchTreeRow, withTimeout, type DrawnTreeRow } from '../../util';
import type { EditedSkill, EditorBenchFigures, EditTiming } from '../../../../bench/editor-figures';

const EDITS = 7;
const TIMEOUT_MS = 10000;
const outputFile = process.env.AGENT_SKILLS_BENCH_OUTPUT;

interface EditedFile {
  kind: EditedSkill;
  name: string;
  file: string;
  watcher: vscode.FileSystemWatcher;
}

/** The machine's clock in milliseconds, read the same way in the page (see watchTreeRow). */
function clock(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * A bare watcher of the same kind as the extension's on the skill's root (recursive, on the
 * workspace folder inside it, else on the root), so the time to its event is VS Code's alone.
 */
function bareWatcher(root: string): vscode.FileSystemWatcher {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root));
  const pattern = folder ? new vscode.RelativePattern(folder, `${path.relative(folder.uri.fsPath, root).split(path.sep).join('/')}/**`) : new vscode.RelativePattern(vscode.Uri.file(root), '**');
  return vscode.workspace.createFileSystemWatcher(pattern);
}

/** When the watcher next reports a file changed or created. */
function nextWatcherEvent(watcher: vscode.FileSystemWatcher): Promise<number> {
  return new Promise((resolve) => {
    const subscriptions = [watcher.onDidChange, watcher.onDidCreate].map((event) =>
      event(() => {
        resolve(clock());
        subscriptions.forEach((subscription) => subscription.dispose());
      }),
    );
  });
}

/** When the view model next fires its change event with `description` on the skill. */
function nextViewModelChange(api: AgentSkillsApi, name: string, description: string): Promise<number> {
  return new Promise((resolve) => {
    const subscription = api.testing.tree.onDidChangeTreeData(() => {
      // The time of the event, before looking the row up: on a busy machine the lookup takes long
      // enough for the workbench to draw the row first.
      const firedAt = clock();
      if (treeItem(api, 'Available', name)?.description === description) {
        resolve(firedAt);
        subscription.dispose();
      }
    });
  });
}

/** Writes a new description and times it to VS Code's watcher event, the view model and the drawn row. */
async function timeEdit(api: AgentSkillsApi, edited: EditedFile, version: number): Promise<EditTiming> {
  const description = `Edited by the benchmark, version ${version}.`;
  const row = await watchTreeRow('skills', { label: edited.name, description });
  const watched = nextWatcherEvent(edited.watcher);
  const modelled = nextViewModelChange(api, edited.name, description);
  const start = clock();
  fs.writeFileSync(edited.file, skillText(edited.name, description));
  const late = (what: string) => `${what} did not see the edit of ${edited.name} within ${TIMEOUT_MS} ms`;
  const [watcherAt, viewModelAt, drawnAt] = await Promise.all([
    withTimeout(watched, TIMEOUT_MS, late('the bare watcher')),
    withTimeout(modelled, TIMEOUT_MS, late('the view model')),
    row.drawnAt(TIMEOUT_MS),
  ]);
  // The row can only be drawn after the view model changed: the other order would mean the page's clock and this one disagree.
  assert.ok(drawnAt >= viewModelAt, `the row of ${edited.name} was drawn ${viewModelAt - drawnAt} ms before the view model changed`);
  return { watcherMs: watcherAt - start, viewModelMs: viewModelAt - start, drawnMs: drawnAt - start };
}

/** A watcher outside the workspace starts some time after it is created: rewrite the file until it reports. */
async function untilWatching(edited: EditedFile): Promise<void> {
  await waitFor(
    () => {
      const seen = nextWatcherEvent(edited.watcher);
      fs.writeFileSync(edited.file, fs.readFileSync(edited.file));
      return Promise.race([seen, new Promise<false>((resolve) => setTimeout(() => resolve(false), 500))]);
    },
    { timeoutMs: TIMEOUT_MS, message: `the bare watcher never reported ${edited.file}` },
  );
}

/** The product's and the baseline test extensions' ids, as VS Code names them in its marks. */
const PRODUCT_ID = 'agentskills.agent-skills';
const EMPTY_EXTENSION_ID = 'agentskills-test.empty-extension';
const TREE_EXTENSION_ID = 'agentskills-test.tree-extension';
/** VS Code's mark in the extension host once the window has handed it its data: the host's start for the window. */
const HOST_START_MARK = 'code/extHost/didWaitForInitData';

/** The product's bundles (dist/*.js) among `modules` (files of the extension host's module cache), with their sizes. */
function bundlesEvaluated(extensionPath: string, modules: readonly string[]): Record<string, number> {
  const dist = path.join(extensionPath, 'dist') + path.sep;
  const loaded = modules.filter((file) => file.startsWith(dist) && file.endsWith('.js'));
  return Object.fromEntries(loaded.map((file) => [path.relative(extensionPath, file).split(path.sep).join('/'), fs.statSync(file).size]));
}

/**
 * VS Code's own performance marks in this extension host, by name: it marks when it starts loading
 * each extension's code and when the extension's activate() has returned, in the machine's clock
 * (milliseconds).
 */
function extensionHostMarks(): Map<string, number> {
  const marks = (globalThis as { MonacoPerformanceMarks?: { getMarks(): Array<{ name: string; startTime: number }> } }).MonacoPerformanceMarks;
  assert.ok(marks, 'this extension host keeps no performance marks');
  return new Map(marks.getMarks().map(({ name, startTime }) => [name, startTime]));
}

/**
 * Milliseconds from VS Code starting to load an extension's code to its activate() having been
 * called (activateStart) and having returned (activatedMs).
 */
function activationMs(marks: ReadonlyMap<string, number>, id: string): { codeLoadStart: number; activateStart: number; activatedMs: number } {
  const at = (event: string) => {
    const time = marks.get(`code/extHost/${event}/${id}`);
    assert.ok(time !== undefined, `VS Code did not mark ${event} for ${id}`);
    return time;
  };
  const codeLoadStart = at('willLoadExtensionCode');
  return { codeLoadStart, activateStart: at('willActivateExtension'), activatedMs: at('didActivateExtension') - codeLoadStart };
}

describe('editor benchmark', function () {
  before(function () {
    if (!outputFile) {
      this.skip();
    }
  });

  it('measures start-up and the delay from a file change to VS Code’s watcher, the view model and the drawn row', async () => {
    // The bench opens the Skills view as the window starts (a user who keeps it open sees it drawn at
    // start-up). Its event activates the product and the empty extension together; asking for the
    // API before would activate the product alone.
    const emptyExtension = vscode.extensions.getExtension<{ calledAt: number }>(EMPTY_EXTENSION_ID);
    const treeExtension = vscode.extensions.getExtension<{ rowsServedAt(): number | undefined }>(TREE_EXTENSION_ID);
    const productExtension = vscode.extensions.getExtension(PRODUCT_ID);
    assert.ok(emptyExtension && treeExtension && productExtension, 'the product or a baseline extension is not installed');
    await waitFor(() => emptyExtension.isActive && treeExtension.isActive && productExtension.isActive, {
      timeoutMs: TIMEOUT_MS,
      message: 'opening the Skills view did not activate the product and both baseline extensions',
    });
    // Not skillsApi(): waiting for the extension to be idle would load what the first rows do not need before them.
    const api = productExtension.exports as AgentSkillsApi;
    const startupMs = await waitFor(() => api.testing.startupMs(), { timeoutMs: TIMEOUT_MS, message: 'the first discovery never finished' });
    const treeShownMs = await waitFor(() => api.testing.treeShownMs(), { timeoutMs: TIMEOUT_MS, message: 'the Skills view was never handed its rows' });
    // The bundles loaded when the rows were handed over: the features loaded right after them are not counted.
    const bundleBytesBeforeRows = bundlesEvaluated(productExtension.extensionPath, api.testing.modulesAtFirstRows()!);
    const treeBaselineRowsAt = await waitFor(() => treeExtension.exports.rowsServedAt(), { timeoutMs: TIMEOUT_MS, message: 'the tree extension’s view was never asked for its rows' });
    const marks = extensionHostMarks();
    const product = activationMs(marks, PRODUCT_ID);
    const empty = activationMs(marks, EMPTY_EXTENSION_ID);
    // One batch is activated together: each extension's activation starts before the other's ended.
    const ended = (activation: typeof product) => activation.codeLoadStart + activation.activatedMs;
    assert.ok(
      empty.activateStart <= ended(product) && product.activateStart <= ended(empty),
      `the empty extension was not activated in the same batch as the product (${empty.activateStart - product.activateStart} ms apart)`,
    );
    // activate() creates the skills host first thing; startupMs runs from there to the first complete
    // snapshot, treeShownMs to the Skills view being handed that snapshot's rows.
    const activation = {
      // Its activate() does nothing but say when it ran: VS Code marks it returned only after the
      // activate() of every extension in its batch, the product's included.
      emptyExtensionMs: emptyExtension.exports.calledAt - empty.codeLoadStart,
      activatedMs: product.activatedMs,
      readyMs: product.activateStart - product.codeLoadStart + startupMs,
      treeShownMs: product.activateStart - product.codeLoadStart + treeShownMs,
      viewOpenMs: product.activateStart - product.codeLoadStart + (api.testing.viewOpenMs() ?? Number.NaN),
    };
    // The extension host starts for this window once the window hands it its data (its process may
    // have waited for the window long before): both views' rows from there.
    const hostStart = marks.get(HOST_START_MARK) ?? performance.timeOrigin;
    const firstRows = {
      hostStartMark: marks.has(HOST_START_MARK) ? HOST_START_MARK : 'the process start',
      skillsViewMs: product.activateStart + treeShownMs - hostStart,
      treeBaselineMs: treeBaselineRowsAt - hostStart,
    };
    await api.whenIdle();
    // The workspace's skill the edits time comes once the first rows are measured: until then the
    // view shows the 10 skills of AGENT_SKILLS_PATH alone, one source, as the baseline shows 10 rows.
    const workspaceFile = writeSkillOnDisk(workspaceSkillsFolder(), 'bench-edit', skillText('bench-edit', 'Edited by the benchmark, version 0.'));
    await waitFor(() => api.listSkills().some((skill) => skill.name === 'bench-edit'), { timeoutMs: TIMEOUT_MS, message: 'the workspace skill written for the edits never loaded' });
    await api.whenIdle();
    const skills = api.listSkills();

    // The list draws only the rows on screen: of the many AGENT_SKILLS_PATH skills, edit one drawn.
    const externalNames = new Set(skills.filter((skill) => skill.source.kind === 'env').map((skill) => skill.name));
    let rows: DrawnTreeRow[] = [];
    const drawnName = await waitFor(async () => (rows = await readTreeRows('skills')).find((row) => externalNames.has(row.label))?.label, {
      message: () => `no skill from AGENT_SKILLS_PATH is drawn in the Skills view; it drew:\n${rows.map((row) => `${'  '.repeat(row.level - 1)}${row.label} — ${row.description}`).join('\n')}`,
    });
    const external = skills.find((skill) => skill.source.kind === 'env' && skill.name === drawnName);
    assert.ok(external);
    const editedFiles: EditedFile[] = [
      { kind: 'workspace', name: 'bench-edit', file: workspaceFile, watcher: bareWatcher(workspaceSkillsFolder()) },
      { kind: 'external', name: external.name, file: external.path, watcher: bareWatcher(path.dirname(path.dirname(external.path))) },
    ];
    const edits: EditorBenchFigures['edits'] = { workspace: [], external: [] };
    try {
      for (const edited of editedFiles) {
        await untilWatching(edited);
      }
      for (let edit = 1; edit <= EDITS; edit++) {
        await new Promise((resolve) => setTimeout(resolve, 200)); // Let the watchers settle between edits.
        for (const edited of editedFiles) {
          edits[edited.kind].push(await timeEdit(api, edited, edit));
        }
      }
    } finally {
      editedFiles.forEach((edited) => edited.watcher.dispose());
    }
    const figures: EditorBenchFigures = { skills: skills.length, startupMs, activation, firstRows, bundleBytesBeforeRows, edits };
    fs.writeFileSync(outputFile!, JSON.stringify(figures));
  });
});
