// What the editor-bench suite measures inside VS Code and writes for the bench's editor section.

/** The skills edited: one in the workspace, one of AGENT_SKILLS_PATH (a watcher outside the workspace). */
export type EditedSkill = 'workspace' | 'external';

/** One SKILL.md write, each time from the write, in milliseconds. */
export interface EditTiming {
  /** A bare FileSystemWatcher of the test, of the same kind as the extension's, saw the change: VS Code's own delay. */
  watcherMs: number;
  /** The extension's view model fired its change event with the new description. */
  viewModelMs: number;
  /** The workbench drew the skill's row with the new description. */
  drawnMs: number;
}

export interface EditorBenchFigures {
  skills: number;
  /** Activation to the first discovery done with the view built. */
  startupMs: number;
  edits: Record<EditedSkill, EditTiming[]>;
}
