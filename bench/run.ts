// `npm run bench [-- SECTION…]`: runs every section in bench/sections (or only those named), in
// file-name order, and writes their figures to bench-results.json at the repository root.
// Sections not run this time keep their previous figures in the file, so a section measured
// elsewhere (e.g. inside VS Code) is not wiped by a later run of the others.
// Exit code: 0 when every section ran (missed goals included), 1 when one crashed.

import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchFolder, MODULE_EXTENSION } from './paths';
import { repositoryRoot } from '../scripts/harness/repository';
import type { BenchFigures, BenchSection } from './section';
import { errorMessage } from '../src/core/util/errors';

/** The sections' bundles (out/bench/sections/*.js, see build.mjs), or their sources under tsx. */
const SECTIONS_DIR = path.join(benchFolder, 'sections');
const RESULTS_FILE = path.join(repositoryRoot, 'bench-results.json');

interface BenchResults {
  /** When the file was last written (ISO 8601). */
  updatedAt: string;
  /**
   * The machine and runtime each section was last measured on, keyed like `sections`: a run of
   * some sections keeps the others' figures, so each keeps its own stamp. Figures are only
   * comparable on the same machine.
   */
  environments: Record<string, SectionEnvironment>;
  /** Figures per section, keyed by the section's file name without extension. */
  sections: Record<string, BenchFigures>;
  /** Sections that crashed in the last run, with the error message. */
  failures: Record<string, string>;
}

async function sectionNames(): Promise<string[]> {
  const files = await fs.readdir(SECTIONS_DIR).catch(() => []);
  return files
    .filter((file) => file.endsWith(MODULE_EXTENSION) && !file.endsWith('.d.ts'))
    .map((file) => file.slice(0, -MODULE_EXTENSION.length))
    .sort();
}

async function previousResults(): Promise<Partial<BenchResults>> {
  try {
    return JSON.parse(await fs.readFile(RESULTS_FILE, 'utf8')) as Partial<BenchResults>;
  } catch {
    return {}; // First run, or a file from an older layout: start afresh.
  }
}

interface SectionEnvironment {
  measuredAt: string;
  node: string;
  platform: string;
  cpu: string;
  cpuCount: number;
  memoryBytes: number;
  loadAverageAtStart: number;
}

function environment(): SectionEnvironment {
  const cpus = os.cpus();
  return {
    measuredAt: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    memoryBytes: os.totalmem(),
    // Other work on the machine slows timings unevenly; a high figure here explains a noisy run.
    loadAverageAtStart: Math.round(os.loadavg()[0] * 100) / 100,
  };
}

async function main(requested: readonly string[]): Promise<number> {
  const available = await sectionNames();
  const unknown = requested.filter((name) => !available.includes(name));
  if (unknown.length > 0) {
    console.error(`bench: no section named ${unknown.join(', ')} (sections: ${available.join(', ')})`);
    return 2;
  }
  const selected = requested.length > 0 ? available.filter((name) => requested.includes(name)) : available;
  const previous = await previousResults();
  const results: BenchResults = {
    updatedAt: new Date().toISOString(),
    environments: Object.fromEntries(Object.entries(previous.environments ?? {}).filter(([name]) => name in (previous.sections ?? {}) && !selected.includes(name))),
    sections: { ...previous.sections },
    failures: Object.fromEntries(Object.entries(previous.failures ?? {}).filter(([name]) => !selected.includes(name))),
  };

  for (const name of selected) {
    console.log(`\n== ${name} ==`);
    results.environments[name] = environment();
    try {
      const section = (await import(path.join(SECTIONS_DIR, `${name}${MODULE_EXTENSION}`))) as BenchSection;
      results.sections[name] = await section.run();
    } catch (error) {
      delete results.sections[name];
      delete results.environments[name];
      results.failures[name] = errorMessage(error);
      console.error(`bench: section ${name} crashed:`, error);
    }
  }

  await fs.writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}`);
  return selected.some((name) => name in results.failures) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('bench: crashed:', error);
    process.exitCode = 1;
  },
);
