// `agent-skills validate [--strict] [--json] [--project DIR] [PATH…]`: full validation (frontmatter, body, and the
// trigger tests in evals/triggers.json when there are some) of every skill, and, except with
// --strict, skills that compete for the same queries, reported like a compiler's diagnostics or
// as JSON. With no PATH, the current folder is the project. With `--target ID` (and
// `--context TOKENS`), also what each target host does with each skill.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { discoverSkills } from '../core/discovery/discover';
import { loadTriggerTestsBlocking, type ParsedTriggerTests } from '../core/evals/trigger-file';
import { loadSkillFile, SKILL_FILE_NAME, type LoadedSkillFile, type LoadOptions } from '../core/skill-file/load';
import { hasErrors } from '../core/skill-file/diagnostic-codes';
import type { DiscoveryProblem, Range, Severity, SkillDiagnostic, SkillRecord, SkillRoot } from '../core/model/types';
import { overlapDiagnostics } from '../core/evals/overlap';
import { modelVisibleSkills } from '../core/use/catalog';
import { findSkills } from '../core/use/find';
import { parseArguments } from './args';
import { VALIDATE_USAGE } from './usage/validate';
import { projectFromArguments, validationTarget } from './inputs';
import { PROJECT_SETTINGS_FILE, type ProjectRoots } from '../core/discovery/project';
import { TARGET_IDS, targetProfile, parseTargetIds, type TargetProfile } from '../core/targets/profiles';
import { contextTokens, targetDiagnostics, targetHosts } from './targets';
import { displayPath, ExitCode, InputError, plural, type CliIo } from './io';
import { parentFolder } from '../core/util/paths';

/** A problem of a location rather than of one SKILL.md (dangling link, loop, unreadable or duplicate folder, no skills, a folder a target host does not read). */
export interface LocationProblemJson {
  path: string;
  severity: Severity;
  code: string;
  message: string;
  /** For a finding about one target host: its id. */
  host?: string;
}

/** A location problem, or a finding about the project for one target host. */
type ValidationProblem = DiscoveryProblem & { host?: string };

type DiagnosticJson = { severity: Severity; code: string; message: string; line: number; column: number; host?: string };

/** One skill in `--json` output; line and column are 1-based. */
export interface ValidatedSkillJson {
  path: string;
  name: string;
  /** False when the SKILL.md or the trigger tests have an error. */
  valid: boolean;
  diagnostics: DiagnosticJson[];
  /** Only for a skill with an evals/triggers.json: the positions are in that file. */
  triggerTests?: { path: string; diagnostics: DiagnosticJson[] };
}

interface ValidatedSkill {
  /** The SKILL.md, which the diagnostics' positions refer to. */
  file: string;
  name: string;
  diagnostics: SkillDiagnostic[];
  triggerTests?: ParsedTriggerTests;
}

