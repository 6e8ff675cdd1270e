// The editor's owner of the skill registry: it turns workspace folders, settings, environment and
// Workspace Trust into skill roots, keeps them current, and is what every other part of the
// extension (tree, diagnostics, chat tools, participant, public API) reads and subscribes to.

import * as os from 'node:os';
import * as vscode from 'vscode';
import { activateSkill, type ActivationResult } from '../../core/use/activation';
import { invocationModeOf, type EditorOrigin } from '../../core/use/usage';
import { buildFolderSkillRoots, type SharedRootInputs } from '../../core/discovery/folder-roots';
import { discoverFirst, SkillRegistry, type FirstDiscovery, type RegistryOptions, type RegistrySnapshot, type SkillChange } from '../../core/discovery/registry';
import { sameRoot } from '../../core/discovery/record';
import { findNestedLocations, nestedLocationsTruncatedMessage } from '../../core/discovery/nested-locations';
import { SKILLS_PATH_ENV } from '../../core/discovery/roots';
import { relativeInside } from '../../core/util/paths';
import { describeProblems } from '../../core/view/skill-info';
import type { SkillRecord, SkillRoot } from '../../core/model/types';
import type { ToolNames } from '../../core/chat/tool-names';
import { onDidChangeSettings, readSettings } from '../shared/settings';
import { type SkillSettings } from '../../core/model/settings';
import { Disposable } from '../shared/disposable';
import { errorDetail } from '../../core/util/errors';
import { contentByOrigin, FOLDER_CONTENT, type SkillContent } from '../../core/use/skill-content';

export interface SkillsHostOptions {
  /** The extension's own `skills/` folder. */
  builtinDir: string;
  /** Defaults to the user's home folder. */
  homeDir?: string;
  /** Defaults to the extension host's AGENT_SKILLS_PATH. */
  skillsPath?: string;
  /** The skill servers (`agentSkills.servers`), whose cached skills are roots of their own. */
  servers?: SkillServerRoots;
  /** The first discovery, started before the host (see startFirstDiscovery); taken if its inputs are still the host's. */
  firstDiscovery?: EarlyDiscovery;
}

/** What the host needs of the skill servers: their roots, word of changes, and reading their skills. */
export interface SkillServerRoots {
  roots(): SkillRoot[];
  readonly onDidChangeRoots: vscode.Event<void>;
  /** A server's cache folder whose listing changed. */
  readonly onDidChangeListing: vscode.Event<string>;
  readonly files: { readonly content: SkillContent };
  /** Tries the servers (or the one named) that cannot be reached at once; the others list their skills again. */
  reconnect(name?: string): Promise<void>;
}

/** A skill activated, by whom, and the characters of the text it gave. */
export interface SkillActivation {
  record: SkillRecord;
  origin: EditorOrigin;
  chars: number;
}

/** A workspace folder whose sub-projects may gain or lose skill locations at run time. */
export interface NestedLocationsWatch {
  folder: vscode.WorkspaceFolder;
  locations: readonly string[];
}

/** Everything the roots are made of, read at one moment: settings, workspace folders, trust, environment. */
interface RootsInputs {
  enabled: boolean;
  folders: { folder: vscode.WorkspaceFolder; locations: readonly string[]; nestedLocations: boolean }[];
  shared: SharedRootInputs;
}

/** The roots, in precedence order, and the workspace folders watched for sub-projects' locations. */
interface ComputedRoots {
  roots: SkillRoot[];
  nestedWatches: NestedLocationsWatch[];
}

/** A first discovery started before the host: what it was started from, its roots, and its reading of them. */
export interface EarlyDiscovery {
  readonly inputs: RootsInputs;
  readonly roots: Promise<ComputedRoots>;
  readonly first: Promise<FirstDiscovery>;
}

/** The editor's registry's options, which a first discovery started before it must share. */
const REGISTRY_OPTIONS: RegistryOptions = { keepValidFiles: true };

/**
 * Starts the first discovery before the host exists: as the extension's code loads, VS Code first
 * reads the extension's stored state (a round trip to the window, slow while the window starts) and
 * only then calls activate(), and the roots need none of that state. The host created in activate()
 * takes it over when its own inputs are the same; otherwise it is dropped.
 */
