// The public, read-only description of a skill that other extensions and tests get from the API.
// Built from a record with nothing read from an untrusted skill: its name (its folder name) and
// where it is, never its description or diagnostics.

import type { RegistrySnapshot } from './registry';
import type { Range, Severity, SkillRecord, SkillSourceKind, SkillStatus } from './types';

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
