// The core engine at scale, on synthetic skill trees of 10, 1,000 and 5,000 skills written to a
// temporary folder: discovery against a bare read of every file, the cost of one incremental
// edit, heap per skill, catalog overhead, and full validation against the reference validator.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { renderCatalog } from '../../src/core/catalog';
import { discoverSkills, mapWithConcurrency } from '../../src/core/discover';
import { SkillRegistry } from '../../src/core/registry';
import type { SkillRoot } from '../../src/core/types';
import { writeSyntheticSkills, type SyntheticSkill } from '../core/synthetic-skills';
import { alternatingMediansMs, type TimedTask } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures, type Goal } from '../section';

/** The same bound discovery puts on open files, so the baseline reads with the same parallelism. */
const READ_CONCURRENCY = 32;
/** What `agent-skills validate --strict` runs on a folder of skills. */
const CLI_STRICT_VALIDATION = { strict: true, checkBody: true, blockingReads: true };
/** Runs of each compared task; the machine may be busy, so more than a few. */
const COMPARED_RUNS = { warmups: 3, runs: 21 };
const TREE_SIZES = [10, 1000, 5000] as const;
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
      ...(await discoveryAgainstBaseline(trees[1000])),
      ...(await incrementalEdit(trees[10], trees[1000])),
      ...(await heapPerSkill(trees[5000])),
      ...catalogOverhead(trees[1000], await discover(trees[1000])),
      ...(await validationAgainstReference(trees[1000])),
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

/** Discovery as the editor starts it (registry.setRoots) against listing the folders and reading each SKILL.md whole. */
async function discoveryAgainstBaseline(tree: Tree): Promise<BenchFigures> {
  const medians = await alternatingMediansMs(
    {
      baseline: async () => {
        const entries = await fs.readdir(tree.root.path, { withFileTypes: true });
        const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
        await mapWithConcurrency(folders, READ_CONCURRENCY, (folder) => fs.readFile(path.join(tree.root.path, folder, 'SKILL.md'), 'utf8'));
      },
      discovery: async () => (await discover(tree)).dispose(),
    },
    COMPARED_RUNS,
  );
  return reportComparison(
    { key: 'baselineReadMs1000', label: 'read every SKILL.md whole (1,000 skills)', ms: medians.baseline },
    { key: 'discoveryMs1000', label: 'discovery, registry.setRoots (1,000 skills)', ms: medians.discovery },
    { key: 'discoveryVsBaselineRatio', goalKey: 'discoveryVsBaselineGoal', label: 'discovery ÷ baseline at 1,000 skills', value: medians.discovery / medians.baseline, target: 1.2, better: 'lower' },
  );
}

interface Timing {
  key: string;
  label: string;
  ms: number;
}

interface RatioGoal {
  key: string;
  goalKey: string;
  label: string;
  value: number;
  target: number;
  better: Goal['better'];
}

/** Prints two timings and their ratio against its goal, and returns the four figures. */
function reportComparison(first: Timing, second: Timing, ratio: RatioGoal): BenchFigures {
  printFigure(first.label, first.ms, ' ms');
  printFigure(second.label, second.ms, ' ms');
  return {
    [first.key]: round(first.ms),
    [second.key]: round(second.ms),
    [ratio.key]: round(ratio.value),
    [ratio.goalKey]: checkGoal({ label: ratio.label, value: ratio.value, unit: '×', target: ratio.target, better: ratio.better }),
  };
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
      edits++;
      await fs.writeFile(edited.file, original.replace(edited.description, `${edited.description} Edit ${edits}.`));
      // Moves the modification time on, so the edit is seen even within one clock tick.
      const later = new Date(Date.now() + edits * 1000);
      await fs.utimes(edited.file, later, later);
    },
    run: () => registry.apply([{ path: edited.file, kind: 'changed' }]),
  };
}

async function incrementalEdit(small: Tree, large: Tree): Promise<BenchFigures> {
  const registries: SkillRegistry[] = [];
  try {
    const medians = await alternatingMediansMs({ small: await editTask(small, registries), large: await editTask(large, registries) }, { warmups: 10, runs: 61 });
    return reportComparison(
      { key: 'editMs10', label: 'one edit, registry.apply (10 skills)', ms: medians.small },
      { key: 'editMs1000', label: 'one edit, registry.apply (1,000 skills)', ms: medians.large },
      { key: 'editCostRatio', goalKey: 'editCostGoal', label: 'edit at 1,000 ÷ edit at 10 skills', value: medians.large / medians.small, target: 1.5, better: 'lower' },
    );
  } finally {
    for (const registry of registries) registry.dispose();
  }
}

/** Measured in a child process with --expose-gc, starting from a fresh heap. */
async function heapPerSkill(tree: Tree): Promise<BenchFigures> {
  const probe = path.join(__dirname, '..', 'core', 'heap-probe.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', probe, tree.root.path], {
    cwd: path.join(__dirname, '..', '..'),
  });
  const { skills, heapBytes } = JSON.parse(stdout) as { skills: number; heapBytes: number };
  if (skills !== tree.skills.length) throw new Error(`the heap probe discovered ${skills} skills, not ${tree.skills.length}`);
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
  if (catalog.included.length !== tree.skills.length) throw new Error(`the catalog describes ${catalog.included.length} of ${tree.skills.length} skills`);
  const content = tree.skills.reduce((sum, skill) => sum + skill.name.length + skill.description.length, 0);
  const perSkill = (catalog.chars - content) / tree.skills.length;
  printFigure('catalog characters per skill beyond name + description', perSkill, '');
  return { catalogChars1000: catalog.chars, catalogOverheadCharsPerSkill: round(perSkill, 2) };
}

type ReferenceValidate = (skillDir: string) => Promise<string[]>;

/** Full strict validation of every skill (as `agent-skills validate --strict`) against the reference validator on each folder. */
async function validationAgainstReference(tree: Tree): Promise<BenchFigures> {
  const { validate: referenceValidate } = (await import('skills-ref')) as { validate: ReferenceValidate };
  const folders = tree.skills.map((skill) => path.dirname(skill.file));
  const ours = await discoverSkills([tree.root], CLI_STRICT_VALIDATION);
  const reference = await mapWithConcurrency(folders, READ_CONCURRENCY, referenceValidate);
  // Both must have checked real, valid skills, or the timing compares nothing.
  const ourInvalid = ours.skills.filter((record) => record.diagnostics.some((diagnostic) => diagnostic.severity === 'error'));
  const referenceInvalid = reference.filter((errors) => errors.length > 0);
  if (ours.skills.length !== folders.length || ourInvalid.length > 0 || referenceInvalid.length > 0) {
    throw new Error(`validators disagree on the synthetic tree: ours found ${ourInvalid.length} invalid of ${ours.skills.length}, skills-ref ${referenceInvalid.length} of ${folders.length}`);
  }

  const medians = await alternatingMediansMs(
    {
      reference: () => mapWithConcurrency(folders, READ_CONCURRENCY, referenceValidate),
      ours: () => discoverSkills([tree.root], CLI_STRICT_VALIDATION),
    },
    COMPARED_RUNS,
  );
  return reportComparison(
    { key: 'referenceValidateMs1000', label: 'skills-ref validate(), every folder (1,000 skills)', ms: medians.reference },
    { key: 'strictValidateMs1000', label: 'ours, full strict validation (1,000 skills)', ms: medians.ours },
    { key: 'validateSpeedupVsReference', goalKey: 'validateSpeedupGoal', label: 'speed-up over skills-ref validating 1,000 skills', value: medians.reference / medians.ours, target: 2, better: 'higher' },
  );
}
