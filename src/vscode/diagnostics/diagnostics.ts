// Problems-panel diagnostics for SKILL.md files and trigger tests (evals/triggers.json). Three
// inputs, latest wins per file:
// - discovery (the registry's findings and the trigger-test files, published as they change),
// - Validate Skills (every skill read in full, body checks and trigger tests included),
// - open editors (the unsaved buffer, validated as you type).
// On a SKILL.md shown in an editor, VS Code's own skills support validates too; what it reports
// itself is left to it there (REPORTED_BY_VSCODE_SKILLS), so nothing is said twice.

import * as vscode from 'vscode';
import { parseTriggerTests } from '../../core/evals/trigger-file';
import { loadSkillFile, validateSkillText } from '../../core/skill-file/load';
import type { RegistrySnapshot } from '../../core/discovery/registry';
import { FILE_START_RANGE, makeDiagnostic, REPORTED_BY_VSCODE_SKILLS } from '../../core/skill-file/diagnostic-codes';
import type { ChatProblem } from '../../core/chat/commands';
import type { SkillDiagnostic, SkillMetadata, SkillRecord } from '../../core/model/types';
import type { TargetFindings } from '../targets/types';
import type { SourceDiagnostics } from '../sources/types';
import { fromVscodeSeverity, toVscodeDiagnostic } from '../shared/convert';
import { describeValidation, readTextIfAny, validateAllSkills, type ValidationSummary } from '../../core/discovery/validate-all';
import { alikeDescriptionDiagnostics, descriptionRange, MAX_ALIKE_NAMED, OVERLAP_CODES, queryOverlaps } from '../../core/evals/overlap';
import { DescriptionIndex, INCREMENTAL_DRIFT, SIMILAR_DESCRIPTIONS } from '../../core/evals/description-index';
import type { SkillsHost } from '../skills/types';
import type { TriggerTestFiles } from '../testing/types';
import { Disposable } from '../shared/disposable';
import { isSkillFile } from '../shared/skill-files';

const TYPING_DELAY_MS = 150;

/** What Validate Skills returns to its caller (tests, the chat participant). */
export interface ValidationReport {
  checked: number;
  errors: number;
  warnings: number;
  skippedUntrusted: number;
  message: string;
  /** Every finding, per file and of locations, also those the Problems panel leaves to VS Code's own skills checks. */
  problems: ChatProblem[];
}

/** The language VS Code 1.139 gives every file named SKILL.md, and validates while it is shown. */
const VSCODE_SKILL_LANGUAGE = 'skill';

/** Whether VS Code's own skills validation is checking this file now: it does so only while it is shown. */
export function validatedByVsCode(uri: vscode.Uri): boolean {
  return vscode.window.visibleTextEditors.some((editor) => editor.document.languageId === VSCODE_SKILL_LANGUAGE && editor.document.uri.toString() === uri.toString());
}

/** Our findings minus those VS Code is reporting itself on this file right now. */
export function notReportedByVsCode(uri: vscode.Uri, diagnostics: readonly SkillDiagnostic[]): SkillDiagnostic[] {
  return validatedByVsCode(uri) ? diagnostics.filter((diagnostic) => !REPORTED_BY_VSCODE_SKILLS.has(diagnostic.code)) : [...diagnostics];
}

