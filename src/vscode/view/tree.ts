// The Skills view: a TreeDataProvider over the core view model (core/skill-view), refreshed on every
// registry snapshot, with the count badge and the context keys the welcome content reads.

import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import { describeCatalogSize } from '../../core/use/catalog-report';
import {
  auditTooltipLines,
  buildSkillView,
  viewBadge,
  viewMessage,
  type FileFinding,
  type GroupViewItem,
  type IconSpec,
  type InstalledMark,
  type SkillViewItem,
  type ViewAction,
  type ViewItem,
} from '../../core/view/skill-view';
import { unconfiguredMessage } from '../../core/discovery/unconfigured-locations';
import { currentCatalog } from '../../core/use/current-catalog';
import { COMMANDS, CONTEXT_KEYS, SKILLS_VIEW_ID } from '../shared/manifest';
import { setContext } from './set-context';
import type { SkillsHost } from '../skills/types';
import type { InstalledSkills, SourceDiagnostics } from '../sources/types';
import { relativeInside } from '../../core/util/paths';
import { AUDIT_DIAGNOSTIC_SOURCE, fromVscodeSeverity } from '../shared/convert';
import type { UnconfiguredLocations } from './unconfigured-locations';
import { Disposable } from '../shared/disposable';

/** The command behind each action line of the view. */
const VIEW_ACTION_COMMANDS: Record<ViewAction, string> = { manageTrust: COMMANDS.manageTrust };

const REDRAW_DELAY_MS = 50;

/** The marks before the installed skills are followed. */
const NOTHING_INSTALLED: ReadonlyMap<string, InstalledMark> = new Map();

export class SkillsTreeProvider extends Disposable implements vscode.TreeDataProvider<ViewItem> {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<ViewItem[] | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private groups: GroupViewItem[] = [];
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly parents = new Map<ViewItem, GroupViewItem>();
  private readonly homeDir = os.homedir();
  /**
   * When (performance.now()) the view was first handed skills' rows (or the empty view's root) of a
   * complete snapshot: the tree drawn at start-up.
   */
  firstRowsServedAt: number | undefined;
  /** The files of Node's module cache when the first rows were handed over: the code evaluated before them. */
  modulesAtFirstRows: readonly string[] | undefined;
  /** When (performance.now()) the view was first seen open (at its creation, or later). */
  firstVisibleAt: number | undefined;
  /**
   * Whether the view has asked for its rows yet. Until then a change is not announced: the first
   * fetch gets the rows as they are, and an announcement made before it would only make VS Code
   * fetch everything a second time before it asks for the groups' rows (about a second at start-up).
   */
  private fetched = false;

  /** Skills installed from a source and their audit findings, once followed (showInstalled). */
  private installed: { skills: InstalledSkills; diagnostics: Pick<SourceDiagnostics, 'entries'> } | undefined;

  constructor(private readonly host: SkillsHost) {
    super();
    this.rebuild(host.snapshot);
    this.register(host.onDidChange((snapshot) => this.rebuild(snapshot)));
    // The allowlist decides which items offer "Remove from Allowlist", even when no status changes.
    this.register(host.onDidChangeSettings(() => this.rebuild(host.snapshot)));
    this.register({ dispose: () => clearTimeout(this.redrawTimer) });
  }

  /**
   * Marks installed skills' origins, drift and updates on their rows from now on. They are known only
   * after the first rows (the tracker starts then), so the view follows them from there.
   */
  showInstalled(skills: InstalledSkills, diagnostics: Pick<SourceDiagnostics, 'entries'>): void {
    this.installed = { skills, diagnostics };
    this.register(skills.onDidChange(() => this.rebuild(this.host.snapshot)));
    this.rebuild(this.host.snapshot);
  }

  /** The items shown right now, top level first (tests read the tree through this). */
  get topLevel(): readonly GroupViewItem[] {
    return this.groups;
  }

  /** Asks the view to fetch everything again, even if nothing changed. */
  redraw(): void {
    clearTimeout(this.redrawTimer);
    this.redrawTimer = undefined;
    this.announce(undefined);
  }

