import type { OptionKind } from '../args';

/**
 * One command's part of the help, beside the options it parses: `agent-skills help` lists each
 * command by its summary, and `agent-skills help NAME` prints its synopses and description.
 */
export interface CommandUsage {
  readonly name: string;
  /** Each form of the command line as printed: the first line starts `agent-skills NAME`, any others continue it. */
  readonly synopses: readonly (readonly string[])[];
  /** Its one line in the overview. */
  readonly summary: string;
  /** The options the command accepts, by long name: what its parseArguments is given. */
  readonly options: Readonly<Record<string, OptionKind>>;
  /** What it does, its options and its own exit statuses; lines after the first indented to the column the first starts at. */
  readonly description: string;
}
