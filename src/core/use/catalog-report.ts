// The one-line size report shown above the catalog (Show Catalog) and logged when it overflows.

import type { Catalog } from './catalog';

/** e.g. "Skill catalog: 1,234 characters (~309 tokens) of a 16,000-character budget; 12 skills described, 3 by name only, 1 unlisted." */
export function describeCatalogSize(catalog: Catalog, budgetChars: number): string {
  const count = (value: number): string => value.toLocaleString('en-US');
  const byNameOnly = catalog.overflow.length - catalog.unlisted.length;
  const parts = [`${count(catalog.included.length)} ${catalog.included.length === 1 ? 'skill' : 'skills'} described`];
  if (byNameOnly > 0) {
    parts.push(`${count(byNameOnly)} by name only`);
  }
  if (catalog.unlisted.length > 0) {
    parts.push(`${count(catalog.unlisted.length)} unlisted (reachable through the find tool)`);
  }
  return `Skill catalog: ${count(catalog.chars)} characters (~${count(catalog.estimatedTokens)} tokens) of a ${count(budgetChars)}-character budget; ${parts.join(', ')}.`;
}
