// The text of `agent-skills --help` and of each command's help, built from the commands' usages
// (src/cli/usage/, one module per command beside the options it parses), and the version printed
// by `--version`.

import { version } from '../../package.json';
import { VALIDATE_USAGE } from './usage/validate';
import { LIST_USAGE } from './usage/list';
import { CATALOG_USAGE } from './usage/catalog';
import { ACTIVATE_USAGE } from './usage/activate';
import { FIND_USAGE } from './usage/find';
import { EVAL_USAGE } from './usage/eval';
import { TUNE_USAGE } from './usage/tune';
import { AUDIT_USAGE } from './usage/audit';
import { ADD_USAGE } from './usage/add';
import { UPDATE_USAGE } from './usage/update';
import { CHECK_USAGE } from './usage/check';
import { REMOVE_USAGE } from './usage/remove';
import { INSTALL_USAGE } from './usage/install';
import { PUBLISH_USAGE } from './usage/publish';
import { MCP_USAGE } from './usage/mcp';
import type { CommandUsage } from './usage/command-usage';

export const VERSION = version;

/** Every command, in the order the overview lists them. */
export const COMMAND_USAGES = [
  VALIDATE_USAGE,
  LIST_USAGE,
  CATALOG_USAGE,
  ACTIVATE_USAGE,
  FIND_USAGE,
  EVAL_USAGE,
  TUNE_USAGE,
  AUDIT_USAGE,
  ADD_USAGE,
  UPDATE_USAGE,
  CHECK_USAGE,
  REMOVE_USAGE,
  INSTALL_USAGE,
  PUBLISH_USAGE,
  MCP_USAGE,
] as const satisfies readonly CommandUsage[];

export type CommandName = (typeof COMMAND_USAGES)[number]['name'];

const OPERANDS = `PATH is a skill folder, its SKILL.md, or a folder of skill folders. ROOT is a folder of skill
folders, like .agent/skills; with several ROOTs, an earlier one wins for a skill name.`;

const PROJECT = `--project DIR discovers DIR as the editor discovers a workspace folder: the locations in its
.vscode/settings.json (agentSkills.locations, default .agent/skills), then the same locations in its
sub-projects (packages/web/.agent/skills, up to 3 folders deep, skipping node_modules, hidden and
git-ignored folders; off with "agentSkills.nestedLocations": false), nearer ones winning a name.
Its skills come before those of any ROOT. validate, list, catalog, find and audit without PATH or
ROOT use --project . (the current folder).`;

const EXIT_STATUS = `Exit status: 0 done (warnings allowed); 1 a skill has an error, an input cannot be read, NAME
cannot be activated, a source cannot be fetched, check found something to look at, or audit a
high finding; 2 the command line is wrong; 3 (eval) no verdict; 70 internal error.`;

/** The column a command's summary and description start at. */
const ENTRY_COLUMN = 13;

/** A command's synopses as printed under "Usage:", continued lines aligned after the command name. */
function synopsisLines(usage: CommandUsage): string[] {
  const continuation = ' '.repeat(`  agent-skills ${usage.name} `.length);
  return usage.synopses.flatMap(([first, ...rest]) => [`  ${first}`, ...rest.map((line) => continuation + line)]);
}

function entry(usage: CommandUsage, text: string): string {
  return `  ${usage.name.padEnd(ENTRY_COLUMN - 2)}${text}`;
}

export const USAGE = [
  `agent-skills ${VERSION}: check, list and try Agent Skills (folders holding a SKILL.md) outside the editor.`,
  '',
  'Usage:',
  ...COMMAND_USAGES.flatMap(synopsisLines),
  '  agent-skills --help | --version | help [COMMAND]',
  '',
  OPERANDS,
  '',
  'Commands:',
  ...COMMAND_USAGES.map((usage) => entry(usage, usage.summary)),
  '',
  EXIT_STATUS,
  '',
  "agent-skills help COMMAND (or COMMAND --help) prints one command's help: what it does and its options.",
  '',
].join('\n');

/** The synopses under "Usage:", one per form, a form's continued lines joined by a space. */
export function usageSynopses(): string[] {
  return COMMAND_USAGES.flatMap((usage) => usage.synopses.map((lines) => lines.join(' ')));
}

/**
 * The help of one command: its synopses, what PATH, ROOT and --project mean when it takes them,
 * its description and the exit status. Undefined for a name that is no command.
 */
export function commandHelp(name: string): string | undefined {
  const usage = COMMAND_USAGES.find((command) => command.name === name);
  if (usage === undefined) {
    return undefined;
  }
  const synopses = synopsisLines(usage);
  return [
    `agent-skills ${name}: one command of agent-skills ${VERSION} (all of them: agent-skills help).`,
    '',
    'Usage:',
    ...synopses,
    '',
    ...(/\b(PATH|ROOT)\b/.test(synopses.join('\n')) ? [OPERANDS, ''] : []),
    ...(Object.hasOwn(usage.options, 'project') ? [PROJECT, ''] : []),
    entry(usage, usage.description),
    '',
    EXIT_STATUS,
    '',
  ].join('\n');
}
