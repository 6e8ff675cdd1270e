// The `agent-skills` executable (bundled to dist/agent-skills.js): starts the command line
// (dist/cli.js) with Node's compile cache on, where the Node version has one (22.1 and later), so a
// start after the first reads the bundles' compiled code instead of compiling them again: most of
// what `--help` costs beyond Node's own start. Node 20 starts the command line as it is.
// NODE_DISABLE_COMPILE_CACHE=1 turns the cache off; NODE_COMPILE_CACHE names its folder.

import * as nodeModule from 'node:module';

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle is loaded after the cache is on
require('./cli.js');
