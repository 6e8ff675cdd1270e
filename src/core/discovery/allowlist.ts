// The `agentSkills.allowlist` setting: skill names and `*` / `?` patterns. An empty list allows
// every skill, so a workspace only has to write the setting when it wants to restrict.

export type NameFilter = (name: string) => boolean;

const allowEverything: NameFilter = () => true;

function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * Compiles the allowlist once so checking thousands of names stays cheap. Matching ignores case
 * and surrounding spaces, since skill names are lowercase and settings are typed by hand.
 */
export function compileAllowlist(patterns: readonly string[]): NameFilter {
  const entries = patterns.map((pattern) => pattern.trim().toLowerCase()).filter((pattern) => pattern !== '');
  if (entries.length === 0) {
    return allowEverything;
  }
  const exactNames = new Set(entries.filter((entry) => !/[*?]/.test(entry)));
  const globs = entries.filter((entry) => /[*?]/.test(entry)).map(patternToRegExp);
  return (name) => {
    const key = name.toLowerCase();
    return exactNames.has(key) || globs.some((glob) => glob.test(key));
  };
}

export function isAllowed(name: string, patterns: readonly string[]): boolean {
  return compileAllowlist(patterns)(name);
}
