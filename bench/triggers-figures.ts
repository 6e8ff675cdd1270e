// What the triggers-bench suite measures inside VS Code and writes for the bench's triggers section.

export interface TriggersBenchFigures {
  queries: number;
  runsPerQuery: number;
  /** The scripted model's delay before each answer. */
  modelLatencyMs: number;
  /** agentSkills.triggerTests.concurrency during the run. */
  concurrency: number;
  /** Requests the model received. */
  requests: number;
  /** From the run handler's start to its end, per repetition. */
  elapsedMs: number[];
}
