// Run as `node --expose-gc out/bench/core/heap-probe.js ROOT`, its bundle (a child process of the
// core section, so the measure starts from a fresh heap): discovers the skills under ROOT with
// the registry and prints {"skills": N, "heapBytes": B}, B being the heap the registry retains.

import { SkillRegistry } from '../../src/core/discovery/registry';
import type { SkillRoot } from '../../src/core/model/types';

/** Discovers once and drops the result, warming up every module, compiled function and lazy table. */
async function warmUp(root: SkillRoot): Promise<void> {
  const registry = new SkillRegistry();
  await registry.setRoots([root]);
  registry.dispose();
  // File closes still pending would keep this registry's records reachable through the next gc.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function main(rootPath: string): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) {
    throw new Error('run with --expose-gc');
  }
  const root: SkillRoot = { path: rootPath, kind: 'env', label: 'bench' };
  await warmUp(root);

  collect();
  const before = process.memoryUsage().heapUsed;
  const registry = new SkillRegistry();
  await registry.setRoots([root]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  collect();
  const heapBytes = process.memoryUsage().heapUsed - before;
  process.stdout.write(`${JSON.stringify({ skills: registry.snapshot.skills.length, heapBytes })}\n`);
  registry.dispose();
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