  getTreeItem(item: ViewItem): vscode.TreeItem {
    const collapsible = item.kind === 'group' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None;
    const treeItem = new vscode.TreeItem(item.label, collapsible);
    treeItem.id = item.id;
    treeItem.description = item.description;
    treeItem.iconPath = themeIcon(item.icon);
    if (item.kind === 'skill') {
      treeItem.contextValue = item.contextValue;
      treeItem.resourceUri = vscode.Uri.file(item.record.file);
      treeItem.command = { command: COMMANDS.openSkill, title: 'Open SKILL.md', arguments: [item] };
    } else if (item.kind === 'problem') {
      treeItem.contextValue = item.contextValue;
    } else if (item.kind === 'action') {
      treeItem.command = { command: VIEW_ACTION_COMMANDS[item.action], title: item.label };
    }
    return treeItem;
  }

  /** Tooltips are made on hover: a redraw then sends a thousand rows without a thousand Markdown documents. */
  resolveTreeItem(treeItem: vscode.TreeItem, item: ViewItem): vscode.TreeItem {
    if (item.kind === 'skill') {
      treeItem.tooltip = markdown([item.tooltip, ...auditTooltipLines(this.auditFindings(item))].join('\n'));
    } else if ((item.kind === 'problem' || item.kind === 'group') && item.tooltip !== undefined) {
      treeItem.tooltip = markdown(item.tooltip);
    }
    return treeItem;
  }

  /** The audit's findings on the skill's files, as the Problems panel shows them; none for an untrusted skill, whose text is never shown. */
  private auditFindings(item: SkillViewItem): FileFinding[] {
    if (item.record.status === 'untrusted') {
      return [];
    }
    return (this.installed?.diagnostics.entries() ?? []).flatMap(([uri, diagnostics]) => {
      const file = relativeInside(item.record.dir, uri.fsPath);
      return file === undefined
        ? []
        : diagnostics
            .filter((diagnostic) => diagnostic.source === AUDIT_DIAGNOSTIC_SOURCE)
            .map((diagnostic) => ({ file: file.split(path.sep).join('/'), line: diagnostic.range.start.line, severity: fromVscodeSeverity(diagnostic.severity), message: diagnostic.message }));
    });
  }

  getChildren(item?: ViewItem): ViewItem[] | Thenable<ViewItem[]> {
    if (this.host.startupMs === undefined) {
      // Asked before the first snapshot (the view opened with the window): the answer waits for its
      // rows instead of showing none, which the snapshot would then make the view fetch again.
      return this.host.ready.catch(() => undefined).then(() => this.rows(item));
    }
    return this.rows(item);
  }

  private rows(item: ViewItem | undefined): ViewItem[] {
    const rows = item ? (item.kind === 'group' ? item.children : []) : this.groups;
    if (!item) {
      this.fetched = true;
      // The view gets the rows of the latest snapshot now: a redraw announced for them would only fetch them again.
      clearTimeout(this.redrawTimer);
      this.redrawTimer = undefined;
    }
    // The rows are asked for per expanded group, level by level (Available, then its sources unless
    // there is only one, then grouping folders).
    if (this.firstRowsServedAt === undefined && this.host.startupMs !== undefined && (rows.some((row) => row.kind !== 'group') || (!item && rows.length === 0))) {
      // Skills' rows (or the empty view's welcome) are on their way: what they do not need may start,
      // once this answer has gone.
      this.firstRowsServedAt = performance.now();
      this.modulesAtFirstRows = Object.keys(require.cache);
      setTimeout(() => this.host.markFirstRowsShown());
    }
    return rows;
  }

  getParent(item: ViewItem): ViewItem | undefined {
    return this.parents.get(item);
  }