export async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('validate', args, VALIDATE_USAGE.options);
  const { options, operands } = parsed;
  const tokens = contextTokens('validate', parsed);
  const project = await projectFromArguments(parsed, io, true);
  const hosts = targetHosts('validate', parsed);
  // Without --target, the project's own agentSkills.targets, judged as the editor judges them.
  const fromSettings = hosts.length === 0 && project.targets !== undefined;
  if (fromSettings) {
    hosts.push(...projectTargets(project));
  }
  const targets = await Promise.all(operands.map((operand) => validationTarget(operand, io)));
  const strict = options.has('strict');
  /** Where each valid SKILL.md's description stands, found as it is loaded: where the overlap check places its warnings. */
  const descriptionRanges = new Map<string, Range | undefined>();
  const loadOptions: LoadOptions = { strict, checkBody: true, blockingReads: true, ...(strict ? {} : { descriptionRanges }) };

  const skills: ValidatedSkill[] = [];
  /** Skills given one by one, as records: with the discovered ones, what the hosts' budgets are taken over. */
  const singles: SkillRecord[] = [];
  const problems: ValidationProblem[] = [...project.problems, ...unknownTargetsProblems(project)];
  /** The skills of folders of skills: the sets whose members compete for queries. */
  const discovered: SkillRecord[] = [];
  /** Real skill folders checked: one reached again (the same PATH twice, a link to it) is checked once. */
  const checked = new Set<string>();
  /** The current folder, checked because nothing was named: a project without skills is no mistake (as for list). */
  const implicitProject = operands.length === 0 && !options.has('project');
  if (project.roots.length > 0) {
    // The project's locations together, so a name clash between them shows as the editor shows it.
    skills.push(...(await validateRoots(project.roots, loadOptions, problems, discovered, checked, !implicitProject)));
  }
  for (const [index, target] of targets.entries()) {
    if (target.kind === 'skill') {
      const realDir = await fs.realpath(target.dir).catch(() => target.dir);
      if (checked.has(realDir)) {
        continue;
      }
      checked.add(realDir);
      const loaded = await loadSkillFile(target.dir, loadOptions);
      if (!loaded) {
        throw new InputError(`${operands[index]}: the ${path.basename(target.dir)} folder no longer holds a SKILL.md.`);
      }
      skills.push({ file: loaded.file, name: loaded.metadata?.name ?? path.basename(target.dir), diagnostics: sortedByPosition(loaded.diagnostics) });
      singles.push(singleSkillRecord(target.dir, realDir, loaded));
    } else {
      skills.push(...(await validateRoots([target.root], loadOptions, problems, discovered, checked, true)));
    }
  }

  const forTargets = await targetDiagnostics([...discovered, ...singles], hosts, tokens, fromSettings);
  for (const skill of skills) {
    const forSkill = forTargets.byFile.get(skill.file);
    // Most skills have no finding for a host: their diagnostics are in order already.
    if (forSkill) {
      skill.diagnostics = sortedByPosition([...skill.diagnostics, ...forSkill]);
    }
  }
  problems.push(...forTargets.folders.map((finding) => ({ code: 'host-folder', severity: 'warning' as const, message: finding.message, path: finding.folder, host: finding.host.id })));

  for (const skill of skills) {
    skill.triggerTests = loadTriggerTestsBlocking(parentFolder(skill.file));
  }
  // The specification alone, in strict mode: competing skills are this product's own advice.
  if (!strict) {
    await addOverlaps(skills, discovered, descriptionRanges);
  }

  if (options.has('json')) {
    io.stdout(`${JSON.stringify({ skills: skills.map(toJson), problems: problems.map(problemToJson) })}\n`);
  } else {
    for (const skill of skills) {
      for (const diagnostic of allDiagnostics(skill)) {
        io.stdout(`${formatDiagnostic(diagnostic, io)}\n`);
      }
    }
    for (const problem of problems) {
      io.stdout(`${formatProblem(problem, io)}\n`);
    }
    if (implicitProject && skills.length === 0) {
      io.stdout(`No skills in this project (looked in ${project.roots.map((root) => path.relative(io.cwd, root.path) || '.').join(', ')}); give a PATH to check skills elsewhere.\n`);
    }
    io.stdout(`${summary(skills, problems)}\n`);
  }
  return skills.some(hasSkillErrors) || problems.some((problem) => problem.severity === 'error') ? ExitCode.failure : ExitCode.ok;
}

/** Queries another skill ranks first for, and descriptions too alike, among the skills of the folders given. */
async function addOverlaps(skills: readonly ValidatedSkill[], discovered: readonly SkillRecord[], descriptionRanges: ReadonlyMap<string, Range | undefined>): Promise<void> {
  const byFile = new Map(discovered.map((record) => [record.file, record]));
  const tests = skills.flatMap((skill) => {
    const record = byFile.get(skill.file);
    return record && skill.triggerTests?.tests ? [{ record, tests: skill.triggerTests.tests }] : [];
  });
  const visible = modelVisibleSkills(discovered);
  const found = await overlapDiagnostics(
    discovered,
    tests,
    (query) => findSkills(visible, query),
    async (file) => descriptionRanges.get(file),
  );
  // By file, so thousands of skills do not each go through every warning.
  const foundIn = new Map<string, SkillDiagnostic[]>();
  for (const diagnostic of found) {
    const inFile = foundIn.get(diagnostic.file);
    if (inFile) {
      inFile.push(diagnostic);
    } else {
      foundIn.set(diagnostic.file, [diagnostic]);
    }
  }
  for (const skill of skills) {
    skill.diagnostics = sortedByPosition([...skill.diagnostics, ...(foundIn.get(skill.file) ?? [])]);
    if (skill.triggerTests) {
      skill.triggerTests.diagnostics.push(...(foundIn.get(skill.triggerTests.file) ?? []));
    }
  }
}

function allDiagnostics(skill: ValidatedSkill): SkillDiagnostic[] {
  return [...skill.diagnostics, ...sortedByPosition(skill.triggerTests?.diagnostics ?? [])];
}

/** Whether the SKILL.md or the trigger tests have an error; without gathering their diagnostics. */
function hasSkillErrors(skill: ValidatedSkill): boolean {
  return hasErrors(skill.diagnostics) || (skill.triggerTests !== undefined && hasErrors(skill.triggerTests.diagnostics));
}

/**
 * The skills of `roots` whose real folder is not in `checked` (then added to it); their discovery
 * problems are added to `problems`, and with `noneIsError` that the roots hold no skill at all.
 */
