// What the editor-bench suite measures inside VS Code and writes for the bench's editor section.

export interface EditorBenchFigures {
  skills: number;
  /** Activation to the first discovery done with the view built. */
  startupMs: number;
  /** Writing a SKILL.md to the view showing the change, per edit. */
  workspaceChangeToTreeMs: number[];
  /** The same for a skill of AGENT_SKILLS_PATH (a watcher outside the workspace). */
  externalChangeToTreeMs: number[];
}
