// Every skill's evals/triggers.json, read once and kept current: a file is read again only when the
// skill watcher reports a change under its skill's evals/ folder, when its skill appears, or when
// Workspace Trust changes what may be read. The Testing view and the diagnostics both follow it.

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadTriggerTests, TRIGGER_TESTS_PATH, type ParsedTriggerTests } from '../../core/evals/trigger-file';
import { isUsableStatus } from '../../core/model/status';
import type { SkillRecord } from '../../core/model/types';
import { Disposable } from '../shared/disposable';
import type { SkillsHost, SkillWatcher } from '../skills/types';
import { errorDetail } from '../../core/util/errors';

export interface TriggerTestsOfSkill {
  record: SkillRecord;
  /** The parsed file; undefined for a skill of an untrusted workspace, whose file is not read. */
  parsed?: ParsedTriggerTests;
}

/** What is known of a skill folder: its tests, or that it has none. */
interface Known {
  record: SkillRecord;
  untrusted: boolean;
  tests?: TriggerTestsOfSkill;
}

const EVALS_FOLDER = path.dirname(TRIGGER_TESTS_PATH);

export class TriggerTestFiles extends Disposable {
  private known = new Map<string, Known>();
  /** Skill folders whose file must be read again at the next update. */
  private readonly stale = new Set<string>();
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires after the set of files or any file's content changed. */
  readonly onDidChange = this.changeEmitter.event;
  /** Updates run one after another, the first once the Skills view shows the first snapshot's rows. */
  private updating: Promise<void>;

  constructor(
    private readonly host: SkillsHost,
    watcher: SkillWatcher,
  ) {
    super();
    this.updating = host.firstRowsShown;
    this.register(host.onDidChange(() => this.update()));
    this.register(
      watcher.onDidApplyChanges((changes) => {
        const touched = this.skillFoldersTouched(changes.map((change) => change.path));
        if (touched.length > 0) {
          touched.forEach((dir) => this.stale.add(dir));
          this.update();
        }
      }),
    );
    this.update();
  }

  /** Skills with trigger tests, in registry order. */
  get skills(): TriggerTestsOfSkill[] {
    return [...this.known.values()].flatMap((known) => (known.tests ? [known.tests] : []));
  }

  /** The skill a trigger-test file belongs to, when it is a known one. */
  ofFile(file: string): TriggerTestsOfSkill | undefined {
    return this.skills.find((entry) => path.join(entry.record.dir, TRIGGER_TESTS_PATH) === file);
  }

  /** Reads every file again (Refresh in the Testing view). */
  refresh(): Promise<void> {
    this.known.forEach((_known, dir) => this.stale.add(dir));
    this.update();
    return this.updating;
  }

  /** Resolves once the files follow the latest snapshot and reported changes. */
  settled(): Promise<void> {
    return this.updating;
  }

  private update(): void {
    this.updating = this.updating.then(() => this.reload()).catch((error: unknown) => this.host.log.error(`Reading trigger tests failed: ${errorDetail(error)}`));
  }

  private async reload(): Promise<void> {
    await this.host.whenIdle();
    const candidates = this.host.snapshot.skills.filter((record) => isUsableStatus(record.status) || record.status === 'untrusted');
    const previous = this.known;
    const stale = new Set(this.stale);
    this.stale.clear();
    let changed = false;
    const next = await Promise.all(
      candidates.map(async (record): Promise<Known> => {
        const untrusted = record.status === 'untrusted';
        const earlier = previous.get(record.dir);
        if (earlier && earlier.untrusted === untrusted && !stale.has(record.dir)) {
          if (earlier.record === record) {
            return earlier;
          }
          changed ||= earlier.tests !== undefined;
          return { record, untrusted, ...(earlier.tests ? { tests: { ...earlier.tests, record } } : {}) };
        }
        const tests = await this.read(record, untrusted);
        changed ||= tests !== undefined || earlier?.tests !== undefined;
        return { record, untrusted, ...(tests ? { tests } : {}) };
      }),
    );
    this.known = new Map(next.map((known) => [known.record.dir, known]));
    changed ||= [...previous].some(([dir, known]) => known.tests !== undefined && !this.known.has(dir));
    if (changed) {
      this.changeEmitter.fire();
    }
  }

  private async read(record: SkillRecord, untrusted: boolean): Promise<TriggerTestsOfSkill | undefined> {
    if (untrusted) {
      // Restricted Mode: whether the file exists is all that is looked at.
      const exists = await fsp.stat(path.join(record.dir, TRIGGER_TESTS_PATH)).then(
        (stat) => stat.isFile(),
        () => false,
      );
      return exists ? { record } : undefined;
    }
    const parsed = await loadTriggerTests(record.dir);
    return parsed ? { record, parsed } : undefined;
  }

  /** Skill folders with a changed path under their evals/ folder. */
  private skillFoldersTouched(paths: readonly string[]): string[] {
    const dirs = this.host.snapshot.skills.map((record) => record.dir);
    return dirs.filter((dir) => paths.some((changed) => changed === path.join(dir, EVALS_FOLDER) || changed.startsWith(path.join(dir, EVALS_FOLDER) + path.sep)));
  }
}
