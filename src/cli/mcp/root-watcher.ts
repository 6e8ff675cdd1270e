// Watches the server's skill roots, one watch per folder, and hands coalesced batches of changes on.
// A root that does not exist yet, or goes away, is watched through its nearest existing parent until
// it appears.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { FolderTreeWatcher, logWatchFailures, type FolderTreeEvents } from './folder-tree-watcher';
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
  private readonly failed: FolderTreeEvents['failed'];
  /** Watchers of the parents of roots that do not exist yet, by missing root. */
  private readonly parentWatchers = new Map<string, FolderTreeWatcher>();
  private roots: ReadonlySet<string>;
  /** Resolves once every watcher has done its initial scan. */
  readonly ready: Promise<void>;

  /** `log` is told, once per kind, of a folder that cannot be watched (the system's limit of watches reached). */
  constructor(roots: readonly string[], onChanges: (changes: SkillChange[]) => void, log: (message: string) => void = () => undefined) {
    this.coalescer = new ChangeCoalescer(onChanges);
    this.failed = logWatchFailures(log);
    this.trees = new FolderTreeWatcher({
      changed: (change) => this.coalescer.add(change),
      rootGone: (root) => {
        this.coalescer.add({ path: root, kind: 'deleted' });
        if (this.roots.has(root)) {
          void this.watchParent(root);
        }
      },
      failed: this.failed,
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
        this.parentWatchers.get(root)?.dispose();
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
    for (const watcher of this.parentWatchers.values()) {
      watcher.dispose();
    }
  }

  private watchParent(root: string): Promise<void> {
    const parent = nearestExisting(path.dirname(root));
    // Any new folder makes it look, as does the parent going: advance acts only once the root or a
    // folder on its way exists, or the parent is gone.
    const watcher = new FolderTreeWatcher({ changed: (change) => change.kind === 'created' && advance(), rootGone: () => advance(), failed: this.failed }, { depth: 0, foldersOnly: true });
    this.parentWatchers.set(root, watcher);
    // Folders made in one go (mkdir -p) may exist before this watcher reports them: look again.
    const advance = (): void => {
      if (this.parentWatchers.get(root) !== watcher || (!fs.existsSync(root) && nearestExisting(path.dirname(root)) === parent)) {
        return;
      }
      this.parentWatchers.delete(root);
      watcher.dispose();
      if (fs.existsSync(root)) {
        void this.trees.add(root);
        this.coalescer.add({ path: root, kind: 'created' });
      } else {
        void this.watchParent(root);
      }
    };
    return watcher.add(parent).then(advance);
  }
}
