// The agent-skills-vscode npm package as users get it, for the tests that install it: assembled
// from the current bundles as `npm run build` leaves it, packed with `npm pack`, and installed by an
// npm that cannot reach any registry (offline, pointed at a closed local port) and has a cache and
// a configuration of its own, so the user's are neither read nor changed.

import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import manifest from '../../../src/npm-package/manifest.json';
import { ensureBundle, REPOSITORY } from '../cli/bundle';

export const PACKAGE_NAME = manifest.name;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end (at most `timeoutMs`), collecting its output; never throws on an exit code. */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/** A local port nothing listens on: a registry there refuses every connection. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PackedPackage {
  /** The .tgz `npm pack` wrote. */
  tarball: string;
  /** The environment in which npm (and npx) work offline with their own cache and configuration. */
  offlineEnv: NodeJS.ProcessEnv;
}

let packed: Promise<PackedPackage> | undefined;

/** Packs the package once per test run; the folder goes when the process exits. */
export function packedPackage(): Promise<PackedPackage> {
  packed ??= pack();
  return packed;
}

async function pack(): Promise<PackedPackage> {
  await ensureBundle();
  await promisify(execFile)(process.execPath, [path.join(REPOSITORY, 'scripts', 'npm-package.mjs')], { cwd: REPOSITORY });
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-npm-package-')));
  process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  const userConfig = path.join(folder, 'npmrc');
  fs.writeFileSync(userConfig, '');
  const offlineEnv: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_offline: 'true',
    npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
    npm_config_cache: path.join(folder, 'npm-cache'),
    npm_config_userconfig: userConfig,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  const packing = await run('npm', ['pack', path.join(REPOSITORY, 'dist', 'npm-package'), '--pack-destination', folder, '--ignore-scripts', '--json'], { cwd: folder, env: offlineEnv });
  if (packing.code !== 0) {
    throw new Error(`npm pack failed (exit code ${packing.code}):\n${packing.stderr}`);
  }
  const [{ filename }] = JSON.parse(packing.stdout) as { filename: string }[];
  return { tarball: path.join(folder, filename), offlineEnv };
}
