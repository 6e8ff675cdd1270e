// `npm start [-- --fresh]`: the extension in a real VS Code in the browser, with a demo workspace
// and a scripted demo model, so a newcomer sees it working without any account.
// It builds the extension, starts the test harness's VS Code server on loopback with the
// extension installed, and prints the URL to open. Ctrl+C stops everything.
// `-- --screenshots` (for maintainers) instead photographs the demo into docs/images and stops.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { answersHttp, findFreePort, killGroup } from './harness/server-process';
import { ensureVsCodeServer } from './harness/vscode-server';
import { repositoryRoot } from './harness/repository';
import { takeDemoScreenshots } from './demo/screenshots';
import { buildDemoModel, buildExtension, demoModelFolder, installedExtensionFolder, parseDemoOptions, prepareDemoWorkspace, readManifest, type ExtensionManifest } from './demo/demo';
import { errorMessage } from '../src/core/util/errors';

/** VS Code's own state for the demo (settings, chat history, layout), kept between runs. */
const demoStateFolder = path.join(repositoryRoot, '.vscode-test', 'demo');
const serverStartSeconds = 90;
const stopGraceMilliseconds = 5000;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const screenshots = args.includes('--screenshots');
  const options = parseDemoOptions(args.filter((arg) => arg !== '--screenshots'));
  const log = (line: string) => console.log(line);

  log('Building the extension …');
  await buildExtension();
  await buildDemoModel();
  const installation = await ensureVsCodeServer(log);
  // Screenshots show the pristine demo: a fresh copy and fresh VS Code state, not the user's.
  const stateFolder = screenshots ? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-demo-')) : demoStateFolder;
  if (options.fresh && !screenshots) {
    fs.rmSync(stateFolder, { recursive: true, force: true });
  }
  const workspaceFolder = screenshots ? prepareDemoWorkspace({ fresh: true }, log, path.join(stateFolder, 'demo-workspace')) : prepareDemoWorkspace(options, log);
  const folders = {
    userData: path.join(stateFolder, 'user-data'),
    serverData: path.join(stateFolder, 'server-data'),
    extensions: path.join(stateFolder, 'extensions'),
  };
  for (const folder of Object.values(folders)) {
    fs.mkdirSync(folder, { recursive: true });
  }
  installDemoExtensions(folders.extensions);

  const port = await choosePort();
  const tokenFile = connectionTokenFile(stateFolder);
  const server = spawn(
    installation.nodeBinaryPath,
    [
      installation.serverMainPath,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      // Anything that can reach the port could run code on this machine through the server: even
      // on loopback, a token keeps other users and web pages out.
      '--connection-token-file',
      tokenFile,
      '--accept-server-license-terms',
      '--disable-telemetry',
      // The demo workspace is our own sample: no trust prompt in the way.
      '--disable-workspace-trust',
      '--user-data-dir',
      folders.userData,
      '--server-data-dir',
      folders.serverData,
      '--extensions-dir',
      folders.extensions,
    ],
    // Its own process group, so stopping it also stops the extension host and other helpers.
    { cwd: workspaceFolder, env: serverEnvironment(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const serverLog = fs.createWriteStream(path.join(stateFolder, 'server.log'));
  server.stdout?.pipe(serverLog);
  server.stderr?.pipe(serverLog);
  stopServer = () => stopProcessGroup(server);
  stopOnInterrupt(log);
  const exited = new Promise<string>((resolve) => {
    server.on('error', (error) => resolve(`could not start: ${error.message}`));
    server.on('exit', (code, signal) => resolve(`exited (code ${code}, signal ${signal})`));
  });

  await waitUntilServing(port, exited, serverLog.path.toString());
  const token = fs.readFileSync(tokenFile, 'utf8').trim();
  // Slashes stay readable in the printed URL; VS Code accepts them unencoded.
  const url = `http://127.0.0.1:${port}/?tkn=${token}&folder=${encodeURIComponent(workspaceFolder).replace(/%2F/g, '/')}`;
  log('');
  log('Agent Skills demo is running. Open this URL in a browser:');
  log('');
  log(`  ${url}`);
  log('');
  log('Then open the Skills view in the activity bar, and ask @skills in the chat view,');
  log('for example "@skills write a commit message for the tags change".');
  log(`The model is "Demo model (scripted)": no account needed. Server log: ${path.relative(process.cwd(), serverLog.path.toString())}`);
  log('Press Ctrl+C to stop.');
  if (screenshots) {
    try {
      await takeDemoScreenshots(url, log);
    } finally {
      await stopServer();
      fs.rmSync(stateFolder, { recursive: true, force: true, maxRetries: 3 });
    }
    return;
  }

  const reason = await exited;
  if (stopRequested) {
    return;
  }
  throw new Error(`The VS Code server ${reason}; see ${serverLog.path.toString()}.`);
}

/** The built extension and the demo model, as installed extensions of the demo's server. */
function installDemoExtensions(extensionsFolder: string): void {
  // The product is linked, not copied: a rebuild plus "Developer: Reload Window" picks up changes.
  const productFolder = replaceInstalledVersions(extensionsFolder, readManifest(repositoryRoot));
  fs.symlinkSync(repositoryRoot, productFolder, 'junction');
  const modelFolder = replaceInstalledVersions(extensionsFolder, readManifest(demoModelFolder));
  for (const part of ['package.json', 'dist']) {
    fs.cpSync(path.join(demoModelFolder, part), path.join(modelFolder, part), { recursive: true });
  }
}

/** Removes every installed version of the extension (a link is removed, never followed); returns where this version goes. */
function replaceInstalledVersions(extensionsFolder: string, manifest: ExtensionManifest): string {
  const prefix = `${manifest.publisher}.${manifest.name}-`.toLowerCase();
  for (const entry of fs.readdirSync(extensionsFolder)) {
    if (entry.toLowerCase().startsWith(prefix)) {
      fs.rmSync(path.join(extensionsFolder, entry), { recursive: true, force: true });
    }
  }
  return installedExtensionFolder(extensionsFolder, manifest);
}

async function choosePort(): Promise<number> {
  const requested = process.env.PORT;
  if (requested === undefined || requested === '') {
    return findFreePort();
  }
  const port = Number(requested);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`PORT must be a port number, not "${requested}".`);
  }
  return port;
}

