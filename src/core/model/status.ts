import type { SkillStatus } from './types';

/** Whether a skill with this status may be offered and loaded. */
export function isUsableStatus(status: SkillStatus): boolean {
  return status === 'available' || status === 'active';
}
