// The public, read-only description of a skill that other extensions and tests get from the API.
// Built from a record with nothing read from an untrusted skill: its name (its folder name) and
// where it is, never its description or diagnostics.

import type { RegistrySnapshot } from '../discovery/registry';
import type { Range, Severity, SkillRecord, SkillSourceKind, SkillStatus } from '../model/types';
import { leadingProblem } from '../model/status';

export interface SkillInfo {
  name: string;
  /** Absent for untrusted and invalid skills. */
  description?: string;
  source: { kind: SkillSourceKind; label: string; root: string };
  /** Absolute path of the SKILL.md. */
  path: string;
  status: SkillStatus;
  /** The file on disk is broken and the last valid version is served. */
  stale: boolean;
  /** For shadowed skills: the SKILL.md that wins. */
  shadowedBy?: string;
  diagnostics: { code: string; severity: Severity; message: string; range: Range }[];
}

export function describeSkill(record: SkillRecord): SkillInfo {
  const info: SkillInfo = {
    name: record.name,
    source: { kind: record.root.kind, label: record.root.label, root: record.root.path },
    path: record.file,
    status: record.status,
    stale: record.stale === true,
    diagnostics: [],
  };
  if (record.status === 'untrusted') {
    return info;
  }
  if (record.metadata) {
    info.description = record.metadata.description;
  }
  if (record.shadowedBy) {
    info.shadowedBy = record.shadowedBy;
  }
  info.diagnostics = record.diagnostics.map(({ code, severity, message, range }) => ({ code, severity, message, range }));
  return info;
}

export function describeSkills(snapshot: RegistrySnapshot): SkillInfo[] {
  return snapshot.skills.map(describeSkill);
}

/**
 * One log line per current problem, keyed so a caller can log each problem once while it lasts:
 * invalid and stale skills with their first error, and discovery problems (loops, dangling links).
 */
export function describeProblems(snapshot: RegistrySnapshot): Map<string, string> {
  const lines = new Map<string, string>();
  for (const record of snapshot.skills) {
    if (record.status !== 'invalid' && !record.stale) {
      continue;
    }
    const error = leadingProblem(record);
    const where = error ? `${record.file}:${error.range.start.line + 1}:${error.range.start.column + 1}` : record.file;
    const what = record.stale ? `Skill "${record.name}" is broken on disk; its last valid version is served` : `Skill "${record.name}" is invalid`;
    lines.set(`${record.file}|${record.stale ? 'stale' : 'invalid'}|${error?.message ?? ''}`, `${what}: ${where}${error ? ` ${error.code}: ${error.message}` : ''}`);
  }
  for (const problem of snapshot.problems) {
    lines.set(`${problem.path}|${problem.code}`, `${problem.message} (${problem.code})`);
  }
  return lines;
}