async function validateRoots(
  roots: readonly SkillRoot[],
  loadOptions: LoadOptions,
  problems: DiscoveryProblem[],
  discovered: SkillRecord[],
  checked: Set<string>,
  noneIsError: boolean,
): Promise<ValidatedSkill[]> {
  const discovery = await discoverSkills(roots, loadOptions);
  // A mistyped path in CI must fail rather than pass with nothing checked.
  if (discovery.skills.length === 0 && noneIsError) {
    problems.push(noSkillsProblem(roots));
  }
  problems.push(...discovery.problems);
  const fresh = discovery.skills.filter((record) => !checked.has(record.realDir));
  fresh.forEach((record) => checked.add(record.realDir));
  discovered.push(...fresh);
  return fresh.map((record) => ({ file: record.file, name: record.name, diagnostics: sortedByPosition(record.diagnostics) }));
}

/** A skill validated on its own, as a record of the folder that holds it, so hosts can be checked against it. */
function singleSkillRecord(dir: string, realDir: string, loaded: LoadedSkillFile): SkillRecord {
  const name = loaded.metadata?.name ?? path.basename(dir);
  const root = { path: path.dirname(dir), kind: 'env' as const, label: path.dirname(dir) };
  return {
    name,
    dir,
    file: loaded.file,
    realDir,
    root,
    ...(loaded.metadata ? { metadata: loaded.metadata } : {}),
    diagnostics: loaded.diagnostics,
    status: loaded.metadata ? 'available' : 'invalid',
    mtimeMs: 0,
    size: 0,
  };
}

function noSkillsProblem(roots: readonly SkillRoot[]): DiscoveryProblem {
  const folders = roots.map((root) => root.path).join(', ');
  return {
    code: 'no-skills',
    severity: 'error',
    message: `No skill folders (folders holding a ${SKILL_FILE_NAME}) found in ${folders}. Check the path: give a skill folder or a folder of skill folders.`,
    path: roots[0].path,
  };
}

function problemToJson(problem: ValidationProblem): LocationProblemJson {
  return { path: problem.path, severity: problem.severity, code: problem.code, message: problem.message, ...(problem.host === undefined ? {} : { host: problem.host }) };
}

/** The hosts the project's agentSkills.targets names (unknown ids aside, as the editor leaves them). */
function projectTargets(project: ProjectRoots): TargetProfile[] {
  return parseTargetIds(project.targets ?? []).ids.map((id) => targetProfile(id)!);
}

/** A warning naming the settings file for each id of its agentSkills.targets that names no host. */
function unknownTargetsProblems(project: ProjectRoots): DiscoveryProblem[] {
  const { unknown } = parseTargetIds(project.targets ?? []);
  if (unknown.length === 0 || project.folder === undefined) {
    return [];
  }
  const file = path.join(project.folder, PROJECT_SETTINGS_FILE);
  return [
    {
      code: 'project-settings',
      severity: 'warning',
      message: `agentSkills.targets in ${file} names no host ${unknown.map((id) => `"${id}"`).join(', ')} (hosts: ${TARGET_IDS.join(', ')}); left out.`,
      path: file,
    },
  ];
}

function toJson(skill: ValidatedSkill): ValidatedSkillJson {
  const { triggerTests } = skill;
  return {
    path: skill.file,
    name: skill.name,
    valid: !hasSkillErrors(skill),
    diagnostics: skill.diagnostics.map(diagnosticJson),
    ...(triggerTests ? { triggerTests: { path: triggerTests.file, diagnostics: sortedByPosition(triggerTests.diagnostics).map(diagnosticJson) } } : {}),
  };
}

function diagnosticJson(diagnostic: SkillDiagnostic): DiagnosticJson {
  return {
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.message,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.column + 1,
    ...(diagnostic.host === undefined ? {} : { host: diagnostic.host }),
  };
}

/** `path:line:column: severity: message [code]`, one-based, as compilers print. */
export function formatDiagnostic(diagnostic: SkillDiagnostic, io: CliIo): string {
  const { line, column } = diagnostic.range.start;
  return `${displayPath(diagnostic.file, io)}:${line + 1}:${column + 1}: ${severityLabel(diagnostic.severity)}: ${diagnostic.message} [${diagnostic.code}]`;
}

function formatProblem(problem: DiscoveryProblem, io: CliIo): string {
  return `${displayPath(problem.path, io)}: ${severityLabel(problem.severity)}: ${problem.message} [${problem.code}]`;
}

/** e.g. "3 skills checked: 1 error, 2 warnings". */
function summary(skills: readonly ValidatedSkill[], problems: readonly DiscoveryProblem[]): string {
  const severities = [...skills.flatMap(allDiagnostics), ...problems].map((item) => item.severity);
  const count = (severity: Severity): number => severities.filter((item) => item === severity).length;
  const infos = count('info');
  return `${plural(skills.length, 'skill')} checked: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}${infos > 0 ? `, ${plural(infos, 'note')}` : ''}`;
}

/** Compilers call an informational diagnostic a note. */
function severityLabel(severity: Severity): string {
  return severity === 'info' ? 'note' : severity;
}

function sortedByPosition(diagnostics: readonly SkillDiagnostic[]): SkillDiagnostic[] {
  return [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
}
