// Timing helpers shared by bench sections: medians of repeated runs after warm-up runs.

export interface Repetitions {
  /** Runs discarded first, to warm up module, JIT and file-system caches. */
  warmups: number;
  /** Runs measured; the median is reported. */
  runs: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Median duration of `work` in milliseconds. `prepare` runs before each run, outside the timing. */
export async function medianMs(work: () => Promise<unknown>, repetitions: Repetitions, prepare?: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < repetitions.warmups + repetitions.runs; index++) {
    await prepare?.();
    const start = process.hrtime.bigint();
    await work();
    if (index >= repetitions.warmups) times.push(elapsedMs(start));
  }
  return median(times);
}
