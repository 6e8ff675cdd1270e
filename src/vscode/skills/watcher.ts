// One FileSystemWatcher per skill root, re-created when the roots change, plus one per workspace
// folder whose sub-projects' locations are used, for locations appearing in new places. Events are
// coalesced (core ChangeCoalescer) into a single registry update, which re-reads only the touched folders.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChangeCoalescer, RootsCatchUp } from '../../core/discovery/change-coalescer';
import { relativeInside } from '../../core/util/paths';
import type { SkillChange } from '../../core/discovery/registry';
import type { SkillRoot } from '../../core/model/types';
import { MAX_SUBPROJECT_DEPTH } from '../../core/discovery/nested-locations';
import { nestedLocationsWatchGlob, rootWatchGlob } from '../../core/discovery/watch-patterns';
import { Disposable } from '../shared/disposable';
import type { SkillsHost } from './skills-host';

export class SkillWatcher extends Disposable {
  /** The watchers of the current roots, replaced when the roots change. */
  private watchers: vscode.Disposable[] = [];
  private readonly coalescer: ChangeCoalescer;
  private readonly catchUp: RootsCatchUp;
  private readonly appliedEmitter = this.register(new vscode.EventEmitter<readonly SkillChange[]>());
  /**
   * Fires with each batch of changed paths once the registry applied it, for features that read
   * other files of a skill folder (trigger tests) and follow the same watchers.
   */
  readonly onDidApplyChanges = this.appliedEmitter.event;

  constructor(private readonly host: SkillsHost) {
    super();
    this.coalescer = this.register(new ChangeCoalescer((changes) => void host.applyChanges(changes).finally(() => this.appliedEmitter.fire(changes))));
    this.catchUp = this.register(
      new RootsCatchUp(
        (change) => this.coalescer.add(change),
        () => host.roots.map((root) => root.path),
      ),
    );
    this.register(host.onDidChangeRoots((roots) => this.watch(roots)));
    this.register({ dispose: () => this.disposeWatchers() });
    this.watch(host.roots);
  }

  /** True while events wait for their batch to be applied. */
  get pending(): boolean {
    return this.coalescer.pending;
  }

  /** Applies waiting events now (tests and benchmarks use it to skip the quiet period). */
  flush(): void {
    this.coalescer.flush();
  }

  private watch(allRoots: readonly SkillRoot[]): void {
    // A skill server's cache changes only through the servers' own listing, which reports it.
    const roots = allRoots.filter((root) => root.kind !== 'server');
    this.disposeWatchers();
    this.catchUp.watchersRestarted(this.host.rootsReadBeforeWatching);
    const patterns = roots.map(watchPattern);
    for (const { folder, locations } of this.host.nestedLocationsWatches) {
      const glob = nestedLocationsWatchGlob(locations, MAX_SUBPROJECT_DEPTH);
      if (glob) {
        patterns.push(new vscode.RelativePattern(folder, glob));
      }
    }
    for (const pattern of patterns) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const report = (kind: SkillChange['kind']) => (uri: vscode.Uri) => this.coalescer.add({ path: uri.fsPath, kind });
      this.watchers.push(watcher, watcher.onDidCreate(report('created')), watcher.onDidChange(report('changed')), watcher.onDidDelete(report('deleted')));
    }
  }

  private disposeWatchers(): void {
    vscode.Disposable.from(...this.watchers).dispose();
    this.watchers = [];
  }
}

/**
 * Inside a workspace folder, a pattern on the folder rides on VS Code's own recursive workspace
 * watcher and also sees the root being created or deleted. Elsewhere (user folder,
 * AGENT_SKILLS_PATH, built-in) a pattern on the root's Uri asks for a dedicated watcher; VS Code
 * starts it once the folder exists.
 */
function watchPattern(root: SkillRoot): vscode.RelativePattern {
  // A sub-project's location often appears with its package, all at once (mkdir -p, a checkout),
  // and the workspace watcher then misses what is later written inside it: a watcher of its own
  // sees it. Its appearing and vanishing reach the folder's nested-locations watcher.
  const folder = root.package === undefined ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root.path)) : undefined;
  const relative = folder && relativeInside(folder.uri.fsPath, root.path);
  if (folder && relative !== undefined) {
    return new vscode.RelativePattern(folder, rootWatchGlob(relative.split(path.sep).join('/')));
  }
  return new vscode.RelativePattern(vscode.Uri.file(root.path), '**');
}
