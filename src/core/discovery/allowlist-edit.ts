// Editing the `agentSkills.allowlist` setting from the Skills view without clobbering entries the
// user wrote: entries are added or removed one at a time, order and spelling kept.

import { compileAllowlist } from './allowlist';

export type AllowlistEdit = { changed: true; allowlist: string[] } | { changed: false; reason: string };

/** Adds `name` so the skill is allowed. An empty list already allows everything, so adding to it would disallow the rest. */
export function allowSkill(allowlist: readonly string[], name: string): AllowlistEdit {
  if (allowlist.filter((entry) => entry.trim() !== '').length === 0) {
    return { changed: false, reason: `Every skill is allowed: the allowlist is empty.` };
  }
  if (compileAllowlist(allowlist)(name)) {
    return { changed: false, reason: `"${name}" is already allowed by the allowlist.` };
  }
  return { changed: true, allowlist: [...allowlist, name] };
}

/**
 * Removes the entries naming `name` exactly. Patterns stay: they may allow other skills, and the
 * caller says so when the skill is still allowed by one.
 */
export function disallowSkill(allowlist: readonly string[], name: string): AllowlistEdit {
  const key = name.toLowerCase();
  const kept = allowlist.filter((entry) => entry.trim().toLowerCase() !== key);
  if (kept.length === allowlist.length) {
    return { changed: false, reason: `"${name}" is not in the allowlist by name.` };
  }
  if (kept.filter((entry) => entry.trim() !== '').length === 0) {
    // An emptied list would allow every skill, the opposite of what removing an entry means.
    return { changed: false, reason: `"${name}" is the only allowlist entry; removing it would allow every skill. Edit the setting to choose what to allow instead.` };
  }
  return { changed: true, allowlist: kept };
}

/** The pattern entries that still allow `name` after its exact entries are gone. */
export function patternsAllowing(allowlist: readonly string[], name: string): string[] {
  return allowlist.filter((entry) => /[*?]/.test(entry) && compileAllowlist([entry])(name));
}
