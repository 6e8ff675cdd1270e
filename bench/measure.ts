// Timing helpers shared by bench sections: medians of repeated runs after warm-up runs.

export interface Repetitions {
  /** Runs discarded first, to warm up module, JIT and file-system caches. */
  warmups: number;
  /** Runs measured; the median is reported. */
  runs: number;
}

/** Work to time; `prepare` runs before each run, outside the timing. */
export interface TimedSteps {
  prepare?: () => Promise<unknown>;
  run: () => Promise<unknown>;
}

export type TimedTask = (() => Promise<unknown>) | TimedSteps;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Median durations in milliseconds of several tasks measured in alternation (a, b, a, b…), so
 * that changes in the machine's load or caches during the run affect each of them alike.
 */
export async function alternatingMediansMs<Name extends string>(tasks: Readonly<Record<Name, TimedTask>>, repetitions: Repetitions): Promise<Record<Name, number>> {
  const names = Object.keys(tasks) as Name[];
  const times = new Map<Name, number[]>(names.map((name) => [name, []]));
  for (let index = 0; index < repetitions.warmups + repetitions.runs; index++) {
    for (const name of names) {
      const task: TimedTask = tasks[name];
      const steps: TimedSteps = typeof task === 'function' ? { run: task } : task;
      await steps.prepare?.();
      const start = process.hrtime.bigint();
      await steps.run();
      if (index >= repetitions.warmups) times.get(name)!.push(elapsedMs(start));
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times.get(name)!)])) as Record<Name, number>;
}
