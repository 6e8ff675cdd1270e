// The team server's log of refused requests (401, 403, 503): the first refusal of each kind from a
// client in an interval is written at once, in full; the others are counted and summed up in one
// line per client when the interval ends. A flood of bad attempts writes a few lines a minute, not
// one per attempt, and still says who was refused and why.

import { plural } from '../../core/util/text';

export const DEFAULT_REFUSAL_INTERVAL_MS = 60_000;
/** Clients told apart in one interval; refusals from any further client are counted together. */
export const MAX_CLIENTS_PER_INTERVAL = 1000;
const OTHER_CLIENTS = 'other clients';

export class RefusalLog {
  /** By client, then by reason: the refusals of this interval. */
  private counts = new Map<string, Map<string, number>>();
  private since = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly log: (message: string) => void,
    intervalMs = DEFAULT_REFUSAL_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => this.flush(), intervalMs).unref();
  }

  /**
   * One refused request: `reason` is what its kind is counted under (`401 no bearer token`), `line`
   * what the log says of the first of its kind from `client` in this interval.
   */
  refused(client: string, reason: string, line: string): void {
    const key = this.counts.has(client) || this.counts.size < MAX_CLIENTS_PER_INTERVAL ? client : OTHER_CLIENTS;
    const reasons = this.counts.get(key) ?? new Map<string, number>();
    this.counts.set(key, reasons);
    const count = (reasons.get(reason) ?? 0) + 1;
    reasons.set(reason, count);
    if (count === 1) {
      this.log(line);
    }
  }

  /** Sums up, one line per client, the refusals not written yet, and starts a new interval. */
  flush(): void {
    const counts = this.counts;
    const seconds = Math.round((Date.now() - this.since) / 1000);
    this.counts = new Map();
    this.since = Date.now();
    for (const [client, reasons] of counts) {
      const unwritten = [...reasons].filter(([, count]) => count > 1).map(([reason, count]) => `${reason}: ${(count - 1).toLocaleString('en-US')}`);
      const total = [...reasons.values()].reduce((sum, count) => sum + count - 1, 0);
      if (total > 0) {
        this.log(`${client}: ${plural(total, 'more request')} refused in the last ${seconds} s (${unwritten.join('; ')}).`);
      }
    }
  }

  dispose(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
