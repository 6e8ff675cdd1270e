// A main bundle holds what starting needs; features used rarely are side bundles beside it, loaded
// the first time they are used: dist/extension.js holds what activation needs, dist/cli.js what
// --help, list and validate need. In the source such a feature is a `require()` of its entry module
// (listed below, required in src/vscode/side-bundles.ts or src/cli/run.ts unless it names its own
// `requiredIn`); in the main bundle that require loads the side bundle.
//
// A side bundle holds no second copy of anything its main bundle has: each module both would hold
// is taken from the running main bundle instead (it hands the side bundle a table of its modules
// when it loads it). So a class checked with `instanceof`, an error type or a module's own state
// stays one thing, and the registry stays the one source of truth. The build checks it: a module in
// two bundles fails the build.
//
// One side bundle may be marked `sharedWithSides`: the features loaded right after start-up. The
// other side bundles then take its modules from it as they take the main bundle's (loading it first),
// so code both need lives there instead of in the main bundle or in neither.
//
// Without such a side bundle, a layout may say `mainHoldsWhatSidesShare`: a module two side bundles
// would each hold is then held by the main bundle, which hands it to both. Otherwise that fails the build.

import { watch } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';

/**
 * A main bundle and its side bundles: each side `entry` is required on first use only (by
 * `requiredIn`), and ships as dist/`bundle`. `moduleTable` names the table of shared modules. The
 * other sides share the modules of a side with `sharedWithSides` too.
 */
export const EXTENSION_BUNDLES = {
  entry: 'src/vscode/extension.ts',
  bundle: 'extension.js',
  requiredIn: 'src/vscode/side-bundles.ts',
  moduleTable: 'agent-skills:extension-modules',
  sides: [
    // What the Skills view's first rows do not need, loaded right after them (src/vscode/deferred.ts).
    { entry: 'src/vscode/deferred.ts', bundle: 'extension-deferred.js', sharedWithSides: true, requiredIn: 'src/vscode/extension.ts' },
    // Add Skills from Git, Check for Updates, Update Skill and the audit of installed skills.
    { entry: 'src/vscode/sources/on-demand.ts', bundle: 'extension-sources.js' },
    // Draft Trigger Tests, Improve Description and the Routing Report.
    { entry: 'src/vscode/testing/on-demand.ts', bundle: 'extension-trigger-tools.js' },
    // The skill servers' client, loaded once agentSkills.servers names one.
    { entry: 'src/vscode/servers/on-demand.ts', bundle: 'extension-servers.js' },
  ],
};

/** The command line's: what commands other than help, list, validate, catalog, activate and find need. */
export const CLI_BUNDLES = {
  entry: 'src/cli/main.ts',
  bundle: 'cli.js',
  requiredIn: 'src/cli/run.ts',
  moduleTable: 'agent-skills:cli-modules',
  // Both sides use the tools' texts and prompts (eval and tune ask a model as mcp describes the
  // tools to one) and the skills' publication (publish offers the files mcp serves, within the same limits).
  mainHoldsWhatSidesShare: true,
  sides: [
    // eval and tune (trigger tests against an endpoint), add, update, check, remove, install, audit and publish.
    { entry: 'src/cli/rare-commands.ts', bundle: 'cli-rare-commands.js' },
    // mcp: the server's own code (its service, tools, resources, watchers); its libraries, the HTTP
    // server and the stdio wire are dist/cli-mcp-libraries.js (scripts/build.mjs).
    { entry: 'src/cli/mcp/mcp-command.ts', bundle: 'cli-mcp-command.js' },
  ],
};

/** The parameter through which a side bundle receives its main bundle's modules. */
const TABLE_PARAMETER = '__agentSkillsModules';
/** The export through which the side bundle shared with the others hands them its modules. */
const SIDE_TABLE_EXPORT = '__agentSkillsSideModules';
/** How the main bundle's loader of a side bundle requires the loader of the shared side bundle. */
const SIDE_LOADER_PREFIX = 'side-bundle:';

