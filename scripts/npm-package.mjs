// The command line and MCP server as an npm package of their own, assembled into dist/npm-package/
// (ready for `npm pack`) by `npm run build`, or from the bundles already in dist/ by
// `node scripts/npm-package.mjs`. Its name, bin and registry texts are src/npm-package/manifest.json;
// the version and the Node range are the root package.json's, so the package follows the extension.
// It holds what it runs and nothing else: the bundles its bin loads, the built-in skills `mcp`
// serves, its README and the LICENSE. It installs no dependencies, so the build refuses a bundle that
// requires anything but Node's own modules and the bundles beside it.

import * as fs from 'node:fs';
import { isBuiltin } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceFolder = path.join(repositoryRoot, 'src', 'npm-package');
const bundlesFolder = path.join(repositoryRoot, 'dist');

/** Where the package is assembled. */
export const NPM_PACKAGE_FOLDER = path.join(bundlesFolder, 'npm-package');

/** Module names in `require("…")` and `import("…")` calls with a literal argument. */
const LOADED_MODULE = /\b(?:require|import)\(\s*(["'`])([^"'`]+)\1\s*\)/g;

/**
 * The bundles in dist/ that `entries` load at run time, following their relative requires. A
 * require of a library (anything but a Node module) or of a file missing from dist/ is an error:
 * the installed package would fail on it.
 */
function bundlesLoadedFrom(entries) {
  const found = new Set();
  const visit = (file) => {
    if (found.has(file)) {
      return;
    }
    const bundle = path.join(bundlesFolder, file);
    if (!fs.existsSync(bundle)) {
      throw new Error(`dist/${file} is missing: run \`npm run build\`.`);
    }
    found.add(file);
    for (const [, , name] of fs.readFileSync(bundle, 'utf8').matchAll(LOADED_MODULE)) {
      if (name.startsWith('./')) {
        visit(path.posix.normalize(name));
      } else if (!isBuiltin(name)) {
        throw new Error(`dist/${file} loads "${name}", which is not bundled: the npm package installs no dependencies.`);
      }
    }
  };
  entries.forEach(visit);
  return [...found].sort();
}

export function assembleNpmPackage() {
  const manifest = JSON.parse(fs.readFileSync(path.join(sourceFolder, 'manifest.json'), 'utf8'));
  const root = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8'));
  const entries = Object.values(manifest.bin).map((bin) => path.posix.relative('dist', bin));
  const bundles = bundlesLoadedFrom(entries);

  fs.rmSync(NPM_PACKAGE_FOLDER, { recursive: true, force: true });
  fs.mkdirSync(path.join(NPM_PACKAGE_FOLDER, 'dist'), { recursive: true });
  const { name, ...rest } = manifest;
  const packageJson = { name, version: root.version, ...rest, engines: { node: root.engines.node } };
  fs.writeFileSync(path.join(NPM_PACKAGE_FOLDER, 'package.json'), `${JSON.stringify(packageJson, undefined, 2)}\n`);
  fs.copyFileSync(path.join(sourceFolder, 'README.md'), path.join(NPM_PACKAGE_FOLDER, 'README.md'));
  fs.copyFileSync(path.join(repositoryRoot, 'LICENSE'), path.join(NPM_PACKAGE_FOLDER, 'LICENSE'));
  for (const bundle of bundles) {
    fs.copyFileSync(path.join(bundlesFolder, bundle), path.join(NPM_PACKAGE_FOLDER, 'dist', bundle));
  }
  // `mcp` serves the skills/ folder beside the package.json above its bundle as the built-in skills.
  fs.cpSync(path.join(repositoryRoot, 'skills'), path.join(NPM_PACKAGE_FOLDER, 'skills'), { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  assembleNpmPackage();
}
