// Bundles the benchmark into out/bench/ (git-ignored) with the settings of the shipped bundles
// (scripts/build.mjs with --production: bundled, minified, node20, cjs), so `npm run bench`
// measures the core as the extension and the CLI run it, with plain `node` and no on-the-fly
// TypeScript transform. One bundle per entry point: the runner, each section, the heap probe, the
// HTTP load worker, the MCP floor server.
//
// Runtime dependencies (gray-matter, zod) are bundled, as in the product. Development tools and
// the reference validator (skills-ref) stay external: they run from node_modules as installed.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchFolder = path.join(repositoryRoot, 'bench');
const outFolder = path.join(repositoryRoot, 'out', 'bench');
const { devDependencies } = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8'));

const sections = fs
  .readdirSync(path.join(benchFolder, 'sections'))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => path.join(benchFolder, 'sections', file));

// A deleted section must not linger as a stale bundle the runner would still find.
fs.rmSync(outFolder, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [
    path.join(benchFolder, 'run.ts'),
    path.join(benchFolder, 'core', 'heap-probe.ts'),
    path.join(benchFolder, 'mcp', 'load-worker.ts'),
    path.join(benchFolder, 'mcp', 'floor-server.ts'),
    ...sections,
  ],
  outbase: benchFolder,
  outdir: outFolder,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // The production settings of scripts/build.mjs.
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
  external: ['vscode', ...Object.keys(devDependencies)],
  mainFields: ['module', 'main'],
});
