// The packaged extension (`npm run package`) and how a suite installs it into the VS Code server,
// so the suite exercises the .vsix users get rather than the repository.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './repository';
import { serverFolderArguments, type ServerDataFolders } from './suite-folders';
import { type VsCodeServerInstallation } from './vscode-server';

/** `<name>-<version>.vsix` in the repository root, where `npm run package` writes it. */
export function packagedExtensionPath(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(repositoryRoot, `${manifest.name}-${manifest.version}.vsix`);
}

/** Installs the .vsix with the server's own `--install-extension`, as a user's VS Code would. */
export async function installPackagedExtension(installation: VsCodeServerInstallation, folders: ServerDataFolders): Promise<void> {
  const vsixPath = packagedExtensionPath();
  if (!fs.existsSync(vsixPath)) {
    throw new Error(`${path.basename(vsixPath)} does not exist; run \`npm run package\` first.`);
  }
  const args = [installation.serverMainPath, '--install-extension', vsixPath, '--force', '--accept-server-license-terms', ...serverFolderArguments(folders)];
  let output = '';
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(installation.nodeBinaryPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`Installing ${path.basename(vsixPath)} failed (exit code ${code}):\n${output}`);
  }
}
