// Follows the folders of a project served with `mcp --project DIR`, as the editor follows a
// workspace folder: a skill location appearing in a new sub-project, or going with it, changes the
// roots. Only folders are watched, as deep as a location of the deepest sub-project the walk finds.

import { FolderTreeWatcher, logWatchFailures } from './folder-tree-watcher';
import { ChangeCoalescer } from '../../core/discovery/change-coalescer';
import { MAX_SUBPROJECT_DEPTH } from '../../core/discovery/nested-locations';
import type { Disposable } from '../../core/model/event';

export class ProjectWatcher implements Disposable {
  private readonly watcher: FolderTreeWatcher;
  private readonly coalescer: ChangeCoalescer;
  /** Resolves once every folder to watch is watched. */
  readonly ready: Promise<void>;

  /**
   * `locationDepth`: folders in the deepest configured location (`.agent/skills` is 2). `log` is told,
   * once per kind, of a folder that cannot be watched.
   */
  constructor(folder: string, locationDepth: number, onFoldersChanged: () => void, log: (message: string) => void = () => undefined) {
    this.coalescer = new ChangeCoalescer(() => onFoldersChanged());
    this.watcher = new FolderTreeWatcher(
      {
        changed: (change) => this.coalescer.add(change),
        rootGone: (root) => this.coalescer.add({ path: root, kind: 'deleted' }),
        failed: logWatchFailures(log),
      },
      { depth: MAX_SUBPROJECT_DEPTH + locationDepth, foldersOnly: true },
    );
    this.ready = this.watcher.add(folder);
  }

  dispose(): Promise<void> {
    this.coalescer.dispose();
    this.watcher.dispose();
    return Promise.resolve();
  }
}
