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
  if (values.length === 0) {
    throw new Error('median of no values');
  }
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The value at `fraction` (0–1) of values sorted in increasing order (nearest rank); NaN when there are none. */
export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface MedianTimes {
  /** Elapsed time. */
  wallMs: number;
  /** CPU time of the whole process (all its threads, so file-system work counts too). Steadier than wall time on a busy machine. */
  cpuMs: number;
}

/**
 * Median times of several tasks measured in alternation, the order reversed every other round
 * (a, b, b, a…), so that changes in the machine's load or caches during the run, and whatever one
 * task leaves warm for the next, affect each of them alike.
 */
export async function alternatingMedians<Name extends string>(tasks: Readonly<Record<Name, TimedTask>>, repetitions: Repetitions): Promise<Record<Name, MedianTimes>> {
  const names = Object.keys(tasks) as Name[];
  const samples = new Map<Name, { wall: number[]; cpu: number[] }>(names.map((name) => [name, { wall: [], cpu: [] }]));
  for (let index = 0; index < repetitions.warmups + repetitions.runs; index++) {
    for (const name of index % 2 === 0 ? names : [...names].reverse()) {
      const task: TimedTask = tasks[name];
      const steps: TimedSteps = typeof task === 'function' ? { run: task } : task;
      await steps.prepare?.();
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      await steps.run();
      const wallMs = elapsedMs(start);
      const cpu = process.cpuUsage(cpuStart);
      if (index >= repetitions.warmups) {
        samples.get(name)!.wall.push(wallMs);
        samples.get(name)!.cpu.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
  return Object.fromEntries(names.map((name) => [name, { wallMs: median(samples.get(name)!.wall), cpuMs: median(samples.get(name)!.cpu) }])) as Record<Name, MedianTimes>;
}

/** Median elapsed times in milliseconds of tasks measured in alternation (see alternatingMedians). */
export async function alternatingMediansMs<Name extends string>(tasks: Readonly<Record<Name, TimedTask>>, repetitions: Repetitions): Promise<Record<Name, number>> {
  const medians = await alternatingMedians(tasks, repetitions);
  return Object.fromEntries(Object.entries<MedianTimes>(medians).map(([name, times]) => [name, times.wallMs])) as Record<Name, number>;
}
