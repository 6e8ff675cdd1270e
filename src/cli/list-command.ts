// `agent-skills list [--json] [--project DIR] [ROOT…]`: every discovered skill with its status (in
// chat /list's words) and source, as an aligned table or as JSON. Earlier roots take precedence, as
// the editor's locations do; the project's roots come first, and with no folder named the current
// folder is the project.

import * as path from 'node:path';
import { collapseWhitespace } from '../core/util/text';
import type { DiscoveryProblem, SkillRecord, SkillRoot, SkillStatus } from '../core/model/types';
import { parseArguments } from './args';
import { LIST_USAGE } from './usage/list';
import { discoverFromArguments } from './inputs';
import { displayPath, ExitCode, plural, PROGRAM, type CliIo } from './io';
import { firstError, statusWords } from '../core/model/status';

export interface ListedSkillJson {
  name: string;
  description: string | null;
  status: SkillStatus;
  /** The folder the skill was found in: a location of the project by its path relative to the project (`.agent/skills`), a ROOT argument as typed. */
  source: string;
  /** A sub-project's skill: its package folder, relative to the project. */
  package?: string;
  path: string;
  /** Shadowed skills: the SKILL.md of the skill of the same name that wins. */
  shadowedBy?: string;
  /** Invalid skills: the first error. */
  error?: string;
}

const HEADINGS = ['NAME', 'STATUS', 'SOURCE', 'DETAILS'] as const;
const SOURCE_COLUMN = HEADINGS.indexOf('SOURCE');
const COLUMN_GAP = '  ';

export async function listCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('list', args, LIST_USAGE.options);
  const { options, operands } = parsed;
  const discovery = await discoverFromArguments(parsed, operands, io, true);

  const source = (root: SkillRoot): string => sourceFolder(root, discovery.projectFolder);
  if (options.has('json')) {
    const skills = discovery.skills.map((record) => toJson(record, source(record.root)));
    io.stdout(`${JSON.stringify({ skills, problems: discovery.problems })}\n`);
    return ExitCode.ok;
  }
  if (discovery.skills.length > 0) {
    const rows = discovery.skills.map((record) => [record.name, statusWords(record), source(record.root), details(record, io)]);
    io.stdout(formatTable([[...HEADINGS], ...rows], io.columns, SOURCE_COLUMN));
  }
  io.stdout(`${summary(discovery.skills)}\n`);
  reportProblems(discovery.problems, io);
  return ExitCode.ok;
}

/** Discovery problems (loops, dangling links...) go to stderr, keeping stdout for the result. */
export function reportProblems(problems: readonly DiscoveryProblem[], io: CliIo): void {
  for (const problem of problems) {
    io.stderr(`${PROGRAM}: ${problem.severity}: ${problem.message} [${problem.code}]\n`);
  }
}

/**
 * A location of the project by its path relative to the project, `/`-separated (`.agent/skills`,
 * `packages/web/.agent/skills`), which is how the project's settings name it; other roots by their label.
 */
function sourceFolder(root: SkillRoot, projectFolder: string | undefined): string {
  if (root.kind !== 'workspace' || projectFolder === undefined) {
    return root.label;
  }
  return path.relative(projectFolder, root.path).split(path.sep).join('/') || '.';
}

/** Keys whose value is undefined are left out of the JSON text. */
function toJson(record: SkillRecord, source: string): ListedSkillJson {
  return {
    name: record.name,
    description: record.metadata?.description ?? null,
    status: record.status,
    source,
    package: record.root.package,
    path: record.file,
    shadowedBy: record.shadowedBy,
    error: firstError(record)?.message,
  };
}

/** What the user needs next to the status: why it is shadowed or invalid, else the description. */
function details(record: SkillRecord, io: CliIo): string {
  if (record.shadowedBy !== undefined) {
    return `shadowed by ${displayPath(record.shadowedBy, io)}`;
  }
  if (record.status === 'invalid') {
    return firstError(record)?.message ?? 'invalid';
  }
  return collapseWhitespace(record.metadata?.description ?? '');
}

/** What the last column keeps on a terminal, at least, before a shrinkable column gives way. */
const LAST_COLUMN_ROOM = 30;
/** A shortened column still shows this much of its end (e.g. `…app/.agent/skills`). */
const MIN_SHORTENED_WIDTH = 20;

/**
 * Left-aligned columns. On a terminal (`columns` known) lines fit its width: first the column
 * `shrinkable` (a long SOURCE path) is shortened from its start, which keeps the end that tells
 * folders apart, until the last column has some room; then the last one is cut.
 */
export function formatTable(rows: readonly string[][], columns: number | undefined, shrinkable?: number): string {
  const widths = rows[0].slice(0, -1).map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  if (columns !== undefined && shrinkable !== undefined) {
    const lastWidth = Math.min(LAST_COLUMN_ROOM, Math.max(...rows.map((row) => row[row.length - 1].length)));
    const excess = widths.reduce((sum, width) => sum + width + COLUMN_GAP.length, lastWidth) - columns;
    widths[shrinkable] = Math.min(widths[shrinkable], Math.max(MIN_SHORTENED_WIDTH, rows[0][shrinkable].length, widths[shrinkable] - excess));
  }
  return rows
    .map((row) => {
      const leading = row
        .slice(0, -1)
        .map((cell, column) => keepEnd(cell, widths[column]).padEnd(widths[column]))
        .join(COLUMN_GAP);
      let last = row[row.length - 1];
      const room = (columns ?? Infinity) - leading.length - COLUMN_GAP.length;
      if (last.length > room) {
        last = room > 1 ? `${last.slice(0, room - 1)}…` : '';
      }
      return `${leading}${COLUMN_GAP}${last}`.trimEnd();
    })
    .map((line) => `${line}\n`)
    .join('');
}

/** A cell cut to `width` from its start, with an ellipsis in front. */
function keepEnd(cell: string, width: number): string {
  return cell.length > width ? `…${cell.slice(cell.length - width + 1)}` : cell;
}

/** e.g. "4 skills: 2 available, 1 shadowed, 1 invalid". */
function summary(skills: readonly SkillRecord[]): string {
  const counts = new Map<SkillStatus, number>();
  for (const record of skills) {
    counts.set(record.status, (counts.get(record.status) ?? 0) + 1);
  }
  const parts = [...counts].map(([status, count]) => `${count} ${status}`);
  return `${plural(skills.length, 'skill')}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}
