// "Validate Skills": every trusted skill of every location, read in full (body checks included),
// its trigger tests (evals/triggers.json) when it has them, skills that compete for the same
// queries, and discovery problems that point at a file, summed up for the user.

import { promises as fsp } from 'node:fs';
import { mapWithConcurrency } from '../util/async';
import { descriptionRange, overlapDiagnostics } from '../evals/overlap';
import { loadTriggerTests } from '../evals/trigger-file';
import { loadSkillFile } from '../skill-file/load';
import type { RegistrySnapshot } from './registry';
import type { DiscoveryProblem, Range, SkillDiagnostic } from '../model/types';

export interface ValidationSummary {
  /** Skills read and checked. */
  checked: number;
  errors: number;
  warnings: number;
  /** Untrusted skills, not read. */
  skippedUntrusted: number;
  /** Diagnostics per absolute file path (files without diagnostics are present with an empty list). */
  files: Map<string, SkillDiagnostic[]>;
  /** Problems of a location rather than a file (dangling link, loop, unreadable folder): counted too. */
  locationProblems: DiscoveryProblem[];
}

const VALIDATE_CONCURRENCY = 32;

export async function validateAllSkills(snapshot: RegistrySnapshot): Promise<ValidationSummary> {
  const trusted = snapshot.skills.filter((record) => record.status !== 'untrusted');
  /** Where each SKILL.md read valid here has its description: where a warning on an alike one goes. */
  const descriptionRanges = new Map<string, Range | undefined>();
  const results = await mapWithConcurrency(trusted, VALIDATE_CONCURRENCY, async (record) => ({
    record,
    file: record.file,
    diagnostics: (await loadSkillFile(record.dir, { checkBody: true, descriptionRanges }))?.diagnostics,
    triggerTests: await loadTriggerTests(record.dir),
  }));
  const files = new Map<string, SkillDiagnostic[]>();
  let checked = 0;
  for (const result of results) {
    if (result.diagnostics) {
      // A SKILL.md deleted since the snapshot is simply not counted.
      checked++;
      files.set(result.file, result.diagnostics);
    }
    if (result.diagnostics && result.triggerTests) {
      files.set(result.triggerTests.file, result.triggerTests.diagnostics);
    }
  }
  const overlaps = await overlapDiagnostics(
    trusted,
    results.flatMap(({ record, triggerTests }) => (triggerTests?.tests ? [{ record, tests: triggerTests.tests }] : [])),
    (query) => snapshot.findSkills(query),
    // A file the snapshot holds as valid but read here as broken (an edit since) is read again.
    async (file) => (descriptionRanges.has(file) ? descriptionRanges.get(file) : descriptionRange(await readTextIfAny(file))),
  );
  for (const diagnostic of overlaps) {
    addDiagnostic(files, diagnostic);
  }
  const locationProblems: DiscoveryProblem[] = [];
  for (const problem of snapshot.problems) {
    if (await isFile(problem.path)) {
      const range = { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } };
      addDiagnostic(files, { code: problem.code, severity: problem.severity, message: problem.message, file: problem.path, range });
    } else {
      locationProblems.push(problem);
    }
  }
  // The same count the CLI and the Skills view give: every diagnostic and every location problem.
  const all = [...[...files.values()].flat(), ...locationProblems];
  return {
    checked,
    errors: all.filter((item) => item.severity === 'error').length,
    warnings: all.filter((item) => item.severity === 'warning').length,
    skippedUntrusted: snapshot.skills.length - trusted.length,
    files,
    locationProblems,
  };
}

function addDiagnostic(files: Map<string, SkillDiagnostic[]>, diagnostic: SkillDiagnostic): void {
  files.set(diagnostic.file, [...(files.get(diagnostic.file) ?? []), diagnostic]);
}

/**
 * "Checked 12 skills: 1 error, 3 warnings." plus a note on untrusted skills. `installed`: how many
 * of the counts are the Problems panel's findings on installed skills (their audit, edits since
 * install), counted as the status bar counts them and said apart.
 */
export function describeValidation(summary: Pick<ValidationSummary, 'checked' | 'errors' | 'warnings' | 'skippedUntrusted'> & { installed?: { errors: number; warnings: number } }): string {
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  const installed = summary.installed && summary.installed.errors + summary.installed.warnings > 0 ? summary.installed : undefined;
  const ofInstalled = installed ? ` (${plural(installed.errors, 'error')}, ${plural(installed.warnings, 'warning')} of them on installed skills: audit findings or edits since install)` : '';
  const text = `Checked ${plural(summary.checked, 'skill')}: ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}${ofInstalled}.`;
  return summary.skippedUntrusted > 0 ? `${text} ${plural(summary.skippedUntrusted, 'skill')} of the untrusted workspace not read.` : text;
}

/** A file's text, or undefined when it cannot be read (it changed since the snapshot). */
export function readTextIfAny(file: string): Promise<string | undefined> {
  return fsp.readFile(file, 'utf8').catch(() => undefined);
}

async function isFile(file: string): Promise<boolean> {
  return (await fsp.lstat(file).catch(() => undefined))?.isFile() === true;
}
