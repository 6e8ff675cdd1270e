// Follows the folders of a project served with `mcp --project DIR`, as the editor follows a
// workspace folder: a skill location appearing in a new sub-project, or going with it, changes the
// roots. Only folders are watched, as deep as a location of the deepest sub-project the walk finds.

import * as path from 'node:path';
import { watch, type FSWatcher } from './libraries';
import { ChangeCoalescer } from '../../core/discovery/change-coalescer';
import { MAX_SUBPROJECT_DEPTH } from '../../core/discovery/nested-locations';
import { IGNORED_FOLDER_NAMES } from '../../core/discovery/ignored-folders';
import type { Disposable } from '../../core/model/event';

export class ProjectWatcher implements Disposable {
  private readonly watcher: FSWatcher;
  private readonly coalescer: ChangeCoalescer;
  /** Resolves once the watcher has done its initial scan. */
  readonly ready: Promise<void>;

  /** `locationDepth`: folders in the deepest configured location (`.agent/skills` is 2). */
  constructor(folder: string, locationDepth: number, onFoldersChanged: () => void) {
    this.coalescer = new ChangeCoalescer(() => onFoldersChanged());
    this.watcher = watch(folder, {
      ignoreInitial: true,
      depth: MAX_SUBPROJECT_DEPTH + locationDepth,
      ignored: (file, stats) => IGNORED_FOLDER_NAMES.has(path.basename(file)) || stats?.isFile() === true,
    });
    this.watcher.on('addDir', (dir) => this.coalescer.add({ path: dir, kind: 'created' }));
    this.watcher.on('unlinkDir', (dir) => this.coalescer.add({ path: dir, kind: 'deleted' }));
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()));
  }

  async dispose(): Promise<void> {
    this.coalescer.dispose();
    await this.watcher.close();
  }
}
