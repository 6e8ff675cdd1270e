// `agent-skills catalog [--budget-chars N] [--verbose] ROOT…`: prints the exact `<available_skills>` block a
// chat model is given; what did not fit the budget is counted on stderr (named with --verbose).

import { DEFAULT_CATALOG_BUDGET_CHARS, renderCatalog } from '../core/use/catalog';
import { describeCatalogSize } from '../core/use/catalog-report';
import { discoverSkills } from '../core/discovery/discover';
import { parseArguments, positiveInteger } from './args';
import { rootsFromArguments } from './inputs';
import { ExitCode, PROGRAM, UsageError, type CliIo } from './io';
import { reportProblems } from './list-command';

export async function catalogCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { options, operands } = parseArguments('catalog', args, { 'budget-chars': 'value', verbose: 'flag' });
  const budgetChars = positiveInteger('catalog', 'budget-chars', options.get('budget-chars')) ?? DEFAULT_CATALOG_BUDGET_CHARS;
  if (operands.length === 0) {
    throw new UsageError('catalog: give at least one ROOT (a folder of skill folders).');
  }
  const roots = await rootsFromArguments(operands, io);
  const discovery = await discoverSkills(roots, { blockingReads: true });
  const catalog = renderCatalog(discovery.skills, { maxChars: budgetChars });

  io.stdout(`${catalog.text}\n`);
  if (catalog.overflow.length > 0) {
    // One line with the counts; thousands of names are only worth printing when asked for.
    const byNameOnly = catalog.overflow.slice(0, catalog.overflow.length - catalog.unlisted.length);
    const lists = options.has('verbose')
      ? [byNameOnly.length > 0 ? ` By name only: ${byNameOnly.join(', ')}.` : '', catalog.unlisted.length > 0 ? ` Not listed: ${catalog.unlisted.join(', ')}.` : '']
      : [' --verbose lists their names.'];
    io.stderr(`${PROGRAM}: ${describeCatalogSize(catalog, budgetChars)}${lists.join('')}\n`);
  }
  reportProblems(discovery.problems, io);
  return ExitCode.ok;
}
