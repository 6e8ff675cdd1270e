// How an editor starts `agent-skills mcp` for a window: the exact roots it has already worked out
// (workspace roots only when trusted), its allowlist and catalog budget, and a version that
// changes whenever any of them does, so the editor restarts the server.

import { createHash } from 'node:crypto';
import type { SkillRoot } from '../model/types';

export interface ServerLaunchInputs {
  /** The window's roots in precedence order; untrusted ones are never passed. */
  roots: readonly SkillRoot[];
  allowlist: readonly string[];
  catalogBudgetChars: number;
}

export interface ServerLaunch {
  /** Arguments after the CLI script: the server adds no root of its own. */
  args: string[];
  version: string;
}

export function serverLaunch(inputs: ServerLaunchInputs): ServerLaunch {
  const args = ['mcp', '--no-user', '--no-builtin', '--budget-chars', String(inputs.catalogBudgetChars)];
  for (const pattern of inputs.allowlist) {
    args.push('--allow', pattern);
  }
  args.push('--', ...inputs.roots.filter((root) => !root.untrusted).map((root) => root.path));
  return { args, version: createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 12) };
}