export class SkillDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection('agentSkills'));
  /** Every finding per file, including those left to VS Code while the file is shown, and an open editor's text and fields. */
  private readonly findings = new Map<string, { uri: vscode.Uri; diagnostics: SkillDiagnostic[]; editor?: EditorVersion }>();
  private readonly typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private previous = new Map<string, SkillRecord>();
  /**
   * Registry updates are handled one after another, so an older one never overwrites a newer one;
   * the first once the Skills view shows the first snapshot's rows.
   */
  private queue: Promise<void>;

  /** Trigger-test files whose diagnostics are published. */
  private publishedTriggerTests = new Set<string>();
  /** Skills competing for queries, per file, kept apart and shown with each file's own findings. */
  private overlaps = new Map<string, SkillDiagnostic[]>();
  /** Descriptions alike, kept current skill by skill: an edit re-reads one description, not every pair. */
  private readonly descriptions = new DescriptionIndex(SIMILAR_DESCRIPTIONS, INCREMENTAL_DRIFT);
  /** The alike-description warnings per SKILL.md, and the query warnings per trigger-test file. */
  private alike = new Map<string, SkillDiagnostic[]>();
  /** The modification time and size of each file with alike warnings when they were placed. */
  private readonly alikeVersions = new Map<string, string>();
  /** Each shown file's findings as last handed to VS Code, so that only changes reach it. */
  private readonly shownKeys = new Map<string, string>();
  /** The project's host findings, per skill folder. */
  private projectFindings = new Map<string, SkillDiagnostic[]>();
  private competingQueries = new Map<string, SkillDiagnostic[]>();

  constructor(
    private readonly host: SkillsHost,
    private readonly triggerTests: TriggerTestFiles,
    private readonly hostFindings: TargetFindings,
    private readonly installedSkills: Pick<SourceDiagnostics, 'settled' | 'entries'>,
  ) {
    super();
    this.queue = host.firstRowsShown;
    this.register(host.onDidChange((snapshot) => this.enqueue(snapshot)));
    this.register(
      triggerTests.onDidChange(() => {
        this.followTriggerTests();
        this.enqueueOverlaps();
      }),
    );
    // Other targets: any file's host warnings may change (a snapshot's changes are followed file by file).
    this.register(hostFindings.onDidChange(() => this.reshowAll()));
    this.register(vscode.workspace.onDidOpenTextDocument((document) => this.validateDocument(document)));
    this.register(vscode.workspace.onDidChangeTextDocument((event) => this.scheduleDocument(event.document)));
    this.register(vscode.workspace.onDidCloseTextDocument((document) => void this.revertToDisk(document.uri)));
    // VS Code keeps a document loaded for a while after its last tab closes, and "Revert and Close" or
    // "Don't Save" only mark it clean without reloading it: the disk is the truth from the tab's close.
    this.register(
      vscode.window.tabGroups.onDidChangeTabs(({ closed }) => {
        for (const uri of closed.flatMap(tabUris)) {
          if (!this.isOpen(uri.fsPath)) {
            void this.revertToDisk(uri);
          }
        }
      }),
    );
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => vscode.workspace.textDocuments.forEach((document) => this.followDocument(document))));
    this.register({ dispose: () => this.typingTimers.forEach((timer) => clearTimeout(timer)) });
    // Showing or hiding a SKILL.md starts or stops VS Code's own validation of it.
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.reshowAll()));
    this.enqueue(host.snapshot);
    vscode.workspace.textDocuments.forEach((document) => this.validateDocument(document));
  }

  /** Validates every skill in full and publishes the result (the Validate Skills command). */
  async validateAll(): Promise<ValidationReport> {
    await this.host.whenIdle();
    // Start-up's findings wait for the Skills view's first rows: published after this, they would replace it.
    await this.queue;
    const summary: ValidationSummary = await validateAllSkills(this.host.snapshot);
    this.collection.clear();
    this.shownKeys.clear();
    this.findings.clear();
    for (const [file, diagnostics] of summary.files) {
      this.publish(vscode.Uri.file(file), diagnostics);
    }
    // An open editor may hold newer text than the disk.
    vscode.workspace.textDocuments.forEach((document) => this.followDocument(document));
    this.showProjectFindings();
    // Per-host warnings are shown with each SKILL.md's findings, and a folder's once, so they are counted so too.
    const forTargets = [
      ...[...summary.files.keys()].filter((file) => isSkillFile(vscode.Uri.file(file))).flatMap((file) => this.hostFindings.forFile(file)),
      ...[...this.projectFindings.values()].flat(),
    ];
    // What the Problems panel holds on installed skills (audit findings, edits since install) is
    // counted too, as the status bar counts it.
    await this.installedSkills.settled();
    const onInstalled: ChatProblem[] = this.installedSkills
      .entries()
      .flatMap(([uri, diagnostics]) =>
        diagnostics.map((diagnostic) => ({ file: uri.fsPath, line: diagnostic.range.start.line, severity: fromVscodeSeverity(diagnostic.severity), message: diagnostic.message })),
      );
    const installed = { errors: onInstalled.filter((problem) => problem.severity === 'error').length, warnings: onInstalled.filter((problem) => problem.severity === 'warning').length };
    const errors = summary.errors + forTargets.filter((diagnostic) => diagnostic.severity === 'error').length + installed.errors;
    const warnings = summary.warnings + forTargets.filter((diagnostic) => diagnostic.severity === 'warning').length + installed.warnings;
    const message = describeValidation({ ...summary, errors, warnings, installed });
    this.host.log.info(`Validate Skills: ${message}`);
    for (const diagnostic of [...[...summary.files.values()].flat(), ...forTargets]) {
      if (diagnostic.severity !== 'info') {
        this.host.log.warn(`${diagnostic.file}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.column + 1}: ${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`);
      }
    }
    for (const problem of summary.locationProblems) {
      this.host.log.warn(`${problem.path}: ${problem.severity} ${problem.code}: ${problem.message}`);
    }
    const { checked, skippedUntrusted, locationProblems } = summary;
    const problems: ChatProblem[] = [
      ...[...this.findings.values()].flatMap(({ uri, diagnostics }) =>
        [...diagnostics, ...(this.overlaps.get(uri.fsPath) ?? []), ...forTargets.filter((diagnostic) => diagnostic.file === uri.fsPath)].map((diagnostic) => ({
          file: uri.fsPath,
          line: diagnostic.range.start.line,
          severity: diagnostic.severity,
          message: diagnostic.message,
        })),
      ),
      ...locationProblems.map((problem) => ({ file: problem.path, line: 0, severity: problem.severity, message: problem.message })),
      ...[...this.projectFindings.values()].flat().map((diagnostic) => ({ file: diagnostic.file, line: 0, severity: diagnostic.severity, message: diagnostic.message })),
      ...onInstalled,
    ];
    return { checked, errors, warnings, skippedUntrusted, message, problems };
  }

  /** Resolves when diagnostics follow the latest registry snapshot. */
  settled(): Promise<void> {
    return this.queue;
  }

  private enqueue(snapshot: RegistrySnapshot): void {
    this.queue = this.queue
      .then(() => this.followRegistry(snapshot))
      .then(() => this.reshowHostChanges())
      .catch((error: unknown) => this.host.log.error(`Updating diagnostics failed: ${String(error)}`));
    this.enqueueOverlaps();
  }

  private enqueueOverlaps(): void {
    this.queue = this.queue.then(() => this.followOverlaps()).catch((error: unknown) => this.host.log.error(`Checking skills that compete failed: ${String(error)}`));
  }

  /** Competing queries and alike descriptions over the trusted skills, each file shown again when its share changed. */
  private async followOverlaps(): Promise<void> {
    const snapshot = this.host.snapshot;
    const trusted = snapshot.skills.filter((record) => record.status !== 'untrusted');
    const tests = this.triggerTests.skills.flatMap(({ record, parsed }) => (parsed?.tests ? [{ record, tests: parsed.tests }] : []));
    const changed = new Set<string>();
    // A warning sits on its description: a file edited elsewhere may have moved it.
    const versions = new Map(trusted.map((record) => [record.file, `${record.mtimeMs}:${record.size}`]));
    const moved = [...this.alikeVersions].filter(([file, version]) => versions.get(file) !== version).map(([file]) => file);
    for (const file of new Set([...this.descriptions.update(trusted), ...moved])) {
      const alike = this.descriptions.alikeTo(file, MAX_ALIKE_NAMED);
      const shown = alike ? alikeDescriptionDiagnostics(alike, descriptionRange(await readTextIfAny(file))) : undefined;
      if (shown) {
        this.alikeVersions.set(file, versions.get(file) ?? '');
      } else {
        this.alikeVersions.delete(file);
      }
      if (JSON.stringify(shown) !== JSON.stringify(this.alike.get(file))) {
        changed.add(file);
        if (shown) {
          this.alike.set(file, shown);
        } else {
          this.alike.delete(file);
        }
      }
    }
    const queries = groupByFile(queryOverlaps(tests, (query) => snapshot.findSkills(query)));
    for (const file of new Set([...this.competingQueries.keys(), ...queries.keys()])) {
      if (JSON.stringify(queries.get(file)) !== JSON.stringify(this.competingQueries.get(file))) {
        changed.add(file);
      }
    }
    this.competingQueries = queries;
    const next = new Map(this.alike);
    queries.forEach((diagnostics, file) => next.set(file, [...(next.get(file) ?? []), ...diagnostics]));
    this.overlaps = next;
    for (const file of changed) {
      this.showAgain(vscode.Uri.file(file));
    }
  }

  /** Shows a file's findings with its current share of overlaps (an open trigger file follows its buffer instead). */
  private showAgain(uri: vscode.Uri): void {
    if (this.isOpen(uri.fsPath) && this.isTriggerTestFile(uri)) {
      return;
    }
    const finding = this.findings.get(uri.toString());
    const own = finding?.diagnostics ?? this.triggerTests.ofFile(uri.fsPath)?.parsed?.diagnostics;
    if (own) {
      this.display(uri, this.shown({ uri, diagnostics: own, ...(finding?.editor ? { editor: finding.editor } : {}) }));
    }
  }

  /** Skills that changed on disk get fresh diagnostics; removed ones lose theirs. */
  private async followRegistry(snapshot: RegistrySnapshot): Promise<void> {
    const firstRun = this.previous.size === 0;
    // A skill server's skills are not the user's files: their findings stay in the Skills view.
    const current = new Map(snapshot.skills.filter((record) => record.status !== 'untrusted' && record.root.kind !== 'server').map((record) => [record.file, record]));
    const changed = [...current.values()].filter((record) => this.previous.get(record.file)?.mtimeMs !== record.mtimeMs || this.previous.get(record.file)?.size !== record.size);
    for (const file of this.previous.keys()) {
      if (!current.has(file) && !this.isOpen(file)) {
        this.unpublish(vscode.Uri.file(file));
      }
    }
    this.previous = current;
    for (const record of changed) {
      if (this.isOpen(record.file)) {
        continue; // The editor's buffer is the truth for an open file.
      }
      // At start-up the registry's findings are enough; a changed file is read in full, as Validate would.
      const diagnostics = firstRun ? record.diagnostics : ((await loadSkillFile(record.dir, { checkBody: true }))?.diagnostics ?? []);
      this.publish(vscode.Uri.file(record.file), diagnostics);
    }
  }

  /** Trigger-test files follow their index, which reads a file again only when it changed. */
  private followTriggerTests(): void {
    const current = new Map(this.triggerTests.skills.flatMap(({ parsed }) => (parsed ? [[parsed.file, parsed.diagnostics] as const] : [])));
    for (const file of this.publishedTriggerTests) {
      if (!current.has(file) && !this.isOpen(file)) {
        this.deleteShown(vscode.Uri.file(file));
      }
    }
    for (const [file, diagnostics] of current) {
      if (!this.isOpen(file)) {
        this.display(vscode.Uri.file(file), this.shown({ uri: vscode.Uri.file(file), diagnostics }));
      }
    }
    this.publishedTriggerTests = new Set(current.keys());
  }

  /** A trusted skill's trigger-test file (untrusted ones are never read). */
  private isTriggerTestFile(uri: vscode.Uri): boolean {
    return uri.scheme === 'file' && this.triggerTests.ofFile(uri.fsPath)?.parsed !== undefined;
  }

  /** Whether an editor's text, not the disk's, is the truth for `file`: a tab shows it, or it has unsaved changes. */
  private isOpen(file: string): boolean {
    return vscode.workspace.textDocuments.some((document) => document.uri.scheme === 'file' && document.uri.fsPath === file && (document.isDirty || isShownInTab(document.uri)));
  }

  private mayRead(uri: vscode.Uri): boolean {
    // In Restricted Mode, SKILL.md files of the workspace are not read, even to validate them.
    return this.host.trusted || !vscode.workspace.getWorkspaceFolder(uri);
  }

  private scheduleDocument(document: vscode.TextDocument): void {
    if (!isSkillFile(document.uri) && !this.isTriggerTestFile(document.uri)) {
      return;
    }
    const key = document.uri.toString();
    clearTimeout(this.typingTimers.get(key));
    this.typingTimers.set(
      key,
      setTimeout(() => {
        this.typingTimers.delete(key);
        this.followDocument(document);
      }, TYPING_DELAY_MS),
    );
  }

  /** Checks the editor's text of an open file; a file no tab shows and with nothing unsaved shows the disk's. */
  private followDocument(document: vscode.TextDocument): void {
    if (document.uri.scheme === 'file' && !document.isClosed && !this.isOpen(document.uri.fsPath)) {
      void this.revertToDisk(document.uri);
    } else {
      this.validateDocument(document);
    }
  }

  private validateDocument(document: vscode.TextDocument): void {
    if (this.isTriggerTestFile(document.uri) && !document.isClosed) {
      // The buffer's queries, not the file's, are checked against the other skills.
      const parsed = parseTriggerTests(document.getText(), document.uri.fsPath);
      const record = this.triggerTests.ofFile(document.uri.fsPath)?.record;
      const snapshot = this.host.snapshot;
      const overlaps = record && parsed.tests ? queryOverlaps([{ record, tests: parsed.tests }], (query) => snapshot.findSkills(query)) : [];
      this.display(document.uri, [...parsed.diagnostics, ...overlaps]);
      return;
    }
    if (!isSkillFile(document.uri) || document.isClosed || !this.mayRead(document.uri)) {
      return;
    }
    const text = document.getText();
    const result = validateSkillText(text, document.uri.fsPath, { checkBody: true });
    this.publish(document.uri, result.diagnostics, { text, metadata: result.metadata });
  }

  /** A closed editor may have held unsaved text: show what the disk says again. */
  private async revertToDisk(uri: vscode.Uri): Promise<void> {
    const triggerTests = uri.scheme === 'file' ? this.triggerTests.ofFile(uri.fsPath)?.parsed : undefined;
    if (triggerTests) {
      this.display(uri, this.shown({ uri, diagnostics: triggerTests.diagnostics }));
      return;
    }
    if (!isSkillFile(uri)) {
      return;
    }
    const record = this.host.snapshot.skills.find((candidate) => candidate.file === uri.fsPath && candidate.status !== 'untrusted');
    if (!record) {
      this.unpublish(uri);
      return;
    }
    const loaded = await loadSkillFile(record.dir, { checkBody: true });
    this.publish(uri, loaded?.diagnostics ?? []);
  }

  private publish(uri: vscode.Uri, diagnostics: SkillDiagnostic[], editor?: EditorVersion): void {
    // Validate Skills reports overlaps too; the live ones are merged in when shown.
    diagnostics = diagnostics.filter((diagnostic) => !(OVERLAP_CODES as readonly string[]).includes(diagnostic.code));
    const finding = { uri, diagnostics, ...(editor ? { editor } : {}) };
    this.findings.set(uri.toString(), finding);
    this.display(uri, this.shown(finding));
  }

  /**
   * Every file's findings with the current overlaps and host warnings, and the project's host
   * findings, when what decides them all changed (the targets, the files shown); only what
   * changed reaches VS Code.
   */
  private reshowAll(): void {
    this.hostFindings.takeChanged();
    this.findings.forEach((finding) => this.setShown(finding.uri, this.shown(finding)));
    this.showProjectFindings();
  }

  /**
   * After a snapshot: the files whose host warnings changed, as another skill's edit can move a
   * file within a host's list budget, and the project's host findings. The files that changed on
   * disk were shown again as they were read, and the overlaps show theirs.
   */
  private reshowHostChanges(): void {
    for (const file of this.hostFindings.takeChanged()) {
      const finding = this.findings.get(vscode.Uri.file(file).toString());
      if (finding) {
        this.setShown(finding.uri, this.shown(finding));
      }
    }
    this.showProjectFindings();
  }

  /** A skill folder a target host does not read: one warning on the folder, however many skills it holds. */
  private showProjectFindings(): void {
    const next = new Map<string, SkillDiagnostic[]>();
    for (const finding of this.hostFindings.forProject()) {
      const diagnostic: SkillDiagnostic = { ...makeDiagnostic(finding.folder, 'host-folder', 'warning', finding.message, FILE_START_RANGE), host: finding.host.id };
      next.set(finding.folder, [...(next.get(finding.folder) ?? []), diagnostic]);
    }
    for (const folder of this.projectFindings.keys()) {
      if (!next.has(folder)) {
        this.deleteShown(vscode.Uri.file(folder));
      }
    }
    next.forEach((diagnostics, folder) => this.setShown(vscode.Uri.file(folder), diagnostics));
    this.projectFindings = next;
  }

  /** Shows a file's findings as they are now. */
  private display(uri: vscode.Uri, diagnostics: readonly SkillDiagnostic[]): void {
    this.shownKeys.set(uri.toString(), JSON.stringify(diagnostics));
    this.collection.set(uri, diagnostics.map(toVscodeDiagnostic));
  }

  /** Shows a file's findings, unless it already shows exactly these (when every file is looked at again). */
  private setShown(uri: vscode.Uri, diagnostics: readonly SkillDiagnostic[]): void {
    const key = JSON.stringify(diagnostics);
    if (this.shownKeys.get(uri.toString()) !== key) {
      this.shownKeys.set(uri.toString(), key);
      this.collection.set(uri, diagnostics.map(toVscodeDiagnostic));
    }
  }

  private deleteShown(uri: vscode.Uri): void {
    this.shownKeys.delete(uri.toString());
    this.collection.delete(uri);
  }

  private unpublish(uri: vscode.Uri): void {
    this.findings.delete(uri.toString());
    this.deleteShown(uri);
  }

  private shown({ uri, diagnostics, editor }: { uri: vscode.Uri; diagnostics: readonly SkillDiagnostic[]; editor?: EditorVersion }): SkillDiagnostic[] {
    const forTargets = isSkillFile(uri) ? this.hostFindings.forFile(uri.fsPath, editor?.text, editor?.metadata) : [];
    return [...notReportedByVsCode(uri, diagnostics), ...(this.overlaps.get(uri.fsPath) ?? []), ...forTargets];
  }
}

/** An open editor's text of a SKILL.md and the fields read from it (none while it has an error). */
interface EditorVersion {
  text: string;
  metadata: SkillMetadata | undefined;
}

/** Whether a tab of any group shows `uri`. */
function isShownInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tabUris(tab).some((shown) => shown.toString() === key)));
}

/** The files a tab shows: a text editor's, or both sides of a diff. */
function tabUris(tab: vscode.Tab): vscode.Uri[] {
  if (tab.input instanceof vscode.TabInputText) {
    return [tab.input.uri];
  }
  if (tab.input instanceof vscode.TabInputTextDiff) {
    return [tab.input.original, tab.input.modified];
  }
  return [];
}

/** Diagnostics by the file they are in. */
function groupByFile(diagnostics: readonly SkillDiagnostic[]): Map<string, SkillDiagnostic[]> {
  const byFile = new Map<string, SkillDiagnostic[]>();
  for (const diagnostic of diagnostics) {
    byFile.set(diagnostic.file, [...(byFile.get(diagnostic.file) ?? []), diagnostic]);
  }
  return byFile;
}
