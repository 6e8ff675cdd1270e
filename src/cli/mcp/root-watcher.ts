// Watches the server's skill roots with chokidar and hands coalesced batches of changes on. A root
// that does not exist yet is watched through its nearest existing parent until it appears.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { watch, type FSWatcher } from './libraries';
import { ChangeCoalescer } from '../../core/discovery/change-coalescer';
import { IGNORED_FOLDER_NAMES } from '../../core/discovery/ignored-folders';
import type { SkillChange } from '../../core/discovery/registry';
import type { Disposable } from '../../core/model/event';

const EVENT_KINDS: Readonly<Record<string, SkillChange['kind']>> = {
  add: 'created',
  addDir: 'created',
  change: 'changed',
  unlink: 'deleted',
  unlinkDir: 'deleted',
};

function nearestExisting(folder: string): string {
  let current = folder;
  while (!fs.existsSync(current) && path.dirname(current) !== current) {
    current = path.dirname(current);
  }
  return current;
}

export class RootWatcher implements Disposable {
  private readonly coalescer: ChangeCoalescer;
  private readonly rootWatcher: FSWatcher;
  /** Watchers of the parents of roots that do not exist yet, by missing root. */
  private readonly parentWatchers = new Map<string, FSWatcher>();
  private roots: ReadonlySet<string>;
  /** Resolves once every watcher has done its initial scan. */
  readonly ready: Promise<void>;

  constructor(roots: readonly string[], onChanges: (changes: SkillChange[]) => void) {
    this.coalescer = new ChangeCoalescer(onChanges);
    const ignored = (file: string): boolean => IGNORED_FOLDER_NAMES.has(path.basename(file));
    const existing = roots.filter((root) => fs.existsSync(root));
    this.rootWatcher = watch(existing, { ignoreInitial: true, ignored });
    this.rootWatcher.on('all', (event, file) => this.report(event, file));
    // A watcher given no path never reports ready: with every root missing, only the parents' scans count.
    const waits = existing.length > 0 ? [new Promise<void>((resolve) => this.rootWatcher.once('ready', () => resolve()))] : [];
    this.roots = new Set(roots);
    for (const root of roots.filter((root) => !existing.includes(root))) {
      waits.push(this.watchParent(root));
    }
    this.ready = Promise.all(waits).then(() => undefined);
  }

  /** Follows `roots` from now on: new ones are watched (through their parent until they appear), gone ones no longer. */
  setRoots(roots: readonly string[]): void {
    const next = new Set(roots);
    for (const root of this.roots) {
      if (!next.has(root)) {
        void this.rootWatcher.unwatch(root);
        void this.parentWatchers.get(root)?.close();
        this.parentWatchers.delete(root);
      }
    }
    for (const root of next) {
      if (!this.roots.has(root)) {
        this.watchRoot(root);
      }
    }
    this.roots = next;
  }

  private watchRoot(root: string): void {
    if (fs.existsSync(root)) {
      this.rootWatcher.add(root);
    } else {
      void this.watchParent(root);
    }
  }

  async dispose(): Promise<void> {
    this.coalescer.dispose();
    await Promise.all([this.rootWatcher.close(), ...[...this.parentWatchers.values()].map((watcher) => watcher.close())]);
  }

  private report(event: string, file: string): void {
    const kind = EVENT_KINDS[event];
    if (kind) {
      this.coalescer.add({ path: file, kind });
    }
  }

  private watchParent(root: string): Promise<void> {
    const parent = nearestExisting(path.dirname(root));
    const watcher = watch(parent, { ignoreInitial: true, depth: 0 });
    this.parentWatchers.set(root, watcher);
    // Folders made in one go (mkdir -p) may exist before this watcher reports them: look again.
    const advance = (): void => {
      if (this.parentWatchers.get(root) !== watcher || (!fs.existsSync(root) && nearestExisting(path.dirname(root)) === parent)) {
        return;
      }
      this.parentWatchers.delete(root);
      void watcher.close();
      if (fs.existsSync(root)) {
        this.rootWatcher.add(root);
        this.coalescer.add({ path: root, kind: 'created' });
      } else {
        void this.watchParent(root);
      }
    };
    // Any new folder makes it look: advance acts only once the root or a folder on its way exists.
    watcher.on('addDir', advance);
    return new Promise((resolve) =>
      watcher.once('ready', () => {
        advance();
        resolve();
      }),
    );
  }
}