export function startFirstDiscovery(log: vscode.LogOutputChannel, options: SkillsHostOptions): EarlyDiscovery {
  const inputs = readRootsInputs(readSettings(), options);
  const roots = computeRoots(inputs, log);
  const first = roots.then(({ roots: found }) => discoverFirst(found, REGISTRY_OPTIONS));
  // A failure surfaces when the host takes it (track() logs it); one never taken is of no interest.
  void first.then((discovery) => discovery.result).catch(() => undefined);
  return { inputs, roots, first };
}

function readRootsInputs(settings: SkillSettings, options: SkillsHostOptions): RootsInputs {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => {
      const { locations, nestedLocations } = readSettings(folder);
      return { folder, locations, nestedLocations };
    });
  return {
    enabled: settings.enabled,
    folders,
    shared: {
      workspaceTrusted: vscode.workspace.isTrusted,
      homeDir: options.homeDir ?? os.homedir(),
      userSkills: settings.userSkills,
      skillsPath: options.skillsPath ?? process.env[SKILLS_PATH_ENV],
      builtinDir: options.builtinDir,
      builtinSkills: settings.builtinSkills,
      serverRoots: options.servers?.roots() ?? [],
    },
  };
}

function sameRootsInputs(a: RootsInputs, b: RootsInputs): boolean {
  const key = (inputs: RootsInputs): string => JSON.stringify({ ...inputs, folders: inputs.folders.map((entry) => ({ ...entry, folder: [entry.folder.uri.toString(), entry.folder.name] })) });
  return key(a) === key(b);
}

async function computeRoots(inputs: RootsInputs, log: vscode.LogOutputChannel): Promise<ComputedRoots> {
  if (!inputs.enabled) {
    return { roots: [], nestedWatches: [] }; // Turned off: nothing is listed, watched or read.
  }
  const folders = await Promise.all(
    inputs.folders.map(async ({ folder, locations, nestedLocations }) => ({
      name: folder.name,
      path: folder.uri.fsPath,
      locations,
      packages: nestedLocations ? await findPackages(folder.uri.fsPath, locations, log) : [],
    })),
  );
  return {
    roots: buildFolderSkillRoots(folders, inputs.shared),
    nestedWatches: inputs.folders.filter((entry) => entry.nestedLocations).map(({ folder, locations }) => ({ folder, locations })),
  };
}

async function findPackages(folder: string, locations: readonly string[], log: vscode.LogOutputChannel): Promise<string[]> {
  const nested = await findNestedLocations(folder, locations);
  if (nested.truncated) {
    log.warn(nestedLocationsTruncatedMessage(folder));
  }
  return nested.packages;
}

/** How long after the first snapshot work the first rows do not need waits for the view at most. */
const FIRST_ROWS_WAIT_MS = 1500;

export class SkillsHost extends Disposable {
  /** The single source of truth. */
  readonly registry = this.register(new SkillRegistry(REGISTRY_OPTIONS));
  /** Fires with every new registry snapshot. */
  readonly onDidChange: vscode.Event<RegistrySnapshot> = this.registry.onDidChange as vscode.Event<RegistrySnapshot>;
  /** Resolves when the first discovery has finished. */
  readonly ready: Promise<void>;
  /**
   * Resolves once the Skills view has been handed the first snapshot's rows, or FIRST_ROWS_WAIT_MS
   * after that snapshot (a closed view asks for none). What those rows do not need (diagnostics,
   * trigger tests, host, lock and folder checks, usage from the MCP server) starts then, so it
   * neither delays the snapshot nor keeps the view waiting at start-up.
   */
  readonly firstRowsShown: Promise<void>;
  private showFirstRows: () => void = () => undefined;
  private firstRowsTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reads skills' bodies and files: from their folder, or a skill server's through its verified cache. */
  readonly content: SkillContent;

  private readonly rootsEmitter = this.register(new vscode.EventEmitter<readonly SkillRoot[]>());
  /** Fires when the set of roots changes (watchers follow it). */
  readonly onDidChangeRoots = this.rootsEmitter.event;
  private readonly settingsEmitter = this.register(new vscode.EventEmitter<SkillSettings>());
  /** Fires after changed `agentSkills.*` settings were applied (`settings` is current by then). */
  readonly onDidChangeSettings = this.settingsEmitter.event;
  private readonly activationEmitter = this.register(new vscode.EventEmitter<SkillActivation>());
  /** Fires after each successful activation. */
  readonly onDidActivateSkill = this.activationEmitter.event;

