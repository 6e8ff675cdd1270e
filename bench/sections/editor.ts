// The extension inside a real VS Code (the integration harness's server and browser): from the
// extension host's start to the Skills view's first rows at 10, 100 and 1,000 skills, against
// test/tree-extension showing 10 fixed rows in a view beside it, activated by the same events in
// the same window (so through the same VS Code round trips); the product's code evaluated by then
// (bytes of its bundles); activation against an extension that does nothing activating beside it
// (VS Code's own marks), start-up to the first discovery, and the delay from a SKILL.md written on disk to the Skills view
// drawing its row anew, beside VS Code's own watcher delay for the same write (what is left is
// the extension's) and the extension's view model event in between. Each size gets several fresh
// windows; the figures are medians over every edit of every window.
// The measuring runs in test/integration/suites/editor-bench, which writes them to a JSON file.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileIntegrationTests } from '../../scripts/harness/compile-tests';
import { runSuite } from '../../scripts/harness/launcher';
import { repositoryRoot } from '../../scripts/harness/repository';
import type { EditedSkill, EditorBenchFigures, EditTiming } from '../editor-figures';
import { writeSyntheticSkills } from '../core/synthetic-skills';
import { median } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

const SIZES = [10, 100, 1000] as const;
/** AGENT_SKILLS_BENCH_EDITOR_SIZES=10,1000 measures only those sizes (a shorter run while working). */
const sizes = (): readonly number[] => process.env.AGENT_SKILLS_BENCH_EDITOR_SIZES?.split(',').map(Number) ?? SIZES;
/**
 * From the extension host's start to the Skills view handed its rows, at 10 skills: at most this
 * many times the same for test/tree-extension's 10 fixed rows in the same window, plus FIRST_ROWS_GOAL_EXTRA_MS.
 */
const FIRST_ROWS_GOAL_FACTOR = 1.2;
const FIRST_ROWS_GOAL_EXTRA_MS = 20;
const FIRST_ROWS_GOAL_SKILLS = 10;
/** The product's code evaluated until the first rows (its bundle and the side bundles loaded by then), in kilobytes. */
const BYTES_BEFORE_ROWS_GOAL_KB = 200;
/** Fresh VS Code windows per size; each also times several edits. */
const WINDOWS = 3;
/** DESIGN.md: the tree and catalog update within half a second of a change. */
const CHANGE_GOAL_MS = 500;
/** How each edited skill is named in the printed lines. */
const EDITED: Record<EditedSkill, string> = { workspace: 'workspace', external: 'AGENT_SKILLS_PATH' };

