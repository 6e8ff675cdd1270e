// The catalog exactly as the model is given it, rendered from the host's current snapshot and
// settings. Shared by Show Catalog and the chat participant so both always agree.

import { catalogBudgetChars, renderCatalog, type Catalog } from './catalog';
import type { RegistrySnapshot } from '../discovery/registry';
import type { SkillSettings } from '../model/settings';
import type { ToolNames } from '../chat/tool-names';

export interface CatalogSource {
  readonly snapshot: RegistrySnapshot;
  readonly settings: SkillSettings;
}

export interface CurrentCatalog extends Catalog {
  /** The character budget the catalog was rendered within. */
  budgetChars: number;
}

/** The catalog's character budget for a model with `maxInputTokens` (unknown: the character budget alone). */
export function currentBudgetChars(settings: SkillSettings, maxInputTokens?: number): number {
  return catalogBudgetChars({ budgetChars: settings.catalogBudgetChars, budgetPercent: settings.catalogBudgetPercent, maxInputTokens });
}

/** The `<available_skills>` block for a model with `maxInputTokens` (unknown: the character budget alone). */
export function currentCatalog(host: CatalogSource, maxInputTokens?: number, toolNames?: ToolNames): CurrentCatalog {
  const budgetChars = currentBudgetChars(host.settings, maxInputTokens);
  return { ...renderCatalog(host.snapshot.skills, { maxChars: budgetChars, toolNames }), budgetChars };
}
