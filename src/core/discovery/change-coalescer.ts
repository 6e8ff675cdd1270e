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

/** Long enough for an editor to have started the watchers it was asked for. */
export const ROOTS_CATCH_UP_MS = 2000;

/**
 * Watchers are created again when the roots change, and each starts some time after it is asked
 * for: what changes in between (in any root, new or not) is seen by none. Once they have surely
 * started, every root is read once more (a `changed` event on a root lists it again), so nothing
 * written in that window is lost. Several restarts in a row make one catch-up, after the last.
 */
export class RootsCatchUp {
  private timer: unknown;
  private started = false;

  constructor(
    private readonly report: (change: SkillChange) => void,
    private readonly currentRoots: () => readonly string[],
    private readonly timers: Timers = systemTimers,
    private readonly delayMs = ROOTS_CATCH_UP_MS,
  ) {}

  /**
   * The watchers were (re-)created. Up to the first roots, discovery is reading everything anyway,
   * unless it read them before these watchers were asked for (`readBefore`).
   */
  watchersRestarted(readBefore = false): void {
    if (!this.started) {
      this.started = this.currentRoots().length > 0;
      if (!this.started || !readBefore) {
        return;
      }
    }
    this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      for (const root of this.currentRoots()) {
        this.report({ path: root, kind: 'changed' });
      }
    }, this.delayMs);
  }

  dispose(): void {
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
