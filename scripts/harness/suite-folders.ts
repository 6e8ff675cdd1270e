// A suite's definition and its throw-away folders: fixture workspaces copied fresh, an empty or
// fixture home, the extensions folder with the scripted model, and the environment of its
// extension host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessEnvironment } from './channel';
import { repositoryRoot } from './repository';

const fixturesFolder = path.join(repositoryRoot, 'test', 'workspaces');
export const scriptedModelFolder = path.join(repositoryRoot, 'test', 'scripted-model');
/** The editor benchmark's baselines: an extension that does nothing, and one that shows 10 fixed rows in a tree view. */
export const baselineExtensionFolders = [path.join(repositoryRoot, 'test', 'empty-extension'), path.join(repositoryRoot, 'test', 'tree-extension')];

export interface IntegrationSuite {
  /** The suite's folder under test/integration/suites, holding its `*.test.ts` files. */
  readonly name: string;
  /** Fixture folders under test/workspaces, copied fresh for each run; several open as one multi-root workspace. */
  readonly workspaces: readonly string[];
  /** `false` runs in Restricted Mode: the server starts without `--disable-workspace-trust`. */
  readonly trusted: boolean;
  /** Fixture folder under test/workspaces copied as the user's home folder (else an empty home). */
  readonly home?: string;
  /**
   * Extra environment for the extension host. `${home}`, `${workspaceFolder}` (the first folder),
   * `${workspaceFolder:N}` and `${fixtures}` (test/workspaces, read-only!) are replaced by paths.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Workspace settings (the folder's .vscode/settings.json, or the .code-workspace file's settings). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Overrides the default time limit, unless AGENT_SKILLS_TEST_TIMEOUT is set. */
  readonly timeoutSeconds?: number;
  /**
   * Tests the packaged .vsix (`npm run package`), installed into the server, instead of the
   * repository; the scripted model then holds the development slot the test payload needs.
   */
  readonly installVsix?: boolean;
  /**
   * Also installs the editor benchmark's baselines, activated on the product's events:
   * test/empty-extension, which does nothing, and test/tree-extension, which shows 10 fixed rows in
   * a view beside the Skills view.
   */
  readonly baselineExtensions?: boolean;
  /** Opens the Skills view as the window starts (a user who keeps it open), before the tests run. */
  readonly openSkillsView?: boolean;
}

export interface ServerDataFolders {
  readonly userDataFolder: string;
  readonly serverDataFolder: string;
  readonly extensionsFolder: string;
}

export interface SuiteFolders extends ServerDataFolders {
  readonly homeFolder: string;
  readonly channelFolder: string;
  readonly countsFile: string;
  readonly workspaceFolders: readonly string[];
  /** What the window opens: a folder, or a generated .code-workspace file for several folders. */
  readonly opened: { kind: 'folder' | 'workspace'; path: string };
}

/** Lays out a suite's throw-away folders under `temporaryRoot` (also used by the desktop runner). */
export function prepareSuiteFolders(suite: IntegrationSuite, temporaryRoot: string): SuiteFolders {
  const folder = (name: string) => {
    const created = path.join(temporaryRoot, name);
    fs.mkdirSync(created, { recursive: true });
    return created;
  };
  const homeFolder = folder('home');
  if (suite.home) {
    copyFixture(suite.home, homeFolder);
  }
  if (suite.workspaces.length === 0) {
    throw new Error(`suite ${suite.name} names no workspace fixture`);
  }
  const workspacesRoot = folder('workspaces');
  // A fixture used twice gets two copies, so the folders stay distinct.
  const workspaceFolders = suite.workspaces.map((fixture, index) => {
    const target = path.join(workspacesRoot, suite.workspaces.indexOf(fixture) === index ? fixture : `${fixture}-${index + 1}`);
    copyFixture(fixture, target);
    return target;
  });
  let opened: SuiteFolders['opened'];
  if (workspaceFolders.length === 1) {
    opened = { kind: 'folder', path: workspaceFolders[0] };
    if (suite.settings) {
      mergeFolderSettings(workspaceFolders[0], suite.settings);
    }
  } else {
    const workspaceFile = path.join(workspacesRoot, `${suite.name}.code-workspace`);
    const content = { folders: workspaceFolders.map((workspaceFolder) => ({ path: workspaceFolder })), settings: suite.settings ?? {} };
    fs.writeFileSync(workspaceFile, JSON.stringify(content, undefined, 2));
    opened = { kind: 'workspace', path: workspaceFile };
  }
  const extensionsFolder = folder('extensions');
  installTestExtension(scriptedModelFolder, extensionsFolder);
  if (suite.baselineExtensions) {
    baselineExtensionFolders.forEach((baseline) => installTestExtension(baseline, extensionsFolder));
  }
  return {
    userDataFolder: folder('user-data'),
    serverDataFolder: folder('server-data'),
    extensionsFolder,
    homeFolder,
    channelFolder: folder('channel'),
    countsFile: path.join(temporaryRoot, 'mocha-counts.json'),
    workspaceFolders,
    opened,
  };
}