/** Kept between runs, so a browser tab left open still works after a restart. */
function connectionTokenFile(stateFolder: string): string {
  const file = path.join(stateFolder, 'connection-token');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, randomBytes(16).toString('hex'), { mode: 0o600 });
  }
  return file;
}

function serverEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // Started from a VS Code terminal, these would point the server at that other VS Code.
    if (!name.startsWith('VSCODE_')) {
      env[name] = value;
    }
  }
  return env;
}

async function waitUntilServing(port: number, exited: Promise<string>, serverLogPath: string): Promise<void> {
  const deadline = Date.now() + serverStartSeconds * 1000;
  while (Date.now() < deadline) {
    // `/version` answers without the connection token.
    if (await answersHttp(port, '/version')) {
      return;
    }
    const reason = await Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 250))]);
    if (reason) {
      throw new Error(`The VS Code server ${reason}${process.env.PORT ? ` (is port ${port} already in use?)` : ''}; see ${serverLogPath}.`);
    }
  }
  throw new Error(`The VS Code server did not answer on port ${port} within ${serverStartSeconds} s.`);
}

/** Stops the server once it is started; set by main(). */
let stopServer: () => Promise<void> = async () => undefined;

async function stopProcessGroup(server: ChildProcess): Promise<void> {
  if (server.pid === undefined) {
    return;
  }
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    killGroup(server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, stopGraceMilliseconds))]);
  }
  // The extension host and other helpers share the server's group; none may stay behind.
  killGroup(server.pid, 'SIGKILL');
}

/** Set once the user asked to stop, so the server's exit is not reported as a failure. */
let stopRequested = false;

function stopOnInterrupt(log: (line: string) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopRequested) {
        return;
      }
      stopRequested = true;
      log(`\nReceived ${signal}: stopping the VS Code server …`);
      void stopServer().then(() => {
        log('Stopped.');
        process.exit(0);
      });
    });
  }
}

main().catch(async (error: unknown) => {
  console.error(errorMessage(error));
  await stopServer();
  process.exit(1);
});
