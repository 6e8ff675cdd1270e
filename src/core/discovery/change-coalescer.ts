// Turns bursts of file-system events (a git checkout, a save storm) into one batch of changes.
// A batch is flushed once events stop for `quietMs`, and at the latest `maxWaitMs` after its first
// event, so a steady stream of events cannot hold an update back indefinitely.

import type { SkillChange } from './registry';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  /** Does nothing for `undefined`, like the global clearTimeout. */
  clearTimeout(handle: unknown): void;
}

export interface CoalescerOptions {
  quietMs?: number;
  maxWaitMs?: number;
  timers?: Timers;
}

export const DEFAULT_QUIET_MS = 100;
export const DEFAULT_MAX_WAIT_MS = 300;

const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ChangeCoalescer {
  /** One entry per path; the latest event for a path describes its state. */
  private readonly batch = new Map<string, SkillChange['kind']>();
  private quietTimer: unknown;
  private maxWaitTimer: unknown;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly timers: Timers;

  constructor(
    private readonly flushBatch: (changes: SkillChange[]) => void,
    options: CoalescerOptions = {},
  ) {
    this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.timers = options.timers ?? systemTimers;
  }

  get pending(): boolean {
    return this.batch.size > 0;
  }

  add(change: SkillChange): void {
    // Delete then set, so the batch keeps the order of the latest events.
    this.batch.delete(change.path);
    this.batch.set(change.path, change.kind);
    this.timers.clearTimeout(this.quietTimer); // Clearing no timer (undefined) does nothing.
    this.quietTimer = this.timers.setTimeout(() => this.flush(), this.quietMs);
    if (this.maxWaitTimer === undefined) {
      this.maxWaitTimer = this.timers.setTimeout(() => this.flush(), this.maxWaitMs);
    }
  }

  /** Hands the pending batch over now (if any). */
  flush(): void {
    this.clearTimers();
    if (this.batch.size === 0) {
      return;
    }
    const changes = [...this.batch].map(([path, kind]) => ({ path, kind }));
    this.batch.clear();
    this.flushBatch(changes);
  }

  /** Drops pending changes without flushing them. */
  dispose(): void {
    this.clearTimers();
    this.batch.clear();
  }

  private clearTimers(): void {
    this.timers.clearTimeout(this.quietTimer);
    this.timers.clearTimeout(this.maxWaitTimer);
    this.quietTimer = undefined;
    this.maxWaitTimer = undefined;
  }
}
