// The workspace's skills installed from a source: each workspace folder's skills-lock.json matched
// to the skill folders discovery found, whether each was edited since it was installed (drift),
// and what the last Check for Updates found. The tree marks them and the drift warning reads them.
// Nothing runs on workspace content in Restricted Mode.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { driftOf, type Drift } from '../../core/sources/drift';
import { computeFolderHashes } from '../../core/sources/folder-hash';
import { skillNameProblem } from '../../core/sources/confine';
import { entryOrigin, LOCK_FILE_NAME, readLock, type LockEntry } from '../../core/sources/lock';
import { TRUST_FILE_NAME } from '../../core/sources/trust-policy';
import type { InstalledMark } from '../../core/view/skill-view';
import { errorMessage } from '../../core/util/errors';
import { relativeInside } from '../../core/util/paths';
import { Disposable } from '../shared/disposable';
import type { SkillsHost } from '../skills/types';
import { InstalledSignatures, type LockedSignatureCheck, type LockedSkill, type SignatureMark } from './installed-signatures';

export interface InstalledSkill extends LockedSkill {
  /** Its SKILL.md. */
  file: string;
  /** The folder's hash now (computeFolderHash). */
  hash: string;
  /** How the folder stands against its lock entry. */
  drift: Drift;
}

/** What Check for Updates found for one installed skill, valid while its lock entry stays the same. */
interface FoundUpdate {
  commit?: string;
  /** The lock entry it was found for (its hash and ref): an update or reinstall makes it obsolete. */
  forEntry: string;
}

const REFRESH_DELAY_MS = 300;

export class InstalledSkills extends Disposable {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires when the installed skills, their drift or their updates changed. */
  readonly onDidChange = this.changeEmitter.event;
  private current: InstalledSkill[] = [];
  private currentMarks = new Map<string, InstalledMark>();
  private signature = '';
  private readonly updates = new Map<string, FoundUpdate>();
  private readonly signatures: InstalledSignatures;
  private signatureMarks = new Map<string, SignatureMark>();
  /** Reloads run one after another, the first once the Skills view shows the first snapshot's rows. */
  private queue: Promise<void>;
  private reloadWaiting = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private folderWatchers = new Map<string, vscode.Disposable>();
  /** Lock files already reported broken, so each problem is logged once. */
  private reportedLocks = new Set<string>();
  /** What the locks hold that was already warned about (a key given twice, a key that is no skill name), so each is logged once. */
  private reportedWarnings = new Set<string>();