/** The side bundle whose modules the other sides share, if any. */
const sharedSide = (layout) => layout.sides.find((side) => side.sharedWithSides);

/** A table of `modules` (repository path → the names taken, or '*') as the code of a module, which imports each `from` the given root. */
function moduleTableCode(shared, exportName, root) {
  const modules = [...shared.keys()].sort();
  const entry = (module, index) => {
    const names = shared.get(module);
    return names === '*' ? `m${index}` : `{ ${[...names].map((name) => `${name}: m${index}.${name}`).join(', ')} }`;
  };
  return [
    ...modules.map((module, index) => `import * as m${index} from ${JSON.stringify(`${root}/${module}`)};`),
    `export const ${exportName} = { ${modules.map((module, index) => `${JSON.stringify(module)}: ${entry(module, index)}`).join(', ')} };`,
  ].join('\n');
}

const repositoryPath = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');

/**
 * In the main bundle: a `require()` of a side entry requires its bundle, handing it the table of
 * the modules it shares (`shared`: repository path → the names side bundles import, or '*' for all),
 * with those of the shared side bundle (loaded first) for the other sides. Only those names are
 * kept alive in the main bundle for the side bundles.
 */
function loadSideBundles(layout, shared) {
  const { sides, requiredIn, moduleTable } = layout;
  const base = sharedSide(layout);
  return {
    name: 'load-side-bundles',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.namespace === 'side-bundle') {
          return { path: args.path, external: true };
        }
        const side = sides.find(({ entry }) => repositoryPath(path.resolve(args.resolveDir, `${args.path}.ts`)) === entry);
        if (!side) {
          return undefined;
        }
        if (args.kind !== 'require-call') {
          return { errors: [{ text: `${side.entry} is loaded on first use (dist/${side.bundle}): require it in ${side.requiredIn ?? requiredIn}, and \`import type\` its types.` }] };
        }
        return { path: side.bundle, namespace: 'side-bundle' };
      });
      build.onResolve({ filter: new RegExp(`^${SIDE_LOADER_PREFIX}`) }, (args) => ({ path: args.path.slice(SIDE_LOADER_PREFIX.length), namespace: 'side-bundle' }));
      build.onLoad({ filter: /.*/, namespace: 'side-bundle' }, (args) => {
        const mainTable = `require('${moduleTable}').modules`;
        const table = base && args.path !== base.bundle ? `Object.assign({}, ${mainTable}, require('${SIDE_LOADER_PREFIX}${base.bundle}').${SIDE_TABLE_EXPORT})` : mainTable;
        return { contents: `module.exports = require('./${args.path}')(${table});`, loader: 'js' };
      });
      build.onResolve({ filter: new RegExp(`^${moduleTable}$`) }, () => ({ path: moduleTable, namespace: 'module-table' }));
      build.onLoad({ filter: /.*/, namespace: 'module-table' }, () => ({ contents: moduleTableCode(shared, 'modules', '.'), resolveDir: process.cwd(), loader: 'js' }));
    },
  };
}

/** In the shared side bundle: its entry also exports the table of its modules the other sides take (`shared`, as for the main bundle). */
function exportSideModules(entry, shared) {
  return {
    name: 'export-side-modules',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (repositoryPath(args.path) !== entry) {
          return undefined;
        }
        const source = await fs.readFile(args.path, 'utf8');
        return { contents: `${source}\n${moduleTableCode(shared, SIDE_TABLE_EXPORT, process.cwd())}\n`, loader: 'ts' };
      });
    },
  };
}

/**
 * In a side bundle: an import of a module a bundle loaded before it holds is read from the table
 * it is handed. `owners`: for each such bundle, its modules (`holds`) and, collected here, those
 * imported from it with the names imported (`used`).
 */
