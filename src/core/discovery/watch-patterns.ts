// Glob patterns that watch a skill root. A root such as `.agent/skills` inside a workspace folder
// must also react when `.agent` itself is created, deleted or renamed, since editors and git often
// report only the top folder of a tree that appears or vanishes.

/**
 * A pattern, relative to the workspace folder, matching the root, its ancestors inside the folder
 * and everything below the root. `relativeRoot` uses `/` or the platform separator.
 */
export function rootWatchGlob(relativeRoot: string): string {
  const alternatives = watchAlternatives(relativeRoot);
  return alternatives.length === 0 ? '**' : `{${alternatives.join(',')}}`;
}

/** The root's ancestors inside the folder, the root, and everything below it; none for the folder itself. */
function watchAlternatives(relativeRoot: string): string[] {
  const segments = relativeRoot.split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) {
    return [];
  }
  const prefixes = segments.map((_segment, index) =>
    segments
      .slice(0, index + 1)
      .map(escapeGlob)
      .join('/'),
  );
  return [...prefixes, `${prefixes[prefixes.length - 1]}/**`];
}

/** Glob metacharacters in folder names must match literally. */
function escapeGlob(segment: string): string {
  return segment.replace(/[*?[\]{},]/g, (character) => `[${character}]`);
}

/**
 * A pattern, relative to a workspace folder, matching `locations` (and their ancestors inside a
 * sub-project) at any depth, and whatever lies up to `maxDepth` folders deep: a sub-project's skill
 * location appearing or vanishing is seen by it, also when a new package arrives all at once and
 * the watcher reports only its top folder.
 */
export function nestedLocationsWatchGlob(locations: readonly string[], maxDepth: number): string | undefined {
  const alternatives = new Set(locations.flatMap(watchAlternatives));
  if (alternatives.size === 0) {
    return undefined;
  }
  const shallow = Array.from({ length: maxDepth }, (_, index) => Array.from({ length: index + 1 }, () => '*').join('/'));
  return `{${[...shallow, ...[...alternatives].map((alternative) => `**/${alternative}`)].join(',')}}`;
}
