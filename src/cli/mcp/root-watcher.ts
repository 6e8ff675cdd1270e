// Watches the server's skill roots, one watch per folder, and hands coalesced batches of changes on.
// A root that does not exist yet, or goes away, is watched through its nearest existing parent until
// it appears.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { watch, type FSWatcher } from './libraries';
import { FolderTreeWatcher } from './folder-tree-watcher';
import { ChangeCoalescer } from '../../core/discovery/change-coalescer';
import type { SkillChange } from '../../core/discovery/registry';
import type { Disposable } from '../../core/model/event';

function nearestExisting(folder: string): string {
  let current = folder;
  while (!fs.existsSync(current) && path.dirname(current) !== current) {
    current = path.dirname(current);
  }
  return current;
}

export class RootWatcher implements Disposable {
  private readonly coalescer: ChangeCoalescer;
  private readonly trees: FolderTreeWatcher;
  /** Kinds of watch failure already logged: one line each is enough to say changes may be missed. */
  private readonly loggedFailures = new Set<string>();
  /** Watchers of the parents of roots that do not exist yet, by missing root. */
  private readonly parentWatchers = new Map<string, FSWatcher>();
  private roots: ReadonlySet<string>;
  /** Resolves once every watcher has done its initial scan. */
  readonly ready: Promise<void>;

  /** `log` is told, once per kind, of a folder that cannot be watched (the system's limit of watches reached). */
  constructor(roots: readonly string[], onChanges: (changes: SkillChange[]) => void, log: (message: string) => void = () => undefined) {
    this.coalescer = new ChangeCoalescer(onChanges);
    this.trees = new FolderTreeWatcher({
      changed: (change) => this.coalescer.add(change),
      rootGone: (root) => {
        this.coalescer.add({ path: root, kind: 'deleted' });
        if (this.roots.has(root)) {
          void this.watchParent(root);
        }
      },
      failed: (folder, error) => {
        const kind = error.code ?? error.message;
        if (!this.loggedFailures.has(kind)) {
          this.loggedFailures.add(kind);
          const hint = error.code === 'ENOSPC' ? ", the system's limit of file watches (raise fs.inotify.max_user_watches)" : '';
          log(`cannot watch ${folder} for changes (${kind}${hint}): what changes there is not seen until the server restarts.`);
        }
      },
    });
    this.roots = new Set(roots);
    this.ready = Promise.all(roots.map((root) => this.watchRoot(root))).then(() => undefined);
  }

  /** Follows `roots` from now on: new ones are watched (through their parent until they appear), gone ones no longer. */
  setRoots(roots: readonly string[]): void {
    const next = new Set(roots);
    for (const root of this.roots) {
      if (!next.has(root)) {
        this.trees.remove(root);
        void this.parentWatchers.get(root)?.close();
        this.parentWatchers.delete(root);
      }
    }
    const added = [...next].filter((root) => !this.roots.has(root));
    this.roots = next;
    for (const root of added) {
      void this.watchRoot(root);
    }
  }

  private watchRoot(root: string): Promise<void> {
    return fs.existsSync(root) ? this.trees.add(root) : this.watchParent(root);
  }

  async dispose(): Promise<void> {
    this.coalescer.dispose();
    this.trees.dispose();
    await Promise.all([...this.parentWatchers.values()].map((watcher) => watcher.close()));
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
        void this.trees.add(root);
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
