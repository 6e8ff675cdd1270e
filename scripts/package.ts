// `npm run package`: a production build, then `agent-skills-<version>.vsix` with @vscode/vsce,
// holding only what .vscodeignore lets through. Prints the files and the size, and fails when the
// package grows past its budget (a bundling mistake, such as node_modules or source maps).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createVSIX, listFiles, PackageManager } from '@vscode/vsce';
import { packagedExtensionPath } from './harness/packaged-extension';
import { repositoryRoot } from './harness/repository';
import { errorMessage } from '../src/core/util/errors';

const maxPackageBytes = 1024 * 1024;
const bundlePath = 'dist/extension.js';

async function main(): Promise<void> {
  const vsixPath = packagedExtensionPath();
  // A failed run must not leave an older package behind for the tests to install.
  fs.rmSync(vsixPath, { force: true });
  await run('npm', ['run', 'build:prod']);
  // Packaged from a copy of exactly the files .vscodeignore lets through: a build started meanwhile
  // in this working tree (tests, watch mode) cannot slip a development bundle into the package.
  const files = (await listFiles({ cwd: repositoryRoot, packageManager: PackageManager.None })).sort();
  const stagingFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-package-'));
  try {
    for (const file of [...files, '.vscodeignore']) {
      fs.cpSync(path.join(repositoryRoot, file), path.join(stagingFolder, file));
    }
    // The production build ran above; vsce would run vscode:prepublish again in the copy, which
    // holds no build script.
    const stagedManifestPath = path.join(stagingFolder, 'package.json');
    const stagedManifest = JSON.parse(fs.readFileSync(stagedManifestPath, 'utf8')) as { scripts: Record<string, string> };
    delete stagedManifest.scripts['vscode:prepublish'];
    fs.writeFileSync(stagedManifestPath, `${JSON.stringify(stagedManifest, undefined, 2)}\n`);
    // The screenshots are for the repository's README; the package stays small without them.
    const stagedReadmePath = path.join(stagingFolder, 'README.md');
    fs.writeFileSync(stagedReadmePath, withoutScreenshots(fs.readFileSync(stagedReadmePath, 'utf8')));
    if (fs.readFileSync(path.join(stagingFolder, bundlePath), 'utf8').includes('//# sourceMappingURL=')) {
      throw new Error(`${bundlePath} is a development build: another build replaced the production one. Run \`npm run package\` again.`);
    }
    await createVSIX({
      cwd: stagingFolder,
      packagePath: vsixPath,
      // Everything the extension runs is bundled into dist/extension.js.
      dependencies: false,
      // No public repository to point at; README links stay relative, as they work on GitHub (docs/
      // is not packaged).
      allowMissingRepository: true,
      rewriteRelativeLinks: false,
    });
    console.log(`\n${path.relative(process.cwd(), vsixPath)} holds:`);
    for (const file of files) {
      console.log(`  ${file.padEnd(56)} ${formatSize(fs.statSync(path.join(stagingFolder, file)).size).padStart(9)}`);
    }
    const size = fs.statSync(vsixPath).size;
    console.log(`${files.length} files, ${formatSize(size)} compressed.`);
    if (size > maxPackageBytes) {
      throw new Error(`The package is ${formatSize(size)}, over its ${formatSize(maxPackageBytes)} budget: check .vscodeignore and the bundle.`);
    }
  } finally {
    fs.rmSync(stagingFolder, { recursive: true, force: true });
  }
}

/** The README without its lines that only show an image of docs/images/. */
export function withoutScreenshots(readme: string): string {
  return readme.replace(/^!\[[^\]]*\]\(docs\/images\/[^)]+\)\n\n?/gm, '');
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repositoryRoot, stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args.join(' ')} failed with exit code ${code}.`))));
  });
}

main().catch((error: unknown) => {
  console.error(errorMessage(error));
  process.exit(1);
});
