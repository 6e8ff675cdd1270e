// Bundles the extension and the CLI with esbuild. `--production` minifies the extension and drops
// its sourcemap; the CLI is always built that way. Then assembles the CLI's npm package
// (scripts/npm-package.mjs); watch mode leaves that to `npm run build`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { assembleNpmPackage } from './npm-package.mjs';
import { buildWithSideBundles, CLI_BUNDLES, EXTENSION_BUNDLES, watchWithSideBundles } from './side-bundles.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * The product only ever reads YAML, and only with js-yaml's safe schema (lint forbids its other
 * entry points), yet gray-matter's YAML engine takes js-yaml whole as it loads: the dumper and the
 * JavaScript types (functions, regular expressions) are 10 KB of every bundle that nothing calls.
 * In the bundles, the dumper's functions say so instead, and the full schema is the safe one.
 */
const yamlReaderOnly = {
  name: 'yaml-reader-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]dumper\.js$/ }, () => ({
      contents: "exports.dump = exports.safeDump = () => { throw new Error('Writing YAML is not part of this bundle.'); };",
      loader: 'js',
    }));
    build.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]schema[\\/]default_full\.js$/ }, (args) => ({
      contents: "module.exports = require('./default_safe');",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * `import * as vscode from 'vscode'` (or `node:path`, …) in each of some sixty modules made each one
 * copy every export of the module onto its own namespace object as the bundle loaded, some 13,000
 * properties in all, most of them the `vscode` API's. Each such module is instead re-exported once,
 * from one shared namespace module that every import reads.
 */
const EXTERNAL_NAMESPACES = /^(vscode|node:[a-z_/]+)$/;
const oneNamespacePerExternal = {
  name: 'one-namespace-per-external',
  setup(build) {
    build.onResolve({ filter: EXTERNAL_NAMESPACES }, (args) => (args.namespace === 'external-namespace' ? { path: args.path, external: true } : { path: args.path, namespace: 'external-namespace' }));
    build.onLoad({ filter: /.*/, namespace: 'external-namespace' }, (args) => ({ contents: `export * from '${args.path}';`, loader: 'js' }));
  },
};

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
  // jsonc-parser's UMD entry loads its parts with a require esbuild cannot follow; its ESM entry bundles.
  mainFields: ['module', 'main'],
  plugins: [yamlReaderOnly],
};

/**
 * The libraries only `agent-skills mcp` uses (the MCP SDK and the file watcher) are most of the
 * command line's code. src/cli/mcp/libraries.ts is the one module that imports them; it is bundled
 * apart through src/cli/mcp/libraries-bundle.ts, so every other command and --help compile a bundle
 * a fifth of the size, and `mcp` loads it when its modules are first used. The HTTP server and the
 * stdio wire, which only `mcp` runs, are bundled there through the entry, and each module the
 * entry re-exports becomes, in dist/cli.js, a stand-in that requires that bundle.
 */
const MCP_LIBRARIES_ENTRY = 'src/cli/mcp/libraries-bundle.ts';
const MCP_LIBRARIES_BUNDLE = 'cli-mcp-libraries.js';

/** The modules a bundle's entry re-exports (`export … from './name'`): in dist/cli.js, each stands for the bundle. */
function reExportedModules(entry) {
  const text = fs.readFileSync(entry, 'utf8');
  return [...text.matchAll(/^export [^;]* from '(\.\/[\w.-]+)';$/gm)].map(([, specifier]) => path.join(path.dirname(entry), `${specifier}.ts`));
}

/** In dist/cli.js, each module of `modules` becomes one that requires the separate bundle `bundle` at run time. */
function bundledApart(modules, bundle) {
  const standIns = new Set(modules.map((module) => path.resolve(module)));
  return {
    name: `${bundle}-apart`,
    setup(build) {
      build.onResolve({ filter: /^\.\/[\w.-]+$/ }, (args) => {
        if (args.path === `./${bundle}`) {
          return { path: args.path, external: true };
        }
        const standsIn = standIns.has(path.resolve(args.resolveDir, `${args.path}.ts`));
        return standsIn ? { path: args.path, namespace: bundle } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: bundle }, () => ({ contents: `module.exports = require('./${bundle}');`, loader: 'js' }));
    },
  };
}

/**
 * The SDK picks its default JSON Schema validator through `@modelcontextprotocol/server/_shims`:
 * Ajv on Node (150 KB minified), or its own smaller one (22 KB). The server calls it only to check
 * a client's answer to an elicitation, and never elicits (tool and prompt inputs are checked by our
 * own schemas), so neither is bundled: the validator in their place says so if it is ever asked,
 * beside Node's `process` as the Node shim exports it.
 */
const SDK_SHIMS = '@modelcontextprotocol/server/_shims';
const noSchemaValidator = {
  name: 'no-schema-validator',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: SDK_SHIMS, namespace: 'sdk-shims' }));
    build.onLoad({ filter: /.*/, namespace: 'sdk-shims' }, () => ({
      contents: [
        "export class DefaultJsonSchemaValidator { getValidator() { throw new Error('Validating against a JSON Schema is not part of this bundle: the server elicits nothing.'); } }",
        "export { default as process } from 'node:process';",
      ].join('\n'),
      loader: 'js',
    }));
  },
};

const extension = { ...common, plugins: [...common.plugins, oneNamespacePerExternal] };

// The `agent-skills` bin runs dist/cli.js as built, whichever build made it last: always the
// production bundle (its errors are one-line messages, so a source map would add nothing).
const cli = { ...common, minify: true, sourcemap: false };

// dist/cli.js and the side bundles of the commands used rarely (scripts/side-bundles.mjs).
const cliWithSides = { ...cli, banner: { js: '#!/usr/bin/env node' }, plugins: [...common.plugins, bundledApart(reExportedModules(MCP_LIBRARIES_ENTRY), MCP_LIBRARIES_BUNDLE)] };

const builds = [
  // The executable: turns Node's compile cache on, then loads dist/cli.js (src/cli/launcher.ts).
  { ...cli, entryPoints: ['src/cli/launcher.ts'], outfile: 'dist/agent-skills.js', banner: { js: '#!/usr/bin/env node' }, external: ['./cli.js'] },
  {
    ...cli,
    entryPoints: [MCP_LIBRARIES_ENTRY],
    outfile: `dist/${MCP_LIBRARIES_BUNDLE}`,
    plugins: [...common.plugins, noSchemaValidator],
  },
];

if (watch) {
  watchWithSideBundles(extension, EXTENSION_BUNDLES);
  watchWithSideBundles(cliWithSides, CLI_BUNDLES);
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
} else {
  await Promise.all([buildWithSideBundles(extension, EXTENSION_BUNDLES), buildWithSideBundles(cliWithSides, CLI_BUNDLES), ...builds.map((options) => esbuild.build(options))]);
  assembleNpmPackage();
}
