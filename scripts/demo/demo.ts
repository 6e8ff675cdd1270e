// What `npm start` and `npm run start:desktop` share: the build, the demo workspace (a copy of the
// template that the user may edit freely) and the demo model extension.
import * as esbuild from 'esbuild';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from '../harness/repository';

export const demoWorkspaceFolder = path.join(repositoryRoot, 'demo-workspace');
export const demoModelFolder = path.join(repositoryRoot, 'scripts', 'demo', 'model');
const templateFolder = path.join(repositoryRoot, 'scripts', 'demo', 'workspace-template');

const demoWorkspaceSettings = {
  // The demo also shows a skill kept in `.github/skills`, a location users opt into.
  'agentSkills.locations': ['.agent/skills', '.github/skills'],
  'workbench.startupEditor': 'readme',
  // The copy sits inside this repository; VS Code would offer to open the repository's git.
  'git.openRepositoryInParentFolders': 'never',
};

export interface DemoOptions {
  /** Recreate the demo workspace from the template, dropping the user's edits. */
  readonly fresh: boolean;
}

export function parseDemoOptions(args: readonly string[]): DemoOptions {
  const unknown = args.filter((arg) => arg !== '--fresh');
  if (unknown.length > 0) {
    throw new Error(`Unknown argument(s): ${unknown.join(' ')}. The only option is --fresh (recreate demo-workspace/ from the template).`);
  }
  return { fresh: args.includes('--fresh') };
}

/** Bundles the demo model into scripts/demo/model/dist (git-ignored), where its manifest points. */
export async function buildDemoModel(): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(demoModelFolder, 'src', 'extension.ts')],
    outfile: path.join(demoModelFolder, 'dist', 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
}

/** Bundles the extension (development build, with source maps). */
export async function buildExtension(): Promise<void> {
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'scripts', 'build.mjs')], { cwd: repositoryRoot, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0) {
    throw new Error('The build failed (see above).');
  }
}

/**
 * The demo workspace is the user's playground: an existing copy is reused as it is, so their
 * edits survive a restart; only `fresh` replaces it.
 */
export function prepareDemoWorkspace(options: DemoOptions, log: (line: string) => void, folder = demoWorkspaceFolder): string {
  const relative = path.relative(process.cwd(), folder) || '.';
  if (fs.existsSync(folder) && !options.fresh) {
    log(`Reusing ${relative}/ with your changes (add "-- --fresh" to the command to start over from the template).`);
    return folder;
  }
  fs.rmSync(folder, { recursive: true, force: true });
  fs.cpSync(templateFolder, folder, { recursive: true });
  const settingsPath = path.join(folder, '.vscode', 'settings.json');
  if (!fs.existsSync(settingsPath)) {
    fs.mkdirSync(path.dirname(settingsPath), { recursive: true });
    fs.writeFileSync(settingsPath, `${JSON.stringify(demoWorkspaceSettings, undefined, 2)}\n`);
  }
  log(`Created ${relative}/ from the template.`);
  return folder;
}

export interface ExtensionManifest {
  readonly publisher: string;
  readonly name: string;
  readonly version: string;
}

export function readManifest(extensionFolder: string): ExtensionManifest {
  return JSON.parse(fs.readFileSync(path.join(extensionFolder, 'package.json'), 'utf8')) as ExtensionManifest;
}

/** Where VS Code looks for an installed extension: `<extensions dir>/<publisher>.<name>-<version>`. */
export function installedExtensionFolder(extensionsFolder: string, manifest: ExtensionManifest): string {
  return path.join(extensionsFolder, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
}
