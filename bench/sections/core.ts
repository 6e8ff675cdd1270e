// The core engine at scale, on synthetic skill trees of 10, 1,000 and 5,000 skills written to a
// temporary folder, and a monorepo of 50 packages with 1,000 skills between them: discovery against
// a bare read of every file and of every file's head, the cost of one incremental edit, heap per
// skill and catalog overhead. (Validation against the reference validator is measured as whole
// processes, as users run both, in the cli section.)

import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { renderCatalog } from '../../src/core/use/catalog';
import { loadSkillFile, validateSkillText } from '../../src/core/skill-file/load';
import { DescriptionIndex, INCREMENTAL_DRIFT, SIMILAR_DESCRIPTIONS } from '../../src/core/evals/description-index';
import { alikeDescriptionDiagnostics, descriptionRange, MAX_ALIKE_NAMED } from '../../src/core/evals/overlap';
import { mapWithConcurrency } from '../../src/core/util/async';
import { SkillRegistry } from '../../src/core/discovery/registry';
import { buildFolderSkillRoots } from '../../src/core/discovery/folder-roots';
import { findNestedLocations } from '../../src/core/discovery/nested-locations';
import { DEFAULT_SKILL_LOCATIONS } from '../../src/core/discovery/roots';
import type { SkillRoot } from '../../src/core/model/types';
import { diskFieldRanges } from '../../src/core/targets/checks';
import { targetProfile } from '../../src/core/targets/profiles';
import { TargetWarnings } from '../../src/core/targets/warnings';
import { writeSyntheticSkills, type SyntheticSkill } from '../core/synthetic-skills';
import { nodeArguments } from '../paths';
import { repositoryRoot } from '../../scripts/harness/repository';
import { alternatingMedians, alternatingMediansMs, type MedianTimes, type Repetitions, type TimedTask } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures, type Goal } from '../section';

/** The same bound discovery puts on open files, so the baseline reads with the same parallelism. */
const READ_CONCURRENCY = 32;
/** Runs of each compared task; the machine may be busy, so more than a few. */
const COMPARED_RUNS = { warmups: 3, runs: 21 };
const TREE_SIZES = [1, 10, 1000, 5000] as const;
type TreeSize = (typeof TREE_SIZES)[number];

interface Tree {
  root: SkillRoot;
  skills: SyntheticSkill[];
}

