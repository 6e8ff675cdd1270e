// Decides each record's status: disabled, untrusted, invalid, shadowed, not allowed, active or
// available, given the records that share a name in precedence order.

import { compileAllowlist } from './allowlist';
import type { SkillRecord, SkillStatus } from '../model/types';

export interface StatusPolicy {
  enabled: boolean;
  isAllowed(name: string): boolean;
  isActive(name: string): boolean;
}

/** The record itself when status and winner are unchanged, otherwise a copy carrying them. */
function withStatus(record: SkillRecord, status: SkillStatus, shadowedBy: string | undefined): SkillRecord {
  if (record.status === status && record.shadowedBy === shadowedBy) {
    return record;
  }
  const copy: SkillRecord = { ...record, status, shadowedBy };
  if (shadowedBy === undefined) {
    delete copy.shadowedBy; // Keep records free of keys that say nothing.
  }
  return copy;
}

/**
 * Decides the statuses of all records that share one name, given in precedence order. Only a
 * record with (possibly stale) metadata from a trusted root can win: an invalid or untrusted
 * skill must not hide a working one further down the list.
 */
export function resolveNameGroup(group: readonly SkillRecord[], policy: StatusPolicy): SkillRecord[] {
  const winner = group.find((record) => record.metadata && !record.root.untrusted);
  return group.map((record) => {
    if (!policy.enabled) {
      return withStatus(record, 'disabled', undefined);
    }
    if (record.root.untrusted) {
      return withStatus(record, 'untrusted', undefined);
    }
    if (!record.metadata) {
      return withStatus(record, 'invalid', undefined);
    }
    if (record !== winner && winner) {
      return withStatus(record, 'shadowed', winner.file);
    }
    if (!policy.isAllowed(record.name)) {
      return withStatus(record, 'not-allowed', undefined);
    }
    return withStatus(record, policy.isActive(record.name) ? 'active' : 'available', undefined);
  });
}

export function policyFromOptions(options: { allowlist?: readonly string[]; enabled?: boolean }, active: ReadonlySet<string> = new Set()): StatusPolicy {
  return { enabled: options.enabled !== false, isAllowed: compileAllowlist(options.allowlist ?? []), isActive: (name) => active.has(name) };
}
