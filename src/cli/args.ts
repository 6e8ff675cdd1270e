// Parses the options and operands of one command. Options may come anywhere before `--`; with
// `operandsBeforeRest`, everything after that many operands is taken verbatim (activate's ARGS).
// A `repeated` option collects every value given (`--allow a --allow b`).

import { UsageError } from './io';

export type OptionKind = 'flag' | 'value' | 'repeated';

export interface ParsedArguments {
  /** Flags given (true) and option values, by long name without dashes. */
  options: Map<string, string | true>;
  /** Values of repeated options, in the order given. */
  lists: Map<string, string[]>;
  operands: string[];
}

export function parseArguments(command: string, args: readonly string[], spec: Readonly<Record<string, OptionKind>>, operandsBeforeRest = Infinity): ParsedArguments {
  const options = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (operands.length >= operandsBeforeRest) {
      operands.push(arg);
    } else if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    } else if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = arg.slice(2, equals < 0 ? undefined : equals);
      const kind = spec[name];
      if (!kind) {
        throw new UsageError(`${command}: unknown option --${name}${describeOptions(spec)}.`);
      }
      if (kind === 'flag') {
        if (equals >= 0) {
          throw new UsageError(`${command}: --${name} takes no value.`);
        }
        options.set(name, true);
      } else {
        const value = equals >= 0 ? arg.slice(equals + 1) : args[++index];
        if (value === undefined || value === '') {
          throw new UsageError(`${command}: --${name} needs a value.`);
        }
        if (kind === 'repeated') {
          lists.set(name, [...(lists.get(name) ?? []), value]);
        } else {
          options.set(name, value);
        }
      }
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`${command}: unknown option ${arg}${describeOptions(spec)}.`);
    } else {
      operands.push(arg);
    }
  }
  return { options, lists, operands };
}

function describeOptions(spec: Readonly<Record<string, OptionKind>>): string {
  const names = Object.keys(spec);
  return names.length === 0 ? ' (this command takes no options)' : ` (options: ${names.map((name) => `--${name}`).join(', ')})`;
}

/** A positive whole number option, e.g. `--budget-chars 8000`. */
export function positiveInteger(command: string, name: string, value: string | true | undefined): number | undefined {
  if (value === undefined || value === true) {
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`${command}: --${name} must be a positive whole number, not "${value}".`);
  }
  return Number(value);
}