function shareModules(owners) {
  return {
    name: 'share-modules',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.resolving || args.kind === 'entry-point') {
          return undefined;
        }
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
        const module = resolved.errors.length === 0 ? repositoryPath(resolved.path) : undefined;
        const owner = module === undefined ? undefined : owners.find(({ holds }) => holds.has(module));
        if (!owner) {
          return undefined;
        }
        addNames(owner.used, module, importedNames(args.importer, args.path, resolved.path));
        return { path: module, namespace: 'main-module' };
      });
      build.onLoad({ filter: /.*/, namespace: 'main-module' }, (args) => ({ contents: `module.exports = ${TABLE_PARAMETER}[${JSON.stringify(args.path)}];`, loader: 'js' }));
    },
  };
}

/** Adds `names` ('*': all) to what `used` says is imported from `module`. */
function addNames(used, module, names) {
  const known = used.get(module) ?? new Set();
  used.set(module, known === '*' || names === '*' ? '*' : new Set([...known, ...names]));
}

/** Whether `used` asks for a name or module `shared` lacks. */
function asksForMore(used, shared) {
  return [...used].some(([module, names]) => {
    const known = shared.get(module);
    return known === undefined || (known !== '*' && (names === '*' || [...names].some((name) => !known.has(name))));
  });
}

const parsed = new Map();
function parseSource(file) {
  if (!parsed.has(file)) {
    parsed.set(file, ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.Latest, false));
  }
  return parsed.get(file);
}

/**
 * The value names a TypeScript file imports (or re-exports) from `specifier`, as exported by the
 * module it resolves to (`target`); '*' when it takes the whole module or is not TypeScript.
 */
function importedNames(importer, specifier, target) {
  if (!importer.endsWith('.ts') || !target.endsWith('.ts')) {
    return '*';
  }
  const names = new Set();
  for (const statement of parseSource(importer).statements) {
    const from = statement.moduleSpecifier;
    if (!from || !ts.isStringLiteral(from) || from.text !== specifier) {
      continue;
    }
    if (ts.isImportDeclaration(statement) && statement.importClause && !statement.importClause.isTypeOnly) {
      const { name, namedBindings } = statement.importClause;
      if (name || (namedBindings && ts.isNamespaceImport(namedBindings))) {
        return '*';
      }
      namedBindings?.elements.filter((element) => !element.isTypeOnly).forEach((element) => names.add((element.propertyName ?? element.name).text));
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      if (!statement.exportClause || ts.isNamespaceExport(statement.exportClause)) {
        return '*';
      }
      statement.exportClause.elements.filter((element) => !element.isTypeOnly).forEach((element) => names.add((element.propertyName ?? element.name).text));
    }
  }
  const values = exportedValues(target);
  return new Set([...names].filter((name) => values.has(name)));
}

/** The names a TypeScript module exports as values (not types), from its declarations. */
function exportedValues(file) {
  const values = new Set();
  for (const statement of parseSource(file).statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && ts.isVariableStatement(statement)) {
      statement.declarationList.declarations.forEach((declaration) => ts.isIdentifier(declaration.name) && values.add(declaration.name.text));
    } else if (exported && (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      values.add(statement.name.text);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      statement.exportClause.elements.filter((element) => !element.isTypeOnly).forEach((element) => values.add(element.name.text));
    }
  }
  return values;
}

/** The source files an esbuild result bundled (repository paths), without plugins' virtual modules. */
function bundledFiles(result) {
  return new Set(Object.keys(result.metafile.inputs).filter((input) => !input.includes(':')));
}

/**
 * Builds a main bundle and its side bundles (`layout`, such as EXTENSION_BUNDLES) with `options`
 * (esbuild's; the side bundles get no banner of the main one). The modules to share are found by
 * building until no side bundle imports a module the table lacks.
 */