function copyFixture(fixture: string, target: string): void {
  const source = path.join(fixturesFolder, fixture);
  if (!fs.statSync(source, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`the fixture folder ${path.relative(repositoryRoot, source)} does not exist`);
  }
  // Symlinks are copied as links: some fixtures test how skills behind links are found.
  fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
}

function mergeFolderSettings(workspaceFolder: string, settings: Readonly<Record<string, unknown>>): void {
  const settingsPath = path.join(workspaceFolder, '.vscode', 'settings.json');
  const existing = fs.existsSync(settingsPath) ? (JSON.parse(fs.readFileSync(settingsPath, 'utf8')) as Record<string, unknown>) : {};
  fs.mkdirSync(path.dirname(settingsPath), { recursive: true });
  fs.writeFileSync(settingsPath, JSON.stringify({ ...existing, ...settings }, undefined, 2));
}

/** The server loads a test-only extension folder (the scripted model…) as an installed extension, beside the one under development. */
function installTestExtension(folder: string, extensionsFolder: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  fs.cpSync(folder, path.join(extensionsFolder, `${manifest.publisher}.${manifest.name}-${manifest.version}`), { recursive: true });
}

/** This process's environment, less what must not leak into a suite. */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // The product reads AGENT_SKILLS_PATH; a developer's own value must not leak into a suite.
    if (!name.startsWith('AGENT_SKILLS') && !name.startsWith('VSCODE_')) {
      env[name] = value;
    }
  }
  return env;
}

/** What the extension host of a suite needs on top of an ordinary environment. */
export function suiteEnvironment(suite: IntegrationSuite, folders: SuiteFolders, compiledTestsFolder: string): Record<string, string> {
  const env: Record<string, string> = {};
  const replacements: Record<string, string> = { home: folders.homeFolder, fixtures: fixturesFolder, workspaceFolder: folders.workspaceFolders[0] };
  folders.workspaceFolders.forEach((workspaceFolder, index) => (replacements[`workspaceFolder:${index}`] = workspaceFolder));
  for (const [name, value] of Object.entries(suite.env ?? {})) {
    env[name] = value.replace(/\$\{([^}]+)\}/g, (whole, key: string) => {
      const replacement = replacements[key];
      if (replacement === undefined) {
        throw new Error(`suite ${suite.name}: unknown placeholder ${whole} in env ${name}`);
      }
      return replacement;
    });
  }
  const grep = process.env[harnessEnvironment.grep];
  return {
    ...env,
    HOME: folders.homeFolder,
    USERPROFILE: folders.homeFolder,
    [harnessEnvironment.testsFolder]: path.join(compiledTestsFolder, 'suites', suite.name),
    [harnessEnvironment.suiteName]: suite.name,
    [harnessEnvironment.countsFile]: folders.countsFile,
    ...(grep ? { [harnessEnvironment.grep]: grep } : {}),
  };
}

/** The server's arguments for where it keeps its user data, its own data and its extensions. */
export function serverFolderArguments(folders: ServerDataFolders): string[] {
  return ['--user-data-dir', folders.userDataFolder, '--server-data-dir', folders.serverDataFolder, '--extensions-dir', folders.extensionsFolder];
}
