// The `agent-skills` executable (bundled to dist/agent-skills.js): starts the command line
// (dist/cli.js) from compiled code kept by an earlier start, so a start after the first reads the
// bundle's compiled code instead of compiling it again: most of what `--help` costs beyond Node's
// own start. Node 22.1 and later keep it in their compile cache; on Node 20, code-cache.ts does.
// NODE_DISABLE_COMPILE_CACHE=1 turns the cache off; NODE_COMPILE_CACHE names its folder.

import * as nodeModule from 'node:module';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { codeCacheFolder, requireWithCodeCache } from './code-cache';

const command = process.argv[2] ?? '';
// A command other than the server runs for a second or less, mostly before V8 has optimized its
// code, and V8's optimizing compiler then costs more CPU time than the code it makes saves: it
// optimizes later (a budget of 100,000 rather than 67,584: later still, and the loops of the
// overlap check run too long unoptimized), fewer functions, and without inlining. Its young
// generation also stays at its first size instead of doubling as it fills: a short run's garbage is
// collected from the same megabyte of memory, already mapped and in the processor's cache, rather
// than from freshly mapped pages that each cost a page fault. Set before the bundle is compiled, so
// that its code cache is made and checked under the same flags.
if (command !== 'mcp') {
  setFlagsFromString('--no-turbo-inlining --interrupt-budget=100000 --semi-space-growth-factor=1');
}

const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (enableCompileCache) {
  enableCompileCache();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle is loaded after the cache is on
  require('./cli.js');
} else {
  requireWithCodeCache(path.join(__dirname, 'cli.js'), /^[a-z][a-z-]{0,23}$/.test(command) ? command : 'other', codeCacheFolder(process.env));
}
