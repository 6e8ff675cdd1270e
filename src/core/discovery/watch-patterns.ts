// Glob patterns that watch a skill root. A root such as `.agent/skills` inside a workspace folder
// must also react when `.agent` itself is created, deleted or renamed, since editors and git often
// report only the top folder of a tree that appears or vanishes.

/**
 * A pattern, relative to the workspace folder, matching the root, its ancestors inside the folder
 * and everything below the root. `relativeRoot` uses `/` or the platform separator.
 */
export function rootWatchGlob(relativeRoot: string): string {
  const segments = relativeRoot.split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) {
    return '**';
  }
  const prefixes = segments.map((_segment, index) =>
    segments
      .slice(0, index + 1)
      .map(escapeGlob)
      .join('/'),
  );
  const root = prefixes[prefixes.length - 1];
  return `{${[...prefixes, `${root}/**`].join(',')}}`;
}

/** Glob metacharacters in folder names must match literally. */
function escapeGlob(segment: string): string {
  return segment.replace(/[*?[\]{},]/g, (character) => `[${character}]`);
}
