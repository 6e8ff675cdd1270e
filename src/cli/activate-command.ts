// `agent-skills activate ROOT NAME [ARGS…]`: prints exactly what the activation tool returns to
// a chat model. It asks as the model does; a skill only the user may start (it sets
// disable-model-invocation) is activated as the user's `/use` would.

import { activateSkill, type ActivationResult } from '../core/use/activation';
import { isUsableStatus } from '../core/model/status';
import { SkillRegistry } from '../core/discovery/registry';
import { parseArguments } from './args';
import { ACTIVATE_USAGE } from './usage/activate';
import { rootsFromArguments } from './inputs';
import { ExitCode, PROGRAM, UsageError, type CliIo } from './io';
import { reportProblems } from './list-command';

export async function activateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { operands } = parseArguments('activate', args, ACTIVATE_USAGE.options, 2);
  const [rootArgument, name, ...skillArguments] = operands;
  if (name === undefined) {
    throw new UsageError('activate: give a ROOT (a folder of skill folders) and a skill NAME.');
  }
  const registry = new SkillRegistry();
  try {
    await registry.setRoots(await rootsFromArguments([rootArgument], io));
    const snapshot = registry.snapshot;
    const argumentText = joinArguments(skillArguments);
    let result: ActivationResult = await activateSkill(snapshot, name, { mode: 'model', arguments: argumentText });
    const record = result.ok ? undefined : result.record;
    if (!result.ok && result.reason === 'refused' && record?.metadata?.disableModelInvocation && isUsableStatus(record.status)) {
      result = await activateSkill(snapshot, name, { mode: 'user', arguments: argumentText });
    }
    reportProblems(snapshot.problems, io);
    if (!result.ok) {
      io.stderr(`${PROGRAM}: ${result.message}\n`);
      return ExitCode.failure;
    }
    io.stdout(`${result.text}\n`);
    return ExitCode.ok;
  } finally {
    registry.dispose();
  }
}

/**
 * The argument text as the user would type it after `/use NAME`: words the shell kept together
 * are quoted again, so `$0`, `$1`… receive the same words the shell passed.
 */
export function joinArguments(args: readonly string[]): string {
  return args.map((arg) => (arg === '' || /[\s"'\\]/.test(arg) ? `"${arg.replace(/["\\]/g, '\\$&')}"` : arg)).join(' ');
}