  private rebuild(snapshot: RegistrySnapshot): void {
    const groups = buildSkillView(snapshot, { allowlist: this.host.settings.allowlist, installed: this.installed?.skills.marks ?? NOTHING_INSTALLED }, this.homeDir);
    if (this.redrawTimer === undefined && sameShape(this.groups, groups)) {
      // The same rows in the same places (an edited description, a new status): only the rows
      // that changed are drawn again, in place, instead of the whole view; none when nothing the
      // user would see changed.
      const changed = takeChangedContents(this.groups, groups);
      if (changed.length > 0) {
        this.announce(changed);
      }
      return;
    }
    this.groups = groups;
    this.parents.clear();
    const index = (group: GroupViewItem): void => {
      for (const child of group.children) {
        this.parents.set(child, group);
        if (child.kind === 'group') {
          index(child);
        }
      }
    };
    this.groups.forEach(index);
    this.scheduleRedraw();
  }

  /**
   * Bursts of snapshots (a checkout, a refresh) become one redraw: a view asked to refresh again
   * while it still fetches the previous refresh's children can be left showing stale rows.
   */
  private scheduleRedraw(): void {
    this.redrawTimer ??= setTimeout(() => {
      this.redrawTimer = undefined;
      this.announce(undefined);
    }, REDRAW_DELAY_MS);
  }

  /** Tells the view which rows changed (undefined: all of them), once it has rows to change. */
  private announce(rows: ViewItem[] | undefined): void {
    if (this.fetched) {
      this.changeEmitter.fire(rows);
    }
  }
}

/** Everything a row shows, so equal signatures mean an identical row. */
function rowSignature(contents: object): string {
  return JSON.stringify(contents, (key, value: unknown) => (key === 'record' || key === 'problem' ? undefined : value));
}

/** Whether both trees hold the same rows (by id and kind) in the same places. */
function sameShape(current: readonly ViewItem[], next: readonly ViewItem[]): boolean {
  return (
    current.length === next.length &&
    current.every((item, index) => {
      const other = next[index];
      return item.id === other.id && item.kind === other.kind && (item.kind !== 'group' || sameShape(item.children, (other as GroupViewItem).children));
    })
  );
}

/**
 * Gives each row of `current` the contents of its counterpart in `next` (same shape), keeping the
 * row objects VS Code knows, and returns the rows whose visible contents changed.
 */
function takeChangedContents(current: readonly ViewItem[], next: readonly ViewItem[]): ViewItem[] {
  const changed: ViewItem[] = [];
  current.forEach((item, index) => {
    const contents = ownContents(next[index]);
    if (rowSignature(ownContents(item)) !== rowSignature(contents)) {
      changed.push(item);
    }
    replaceContents(item, contents);
    if (item.kind === 'group') {
      changed.push(...takeChangedContents(item.children, (next[index] as GroupViewItem).children));
    }
  });
  return changed;
}

/** What a row itself shows: the item without its children. */
function ownContents(item: ViewItem): object {
  if (item.kind !== 'group') {
    return item;
  }
  const { children, ...contents } = item;
  return contents;
}

/** Gives `target` exactly the fields of `source`, its children aside. */
function replaceContents(target: ViewItem, source: object): void {
  const fields = target as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (key !== 'children' && !(key in source)) {
      delete fields[key];
    }
  }
  Object.assign(target, source);
}

function themeIcon(icon: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

function markdown(text: string): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(text, true);
  tooltip.isTrusted = false;
  return tooltip;
}

/**
 * The Skills view's provider until activate() makes the real one: the view can be registered as the
 * extension's code loads, so the window asks for its rows while VS Code still prepares the
 * activation (see extension.ts). Rows asked for before wait for the provider; every item the view
 * holds came from it.
 */
class ProviderToCome implements vscode.TreeDataProvider<ViewItem> {
  private readonly changeEmitter = new vscode.EventEmitter<ViewItem[] | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private current: SkillsTreeProvider | undefined;
  private arrive: (provider: SkillsTreeProvider) => void = () => undefined;
  private readonly arrived = new Promise<SkillsTreeProvider>((resolve) => (this.arrive = resolve));

  attach(provider: SkillsTreeProvider): vscode.Disposable {
    this.current = provider;
    this.arrive(provider);
    return vscode.Disposable.from(
      this.changeEmitter,
      provider.onDidChangeTreeData((rows) => this.changeEmitter.fire(rows)),
    );
  }

