// src/vscode/shared/deferred-loader.ts against a command registry that behaves as VS Code's does (a
// command runs only if registered; an id is registered once): the features the first rows do not
// need load once the rows are shown, or when one of their commands runs first.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Module from 'node:module';
import type * as LoaderModule from '../../../src/vscode/shared/deferred-loader';
import { COMMANDS } from '../../../src/vscode/shared/manifest';

type Run = (...args: unknown[]) => unknown;

const VSCODE_SOURCES = path.resolve(__dirname, '..', '..', '..', 'src', 'vscode');

/** VS Code's command registry, as far as the loader uses it. */
class Commands {
  readonly registered = new Map<string, Run>();

  registerCommand(id: string, run: Run): { dispose(): void } {
    if (this.registered.has(id)) {
      throw new Error(`command '${id}' already exists`);
    }
    this.registered.set(id, run);
    return { dispose: () => this.registered.delete(id) };
  }

  executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const run = this.registered.get(id);
    return run ? Promise.resolve(run(...args)) : Promise.reject(new Error(`command '${id}' not found`));
  }
}

const commands = new Commands();
const fakeVscode = {
  commands,
  Disposable: { from: (...disposables: { dispose(): void }[]) => ({ dispose: () => disposables.forEach((disposable) => disposable.dispose()) }) },
};

/** The loader, with `vscode` resolved to the registry above. */
function loadLoader(): typeof LoaderModule {
  const moduleWithResolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = moduleWithResolver._resolveFilename;
  const fakePath = require.resolve('./deferred-loader.test.ts').replace(/\.test\.ts$/, '.vscode-stand-in');
  require.cache[fakePath] = { id: fakePath, filename: fakePath, loaded: true, exports: fakeVscode } as NodeJS.Module;
  moduleWithResolver._resolveFilename = (request, ...rest) => (request === 'vscode' ? fakePath : resolve.call(Module, request, ...rest));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the resolver is in place
    return require('../../../src/vscode/shared/deferred-loader') as typeof LoaderModule;
  } finally {
    moduleWithResolver._resolveFilename = resolve;
  }
}

const { deferredFeatures, DEFERRED_COMMANDS } = loadLoader();

describe('the features loaded after the first rows (deferred/loader)', () => {
  let loads: number;
  /** Registers every deferred command for real, as registerobject does; its Validate answers with what it was given. */
  const load = (): object => {
    loads++;
    for (const id of DEFERRED_COMMANDS) {
      commands.registerCommand(id, (...args) => ({ ranForReal: id, args }));
    }
    return { loadedFeatures: loads } as unknown as object;
  };

  beforeEach(() => {
    loads = 0;
    commands.registered.clear();
  });

  it('runs a command of the features before they load: it loads them, and the real command runs with its arguments', async () => {
    const loader = deferredFeatures({ firstRowsShown: new Promise<void>(() => undefined) }, load);
    assert.equal(loader.loaded(), false);
    assert.deepEqual([...commands.registered.keys()].sort(), [...DEFERRED_COMMANDS].sort());
    const result = await commands.executeCommand(COMMANDS.validate, { notify: false });
    assert.deepEqual(result, { ranForReal: COMMANDS.validate, args: [{ notify: false }] });
    assert.equal(loader.loaded(), true);
    assert.equal(loads, 1);
    // Another command now runs the real one directly.
    assert.deepEqual(await commands.executeCommand(COMMANDS.showUsage), { ranForReal: COMMANDS.showUsage, args: [] });
    assert.equal(loads, 1);
  });

  it('loads them once the first rows are shown, once', async () => {
    let showRows: () => void = () => undefined;
    const loader = deferredFeatures({ firstRowsShown: new Promise<void>((resolve) => (showRows = resolve)) }, load);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(loader.loaded(), false);
    showRows();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(loader.loaded(), true);
    assert.equal(loader.features(), loader.features());
    assert.equal(loads, 1);
  });

  it('stands in for every contributed command not registered at activation', () => {
    // Registered as the extension activates: the commands of the view's items, and the skill servers' two.
    const atActivation = ['commands/commands.ts', 'servers/server-loader.ts'];
    const registeredIn = (file: string): string[] =>
      [...fs.readFileSync(path.join(VSCODE_SOURCES, file), 'utf8').matchAll(/(?:registerCommand|register)\(\s*COMMANDS\.(\w+)/g)].map(([, key]) => COMMANDS[key as keyof typeof COMMANDS]);
    const files = fs.readdirSync(VSCODE_SOURCES, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const later = files.filter((file) => !atActivation.includes(file.split(path.sep).join('/'))).flatMap(registeredIn);
    assert.deepEqual([...DEFERRED_COMMANDS].sort(), [...new Set(later)].sort());
    const contributed = (JSON.parse(fs.readFileSync(path.join(VSCODE_SOURCES, '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } }).contributes.commands;
    const registered = new Set([...later, ...atActivation.flatMap(registeredIn)]);
    assert.deepEqual(
      contributed.map(({ command }) => command).filter((command) => !registered.has(command)),
      [],
    );
  });
});