  /** When (performance.now()) activation created the host: start-up figures count from here. */
  readonly createdAt = performance.now();
  /** Milliseconds from creation to the end of the first discovery (the view is built by then). */
  startupMs: number | undefined;

  private currentSettings: SkillSettings;
  private currentRoots: readonly SkillRoot[] = [];
  private currentNestedWatches: readonly NestedLocationsWatch[] = [];
  /** Root updates run one after another: each walks the folders for sub-projects first. */
  private rootsQueue: Promise<void> = Promise.resolve();
  private discoveryStarted = false;
  private readEarly = false;
  /** Problems already written to the log, so each is logged once while it lasts. */
  private loggedProblems = new Set<string>();
  /** The latest registry update; awaited by whenIdle. */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    /** The one log channel, 'Agent Skills'. */
    readonly log: vscode.LogOutputChannel,
    private readonly options: SkillsHostOptions,
  ) {
    super();
    this.currentSettings = readSettings();
    this.register(onDidChangeSettings(() => this.applySettings()));
    this.register(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.log.info('Workspace folders changed; rediscovering skills.');
        void this.updateRoots(); // Failures are logged by track().
      }),
    );
    this.register(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('Workspace trusted; workspace skills are now read.');
        void this.updateRoots(); // Failures are logged by track().
      }),
    );
    this.register(this.onDidChange((snapshot) => this.logSnapshot(snapshot)));
    const servers = options.servers;
    this.content = servers ? contentByOrigin(servers.files.content) : FOLDER_CONTENT;
    if (servers) {
      this.register(servers.onDidChangeRoots(() => void this.updateRoots()));
      this.register(servers.onDidChangeListing((dir) => void this.applyChanges([{ path: dir, kind: 'changed' }])));
    }
    this.applyPolicy();
    this.ready = this.updateRoots(options.firstDiscovery).then(() => {
      this.startupMs = performance.now() - this.createdAt;
      this.logDiscovery(this.startupMs);
    });
    this.firstRowsShown = new Promise((resolve) => (this.showFirstRows = resolve));
    void this.ready.catch(() => undefined).then(() => (this.firstRowsTimer = setTimeout(() => this.markFirstRowsShown(), FIRST_ROWS_WAIT_MS)));
    this.register({ dispose: () => clearTimeout(this.firstRowsTimer) });
  }

  /** The Skills view was handed the first snapshot's rows (see firstRowsShown). */
  markFirstRowsShown(): void {
    this.showFirstRows();
  }

  get settings(): SkillSettings {
    return this.currentSettings;
  }

  get trusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  get snapshot(): RegistrySnapshot {
    return this.registry.snapshot;
  }

  /** The roots being watched, in precedence order. */
  get roots(): readonly SkillRoot[] {
    return this.currentRoots;
  }

  /**
   * Whether the current roots' files were read before their watchers were asked for (the first
   * discovery started early): what changed in between is looked for once the watchers run.
   */
  get rootsReadBeforeWatching(): boolean {
    return this.readEarly;
  }

  /** Workspace folders whose sub-projects' locations are used: watched for new ones appearing. */
  get nestedLocationsWatches(): readonly NestedLocationsWatch[] {
    return this.currentNestedWatches;
  }

  /** Core activation + marks the skill active + a log line + the activation event. `origin` says who asked, and so what may be used. */
  async activateSkill(name: string, args: string | undefined, origin: EditorOrigin, toolNames?: ToolNames): Promise<ActivationResult> {
    const mode = invocationModeOf(origin);
    const result = await activateSkill(this.registry.snapshot, name, { mode, arguments: args, toolNames, content: this.content });
    if (result.ok) {
      this.registry.activate(result.record.name);
      this.log.info(`Activated skill "${result.record.name}" (${mode}) from ${result.record.file}.`);
      this.activationEmitter.fire({ record: result.record, origin, chars: result.text.length });
    } else {
      this.log.warn(`Could not activate skill "${name}" (${mode}): ${result.message}`);
    }
    return result;
  }

  /**
   * Feeds file-system changes to the registry (called by the watcher, already coalesced). A folder
   * created or deleted outside every root may be a sub-project's location appearing or vanishing:
   * the folders are walked again first, so a new location is discovered with what is in it.
   */
  applyChanges(changes: readonly SkillChange[]): Promise<void> {
    this.log.debug(`Reloading ${changes.length} changed path(s): ${changes.map((change) => `${change.kind} ${change.path}`).join(', ')}`);
    const outsideRoots = changes.some((change) => change.kind !== 'changed' && !this.currentRoots.some((root) => relativeInside(root.path, change.path) !== undefined));
    const rootsUpdated = outsideRoots && this.currentNestedWatches.length > 0 ? this.updateRoots() : Promise.resolve();
    return this.track(rootsUpdated.then(() => this.registry.apply(changes)));
  }

  /** Re-reads every skill from disk. */
  refresh(): Promise<void> {
    this.log.info('Refreshing all skills.');
    const started = performance.now();
    // Skill servers are tried again beside: one slow to answer does not hold up the rest, and its
    // skills arrive as it connects.
    void this.options.servers?.reconnect();
    return this.track(
      this.updateRoots()
        .then(() => this.registry.refresh())
        .then(() => this.logDiscovery(performance.now() - started)),
    );
  }

  private logDiscovery(milliseconds: number): void {
    this.log.info(`Discovered ${this.registry.snapshot.skills.length} skills in ${this.currentRoots.length} locations in ${Math.round(milliseconds)} ms.`);
  }

  /** Resolves once every update requested so far has been applied to the registry. */
  async whenIdle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.pending;
      await seen.catch(() => undefined);
    } while (seen !== this.pending);
  }

  private applySettings(): void {
    const previous = this.currentSettings;
    this.currentSettings = readSettings();
    this.log.info('Settings changed; applying them.');
    this.applyPolicy();
    if (previous.enabled !== this.currentSettings.enabled) {
      this.log.info(this.currentSettings.enabled ? 'Skills turned on.' : 'Skills turned off (agentSkills.enabled).');
    }
    // Locations are resource-scoped, so any settings change may move roots.
    void this.updateRoots();
    this.settingsEmitter.fire(this.currentSettings);
  }

  private logSnapshot(snapshot: RegistrySnapshot): void {
    this.log.debug(`Registry version ${snapshot.version}: ${snapshot.skills.length} skills, ${snapshot.problems.length} problems.`);
    const current = describeProblems(snapshot);
    for (const [key, line] of current) {
      if (!this.loggedProblems.has(key)) {
        this.log.warn(line);
      }
    }
    this.loggedProblems = new Set(current.keys());
  }

  private applyPolicy(): void {
    this.registry.setEnabled(this.currentSettings.enabled);
    this.registry.setAllowlist(this.currentSettings.allowlist);
  }

  private updateRoots(early?: EarlyDiscovery): Promise<void> {
    const update = this.rootsQueue.then(() => this.applyRoots(early));
    this.rootsQueue = update.catch(() => undefined);
    return this.track(update);
  }

  private async applyRoots(early: EarlyDiscovery | undefined): Promise<void> {
    const inputs = readRootsInputs(this.currentSettings, this.options);
    const taken = early && sameRootsInputs(early.inputs, inputs) ? early : undefined;
    const { roots, nestedWatches } = await (taken?.roots ?? computeRoots(inputs, this.log));
    this.currentNestedWatches = nestedWatches;
    const changed = roots.length !== this.currentRoots.length || roots.some((root, index) => !sameRoot(root, this.currentRoots[index]));
    this.currentRoots = roots;
    if (!changed && this.discoveryStarted) {
      return; // Nothing to rescan; file changes arrive through the watcher.
    }
    this.discoveryStarted = true;
    this.log.info(`Skill locations: ${roots.map((root) => `${root.label}${root.untrusted ? ' (untrusted)' : ''}: ${root.path}`).join('; ') || 'none'}`);
    this.readEarly = taken !== undefined;
    this.rootsEmitter.fire(roots);
    await this.registry.setRoots(roots, await taken?.first);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const previous = this.pending;
    this.pending = Promise.all([previous.catch(() => undefined), work]);
    work.catch((error: unknown) => this.log.error(`Skill discovery failed: ${errorDetail(error)}`));
    return work;
  }
}