  /** `verifySignature` is called only for the skills of a project with a trust policy. */
  constructor(
    private readonly host: SkillsHost,
    verifySignature: LockedSignatureCheck,
  ) {
    super();
    this.signatures = new InstalledSignatures(verifySignature, (message) => this.warnOnce(message));
    // The trust policy changes what is said of signatures.
    const lockWatcher = this.register(vscode.workspace.createFileSystemWatcher(`**/{${LOCK_FILE_NAME},${TRUST_FILE_NAME}}`));
    for (const event of [lockWatcher.onDidCreate, lockWatcher.onDidChange, lockWatcher.onDidDelete]) {
      this.register(event(() => this.schedule()));
    }
    this.register(host.onDidChange(() => this.schedule()));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.schedule()));
    this.register({
      dispose: () => {
        clearTimeout(this.timer);
        this.folderWatchers.forEach((watcher) => watcher.dispose());
      },
    });
    this.queue = host.firstRowsShown;
    void this.refresh();
  }

  get skills(): readonly InstalledSkill[] {
    return this.current;
  }

  /** The tree's marks, by skill folder. */
  get marks(): ReadonlyMap<string, InstalledMark> {
    return this.currentMarks;
  }

  /** The installed skill in `folder` (a skill folder or its SKILL.md), if any. */
  find(folderOrFile: string): InstalledSkill | undefined {
    return this.current.find((skill) => skill.folder === folderOrFile || skill.file === folderOrFile);
  }

  /** Remembers what Check for Updates found: the newer commit of each outdated skill (by folder). */
  setUpdates(found: ReadonlyMap<string, { outdated: boolean; commit?: string }>): void {
    for (const [folder, result] of found) {
      const skill = this.find(folder);
      if (skill && result.outdated) {
        this.updates.set(folder, { commit: result.commit?.slice(0, 7), forEntry: entryKey(skill.entry) });
      } else {
        this.updates.delete(folder);
      }
    }
    this.publish();
  }

  /** Reads the locks and hashes the installed folders again; resolves when the marks are current. */
  refresh(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // A reload still waiting its turn reads everything as it will be then: one is enough.
    if (!this.reloadWaiting) {
      this.reloadWaiting = true;
      this.queue = this.queue
        .then(() => {
          this.reloadWaiting = false;
          return this.reload();
        })
        .catch((error: unknown) => this.host.log.error(`Reading installed skills failed: ${errorMessage(error)}`));
    }
    return this.queue;
  }

  /** Resolves once the changes seen so far are reflected. */
  async settled(): Promise<void> {
    if (this.timer !== undefined) {
      await this.refresh();
    }
    await this.queue;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  private async reload(): Promise<void> {
    const found: InstalledSkill[] = [];
    if (this.host.trusted && this.host.settings.enabled) {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        if (folder.uri.scheme === 'file') {
          found.push(...(await this.installedIn(folder.uri.fsPath)));
        }
      }
    }
    this.current = found;
    this.signatureMarks = await this.signatures.marks(found);
    this.watchFolders(found);
    this.publish();
  }

  private async installedIn(projectDir: string): Promise<InstalledSkill[]> {
    let entries: [string, LockEntry][];
    try {
      entries = Object.entries((await readLock(projectDir, (message) => this.warnOnce(message))).skills);
      this.reportedLocks.delete(projectDir);
    } catch (error) {
      if (!this.reportedLocks.has(projectDir)) {
        this.reportedLocks.add(projectDir);
        this.host.log.warn(errorMessage(error));
      }
      return [];
    }
    const records = this.host.snapshot.skills.filter(
      (record) => record.root.kind === 'workspace' && record.root.package === undefined && record.status !== 'untrusted' && relativeInside(projectDir, record.root.path) !== undefined,
    );
    const installed: InstalledSkill[] = [];
    for (const [name, entry] of entries) {
      // A key that is no skill name could name any folder: nothing is done with its entry.
      const problem = skillNameProblem(name);
      if (problem !== undefined) {
        this.warnOnce(`${path.join(projectDir, LOCK_FILE_NAME)}: the entry ${problem}; it is left out.`);
        continue;
      }
      // The first location holding a folder of that name is where it was installed (precedence order).
      const record = records.find((candidate) => path.basename(candidate.dir) === name);
      if (record) {
        const hashes = await computeFolderHashes(record.dir).catch(() => undefined);
        if (hashes !== undefined) {
          installed.push({ name, projectDir, folder: record.dir, file: record.file, entry, hash: hashes.all, drift: driftOf(entry, hashes) });
        }
      }
    }
    return installed;
  }

  private warnOnce(message: string): void {
    if (!this.reportedWarnings.has(message)) {
      this.reportedWarnings.add(message);
      this.host.log.warn(message);
    }
  }

  /** Edits to any file of an installed skill change its drift, not only its SKILL.md. */
  private watchFolders(skills: readonly InstalledSkill[]): void {
    const wanted = new Set(skills.map((skill) => skill.folder));
    for (const [folder, watcher] of this.folderWatchers) {
      if (!wanted.has(folder)) {
        watcher.dispose();
        this.folderWatchers.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (!this.folderWatchers.has(folder)) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**/*'));
        watcher.onDidChange(() => this.schedule());
        watcher.onDidCreate(() => this.schedule());
        watcher.onDidDelete(() => this.schedule());
        this.folderWatchers.set(folder, watcher);
      }
    }
  }

  private publish(): void {
    const marks = new Map<string, InstalledMark>();
    for (const skill of this.current) {
      const update = this.updates.get(skill.folder);
      const current = update !== undefined && update.forEntry === entryKey(skill.entry);
      const signature = this.signatureMarks.get(skill.folder);
      marks.set(skill.folder, {
        origin: entryOrigin(skill.entry),
        ...(signature ? { signature } : {}),
        edited: skill.drift.state === 'edited',
        ...(skill.drift.state === 'kept' ? { editsKept: true } : {}),
        ...(current ? { update: update.commit === undefined ? {} : { commit: update.commit } } : {}),
      });
    }
    // Folder contents matter too: the audit follows them.
    const signature = JSON.stringify([[...marks], this.current.map((skill) => [skill.file, skill.hash])]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.currentMarks = marks;
      this.changeEmitter.fire();
    }
  }
}

function entryKey(entry: LockEntry): string {
  return `${entry.computedHash}\n${entry.ref ?? ''}`;
}
