// Watches whole folder trees with one file-system watch per folder, not per file: on Linux a watch on
// a folder reports what happens to each of its entries, so a tree of 3,000 files and 760 folders
// costs 760 watches and one listing per folder, where watching every file took 2,602 watches and a
// stat of every file before the first change could be seen. A file reached through a
// symbolic link gets a watch of its own, since its folder's watch sees only the link.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { IGNORED_FOLDER_NAMES } from '../../core/discovery/ignored-folders';
import type { SkillChange } from '../../core/discovery/registry';
import type { Disposable } from '../../core/model/event';
import { relativeInside } from '../../core/util/paths';

export interface FolderTreeEvents {
  /** A file or folder under a watched tree was created, changed or deleted. */
  changed(change: SkillChange): void;
  /** A watched root itself went away; its watches are closed. */
  rootGone(root: string): void;
  /** A folder could not be watched for a reason other than its going away or being unreadable. */
  failed(folder: string, error: NodeJS.ErrnoException): void;
}

/** Errors that mean the folder is gone or not ours to read: nothing to watch, nothing to say. */
const QUIET_ERRORS: ReadonlySet<string | undefined> = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP']);

const isInside = (folder: string, file: string): boolean => relativeInside(folder, file) !== undefined;

export class FolderTreeWatcher implements Disposable {
  /** Watches by the path they were reached at (through links as walked): folders, and linked files. */
  private readonly watches = new Map<string, fs.FSWatcher>();
  /** The identity (device and inode) of the folder each folder watch was made for. */
  private readonly folderIds = new Map<string, string>();
  private readonly roots = new Set<string>();
  private disposed = false;

  constructor(private readonly events: FolderTreeEvents) {}

  /** Watches `root` and every folder under it; resolves once all of them are watched. */
  async add(root: string): Promise<void> {
    this.roots.add(root);
    await this.walk(root, new Set(), false);
  }

