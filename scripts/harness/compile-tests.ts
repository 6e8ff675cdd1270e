// Transpiles the integration tests (and the channel they share with the launcher) into out/,
// file by file, so mocha inside the extension host can load each suite's test files by name.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryRoot } from './repository';

export const compiledIntegrationFolder = path.join(repositoryRoot, 'out', 'test', 'integration');

export async function compileIntegrationTests(): Promise<string> {
  // The harness modules the tests use themselves: the channel to the launcher, nginx for the replica tests.
  const harnessModules = ['channel.ts', 'nginx.ts', 'repository.ts'].map((file) => path.join(repositoryRoot, 'scripts', 'harness', file));
  const sources = [...typescriptFiles(path.join(repositoryRoot, 'test', 'integration')), ...harnessModules];
  // Stale output of a deleted or renamed test would still be run.
  fs.rmSync(path.join(repositoryRoot, 'out', 'test'), { recursive: true, force: true });
  await esbuild.build({
    entryPoints: sources,
    outbase: repositoryRoot,
    outdir: path.join(repositoryRoot, 'out'),
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return compiledIntegrationFolder;
}

function typescriptFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(folder, file));
}
