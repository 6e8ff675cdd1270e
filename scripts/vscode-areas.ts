// `npm run lint` runs this: keeps src/vscode one way to wire a feature. Each folder of src/vscode
// is an area with one entry, register.ts, which only extension.ts (the composition root) imports;
// shared/ is the library every area may use, and it uses no area. An area names another area's
// types only through that area's types.ts, with `import type`; everything else it gets from
// another area is a handle extension.ts passes to its register(). side-bundles.ts alone loads an
// area's on-demand.ts (the side bundles, scripts/side-bundles.mjs). deferred.ts is a second
// composition root, for the areas loaded after the Skills view's first rows; extension.ts loads it.
//
//   tsx scripts/vscode-areas.ts [FOLDER]     FOLDER defaults to src/vscode/

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { resolveSourceFile, sourceFiles } from './source-files';

/** The files kept at the top of src/vscode: the composition root, the API it returns, the side bundles' loader. */
export const TOP_FILES: readonly string[] = ['extension.ts', 'deferred.ts', 'api.ts', 'side-bundles.ts'];
const COMPOSITION_ROOT = 'extension.ts';
/** The second composition root: the areas the Skills view's first rows do not need, bundled apart and loaded after them. */
const DEFERRED_ROOT = 'deferred.ts';
const SIDE_BUNDLE_LOADER = 'side-bundles.ts';
const LIBRARY = 'shared';
const ENTRY = 'register.ts';
const TYPES = 'types.ts';
const ON_DEMAND = 'on-demand.ts';

/** One import (or re-export, require(), import(), `typeof import()`) of a module by its specifier. */
interface ModuleReference {
  specifier: string;
  typeOnly: boolean;
}

function moduleReferences(source: ts.SourceFile): ModuleReference[] {
  const references: ModuleReference[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const onlyTypeElements = clause?.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
      references.push({ specifier: node.moduleSpecifier.text, typeOnly: clause?.isTypeOnly === true || onlyTypeElements });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const onlyTypeElements = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      references.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || onlyTypeElements });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      references.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        references.push({ specifier: node.arguments[0].text, typeOnly: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return references;
}

/** Whether a types.ts declares or re-exports types only: importing it must never run code. */
function declaresTypesOnly(source: ts.SourceFile): boolean {
  return source.statements.every(
    (statement) =>
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly === true) ||
      (ts.isExportDeclaration(statement) && statement.isTypeOnly),
  );
}

/** `specifier` imported by `fromFile`, resolved to the source file it names, relative to `root` with `/` separators; undefined outside `root` or when missing. */
function resolveInside(root: string, fromFile: string, specifier: string): string | undefined {
  const file = resolveSourceFile(path.resolve(path.dirname(path.join(root, fromFile)), specifier));
  const relative = file === undefined ? undefined : path.relative(root, file);
  return relative === undefined || relative.startsWith('..') ? undefined : relative.split(path.sep).join('/');
}

/** The folder of src/vscode a file belongs to ('' for the files at the top). */
const folderOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');

/** Why `file` may not reference `target` (both relative to src/vscode), or undefined when it may. */
function referenceProblem(file: string, target: string, typeOnly: boolean): string | undefined {
  const from = folderOf(file);
  const to = folderOf(target);
  if (file === COMPOSITION_ROOT || file === DEFERRED_ROOT || from === to) {
    return undefined;
  }
  if (to === '') {
    return from !== '' && target === SIDE_BUNDLE_LOADER ? undefined : `only ${COMPOSITION_ROOT} uses ${target}`;
  }
  if (from === LIBRARY) {
    return `${LIBRARY}/ is the library every area uses: it uses no area`;
  }
  if (to === LIBRARY) {
    return undefined;
  }
  const inArea = target.slice(to.length + 1);
  if (inArea === TYPES) {
    return typeOnly ? undefined : `${target} is named with \`import type\` only`;
  }
  if (inArea === ON_DEMAND && file === SIDE_BUNDLE_LOADER) {
    return undefined;
  }
  return inArea === ENTRY
    ? `only ${COMPOSITION_ROOT} calls ${target}: take the handle it passes instead`
    : `${target} is inside the ${to} area: take its handle from ${COMPOSITION_ROOT}, or name its types through ${to}/${TYPES}`;
}

/**
 * What breaks the one way to wire a feature in `folder` (src/vscode): a .ts file loose beside
 * TOP_FILES, an area without register.ts, a types.ts that holds code, and every reference of a
 * file to another area's internals. Each problem names the file (relative to `folder`).
 */
export function areaViolations(folder: string): string[] {
  const problems: string[] = [];
  const entries = fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !TOP_FILES.includes(entry.name)) {
      problems.push(`${entry.name}: a file of src/vscode belongs in an area folder (only ${TOP_FILES.join(', ')} stay at the top)`);
    }
    if (entry.isDirectory() && entry.name !== LIBRARY && !fs.existsSync(path.join(folder, entry.name, ENTRY))) {
      problems.push(`${entry.name}/: an area has one entry, ${ENTRY}, and this one has none`);
    }
  }
  const files = sourceFiles(folder).map((file) => path.relative(folder, file).split(path.sep).join('/'));
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(folder, file), 'utf8'), ts.ScriptTarget.Latest, true);
    if (path.posix.basename(file) === TYPES && !declaresTypesOnly(source)) {
      problems.push(`${file}: a ${TYPES} declares and re-exports types only`);
    }
    for (const { specifier, typeOnly } of moduleReferences(source)) {
      const target = specifier.startsWith('.') ? resolveInside(folder, file, specifier) : undefined;
      const problem = target === undefined ? undefined : referenceProblem(file, target, typeOnly);
      if (problem !== undefined) {
        problems.push(`${file}: imports ${specifier}: ${problem}`);
      }
    }
  }
  return problems;
}

if (require.main === module) {
  const folder = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'src', 'vscode'));
  const problems = areaViolations(folder);
  for (const problem of problems) {
    console.error(`${path.relative(process.cwd(), folder) || '.'}/${problem}`);
  }
  if (problems.length > 0) {
    console.error(`${problems.length} problem(s) with the areas of src/vscode: see docs/development.md, "Adding an editor feature".`);
    process.exitCode = 1;
  }
}