export async function run(): Promise<BenchFigures> {
  // The bundle that ships (minified, no source map): VS Code compiles half as much of it as of the development build.
  const build = spawnSync('npm', ['run', 'build:prod'], { cwd: repositoryRoot, stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error('npm run build:prod failed; the editor benchmark needs dist/extension.js');
  }
  const compiledTestsFolder = await compileIntegrationTests();
  const scratch = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-editor-bench-')));
  const figures: BenchFigures = {};
  try {
    for (const size of sizes()) {
      const tree = path.join(scratch, `skills-${size}`);
      await writeSyntheticSkills(tree, size);
      const windows: EditorBenchFigures[] = [];
      for (let window = 0; window < WINDOWS; window++) {
        windows.push(await measureInVsCode(tree, path.join(scratch, `figures-${size}-${window}.json`), compiledTestsFolder));
      }
      const skills = size.toLocaleString('en-US');
      const startup = median(windows.map((measured) => measured.startupMs));
      printFigure(`start-up to a built Skills view (${skills} skills)`, startup, ' ms');
      figures[`startupMs${size}`] = round(startup, 1);
      Object.assign(figures, activationFigures(windows, size));
      for (const [kind, name] of Object.entries(EDITED) as [EditedSkill, string][]) {
        const edits = windows.flatMap((measured) => measured.edits[kind]);
        const figure = (pick: (edit: EditTiming) => number) => median(edits.map(pick));
        const watcher = figure((edit) => edit.watcherMs);
        const viewModel = figure((edit) => edit.viewModelMs);
        const drawn = figure((edit) => edit.drawnMs);
        // Per edit, then the median: the edit's own watcher delay is what VS Code took of it.
        const ours = figure((edit) => edit.drawnMs - edit.watcherMs);
        printFigure(`${name} edit → bare watcher event (${skills} skills)`, watcher, ' ms');
        printFigure(`${name} edit → view model updated (${skills} skills)`, viewModel, ' ms');
        figures[`${kind}ChangeToRowGoal${size}`] = checkGoal({
          label: `${name} edit → row drawn (${skills} skills)`,
          value: drawn,
          unit: ' ms',
          target: CHANGE_GOAL_MS,
          better: 'lower',
        });
        printFigure(`${name}: ours = drawn − watcher (${skills} skills)`, ours, ' ms');
        figures[`${kind}WatcherMs${size}`] = round(watcher, 1);
        figures[`${kind}ChangeToViewModelMs${size}`] = round(viewModel, 1);
        figures[`${kind}ChangeToRowMs${size}`] = round(drawn, 1);
        figures[`${kind}OursMs${size}`] = round(ours, 1);
      }
    }
    figures.windowsPerSize = WINDOWS;
    return figures;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Activation as VS Code marks it (from loading the extension's code), medians over the windows:
 * the empty extension's, ours until activate() returned, until the first complete snapshot, and
 * until the Skills view was handed that snapshot's rows (the tree drawn), which has its goal at
 * ACTIVATION_GOAL_SKILLS.
 */
function activationFigures(windows: readonly EditorBenchFigures[], size: number): BenchFigures {
  const skills = size.toLocaleString('en-US');
  const figure = (pick: (activation: EditorBenchFigures['activation']) => number) => median(windows.map((measured) => pick(measured.activation)));
  const emptyExtension = figure((activation) => activation.emptyExtensionMs);
  const activated = figure((activation) => activation.activatedMs);
  const ready = figure((activation) => activation.readyMs);
  const treeShown = figure((activation) => activation.treeShownMs);
  const viewOpen = figure((activation) => activation.viewOpenMs);
  printFigure(`empty extension, same batch: code loading → activate() ran (${skills} skills)`, emptyExtension, ' ms');
  printFigure(`ours: code loading → activated (${skills} skills)`, activated, ' ms');
  printFigure(`ours: code loading → first snapshot (${skills} skills)`, ready, ' ms');
  printFigure(`ours: code loading → Skills view seen open (${skills} skills)`, viewOpen, ' ms');
  const treeLabel = `ours: code loading → first snapshot in the Skills view (${skills} skills)`;
  const rowsFigure = (pick: (rows: EditorBenchFigures['firstRows']) => number) => median(windows.map((measured) => pick(measured.firstRows)));
  console.log(`  (the extension host's start: ${[...new Set(windows.map((measured) => measured.firstRows.hostStartMark))].join(', ')})`);
  const baselineRows = rowsFigure((rows) => rows.treeBaselineMs);
  const skillsRows = rowsFigure((rows) => rows.skillsViewMs);
  printFigure(`tree extension: host start → its 10 fixed rows (${skills} skills beside)`, baselineRows, ' ms');
  const rowsLabel = `ours: host start → the Skills view's rows (${skills} skills)`;
  const bytes = median(windows.map((measured) => Object.values(measured.bundleBytesBeforeRows).reduce((sum, size) => sum + size, 0)));
  const files = [...new Set(windows.flatMap((measured) => Object.keys(measured.bundleBytesBeforeRows)))].sort().join(', ');
  const bytesLabel = `our code evaluated by the first rows (${files}; ${skills} skills)`;
  const figures: BenchFigures = {
    [`treeBaselineRowsMs${size}`]: round(baselineRows, 1),
    [`skillsViewRowsMs${size}`]: round(skillsRows, 1),
    [`bytesBeforeRows${size}`]: bytes,
    [`emptyExtensionActivationMs${size}`]: round(emptyExtension, 1),
    [`activatedMs${size}`]: round(activated, 1),
    [`activationToReadyMs${size}`]: round(ready, 1),
    [`activationToTreeMs${size}`]: round(treeShown, 1),
    [`activationToViewOpenMs${size}`]: round(viewOpen, 1),
  };
  printFigure(treeLabel, treeShown, ' ms');
  if (size === FIRST_ROWS_GOAL_SKILLS) {
    const target = FIRST_ROWS_GOAL_FACTOR * baselineRows + FIRST_ROWS_GOAL_EXTRA_MS;
    figures.firstRowsGoalMs = round(target, 1);
    figures.firstRowsGoal = checkGoal({ label: rowsLabel, value: skillsRows, unit: ' ms', target, better: 'lower' });
    console.log(`  (goal: ${FIRST_ROWS_GOAL_FACTOR}× the tree extension's rows in the same windows + ${FIRST_ROWS_GOAL_EXTRA_MS} ms)`);
    figures.bytesBeforeRowsGoal = checkGoal({ label: bytesLabel, value: bytes / 1000, unit: ' KB', target: BYTES_BEFORE_ROWS_GOAL_KB, better: 'lower' });
  } else {
    printFigure(rowsLabel, skillsRows, ' ms');
    printFigure(bytesLabel, bytes / 1000, ' KB');
  }
  return figures;
}

/** One fresh VS Code window over `tree`; returns what the bench suite measured in it. */
async function measureInVsCode(tree: string, outputFile: string, compiledTestsFolder: string): Promise<EditorBenchFigures> {
  const lines: string[] = [];
  const result = await runSuite(
    {
      name: 'editor-bench',
      workspaces: ['editor-bench'],
      trusted: true,
      baselineExtensions: true,
      openSkillsView: true,
      env: { AGENT_SKILLS_PATH: tree, AGENT_SKILLS_BENCH_OUTPUT: outputFile },
      // Only the skills being measured.
      settings: { 'agentSkills.builtinSkills': false, 'agentSkills.userSkills': false },
    },
    { compiledTestsFolder, log: (line) => lines.push(line) },
  );
  if (result.exitCode !== 0 || result.passed !== 1) {
    console.log(lines.slice(-40).join('\n'));
    throw new Error(`the editor-bench suite failed (${result.problem ?? `${result.failed} failed, ${result.pending} skipped`})`);
  }
  return JSON.parse(await fs.readFile(outputFile, 'utf8')) as EditorBenchFigures;
}
