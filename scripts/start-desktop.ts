// `npm run start:desktop [-- --fresh]`: the same demo as `npm start`, in a desktop VS Code: the
// extension and the demo model in development mode, and the demo workspace opened.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './harness/repository';
import { buildDemoModel, buildExtension, demoModelFolder, parseDemoOptions, prepareDemoWorkspace } from './demo/demo';
import { errorMessage } from '../src/core/util/errors';

/** The executable to run: VSCODE_EXECUTABLE_PATH, else the `code` command on PATH. */
function findDesktopVsCode(): string | undefined {
  const configured = process.env.VSCODE_EXECUTABLE_PATH;
  if (configured) {
    if (!fs.existsSync(configured)) {
      throw new Error(`VSCODE_EXECUTABLE_PATH is ${configured}, which does not exist.`);
    }
    return configured;
  }
  const names = process.platform === 'win32' ? ['code.cmd', 'code.exe'] : ['code'];
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter((entry) => entry !== '')) {
    for (const name of names) {
      const candidate = path.join(folder, name);
      if (fs.existsSync(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

async function main(): Promise<number> {
  const options = parseDemoOptions(process.argv.slice(2));
  const vscodeExecutable = findDesktopVsCode();
  if (!vscodeExecutable) {
    console.log('No desktop VS Code found: the `code` command is not on PATH and VSCODE_EXECUTABLE_PATH is not set.');
    console.log('Install VS Code and its `code` command (Command Palette: "Shell Command: Install \'code\' command in PATH"),');
    console.log('or set VSCODE_EXECUTABLE_PATH to the VS Code executable. `npm start` runs the same demo in a browser.');
    return 1;
  }
  console.log('Building the extension …');
  await buildExtension();
  await buildDemoModel();
  const workspaceFolder = prepareDemoWorkspace(options, (line) => console.log(line));
  const args = [`--extensionDevelopmentPath=${repositoryRoot}`, `--extensionDevelopmentPath=${demoModelFolder}`, workspaceFolder];
  console.log(`Opening ${path.relative(process.cwd(), workspaceFolder)}/ in ${vscodeExecutable} with the extension in development mode.`);
  console.log('Pick "Demo model (scripted)" in the chat view to try @skills without an account.');
  return new Promise((resolve, reject) => {
    // A `.cmd` wrapper only runs through the shell on Windows, where paths with spaces need quotes.
    const windows = process.platform === 'win32';
    const child = spawn(windows ? `"${vscodeExecutable}"` : vscodeExecutable, windows ? args.map((arg) => `"${arg}"`) : args, { stdio: 'inherit', shell: windows });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(errorMessage(error));
    process.exit(1);
  },
);
