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

/**
 * A `failed` handler that tells `log` of a folder that cannot be watched, once per kind of failure:
 * one line is enough to say that changes there go unseen.
 */
export function logWatchFailures(log: (message: string) => void): FolderTreeEvents['failed'] {
  const logged = new Set<string>();
  return (folder, error) => {
    const kind = error.code ?? error.message;
    if (logged.has(kind)) {
      return;
    }
    logged.add(kind);
    log(
      error.code === 'ENOSPC'
        ? `cannot watch ${folder} for changes, nor the folders after it: the system's limit of file watches is reached (ENOSPC; raise fs.inotify.max_user_watches). What changes there is not seen until the server restarts.`
        : `cannot watch ${folder} for changes (${kind}; other folders that fail alike are not named). What changes there is not seen until the server restarts.`,
    );
  };
}

/** Errors that mean the folder is gone or not ours to read: nothing to watch, nothing to say. */
const QUIET_ERRORS: ReadonlySet<string | undefined> = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP']);

const isInside = (folder: string, file: string): boolean => relativeInside(folder, file) !== undefined;

export interface FolderTreeOptions {
  /** How many folder levels below a root are watched (0: the root alone); every level when absent. */
  depth?: number;
  /** Report folders only: files are neither reported nor watched through links. */
  foldersOnly?: boolean;
}

export class FolderTreeWatcher implements Disposable {
  /** Watches by the path they were reached at (through links as walked): folders, and linked files. */
  private readonly watches = new Map<string, fs.FSWatcher>();
  /** Each watched folder's identity (device and inode) and level below its root. */
  private readonly folders = new Map<string, { id: string; level: number }>();
  private readonly roots = new Set<string>();
  private readonly depth: number;
  private readonly foldersOnly: boolean;
  private disposed = false;

  constructor(
    private readonly events: FolderTreeEvents,
    options: FolderTreeOptions = {},
  ) {
    this.depth = options.depth ?? Infinity;
    this.foldersOnly = options.foldersOnly ?? false;
  }

  /** Watches `root` and the folders under it; resolves once all of them are watched. */
  async add(root: string): Promise<void> {
    this.roots.add(root);
    await this.walk(root, 0, new Set(), false);
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
   * Watches `folder`, at `level` below its root, then the folders in it down to the depth.
   * `ancestors` are the identities of the folders above it on this walk: a link back to one of them
   * would go round forever. `announce` reports each entry found as created: a folder made after the
   * watch began may have been filled before its own watch.
   */
  private async walk(folder: string, level: number, ancestors: ReadonlySet<string>, announce: boolean): Promise<void> {
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
    this.folders.set(folder, { id, level });
    const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
    const below = new Set(ancestors).add(id);
    await Promise.all(
      entries
        .filter((entry) => !IGNORED_FOLDER_NAMES.has(entry.name))
        .map(async (entry) => {
          const entryPath = path.join(folder, entry.name);
          const isFolder = entry.isDirectory() || (entry.isSymbolicLink() && (await isFolderBehind(entryPath)));
          if (announce && (isFolder || !this.foldersOnly)) {
            this.events.changed({ path: entryPath, kind: 'created' });
          }
          await this.enter(entryPath, isFolder, entry.isSymbolicLink(), level + 1, below, announce);
        }),
    );
  }

  /** Watches an entry found at `level`: a folder within the depth is walked, a linked file gets its own watch. */
  private async enter(entryPath: string, isFolder: boolean, isLink: boolean, level: number, ancestors: ReadonlySet<string>, announce: boolean): Promise<void> {
    if (isFolder && level <= this.depth) {
      await this.walk(entryPath, level, ancestors, announce);
    } else if (!isFolder && isLink && !this.foldersOnly) {
      await this.watchLinkedFile(entryPath);
    }
  }

  /**
   * A link to a file gets a watch of its own, which follows the link. A target replaced by a rename
   * (as editors save) ends that watch: the new file gets one.
   */
  private async watchLinkedFile(link: string): Promise<void> {
    const target = await fs.promises.stat(link).catch(() => undefined);
    if (target?.isFile() && !this.disposed && !this.watches.has(link)) {
      this.watch(link, (event) => {
        this.events.changed({ path: link, kind: event === 'change' ? 'changed' : 'created' });
        if (event === 'rename') {
          this.close(link);
          void this.watchLinkedFile(link);
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
    this.folders.delete(watched);
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
    // A folder's own watch reports its name when the folder is deleted or moved away: the folder itself
    // may be what went. Its parent's watch may report that too, but may come second, when the folder
    // is known no more.
    if (path.basename(entryPath) === path.basename(folder) && this.folders.has(folder) && !(await this.stillThere(folder))) {
      if (this.folderGone(folder)) {
        this.events.changed({ path: folder, kind: 'deleted' });
      }
      return;
    }
    const stats = await fs.promises.lstat(entryPath).catch(() => undefined);
    const isFolder = stats !== undefined && (stats.isDirectory() || (stats.isSymbolicLink() && (await isFolderBehind(entryPath))));
    const parent = this.folders.get(folder);
    if (this.disposed || !parent) {
      return;
    }
    if (!stats) {
      // In foldersOnly mode a deletion is reported only for a folder known to have been one.
      if (this.folderGone(entryPath) || !this.foldersOnly) {
        this.events.changed({ path: entryPath, kind: 'deleted' });
      }
      return;
    }
    // A folder put in the place of a watched one (moved there, or renamed over it) is a new folder.
    const known = this.folders.get(entryPath);
    if (known && stats.isDirectory() && entryPath !== folder && known.id !== folderId(stats)) {
      this.folderGone(entryPath);
    }
    if (this.foldersOnly && !isFolder) {
      return;
    }
    const watched = this.watches.has(entryPath);
    this.events.changed({ path: entryPath, kind: event === 'change' && (watched || !isFolder) ? 'changed' : 'created' });
    if (!watched && entryPath !== folder) {
      await this.enter(entryPath, isFolder, stats.isSymbolicLink(), parent.level + 1, this.ancestorIds(folder), true);
    }
  }

  /** Whether the folder a watch was made for is still at its path: not deleted, nor moved away and replaced. */
  private async stillThere(folder: string): Promise<boolean> {
    const stats = await fs.promises.stat(folder).catch(() => undefined);
    return stats !== undefined && folderId(stats) === this.folders.get(folder)?.id;
  }

  /** Closes the watches of `folder` and below, and says whether it was a watched folder; a root going away is passed on. */
  private folderGone(folder: string): boolean {
    const wasWatched = this.folders.has(folder);
    for (const watched of [...this.watches.keys()]) {
      if (isInside(folder, watched)) {
        this.close(watched);
      }
    }
    if (wasWatched && this.roots.has(folder)) {
      this.events.rootGone(folder);
    }
    return wasWatched;
  }

  /** The identities of `folder` and the watched folders above it, for a folder found in it later. */
  private ancestorIds(folder: string): Set<string> {
    const ancestors = new Set<string>();
    let current = folder;
    for (let known = this.folders.get(current); known !== undefined; known = this.folders.get(current)) {
      ancestors.add(known.id);
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

function isFolderBehind(link: string): Promise<boolean> {
  return fs.promises.stat(link).then(
    (target) => target.isDirectory(),
    () => false,
  );
}
