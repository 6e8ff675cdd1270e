// The command line bundled as it ships (scripts/build.mjs --production), for the sections that run
// it as a client runs it.

import * as path from 'node:path';
import { repositoryRoot } from '../../scripts/harness/repository';

/**
 * The CLI bundled as it ships (scripts/build.mjs --production), into the bench's own folder, as
 * `name`; from `entry` (a path in the repository), src/cli/main.ts unless the bench adds to it.
 */
export async function bundleCli(folder: string, entry = 'src/cli/main.ts', name = 'cli.js'): Promise<string> {
  const esbuild = await import('esbuild');
  const outfile = path.join(folder, name);
  await esbuild.build({
    entryPoints: [path.join(repositoryRoot, ...entry.split('/'))],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    logLevel: 'warning',
    // As scripts/build.mjs: jsonc-parser's UMD entry loads its parts with a require esbuild cannot follow.
    mainFields: ['module', 'main'],
  });
  return outfile;
}
