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
  /** From VS Code's marks in the same window, in milliseconds from VS Code starting to load the extension's code. */
  activation: {
    /** test/empty-extension (does nothing) until its activate() returned: the baseline. */
    emptyExtensionMs: number;
    /** The product until its activate() returned. */
    activatedMs: number;
    /** The product until its first complete registry snapshot, with the view model built. */
    readyMs: number;
    /** The product until the Skills view (opened as the window starts) was handed that snapshot's rows. */
    treeShownMs: number;
    /** The product until its Skills view was first seen open (the bench clicks it open as the window starts). */
    viewOpenMs: number;
  };
  /** From the extension host's start for the window (VS Code's mark once the window handed it its data), in milliseconds. */
  firstRows: {
    /** The mark counted from, or 'the process start' where VS Code made none. */
    hostStartMark: string;
    /** The product's Skills view handed its first skills' rows. */
    skillsViewMs: number;
    /** test/tree-extension's view, beside it in the same window, handed its 10 fixed rows: the baseline. */
    treeBaselineMs: number;
  };
  /**
   * The product's code the extension host had evaluated once the Skills view had its first rows:
   * its bundle and side bundles in the host's module cache, in bytes, by file name (read when the
   * rows are seen, so a chunk loaded just after them counts too).
   */
  bundleBytesBeforeRows: Record<string, number>;
  edits: Record<EditedSkill, EditTiming[]>;
}
