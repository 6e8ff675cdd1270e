// Named pipes for tests of reads that must not wait: a read left waiting on one would hang the
// test run for good, so the reading happens in a child process with a deadline.

import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';

export function makeNamedPipe(file: string): void {
  execFileSync('mkfifo', [file]);
}

/**
 * What a child Node process prints running `script`, which may require TypeScript modules by
 * absolute path. Fails when the child is still running after a few seconds.
 */
export function printedByChild(script: string): string {
  const child = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { encoding: 'utf8', timeout: 8000 });
  assert.equal(child.signal, null, 'the child was still running: a read waited for a writer');
  assert.equal(child.status, 0, child.stderr);
  return child.stdout;
}