  /** Stops watching `root`, but not the folders of it that lie in another root still watched. */
  remove(root: string): void {
    this.roots.delete(root);
    for (const watched of [...this.watches.keys()]) {
      if (isInside(root, watched) && ![...this.roots].some((kept) => isInside(kept, watched))) {
        this.close(watched);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const watched of [...this.watches.keys()]) {
      this.close(watched);
    }
    this.roots.clear();
  }

  /**
   * Watches `folder`, then the folders in it. `ancestors` are the identities of the folders above it
   * on this walk: a link back to one of them would go round forever. `announce` reports each entry
   * found as created: a folder made after the watch began may have been filled before its own watch.
   */
  private async walk(folder: string, ancestors: ReadonlySet<string>, announce: boolean): Promise<void> {
    if (this.disposed || this.watches.has(folder)) {
      return;
    }
    const stats = await fs.promises.stat(folder).catch(() => undefined);
    const id = stats && folderId(stats);
    if (!stats?.isDirectory() || id === undefined || ancestors.has(id) || this.disposed || this.watches.has(folder)) {
      return;
    }
    if (!this.watch(folder, (event, name) => this.onFolderEvent(folder, event, name))) {
      return;
    }
    this.folderIds.set(folder, id);
    const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
    const below = new Set(ancestors).add(id);
    await Promise.all(
      entries
        .filter((entry) => !IGNORED_FOLDER_NAMES.has(entry.name))
        .map(async (entry) => {
          const entryPath = path.join(folder, entry.name);
          if (announce) {
            this.events.changed({ path: entryPath, kind: 'created' });
          }
          if (entry.isDirectory()) {
            await this.walk(entryPath, below, announce);
          } else if (entry.isSymbolicLink()) {
            await this.followLink(entryPath, below, announce);
          }
        }),
    );
  }

  /**
   * A link to a folder is walked like a folder; a link to a file gets its own watch, which follows the
   * link. A target replaced by a rename (as editors save) ends that watch: the new file gets one.
   */
  private async followLink(link: string, ancestors: ReadonlySet<string>, announce: boolean): Promise<void> {
    const target = await fs.promises.stat(link).catch(() => undefined);
    if (target?.isDirectory()) {
      await this.walk(link, ancestors, announce);
    } else if (target?.isFile() && !this.disposed && !this.watches.has(link)) {
      this.watch(link, (event) => {
        this.events.changed({ path: link, kind: event === 'change' ? 'changed' : 'created' });
        if (event === 'rename') {
          this.close(link);
          void this.followLink(link, ancestors, false);
        }
      });
    }
  }

  /** Whether a watch of `file` began; a failure other than its going away is passed on. */
  private watch(file: string, listener: (event: string, name: string | null) => void): boolean {
    try {
      const watcher = fs.watch(file, { persistent: true }, listener);
      // A watch whose folder went away errors once; its parent reports the deletion.
      watcher.on('error', () => this.close(file));
      this.watches.set(file, watcher);
      return true;
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      if (!QUIET_ERRORS.has(failure.code)) {
        this.events.failed(file, failure);
      }
      return false;
    }
  }

  private close(watched: string): void {
    this.watches.get(watched)?.close();
    this.watches.delete(watched);
    this.folderIds.delete(watched);
  }

  private onFolderEvent(folder: string, event: string, name: string | null): void {
    if (this.disposed) {
      return;
    }
    // Without a name (which Linux always gives), the whole folder is looked at again.
    const entryPath = name ? path.join(folder, name) : folder;
    if (name && IGNORED_FOLDER_NAMES.has(name)) {
      return;
    }
    void this.settle(folder, entryPath, event);
  }

  /** Finds what an event meant from what is on disk now: the latest state is what counts. */
  private async settle(folder: string, entryPath: string, event: string): Promise<void> {
    // A deleted folder's own watch reports its name: the folder itself may be what went.
    if (path.basename(entryPath) === path.basename(folder) && this.watches.has(folder) && !(await exists(folder))) {
      this.folderGone(folder);
      return;
    }
    const stats = await fs.promises.lstat(entryPath).catch(() => undefined);
    if (this.disposed || !this.watches.has(folder)) {
      return;
    }
    if (!stats) {
      this.folderGone(entryPath);
      this.events.changed({ path: entryPath, kind: 'deleted' });
      return;
    }
    // A folder put in the place of a watched one (moved there, or renamed over it) is a new folder.
    if (stats.isDirectory() && entryPath !== folder && this.folderIds.has(entryPath) && this.folderIds.get(entryPath) !== folderId(stats)) {
      this.folderGone(entryPath);
    }
    const known = this.watches.has(entryPath);
    this.events.changed({ path: entryPath, kind: event === 'change' && (known || !stats.isDirectory()) ? 'changed' : 'created' });
    if (known || entryPath === folder) {
      return;
    }
    const ancestors = this.ancestorIds(folder);
    if (stats.isDirectory()) {
      await this.walk(entryPath, ancestors, true);
    } else if (stats.isSymbolicLink()) {
      await this.followLink(entryPath, ancestors, true);
    }
  }

  /** Closes the watches of `folder` and below; a root going away is passed on. */
  private folderGone(folder: string): void {
    const wasWatched = this.watches.has(folder);
    for (const watched of [...this.watches.keys()]) {
      if (isInside(folder, watched)) {
        this.close(watched);
      }
    }
    if (wasWatched && this.roots.has(folder)) {
      this.events.rootGone(folder);
    }
  }

  /** The identities of `folder` and the watched folders above it, for a folder found in it later. */
  private ancestorIds(folder: string): Set<string> {
    const ancestors = new Set<string>();
    let current = folder;
    for (let id = this.folderIds.get(current); id !== undefined; id = this.folderIds.get(current)) {
      ancestors.add(id);
      if (path.dirname(current) === current) {
        break;
      }
      current = path.dirname(current);
    }
    return ancestors;
  }
}

function folderId(stats: fs.Stats): string {
  return `${stats.dev}:${stats.ino}`;
}

function exists(file: string): Promise<boolean> {
  return fs.promises.access(file).then(
    () => true,
    () => false,
  );
}
