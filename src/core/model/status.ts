// What a record's status and diagnostics mean for its use, asked the same way everywhere.

import { isPlaceholderDescription } from '../skill-file/schema';
import type { SkillDiagnostic, SkillRecord, SkillStatus } from './types';

/** Whether a skill with this status may be offered and loaded. */
export function isUsableStatus(status: SkillStatus): boolean {
  return status === 'available' || status === 'active';
}

/** A usable skill the user may run with /use (not marked `user-invocable: false`). */
export function isUserInvocable(record: SkillRecord): boolean {
  return isUsableStatus(record.status) && record.metadata?.userInvocable !== false;
}

/** A new skill whose description is still Create Skill's placeholder: not offered to the model until it is written. */
export function isDraft(record: SkillRecord): boolean {
  return record.metadata !== undefined && isPlaceholderDescription(record.metadata.description);
}

/** The first error of a record, if any. */
export function firstError(record: SkillRecord): SkillDiagnostic | undefined {
  return record.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
}

/** What explains best why a record is unusable: its first error, or else its first diagnostic. */
export function leadingProblem(record: SkillRecord): SkillDiagnostic | undefined {
  return firstError(record) ?? record.diagnostics[0];
}

/**
 * A record's status in a few words, with what limits its use ("available, /use only"): the one
 * wording of the command line's `list` and chat's `/list`.
 */
export function statusWords(record: SkillRecord): string {
  const notes: string[] = [];
  switch (record.status) {
    case 'not-allowed':
      notes.push('not allowed');
      break;
    case 'disabled':
      notes.push('turned off');
      break;
    default:
      notes.push(record.status);
  }
  if (record.stale) {
    notes.push('stale: last valid version');
  }
  if (isUsableStatus(record.status)) {
    if (isDraft(record)) {
      notes.push('draft: not offered to the model');
    } else if (record.metadata?.disableModelInvocation) {
      notes.push('/use only');
    }
    if (record.metadata?.userInvocable === false) {
      notes.push('model only');
    }
    if (record.metadata?.context === 'fork') {
      notes.push('runs isolated');
    }
  }
  return notes.join(', ');
}