export async function run(): Promise<BenchFigures> {
  const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-')));
  try {
    const trees = {} as Record<TreeSize, Tree>;
    for (const size of TREE_SIZES) {
      const folder = path.join(workspace, `skills-${size}`);
      trees[size] = { root: { path: folder, kind: 'env', label: `bench-${size}` }, skills: await writeSyntheticSkills(folder, size) };
    }
    console.log(`  synthetic trees of ${TREE_SIZES.join(', ')} skills in ${workspace}`);
    return {
      ...(await discoveryAgainstBaselines(trees[1000])),
      ...(await monorepoDiscovery(path.join(workspace, 'monorepo'))),
      ...(await incrementalEdit(trees[10], trees[1000])),
      ...(await revalidationAfterSave(trees[1], trees[1000])),
      ...(await hostWarningsAfterSnapshot(trees[1000])),
      ...(await heapPerSkill(trees[5000])),
      ...catalogOverhead(trees[1000], await discover(trees[1000])),
    };
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

async function discover(tree: Tree): Promise<SkillRegistry> {
  const registry = new SkillRegistry();
  await registry.setRoots([tree.root]);
  return registry;
}

/** What discovery reads of each SKILL.md: the head, up to the end of the frontmatter (3 KB covers it here). */
const HEAD_BYTES = 3 * 1024;

/** The skill folders of a tree, listed as discovery lists them. */
async function skillFolders(tree: Tree): Promise<string[]> {
  const entries = await fs.readdir(tree.root.path, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(tree.root.path, entry.name, 'SKILL.md'));
}

/** Opens each file, stats it and reads its first HEAD_BYTES as text: discovery's I/O without its work. */
async function readHead(file: string): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.allocUnsafe(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Discovery as the editor starts it (registry.setRoots) against two baselines measured in the same
 * run: listing the folders and reading each SKILL.md whole, and the like-for-like one reading the
 * same head discovery reads. The goal is held on the second. Parsing and validating the heads
 * already in memory is timed too, so the figures say where discovery's time beyond the reads goes.
 */
async function discoveryAgainstBaselines(tree: Tree): Promise<BenchFigures> {
  const heads = await Promise.all((await skillFolders(tree)).map(readHead));
  const files = await skillFolders(tree);
  const times = await alternatingMedians(
    {
      wholeRead: async () => mapWithConcurrency(await skillFolders(tree), READ_CONCURRENCY, (file) => fs.readFile(file, 'utf8')),
      headRead: async () => mapWithConcurrency(await skillFolders(tree), READ_CONCURRENCY, readHead),
      parseHeads: async () => heads.map((head, index) => validateSkillText(head, files[index])),
      discovery: async () => (await discover(tree)).dispose(),
    },
    COMPARED_RUNS,
  );
  printFigure('read every SKILL.md whole (1,000 skills)', times.wholeRead.wallMs, ' ms');
  printFigure('read the first 3 KB of every SKILL.md (1,000 skills)', times.headRead.wallMs, ' ms');
  printFigure('parse and validate those heads, in memory (1,000 skills)', times.parseHeads.wallMs, ' ms');
  printFigure('discovery, registry.setRoots (1,000 skills)', times.discovery.wallMs, ' ms');
  const vsWhole = times.discovery.wallMs / times.wholeRead.wallMs;
  const vsHead = times.discovery.wallMs / times.headRead.wallMs;
  printFigure('discovery ÷ whole-file read', vsWhole, '×');
  printFigure('  the same ratio in CPU time', times.discovery.cpuMs / times.wholeRead.cpuMs, '×');
  printFigure('discovery ÷ head read (like for like)', vsHead, '×');
  printFigure('  the same ratio in CPU time', times.discovery.cpuMs / times.headRead.cpuMs, '×');
  // Discovery ≈ head read + parse + the rest (registry records, snapshot, allocation).
  const rest = times.discovery.wallMs - times.headRead.wallMs - times.parseHeads.wallMs;
  printFigure('  of which beyond the reads: parsing and validation', times.parseHeads.wallMs, ' ms');
  printFigure('  of which beyond the reads: the rest (records, snapshot, allocation)', rest, ' ms');
  return {
    baselineReadMs1000: round(times.wholeRead.wallMs),
    baselineHeadReadMs1000: round(times.headRead.wallMs),
    parseHeadsMs1000: round(times.parseHeads.wallMs),
    discoveryMs1000: round(times.discovery.wallMs),
    discoveryRestMs1000: round(rest),
    discoveryVsBaselineRatio: round(vsWhole),
    discoveryVsBaselineCpuRatio: round(times.discovery.cpuMs / times.wholeRead.cpuMs),
    discoveryVsHeadReadRatio: round(vsHead),
    discoveryVsHeadReadCpuRatio: round(times.discovery.cpuMs / times.headRead.cpuMs),
    discoveryVsHeadReadGoal: checkGoal({ label: 'discovery ÷ head read at 1,000 skills', value: vsHead, unit: '×', target: 2, better: 'lower' }),
  };
}

const MONOREPO_PACKAGES = 50;
const SKILLS_PER_PACKAGE = 20;

/**
 * A monorepo of 50 packages, each with 20 skills in `.agent/skills` beside source folders, a
 * git-ignored build folder and a node_modules holding skills of its own (both skipped).
 */
async function writeMonorepo(folder: string): Promise<string[]> {
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(folder, '.gitignore'), 'dist/\n');
  const files: string[] = [];
  for (let index = 0; index < MONOREPO_PACKAGES; index++) {
    const pkg = path.join(folder, 'packages', `package-${String(index).padStart(2, '0')}`);
    const skills = await writeSyntheticSkills(path.join(pkg, '.agent', 'skills'), SKILLS_PER_PACKAGE, 100 + index);
    files.push(...skills.map((skill) => skill.file));
    for (const source of ['src/components/ui', 'src/lib', 'test/fixtures', 'dist/assets']) {
      await fs.mkdir(path.join(pkg, source), { recursive: true });
      await fs.writeFile(path.join(pkg, source, 'index.ts'), 'export {};\n');
    }
    await writeSyntheticSkills(path.join(pkg, 'node_modules', 'dependency', '.agent', 'skills'), 2, 900 + index);
  }
  return files;
}

/**
 * Discovery of a monorepo workspace folder as the editor starts it: the walk for sub-project
 * locations, their roots, and registry.setRoots, against reading the head of each of its 1,000
 * SKILL.md files. The goal is the one a single location of 1,000 skills is held to.
 */
async function monorepoDiscovery(folder: string): Promise<BenchFigures> {
  const files = await writeMonorepo(folder);
  const discoverMonorepo = async (): Promise<number> => {
    const { packages } = await findNestedLocations(folder, DEFAULT_SKILL_LOCATIONS);
    const registry = new SkillRegistry();
    await registry.setRoots(buildFolderSkillRoots([{ name: 'monorepo', path: folder, locations: DEFAULT_SKILL_LOCATIONS, packages }], {}));
    const count = registry.snapshot.skills.length;
    registry.dispose();
    return count;
  };
  const found = await discoverMonorepo();
  if (found !== files.length) {
    throw new Error(`monorepo discovery found ${found} skills, not ${files.length}`);
  }
  const walk = await alternatingMedians({ walk: () => findNestedLocations(folder, DEFAULT_SKILL_LOCATIONS) }, COMPARED_RUNS);
  printFigure(`find the ${MONOREPO_PACKAGES} packages' skill locations (walk of the monorepo)`, walk.walk.wallMs, ' ms');
  return {
    monorepoWalkMs: round(walk.walk.wallMs),
    ...(await compare({
      first: {
        key: 'monorepoHeadReadMs',
        label: `read the first 3 KB of every SKILL.md (monorepo, ${files.length.toLocaleString('en-US')} skills)`,
        task: () => mapWithConcurrency(files, READ_CONCURRENCY, readHead),
      },
      second: { key: 'monorepoDiscoveryMs', label: `discovery of the monorepo: walk, roots, registry.setRoots (${MONOREPO_PACKAGES} packages)`, task: discoverMonorepo },
      goal: {
        key: 'monorepoVsHeadReadRatio',
        cpuKey: 'monorepoVsHeadReadCpuRatio',
        goalKey: 'monorepoVsHeadReadGoal',
        label: `monorepo discovery ÷ head read (${MONOREPO_PACKAGES} packages)`,
        target: 2,
        better: 'lower',
      },
      repetitions: COMPARED_RUNS,
    })),
  };
}

interface Contender {
  key: string;
  label: string;
  task: TimedTask;
}

interface Comparison {
  first: Contender;
  second: Contender;
  /**
   * The ratio held against the goal: second ÷ first when lower is better, first ÷ second (a
   * speed-up) when higher is. `cpuKey` also records it in CPU time, steadier than elapsed time
   * when other work shares the machine.
   */
  goal: { key: string; cpuKey?: string; goalKey: string; label: string; target: number; better: Goal['better'] };
  repetitions: Repetitions;
}

/** Times two tasks in alternation, prints both and their ratio against its goal, and returns the figures. */
async function compare({ first, second, goal, repetitions }: Comparison): Promise<BenchFigures> {
  const times = await alternatingMedians({ first: first.task, second: second.task }, repetitions);
  const ratio = (pick: (median: MedianTimes) => number): number => (goal.better === 'lower' ? pick(times.second) / pick(times.first) : pick(times.first) / pick(times.second));
  printFigure(first.label, times.first.wallMs, ' ms');
  printFigure(second.label, times.second.wallMs, ' ms');
  const value = ratio((median) => median.wallMs);
  const figures: BenchFigures = {
    [first.key]: round(times.first.wallMs),
    [second.key]: round(times.second.wallMs),
    [goal.key]: round(value),
    [goal.goalKey]: checkGoal({ label: goal.label, value, unit: '×', target: goal.target, better: goal.better }),
  };
  if (goal.cpuKey) {
    const cpuValue = ratio((median) => median.cpuMs);
    printFigure('  the same ratio in CPU time', cpuValue, '×');
    figures[goal.cpuKey] = round(cpuValue);
  }
  return figures;
}

/**
 * Saves the nth new description into a skill's SKILL.md. The modification time moves on too, so
 * the registry sees the edit even within one clock tick.
 */
async function saveEdit(skill: SyntheticSkill, original: string, edits: number): Promise<void> {
  const changed = `${skill.description} Edit ${edits}.`;
  await fs.writeFile(skill.file, original.replace(skill.description, changed));
  const later = new Date(Date.now() + edits * 1000);
  await fs.utimes(skill.file, later, later);
}

/** An edit of one SKILL.md and its registry.apply, the writing outside the timing. */
async function editTask(tree: Tree, registries: SkillRegistry[]): Promise<TimedTask> {
  const registry = await discover(tree);
  registries.push(registry);
  const [edited] = tree.skills;
  const original = await fs.readFile(edited.file, 'utf8');
  let edits = 0;
  return {
    prepare: async () => {
      await saveEdit(edited, original, ++edits);
    },
    run: () => registry.apply([{ path: edited.file, kind: 'changed' }]),
  };
}

async function incrementalEdit(small: Tree, large: Tree): Promise<BenchFigures> {
  const registries: SkillRegistry[] = [];
  try {
    return await compare({
      first: { key: 'editMs10', label: 'one edit, registry.apply (10 skills)', task: await editTask(small, registries) },
      second: { key: 'editMs1000', label: 'one edit, registry.apply (1,000 skills)', task: await editTask(large, registries) },
      goal: { key: 'editCostRatio', goalKey: 'editCostGoal', label: 'edit at 1,000 ÷ edit at 10 skills', target: 1.5, better: 'lower' },
      repetitions: { warmups: 10, runs: 61 },
    });
  } finally {
    for (const registry of registries) {
      registry.dispose();
    }
  }
}

/** The targets of a project with `.claude` and `.agents` folders: VS Code and the two hosts whose lists have a budget. */
const BUDGETED_TARGETS = (['vscode', 'claude-code', 'codex'] as const).map((id) => targetProfile(id)!);

/**
 * The editor's per-host warnings over a registry's snapshots (src/vscode/targets/target-findings.ts):
 * each SKILL.md's key positions read again only when the file changed, as the editor keeps them.
 */
function hostWarningsOf(registry: SkillRegistry): () => TargetWarnings {
  const warnings = new TargetWarnings();
  const fieldRanges = diskFieldRanges();
  return () => {
    warnings.update(registry.snapshot.skills, { targets: BUDGETED_TARGETS, homeDir: os.homedir(), servedInVsCode: true, fieldRanges });
    warnings.takeChanged();
    return warnings;
  };
}

/**
 * What the editor does when a SKILL.md of the workspace is saved: the watcher hands the changed
 * file to the registry (registry.apply, as src/vscode/skills/watcher.ts does), which re-reads that
 * folder and publishes a new snapshot; diagnostics/diagnostics.ts reads and validates the skill in
 * full, brings the per-host warnings (VS Code, Claude Code and Codex, whose list budgets span every
 * skill) and the alike-descriptions index up to date from the new snapshot, and makes anew the
 * warnings of the files whose alike skills changed, each from its text. The save changes the
 * description, so the budgets and the index have work to do; the writing is outside the timing.
 */
async function revalidationTask(tree: Tree, registries: SkillRegistry[]): Promise<TimedTask> {
  const registry = await discover(tree);
  registries.push(registry);
  const index = new DescriptionIndex(SIMILAR_DESCRIPTIONS, INCREMENTAL_DRIFT);
  index.update(registry.snapshot.skills);
  const hostWarnings = hostWarningsOf(registry);
  hostWarnings();
  const [edited] = tree.skills;
  const original = await fs.readFile(edited.file, 'utf8');
  let edits = 0;
  return {
    prepare: async () => {
      await saveEdit(edited, original, ++edits);
    },
    run: async () => {
      const published = registry.snapshot.version;
      await registry.apply([{ path: edited.file, kind: 'changed' }]);
      const snapshot = registry.snapshot;
      if (snapshot.version === published) {
        throw new Error(`the registry published no new snapshot after ${edited.file} was saved`);
      }
      await loadSkillFile(path.dirname(edited.file), { checkBody: true });
      if (!hostWarnings().recordOf(edited.file)?.metadata?.description.startsWith(`${edited.description} Edit ${edits}.`)) {
        throw new Error(`the host warnings did not follow the snapshot after ${edited.file} was saved`);
      }
      for (const file of index.update(snapshot.skills)) {
        const alike = index.alikeTo(file, MAX_ALIKE_NAMED);
        if (alike) {
          alikeDescriptionDiagnostics(alike, descriptionRange(await fs.readFile(file, 'utf8')));
        }
      }
    },
  };
}

async function revalidationAfterSave(alone: Tree, large: Tree): Promise<BenchFigures> {
  const registries: SkillRegistry[] = [];
  try {
    return await compare({
      first: { key: 'revalidateAloneMs', label: 'a saved SKILL.md re-validated, the skill alone', task: await revalidationTask(alone, registries) },
      second: { key: 'revalidateMs1000', label: 'a saved SKILL.md re-validated among 1,000 skills', task: await revalidationTask(large, registries) },
      goal: { key: 'revalidateRatio', cpuKey: 'revalidateCpuRatio', goalKey: 'revalidateGoal', label: 're-validation at 1,000 skills ÷ the skill alone', target: 2, better: 'lower' },
      repetitions: { warmups: 10, runs: 61 },
    });
  } finally {
    for (const registry of registries) {
      registry.dispose();
    }
  }
}

/**
 * For information, the per-host warnings' share of the re-validation above: bringing them up to a
 * snapshot in which the saved skill's record was replaced (the save and registry.apply outside the
 * timing), at 1,000 skills.
 */
async function hostWarningsAfterSnapshot(large: Tree): Promise<BenchFigures> {
  const registry = await discover(large);
  try {
    const hostWarnings = hostWarningsOf(registry);
    hostWarnings();
    const [edited] = large.skills;
    const original = await fs.readFile(edited.file, 'utf8');
    let edits = 0;
    const { hostWarnings: median } = await alternatingMediansMs(
      {
        hostWarnings: {
          prepare: async () => {
            await saveEdit(edited, original, ++edits);
            await registry.apply([{ path: edited.file, kind: 'changed' }]);
          },
          run: async () => {
            hostWarnings();
          },
        },
      },
      { warmups: 10, runs: 61 },
    );
    printFigure('host warnings after a snapshot with one skill saved (1,000 skills)', median, ' ms');
    return { hostWarningsMs1000: round(median) };
  } finally {
    registry.dispose();
  }
}

/** Measured in a child process with --expose-gc, starting from a fresh heap. */
async function heapPerSkill(tree: Tree): Promise<BenchFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeArguments('core/heap-probe', ['--expose-gc']), tree.root.path], { cwd: repositoryRoot });
  const { skills, heapBytes } = JSON.parse(stdout) as { skills: number; heapBytes: number };
  if (skills !== tree.skills.length) {
    throw new Error(`the heap probe discovered ${skills} skills, not ${tree.skills.length}`);
  }
  const perSkill = heapBytes / skills;
  return {
    heapBytesPerSkill5000: Math.round(perSkill),
    heapPerSkillGoal: checkGoal({ label: 'heap per discovered skill (5,000 skills)', value: perSkill, unit: ' B', target: 2048, better: 'lower' }),
  };
}

/** Characters the catalog spends per skill beyond its name and description, with every skill described. */
function catalogOverhead(tree: Tree, registry: SkillRegistry): BenchFigures {
  const catalog = renderCatalog(registry.snapshot.skills, { maxChars: Infinity });
  registry.dispose();
  if (catalog.included.length !== tree.skills.length) {
    throw new Error(`the catalog describes ${catalog.included.length} of ${tree.skills.length} skills`);
  }
  const content = tree.skills.reduce((sum, skill) => sum + skill.name.length + skill.description.length, 0);
  const perSkill = (catalog.chars - content) / tree.skills.length;
  printFigure('catalog characters per skill beyond name + description', perSkill, '');
  return { catalogChars1000: catalog.chars, catalogOverheadCharsPerSkill: round(perSkill, 2) };
}
