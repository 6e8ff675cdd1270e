// The API `activate()` returns, for other extensions (`vscode.extensions.getExtension(...).exports`)
// and for tests. Read-only views of the registry: nothing read from untrusted skills' files.

import * as vscode from 'vscode';
import { activationToolText } from '../core/chat/tool-texts';
import { describeSkills, type SkillInfo } from '../core/view/skill-info';
import type { DeferredLoader } from './shared/deferred-loader';
import type { SkillDiagnostics } from './diagnostics/types';
import type { Sources } from './sources/types';
import type { SkillsMcpServerProvider } from './mcp/types';
import type { SkillsHost, SkillWatcher } from './skills/types';
import type { TriggerTestController } from './testing/types';
import type { SkillUsage } from './usage/types';
import type { SkillsTreeProvider } from './view/types';

export type { SkillInfo } from '../core/view/skill-info';

export interface AgentSkillsApi {
  /** Every discovered skill with its status (available, active, invalid, not-allowed, shadowed, untrusted) and diagnostics. */
  listSkills(): SkillInfo[];
  /** Fires after the list of skills or any skill's status changed. */
  readonly onDidChangeSkills: vscode.Event<void>;
  /**
   * Activates a skill as the model's activation tool does, and returns the same text (its
   * instructions, folder and resource files). Rejects with the tool's error message when the skill
   * is unknown or may not be used.
   */
  activateSkill(name: string, args?: string): Promise<string>;
  /** Resolves once file changes seen so far, setting changes and discovery have been applied. */
  whenIdle(): Promise<void>;
  /** For the extension's own tests and benchmarks; not a stable interface. */
  readonly testing: {
    readonly tree: SkillsTreeProvider;
    /** Milliseconds from activation to the first discovery done and the view built. */
    startupMs(): number | undefined;
    /** Milliseconds from activation to the Skills view first being handed the rows of a complete snapshot (undefined until it was shown). */
    treeShownMs(): number | undefined;
    /** The files of Node's module cache when the Skills view was first handed its rows (undefined until then). */
    modulesAtFirstRows(): readonly string[] | undefined;
    /** Milliseconds from activation to the Skills view first seen open (negative: never before activation; undefined: not yet). */
    viewOpenMs(): number | undefined;
    /** The MCP server definition VS Code is given now (none while skills are off). */
    mcpServerDefinition(): vscode.McpStdioServerDefinition | undefined;
    /** The Testing view's trigger tests: its items, its run handler and the last results (loads the deferred features). */
    readonly triggerTests: TriggerTestController;
    /** The workspace's record of activations (Show Usage; loads the deferred features). */
    readonly usage: SkillUsage;
    /** Whether the features the first rows do not need have been loaded (src/vscode/deferred.ts). */
    deferredLoaded(): boolean;
  };
}

/** What the API reads: the handles of the areas it answers from. */
export interface ApiInputs {
  host: SkillsHost;
  watcher: SkillWatcher;
  tree: SkillsTreeProvider;
  mcpServer: SkillsMcpServerProvider;
  /** The features the first rows do not need: diagnostics, trigger tests, usage, installed skills. */
  deferred: DeferredLoader<{ diagnostics: SkillDiagnostics; triggerTests: TriggerTestController; usage: SkillUsage; sources: Sources }>;
}

/** The API object; what it subscribes to is added to `disposables`. */
export function createApi({ host, watcher, tree, mcpServer, deferred }: ApiInputs, disposables: vscode.Disposable[]): AgentSkillsApi {
  const changes = new vscode.EventEmitter<void>();
  disposables.push(
    changes,
    host.onDidChange(() => changes.fire()),
  );
  return {
    listSkills: () => describeSkills(host.snapshot),
    onDidChangeSkills: changes.event,
    async activateSkill(name, args) {
      const result = await host.activateSkill(name, args, 'api');
      if (!result.ok) {
        throw new Error(result.message);
      }
      return activationToolText(result);
    },
    async whenIdle() {
      await host.ready;
      watcher.flush();
      await host.whenIdle();
      // Diagnostics, trigger tests, usage and installed skills follow the registry: settled, once loaded.
      const { diagnostics, triggerTests, usage, sources } = deferred.features();
      await diagnostics.settled();
      await triggerTests.settled();
      await sources.installed.settled();
      await sources.diagnostics.settled();
      await usage.settled();
    },
    testing: {
      tree,
      startupMs: () => host.startupMs,
      treeShownMs: () => (tree.firstRowsServedAt === undefined ? undefined : tree.firstRowsServedAt - host.createdAt),
      modulesAtFirstRows: () => tree.modulesAtFirstRows,
      viewOpenMs: () => (tree.firstVisibleAt === undefined ? undefined : tree.firstVisibleAt - host.createdAt),
      mcpServerDefinition: () => mcpServer.definition(),
      get triggerTests() {
        return deferred.features().triggerTests;
      },
      get usage() {
        return deferred.features().usage;
      },
      deferredLoaded: () => deferred.loaded(),
    },
  };
}
