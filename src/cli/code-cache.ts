// What Node 20 lacks and Node 22 has: a compile cache. The executable loads the command line's
// bundle from V8's compiled code of an earlier start, kept per command (each command compiles other
// functions) in a folder of the user's own; a start that finds none, or finds it stale, keeps the
// code compiled by its end for the next.

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** The folder code caches are kept in, made when missing; undefined when caching is off or the folder is not safely the user's. */
export function codeCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) {
    return undefined;
  }
  const uid = process.getuid?.();
  const folder = env.NODE_COMPILE_CACHE ? path.resolve(env.NODE_COMPILE_CACHE, 'agent-skills') : path.join(os.tmpdir(), `agent-skills-code-cache-${uid ?? 'user'}`);
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(folder);
    // Compiled code from a folder someone else can write to would run as this user: another user
    // could make the folder first in a shared temporary folder.
    const othersMayWrite = uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0);
    return stat.isDirectory() && !othersMayWrite ? folder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs the CommonJS bundle `file` as `require` would, with V8's code cache for `command` from
 * `folder` when one was kept for this very file (its place, size and time, Node's version and the
 * machine's architecture name it: V8 itself checks only the length of the source).
 */
export function requireWithCodeCache(file: string, command: string, folder: string | undefined): void {
  // The size and time that name the cache are those of the very text read, even during a rebuild.
  const fd = fs.openSync(file, 'r');
  let source: string;
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const copy = installation(file);
  const build = `${copy}${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}-`;
  const cacheFile = folder === undefined ? undefined : path.join(folder, `${build}${command}.cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile === undefined ? undefined : fs.readFileSync(cacheFile);
  } catch {
    // None kept yet.
  }
  // A "#!" line is allowed only at the start of a script, not inside the function that wraps a module.
  const body = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, { filename: file, cachedData });
  if (folder !== undefined && cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => keepCodeCache(folder, copy, build, cacheFile, script));
  }
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const bundle = { exports: {}, filename: file, id: file, loaded: false };
  run.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, path.dirname(file));
  bundle.loaded = true;
}

/**
 * What starts the names of the caches of one installed copy of `file`: its name and a hash of its
 * path, so that two copies (a project's and a global one) keep their caches side by side.
 */
function installation(file: string): string {
  // FNV-1a: loading a cryptographic hash would cost more than the cache saves on a short start.
  let hash = 0x811c9dc5;
  for (let at = 0; at < file.length; at++) {
    hash = Math.imul(hash ^ file.charCodeAt(at), 0x01000193) >>> 0;
  }
  return `${path.basename(file)}-${hash.toString(16).padStart(8, '0')}-`;
}

/** Writes the code compiled so far, whole or not at all, and drops the caches of other builds of the same installed copy (`copy`, see installation). */
function keepCodeCache(folder: string, copy: string, build: string, cacheFile: string, script: vm.Script): void {
  const partial = `${cacheFile}.${process.pid}`;
  try {
    for (const name of fs.readdirSync(folder)) {
      if (name.startsWith(copy) && !name.startsWith(build)) {
        fs.rmSync(path.join(folder, name), { force: true });
      }
    }
    fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(partial, cacheFile);
  } catch {
    // A cache is an optimization: a folder that cannot be written to leaves the next start uncached.
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
