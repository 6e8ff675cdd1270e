// Replaces functions of node:fs/promises for one test, to reproduce a file system that changes
// between two calls (a folder deleted while being read) or refuses access.

import type * as fs from 'node:fs/promises';
import * as path from 'node:path';

export type FsPromises = typeof fs;

/** Runs `run` with `name` of node:fs/promises replaced; modules importing it read through the module object. */
export async function withFs<K extends keyof FsPromises, T>(name: K, replacement: (original: FsPromises[K]) => FsPromises[K], run: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself, not a copy of its bindings
  const module = require('node:fs/promises') as FsPromises;
  const original = module[name];
  module[name] = replacement(original);
  try {
    return await run();
  } finally {
    module[name] = original;
  }
}

export function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** A replacement that always fails with `code`. */
export function failing(code: string, message: string): () => () => Promise<never> {
  return () => async () => {
    throw fsError(code, message);
  };
}

/** A replacement of an fs function taking a path first, that notes each path (relative to `base`) it is called with. */
export function noting<K extends 'readdir' | 'realpath' | 'lstat' | 'readFile'>(base: string, seen: string[]): (original: FsPromises[K]) => FsPromises[K] {
  return (original) =>
    (async (...args: unknown[]) => {
      seen.push(path.relative(base, String(args[0])));
      return (original as (...args: unknown[]) => Promise<unknown>)(...args);
    }) as FsPromises[K];
}