  getChildren(item?: ViewItem): ViewItem[] | Thenable<ViewItem[]> {
    return this.current ? this.current.getChildren(item) : this.arrived.then((provider) => provider.getChildren(item));
  }

  getTreeItem(item: ViewItem): vscode.TreeItem {
    return this.provider.getTreeItem(item);
  }

  resolveTreeItem(treeItem: vscode.TreeItem, item: ViewItem): vscode.TreeItem {
    return this.provider.resolveTreeItem(treeItem, item);
  }

  getParent(item: ViewItem): ViewItem | undefined {
    return this.provider.getParent(item);
  }

  private get provider(): SkillsTreeProvider {
    if (!this.current) {
      throw new Error('The Skills view has no provider yet.');
    }
    return this.current;
  }
}

/** The Skills view, registered before its provider exists (see ProviderToCome), and how to give it one. */
export interface EarlySkillsView {
  readonly view: vscode.TreeView<ViewItem>;
  attach(provider: SkillsTreeProvider): vscode.Disposable;
}

export function createEarlySkillsView(): EarlySkillsView {
  const provider = new ProviderToCome();
  return { view: vscode.window.createTreeView(SKILLS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true }), attach: (tree) => provider.attach(tree) };
}

/** Gives the view its provider, badge and message, and keeps the welcome-content context keys current. */
export function createSkillsView(early: EarlySkillsView, host: SkillsHost, provider: SkillsTreeProvider, unconfigured: UnconfiguredLocations): vscode.Disposable {
  const view = early.view;
  const attached = early.attach(provider);
  // An open view will ask for its rows: what waits for them waits longer before giving up.
  host.viewAwaitsRows = () => view.visible && provider.firstRowsServedAt === undefined;
  const seenOpen = (): void => {
    if (view.visible) {
      provider.firstVisibleAt ??= performance.now();
    }
  };
  seenOpen();
  let reportedOverflow = '';
  const update = (snapshot: RegistrySnapshot): void => {
    view.badge = viewBadge(snapshot);
    // Without a model at hand, the character budget decides; the chat participant sizes it per model.
    const catalog = currentCatalog(host);
    // An empty view shows its welcome content instead (a message would hide it), which says the same.
    const unconfiguredNote = snapshot.skills.length > 0 ? unconfiguredMessage(unconfigured.locations) : undefined;
    view.message = [viewMessage(snapshot, catalog), unconfiguredNote].filter((part) => part !== undefined).join(' ') || undefined;
    const overflow = catalog.overflow.join(', ');
    if (overflow !== reportedOverflow && overflow !== '') {
      const more = catalog.overflow.length > 20 ? ` …and ${catalog.overflow.length - 20} more` : '';
      host.log.warn(`${describeCatalogSize(catalog, catalog.budgetChars)} Past the budget: ${catalog.overflow.slice(0, 20).join(', ')}${more}.`);
    }
    reportedOverflow = overflow;
    void setContext(CONTEXT_KEYS.skillCount, snapshot.skills.length);
    void setContext(CONTEXT_KEYS.turnedOff, !host.settings.enabled);
  };
  update(host.snapshot);
  void host.ready.then(async () => {
    update(host.snapshot);
    await unconfigured.check();
    void setContext(CONTEXT_KEYS.ready, true);
  });
  return vscode.Disposable.from(
    view,
    attached,
    host.onDidChange((snapshot) => {
      update(snapshot);
      // A skill added to (or removed from) a well-known folder changes what is worth pointing out.
      void unconfigured.check();
    }),
    unconfigured.onDidChange(() => update(host.snapshot)),
    host.onDidChangeSettings(() => update(host.snapshot)),
    // Rows computed while the view was hidden can be laid out for the wrong height (seen in the web
    // workbench: the last group expanded but empty); redrawing once it is shown fixes that.
    view.onDidChangeVisibility((event) => {
      seenOpen();
      if (event.visible) {
        provider.redraw();
      }
    }),
    // Folders and the locations setting change the roots; those are the moments to look again.
    host.onDidChangeRoots(() => void unconfigured.check()),
  );
}
