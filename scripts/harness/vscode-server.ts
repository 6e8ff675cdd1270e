// Keeps a VS Code server (from the `code-server` npm package) and the Node 24 it needs in the
// git-ignored `.vscode-test/` folder, installing them from the npm registry only when missing, and
// builds the one native module the server cannot log without.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './repository';
import { errorMessage } from '../../src/core/util/errors';

export const codeServerVersion = '4.139.1';
export const serverNodeVersion = '24.21.0';

const cacheRoot = path.join(repositoryRoot, '.vscode-test');
const nodeFolder = path.join(cacheRoot, `node-${serverNodeVersion}`);
const codeServerFolder = path.join(cacheRoot, `code-server-${codeServerVersion}`);
const nodePackageName = `node-${process.platform}-${process.arch}`;

/** Written last, so a half-finished install (interrupted, failed) is redone next time. */
const installMarkerName = 'installed.json';

export interface VsCodeServerInstallation {
  readonly nodeBinaryPath: string;
  readonly serverMainPath: string;
  readonly vscodeFolder: string;
}

export function nodeBinaryPath(): string {
  const binary = process.platform === 'win32' ? 'node.exe' : path.join('bin', 'node');
  return path.join(nodeFolder, 'node_modules', nodePackageName, binary);
}

export function vscodeFolder(): string {
  return path.join(codeServerFolder, 'node_modules', 'code-server', 'lib', 'vscode');
}

export function serverMainPath(): string {
  return path.join(vscodeFolder(), 'out', 'server-main.js');
}

/** The Node package's folder; it ships the headers (`include/node`) native modules compile against. */
function nodePackageFolder(): string {
  return path.join(nodeFolder, 'node_modules', nodePackageName);
}

const spdlogPackage = '@vscode/spdlog';

/** The compiled binding of the server's logger; node-gyp writes it last, so its presence means a finished build. */
export function spdlogBindingPath(): string {
  return path.join(vscodeFolder(), 'node_modules', ...spdlogPackage.split('/'), 'build', 'Release', 'spdlog.node');
}

/** The server's Node alone (also what tools needing a newer Node than the project's run on), installed when missing. */
export async function ensureServerNode(log: (line: string) => void = console.log): Promise<string> {
  await ensureInstalled(nodeFolder, { nodePackage: `${nodePackageName}@${serverNodeVersion}` }, log, async () => {
    await npm(['install', '--no-save', '--ignore-scripts', `${nodePackageName}@${serverNodeVersion}`], nodeFolder, false);
    if (!fs.existsSync(nodeBinaryPath())) {
      throw new Error(`The package ${nodePackageName}@${serverNodeVersion} did not provide ${nodeBinaryPath()}.`);
    }
  });
  return nodeBinaryPath();
}

/** Installs what is missing and returns the paths; cheap when the cache is already complete. */
export async function ensureVsCodeServer(log: (line: string) => void = console.log): Promise<VsCodeServerInstallation> {
  await ensureServerNode(log);
  await ensureInstalled(codeServerFolder, { codeServer: codeServerVersion, node: serverNodeVersion }, log, async () => {
    await npm(['install', '--no-save', '--ignore-scripts', `code-server@${codeServerVersion}`], codeServerFolder, true);
    // The server's own production dependencies are not installed by the package; without them it
    // dies on start-up (missing telemetry modules).
    await npm(['install', '--omit=dev', '--ignore-scripts'], vscodeFolder(), true);
    if (!fs.existsSync(serverMainPath())) {
      throw new Error(`code-server@${codeServerVersion} did not provide ${serverMainPath()}.`);
    }
  });
  await ensureSpdlogBinding(log);
  return { nodeBinaryPath: nodeBinaryPath(), serverMainPath: serverMainPath(), vscodeFolder: vscodeFolder() };
}

/**
 * Every log channel of the server and its extension hosts (among them the extension's own "Agent
 * Skills" log) writes through @vscode/spdlog, a native module that install scripts would build; the
 * installs above run without scripts, so it is built here, offline, against the headers of the
 * server's Node (node-gyp downloads nothing when given them). Needs python3, make and a C++ compiler.
 */
async function ensureSpdlogBinding(log: (line: string) => void): Promise<void> {
  if (fs.existsSync(spdlogBindingPath())) {
    return;
  }
  log(`Building ${spdlogPackage} for the VS Code server's Node ${serverNodeVersion} (the server's log channels need it) …`);
  const started = Date.now();
  try {
    await npm(['rebuild', spdlogPackage], vscodeFolder(), true, { npm_config_nodedir: nodePackageFolder() });
  } catch (error) {
    throw new Error(
      `Could not build ${spdlogPackage} for the VS Code server: without it every log channel stays empty. ` +
        `Building needs python3, make and a C++ compiler (Debian: apt-get install python3 make g++).\n${errorMessage(error)}`,
    );
  }
  if (!fs.existsSync(spdlogBindingPath())) {
    throw new Error(`npm rebuild ${spdlogPackage} finished but left no ${spdlogBindingPath()}; was the build skipped by an npm script policy (strict-allow-scripts)?`);
  }
  log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}

async function ensureInstalled(folder: string, versions: Record<string, string>, log: (line: string) => void, install: () => Promise<void>): Promise<void> {
  const markerPath = path.join(folder, installMarkerName);
  const wanted = JSON.stringify(versions);
  if (fs.existsSync(markerPath) && fs.readFileSync(markerPath, 'utf8') === wanted) {
    return;
  }
  log(
    `Installing ${Object.entries(versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')} into ${folder} …`,
  );
  const started = Date.now();
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  // Without a package.json here, npm would walk up and install into the repository itself.
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ private: true, description: 'test cache' }));
  await install();
  fs.writeFileSync(markerPath, wanted);
  log(`Installed in ${Math.round((Date.now() - started) / 1000)} s.`);
}

const keptNpmSettings = /^npm_config_(registry|cache|userconfig|globalconfig|(https_|http_|no)?proxy|strict_ssl|cafile|ca)$/i;

function npm(args: string[], cwd: string, withServerNode: boolean, settings: Record<string, string> = {}): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (withServerNode) {
    // npm's install logic (engines checks, optional platform packages) must see the Node that
    // will run the server, not the one running this script.
    env.PATH = `${path.dirname(nodeBinaryPath())}${path.delimiter}${env.PATH ?? ''}`;
  }
  // Under `npm test`, npm exports its resolved settings, among them this repository as the
  // install prefix; keep only those about reaching the registry.
  for (const name of Object.keys(env)) {
    if (/^npm_config_/i.test(name) && !keptNpmSettings.test(name)) {
      delete env[name];
    }
  }
  Object.assign(env, settings);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) {
        resolve();
      } else {
        reject(new Error(`npm ${args.join(' ')} failed in ${cwd} with exit code ${code}:\n${output}`));
      }
    });
  });
}
