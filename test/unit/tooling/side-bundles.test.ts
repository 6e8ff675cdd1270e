// scripts/side-bundles.mjs on a small project of its own: a main bundle, a side bundle shared with
// the other sides (as the features loaded after the Skills view's first rows are), and a side that
// uses modules of both. Built in a child process whose working folder is the project's, as the build
// runs from the repository's.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { REPOSITORY } from '../cli/bundle';

const SIDE_BUNDLES = path.join(REPOSITORY, 'scripts', 'side-bundles.mjs');

const LAYOUT = {
  entry: 'src/main.ts',
  bundle: 'main.js',
  requiredIn: 'src/main.ts',
  moduleTable: 'test:main-modules',
  sides: [
    { entry: 'src/later/on-demand.ts', bundle: 'later.js', sharedWithSides: true },
    { entry: 'src/rare/on-demand.ts', bundle: 'rare.js' },
  ],
};

/** The project: `rare` uses a class of the main bundle and one of the shared side bundle, and checks both with instanceof. */
const SOURCES: Record<string, string> = {
  'src/main.ts': [
    "import { Registry } from './registry';",
    'export const registry = new Registry();',
    "export const later = (): typeof import('./later/on-demand') => require('./later/on-demand');",
    "export const rare = (): typeof import('./rare/on-demand') => require('./rare/on-demand');",
  ].join('\n'),
  'src/registry.ts': "export class Registry { readonly kind = 'the registry class'; }",
  'src/later/diagnostics.ts': "export class Diagnostics { readonly kind = 'the diagnostics class'; }",
  'src/later/on-demand.ts': ["import { Diagnostics } from './diagnostics';", 'export const diagnostics = new Diagnostics();'].join('\n'),
  'src/rare/on-demand.ts': [
    "import { Registry } from '../registry';",
    "import { Diagnostics } from '../later/diagnostics';",
    'export const isRegistry = (value: unknown): boolean => value instanceof Registry;',
    'export const isDiagnostics = (value: unknown): boolean => value instanceof Diagnostics;',
  ].join('\n'),
};

async function build(project: string, layout: object): Promise<void> {
  const script = `import(${JSON.stringify(SIDE_BUNDLES)}).then(({ buildWithSideBundles }) => buildWithSideBundles({ bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent', plugins: [] }, ${JSON.stringify(layout)}))`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
}

describe('side bundles (scripts/side-bundles.mjs)', function () {
  this.timeout(60_000);
  let project: string;

  beforeEach(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'side-bundles-'));
    for (const [file, text] of Object.entries(SOURCES)) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      fs.writeFileSync(path.join(project, file), `${text}\n`);
    }
  });

  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  it('gives the other side bundles the modules of the shared one, loading it first: one class, one instance', async () => {
    await build(project, LAYOUT);
    const bundle = (name: string) => fs.readFileSync(path.join(project, 'dist', name), 'utf8');
    // Each class is in one bundle only.
    const holding = (kind: string) => ['main.js', 'later.js', 'rare.js'].filter((name) => bundle(name).includes(`the ${kind} class`));
    assert.deepEqual(holding('registry'), ['main.js']);
    assert.deepEqual(holding('diagnostics'), ['later.js']);
    // The rare side first: it loads the shared one to take Diagnostics from it, and the shared one
    // is not evaluated a second time when it is asked for itself.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundle, loaded as VS Code loads an extension's
    const main = require(path.join(project, 'dist', 'main.js')) as {
      registry: object;
      later(): { diagnostics: object };
      rare(): { isRegistry(value: unknown): boolean; isDiagnostics(value: unknown): boolean };
    };
    const rare = main.rare();
    assert.equal(rare.isRegistry(main.registry), true);
    assert.equal(rare.isDiagnostics(main.later().diagnostics), true);
    assert.equal(main.later().diagnostics, main.later().diagnostics);
  });

  const UNSHARED = { ...LAYOUT, sides: LAYOUT.sides.map(({ entry, bundle }) => ({ entry, bundle })) };

  it('fails the build when two sides that share nothing would each hold a module', async () => {
    await assert.rejects(build(project, UNSHARED), /src\/later\/diagnostics\.ts is in both dist\/later\.js and dist\/rare\.js/);
  });

  it('puts a module two sides need in the main bundle when the layout says so, with the names they import only', async () => {
    fs.appendFileSync(path.join(project, 'src/later/diagnostics.ts'), "export const unused = 'the export no side imports';\n");
    await build(project, { ...UNSHARED, mainHoldsWhatSidesShare: true });
    const bundle = (name: string) => fs.readFileSync(path.join(project, 'dist', name), 'utf8');
    assert.deepEqual(
      ['main.js', 'later.js', 'rare.js'].filter((name) => bundle(name).includes('the diagnostics class')),
      ['main.js'],
    );
    assert.doesNotMatch(bundle('main.js'), /the export no side imports/);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundle, as the command line loads it
    const main = require(path.join(project, 'dist', 'main.js')) as {
      later(): { diagnostics: object };
      rare(): { isDiagnostics(value: unknown): boolean };
    };
    // Both sides take the one class from the main bundle.
    assert.equal(main.rare().isDiagnostics(main.later().diagnostics), true);
  });
});
