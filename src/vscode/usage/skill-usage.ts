// "Skills: Show Usage" and "Skills: Clear Usage": every activation the host reports is counted in
// the workspace's storage (context.workspaceState, on this machine only), and shown as a Markdown
// preview of a read-only document that follows new activations while open. The MCP server the
// extension starts for agent mode is another process: it appends its activations to a file in the
// workspace's storage folder, which is taken and counted as it changes and before the document shows.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { isUsableStatus } from '../../core/model/status';
import { renderUsageMarkdown } from '../../core/use/usage-report';
import { emptyUsage, readUsage, recordActivation, summarizeUsage, type UsageRecord } from '../../core/use/usage';
import { foldUsageLog, takeUsageLog } from '../../core/use/usage-log';
import { plural } from '../../core/util/text';
import { errorMessage } from '../../core/util/errors';
import { folderBirthTime } from '../../core/util/files';
import { Disposable } from '../shared/disposable';
import type { ReportPreviews } from '../shared/report-preview';
import type { SkillsHost } from '../skills/types';

const STORAGE_KEY = 'agentSkills.usage';
const SCHEME = 'agent-skills-usage';
export const USAGE_URI = vscode.Uri.from({ scheme: SCHEME, path: '/Skill Usage.md' });

export class SkillUsage extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;
  private usage: UsageRecord;
  /** Writes one after another, so the stored value is always the latest. */
  private saving: Thenable<void> = Promise.resolve();
  /** Takes of the server's file, one after another, the first once the Skills view shows the first snapshot's rows. */
  private taking: Promise<void>;

  /** `serverLog`: the file the MCP server appends its activations to (AGENT_SKILLS_USAGE_LOG), if any. */
  constructor(
    private readonly host: SkillsHost,
    private readonly storage: vscode.Memento,
    private readonly previews: ReportPreviews,
    readonly serverLog: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.taking = host.firstRowsShown;
    this.usage = readUsage(storage.get(STORAGE_KEY));
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
    this.register(host.onDidActivateSkill(({ record, origin, chars }) => this.save(recordActivation(this.usage, { skill: record.name, origin, chars, at: this.now() }))));
    this.register(host.onDidChange(() => this.changeEmitter.fire(USAGE_URI)));
    if (serverLog) {
      const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(serverLog)), path.basename(serverLog)), false, false, true));
      this.register(watcher.onDidCreate(() => void this.takeServerLog()));
      this.register(watcher.onDidChange(() => void this.takeServerLog()));
      // What the server recorded while the extension was not running.
      void this.takeServerLog();
    }
  }

  async provideTextDocumentContent(): Promise<string> {
    const available = this.host.snapshot.skills.filter((record) => isUsableStatus(record.status));
    // When each was installed or created, by its folder's birth time: the lock of `npx skills`
    // records no install time, and the folder (or the link to it) is made at install.
    const addedAt = new Map<string, number>();
    for (const [name, born] of await Promise.all(available.map(async (record) => [record.name, await folderBirthTime(record.dir)] as const))) {
      if (born !== undefined) {
        addedAt.set(name, born);
      }
    }
    return renderUsageMarkdown(
      summarizeUsage(
        this.usage,
        available.map((record) => record.name),
        addedAt,
      ),
      this.now(),
    );
  }

  /** Resolves once every activation seen so far is stored. */
  async settled(): Promise<void> {
    await this.taking;
    await this.saving;
  }

  /** Shows the preview, up to date; returns the document's text. */
  async show(): Promise<string> {
    await this.host.whenIdle();
    await this.takeServerLog();
    const text = await this.provideTextDocumentContent();
    await this.previews.show(USAGE_URI, text, () => this.changeEmitter.fire(USAGE_URI));
    return text;
  }

  /**
   * Empties the record once the user confirms; returns whether it was cleared. A quick pick rather
   * than a modal dialog, as the trigger tests ask: answered from the keyboard, never hidden.
   */
  async clear(): Promise<boolean> {
    const clear = { label: 'Clear usage', detail: 'Forgets every activation counted in this workspace; Show Usage starts again from nothing.' };
    const keep = { label: 'Cancel', detail: 'Keeps the record as it is.' };
    // The safe choice first, so Enter keeps the record.
    if ((await vscode.window.showQuickPick([keep, clear], { title: "Clear this workspace's record of skill activations?", ignoreFocusOut: true })) !== clear) {
      return false;
    }
    await this.takeServerLog({ count: false });
    this.save(emptyUsage());
    this.host.log.info('Cleared the usage record of this workspace.');
    await this.settled();
    return true;
  }

  /** Counts the activations the MCP server recorded since the last take (or, for Clear Usage, drops them). */
  private takeServerLog({ count } = { count: true }): Promise<void> {
    const file = this.serverLog;
    if (!file) {
      return this.taking;
    }
    this.taking = this.taking.then(async () => {
      try {
        const { activations, malformed } = await takeUsageLog(file);
        if (malformed > 0) {
          this.host.log.warn(`Skipped ${plural(malformed, 'line')} of ${file} that record no activation.`);
        }
        if (count && activations.length > 0) {
          this.save(foldUsageLog(this.usage, activations));
        }
      } catch (error) {
        this.host.log.error(`Could not read the MCP server's activations from ${file}: ${errorMessage(error)}`);
      }
    });
    return this.taking;
  }

  private save(usage: UsageRecord): void {
    this.usage = usage;
    this.saving = this.saving.then(() => this.storage.update(STORAGE_KEY, usage)).then(undefined, (error: unknown) => this.host.log.error(`Could not store the usage record: ${errorMessage(error)}`));
    this.changeEmitter.fire(USAGE_URI);
  }
}
