// Whether drafting (or tuning) trigger tests for a skill makes sense, in a module of its own: the
// Skills view asks it of every row, without loading what drafts them.

import { isDraft, isUsableStatus } from '../model/status';
import type { SkillRecord } from '../model/types';

/**
 * Why drafting trigger tests for a skill makes no sense, or undefined when it does: a run needs a
 * skill the model is offered, and the draft is written into the skill's folder, which must be the
 * user's (built-in skills live inside the extension).
 */
export function draftRefusal(record: SkillRecord): string | undefined {
  if (!isUsableStatus(record.status) || !record.metadata) {
    return `${record.name} cannot be used (${record.status}), so no trigger test could load it.`;
  }
  if (isDraft(record)) {
    return `${record.name} still has the placeholder description of a new skill, so the model is not offered it: write its description first.`;
  }
  if (record.metadata.disableModelInvocation) {
    return `${record.name} is hidden from the model (disable-model-invocation: true): only /use runs it, so no query can trigger it.`;
  }
  if (record.root.kind === 'builtin') {
    return `${record.name} is a built-in skill: its folder belongs to the extension, so it takes no trigger tests of yours.`;
  }
  if (record.root.kind === 'server') {
    return `${record.name} comes from skill server "${record.root.server}": its trigger tests belong with its source, not in the cache.`;
  }
  return undefined;
}
