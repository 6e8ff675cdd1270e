// Bundles the extension and the CLI with esbuild. `--production` minifies the extension and drops
// its sourcemap; the CLI is always built that way.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  // Watch mode prints "[watch] build started/finished", which the VS Code task waits for.
  logLevel: watch ? 'info' : 'warning',
  external: ['vscode'],
};

const builds = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js' },
  // The `agent-skills` bin runs dist/cli.js as built, whichever build made it last: always the
  // production bundle (its errors are one-line messages, so a source map would add nothing).
  { ...common, minify: true, sourcemap: false, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
