// `agent-skills catalog [--budget-chars N] [--verbose] [--project DIR] [ROOT…]`: prints the exact
// `<available_skills>` block a chat model is given; what did not fit the budget is counted on
// stderr (named with --verbose). With no folder named, the current folder is the project.
// With `--target ID [--context TOKENS]`, prints that host's list of the same skills instead, at its
// own budget rule, and names on stderr what it cuts and the skills in folders it does not read at all.

import * as os from 'node:os';
import { DEFAULT_CATALOG_BUDGET_CHARS, renderCatalog } from '../core/use/catalog';
import { describeCatalogSize } from '../core/use/catalog-report';
import { parseArguments, positiveInteger } from './args';
import { CATALOG_USAGE } from './usage/catalog';
import { discoverFromArguments } from './inputs';
import { ExitCode, PROGRAM, type CliIo } from './io';
import { reportProblems } from './list-command';
import { contextTokens, targetHosts } from './targets';
import { targetListings, type TargetListing } from '../core/targets/budget';
import { targetFolderFindings } from '../core/targets/checks';
import { describeCuts, describeListing, listingLines } from '../core/targets/report';

export async function catalogCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('catalog', args, CATALOG_USAGE.options);
  const { options, operands } = parsed;
  const hosts = targetHosts('catalog', parsed);
  const tokens = contextTokens('catalog', parsed);
  const budgetChars = positiveInteger('catalog', 'budget-chars', options.get('budget-chars')) ?? DEFAULT_CATALOG_BUDGET_CHARS;
  const discovery = await discoverFromArguments(parsed, operands, io, true);
  if (hosts.length > 0) {
    printTargetListings(targetListings(discovery.skills, hosts, tokens), io);
    // The list is what a host would show of these skills if it read their folders; say which it never reads.
    for (const unread of targetFolderFindings(discovery.skills, { targets: hosts, homeDir: os.homedir(), servedInVsCode: false })) {
      const message = unread.skills.length > 1 ? `${unread.message.replace(/\.$/, '')}: ${unread.skills.map((skill) => skill.name).join(', ')}.` : unread.message;
      io.stderr(`${PROGRAM}: ${message}\n`);
    }
    reportProblems(discovery.problems, io);
    return ExitCode.ok;
  }
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

function printTargetListings(listings: ReadonlyMap<string, TargetListing>, io: CliIo): void {
  for (const [index, listing] of [...listings.values()].entries()) {
    const heading = listings.size > 1 ? `${index > 0 ? '\n' : ''}# ${listing.host.name}\n` : '';
    io.stdout(
      `${heading}${listingLines(listing)
        .map((line) => `${line}\n`)
        .join('')}`,
    );
    const cuts = describeCuts(listing);
    io.stderr(`${PROGRAM}: ${describeListing(listing)}${cuts ? ` ${cuts}` : ''}\n`);
  }
}