export async function buildWithSideBundles(options, layout) {
  const shared = new Map();
  const sideShared = new Map();
  const base = sharedSide(layout);
  const buildSide = ({ bundle, entry }, plugins) =>
    esbuild.build({
      ...options,
      entryPoints: [entry],
      outfile: `dist/${bundle}`,
      write: false,
      metafile: true,
      plugins: [...options.plugins, ...plugins],
      // A function of the main bundle's modules, called once by the main bundle.
      banner: { js: `module.exports = function (${TABLE_PARAMETER}) { "use strict"; const module = { exports: {} }, exports = module.exports;` },
      footer: { js: 'return module.exports; };' },
    });
  const build = async () => {
    const main = await esbuild.build({
      ...options,
      entryPoints: [layout.entry],
      outfile: `dist/${layout.bundle}`,
      write: false,
      metafile: true,
      plugins: [...options.plugins, loadSideBundles(layout, shared)],
    });
    const fromMain = { holds: bundledFiles(main), used: new Map() };
    const baseBuilt = base && (await buildSide(base, [shareModules([fromMain]), exportSideModules(base.entry, sideShared)]));
    const fromBase = { holds: baseBuilt ? bundledFiles(baseBuilt) : new Set(), used: new Map() };
    const others = await Promise.all(layout.sides.filter((side) => side !== base).map((side) => buildSide(side, [shareModules([fromMain, fromBase])])));
    const sides = layout.sides.map((side) => (side === base ? baseBuilt : others.shift()));
    return { main, inMain: fromMain.holds, sides, fromMain, fromBase };
  };
  const modulesToHoist = (built) => (layout.mainHoldsWhatSidesShare ? modulesOfTwoSides(built.sides) : new Map());
  let result = await build();
  let heldTwice = modulesToHoist(result);
  while (asksForMore(result.fromMain.used, shared) || asksForMore(result.fromBase.used, sideShared) || heldTwice.size > 0) {
    result.fromMain.used.forEach((names, module) => addNames(shared, module, names));
    result.fromBase.used.forEach((names, module) => addNames(sideShared, module, names));
    // In the main bundle's table, such a module is bundled there; the sides then take it from it.
    heldTwice.forEach((names, module) => addNames(shared, module, names));
    result = await build();
    heldTwice = modulesToHoist(result);
  }
  checkOneCopy(layout, result);
  for (const output of [result.main, ...result.sides].flatMap((built) => built.outputFiles)) {
    await fs.mkdir(path.dirname(output.path), { recursive: true });
    await fs.writeFile(output.path, output.contents);
  }
}

/**
 * The modules that more than one of the side bundles `sides` (esbuild results) hold, each with the
 * names the modules of those sides import from it (as for `shared`).
 */
function modulesOfTwoSides(sides) {
  const seen = new Set();
  const twice = new Set();
  for (const module of sides.flatMap((side) => [...bundledFiles(side)])) {
    (seen.has(module) ? twice : seen).add(module);
  }
  const imported = new Map();
  for (const { metafile } of sides) {
    for (const [importer, { imports }] of Object.entries(metafile.inputs)) {
      imports
        .filter(({ path: module, original }) => twice.has(module) && original !== undefined)
        .forEach(({ path: module, original }) => addNames(imported, module, importedNames(importer, original, module)));
    }
  }
  return imported;
}

/** Every module is in exactly one bundle: a second copy would be a second class, a second state. */
function checkOneCopy(layout, { inMain, sides }) {
  const owner = new Map([...inMain].map((module) => [module, layout.bundle]));
  sides.forEach((side, index) => {
    for (const module of bundledFiles(side)) {
      const bundle = layout.sides[index].bundle;
      if (owner.has(module)) {
        throw new Error(`${module} is in both dist/${owner.get(module)} and dist/${bundle}: a module lives in one bundle only.`);
      }
      owner.set(module, bundle);
    }
  });
}

/**
 * Watch mode: a main bundle and its side bundles are rebuilt together on each change under src/
 * (the table of shared modules may change with any import), with esbuild's watch lines, which the
 * VS Code task waits for.
 */
export function watchWithSideBundles(options, layout) {
  let queue = Promise.resolve();
  let timer;
  const rebuild = () => {
    queue = queue.then(async () => {
      console.log('[watch] build started');
      await buildWithSideBundles(options, layout).catch((error) => console.error(`✘ [ERROR] ${error.message}`));
      console.log('[watch] build finished');
    });
  };
  rebuild();
  watch('src', { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(rebuild, 50);
  });
}
