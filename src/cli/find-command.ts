// `agent-skills find [--json] [--limit N] [--project DIR] QUERY [ROOT…]`: the skills a chat model
// would be offered for QUERY by the find tool, ranked the same way, best first. Earlier roots take
// precedence, as for `list`.

import { modelVisibleSkills } from '../core/use/catalog';
import { MAX_FIND_MATCHES } from '../core/defaults';
import { findSkills } from '../core/use/find';
import { collapseWhitespace } from '../core/util/text';
import { parseArguments, positiveInteger } from './args';
import { FIND_USAGE } from './usage/find';
import { discoverFromArguments } from './inputs';
import { ExitCode, plural, UsageError, type CliIo } from './io';
import { formatTable, reportProblems } from './list-command';

export interface FoundSkillJson {
  name: string;
  description: string;
  /** Relevance to the query; only its order among the matches of one query means anything. */
  score: number;
  /** The skill's SKILL.md. */
  path: string;
}

const HEADINGS = ['NAME', 'DESCRIPTION'] as const;
/** Scores are sums of logarithms; more digits would only be noise. */
const SCORE_DIGITS = 3;

export async function findCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('find', args, FIND_USAGE.options);
  const { options, operands } = parsed;
  const limit = positiveInteger('find', 'limit', options.get('limit')) ?? MAX_FIND_MATCHES;
  const [query, ...rootArguments] = operands;
  if (query === undefined || query.trim() === '') {
    throw new UsageError('find: give a QUERY (what the task is about); without ROOT or --project DIR, the current folder is the project.');
  }
  // Without ROOT, the current folder is the project, as for validate, list and catalog.
  const discovery = await discoverFromArguments({ ...parsed, operands: rootArguments }, rootArguments, io, true);
  const searched = modelVisibleSkills(discovery.skills);
  const matches = findSkills(searched, query);
  const shown = matches.slice(0, limit);

  if (options.has('json')) {
    const found: FoundSkillJson[] = shown.map(({ record, score }) => ({
      name: record.name,
      description: record.metadata?.description ?? '',
      score: Number(score.toFixed(SCORE_DIGITS)),
      path: record.file,
    }));
    io.stdout(`${JSON.stringify({ matches: found })}\n`);
  } else if (shown.length === 0) {
    io.stdout(`No skill matches "${query}" (${plural(searched.length, 'skill')} searched).\n`);
  } else {
    const rows = shown.map(({ record }) => [record.name, collapseWhitespace(record.metadata?.description ?? '')]);
    io.stdout(formatTable([[...HEADINGS], ...rows], io.columns));
    const more = matches.length - shown.length;
    const verb = matches.length === 1 ? 'matches' : 'match';
    io.stdout(`${matches.length} of ${plural(searched.length, 'skill')} ${verb}${more > 0 ? `; ${more} more with a higher --limit or more specific words` : ''}\n`);
  }
  reportProblems(discovery.problems, io);
  return ExitCode.ok;
}
