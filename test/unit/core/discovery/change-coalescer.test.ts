import * as assert from 'node:assert/strict';
import { ChangeCoalescer, ROOTS_CATCH_UP_MS, RootsCatchUp, type Timers } from '../../../../src/core/discovery/change-coalescer';
import type { SkillChange } from '../../../../src/core/discovery/registry';

/** Timers driven by hand: `advance(ms)` runs what falls due, in order. */
class ManualTimers implements Timers {
  now = 0;
  private nextId = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.due.set(id, { at: this.now + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  /** Timers set and neither run nor cleared. */
  get scheduled(): number {
    return this.due.size;
  }

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const next = [...this.due].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) {
        break;
      }
      this.due.delete(next[0]);
      this.now = next[1].at;
      next[1].callback();
    }
    this.now = end;
  }
}

describe('ChangeCoalescer', () => {
  function setup(options: { quietMs?: number; maxWaitMs?: number } = { quietMs: 100, maxWaitMs: 300 }): { timers: ManualTimers; batches: SkillChange[][]; coalescer: ChangeCoalescer } {
    const timers = new ManualTimers();
    const batches: SkillChange[][] = [];
    const coalescer = new ChangeCoalescer((changes) => batches.push(changes), { ...options, timers });
    return { timers, batches, coalescer };
  }

  it('waits 100 ms of quiet and at most 300 ms by default, or the times it is given', () => {
    const cases: [options: { quietMs?: number; maxWaitMs?: number }, quietMs: number, maxWaitMs: number][] = [
      [{}, 100, 300],
      [{ quietMs: 20, maxWaitMs: 50 }, 20, 50],
    ];
    for (const [options, quietMs, maxWaitMs] of cases) {
      const { timers, batches, coalescer } = setup(options);
      coalescer.add({ path: '/s/a', kind: 'changed' });
      timers.advance(quietMs - 1);
      assert.equal(batches.length, 0);
      timers.advance(1);
      assert.equal(batches.length, 1);
      // Events closer together than the quiet time: only the longest wait flushes them.
      const step = quietMs * 0.6;
      for (let elapsed = 0; elapsed < maxWaitMs; elapsed += step) {
        coalescer.add({ path: `/s/${elapsed}`, kind: 'changed' });
        timers.advance(step);
      }
      assert.deepEqual(
        batches.map((batch) => batch.length),
        [1, Math.ceil(maxWaitMs / step)],
        `quiet ${quietMs} ms, longest wait ${maxWaitMs} ms`,
      );
    }
  });

  it('hands over nothing when flushed with nothing pending, and leaves no timer behind', () => {
    const { timers, batches, coalescer } = setup();
    coalescer.flush();
    coalescer.add({ path: '/s/a', kind: 'changed' });
    coalescer.flush();
    assert.equal(timers.scheduled, 0);
    coalescer.flush();
    assert.deepEqual(batches, [[{ path: '/s/a', kind: 'changed' }]]);
  });

  it('starts the longest wait afresh with the first event after a flush', () => {
    const { timers, batches, coalescer } = setup();
    coalescer.add({ path: '/s/a', kind: 'changed' });
    timers.advance(10);
    coalescer.flush();
    timers.advance(240);
    coalescer.add({ path: '/s/b', kind: 'changed' });
    timers.advance(60); // 300 ms after the first event: the flushed batch no longer counts.
    assert.equal(batches.length, 1);
    timers.advance(40);
    assert.deepEqual(batches[1], [{ path: '/s/b', kind: 'changed' }]);
  });

  it('flushes one batch once events stop, keeping the latest kind per path', () => {
    const { timers, batches, coalescer } = setup();
    coalescer.add({ path: '/s/a/SKILL.md', kind: 'created' });
    timers.advance(50);
    coalescer.add({ path: '/s/b/SKILL.md', kind: 'changed' });
    coalescer.add({ path: '/s/a/SKILL.md', kind: 'deleted' });
    timers.advance(99);
    assert.equal(batches.length, 0);
    timers.advance(1);
    assert.deepEqual(batches, [
      [
        { path: '/s/b/SKILL.md', kind: 'changed' },
        { path: '/s/a/SKILL.md', kind: 'deleted' },
      ],
    ]);
  });

  it('flushes a steady stream of events at the latest after maxWaitMs', () => {
    const { timers, batches, coalescer } = setup();
    for (let index = 0; index < 10; index++) {
      coalescer.add({ path: `/s/skill-${index}/SKILL.md`, kind: 'changed' });
      timers.advance(50);
    }
    assert.equal(batches.length, 1);
    assert.equal(batches[0].length, 6); // Events at 0, 50, ..., 250 ms; the 300 ms deadline flushed them.
  });

  it('flushes on demand, and dispose drops what is pending', () => {
    const { timers, batches, coalescer } = setup();
    coalescer.add({ path: '/s/a', kind: 'changed' });
    assert.equal(coalescer.pending, true);
    coalescer.flush();
    assert.equal(batches.length, 1);
    coalescer.add({ path: '/s/b', kind: 'changed' });
    coalescer.dispose();
    assert.equal(timers.scheduled, 0);
    timers.advance(1000);
    assert.equal(batches.length, 1);
    assert.equal(coalescer.pending, false);
  });

  it('runs on the system timers when given none, and a flush cancels the timers of the batch it hands over', async () => {
    const quietMs = 40;
    const flushed: { changes: SkillChange[]; at: number }[] = [];
    const coalescer = new ChangeCoalescer((changes) => flushed.push({ changes, at: performance.now() }), { quietMs, maxWaitMs: 1000 });
    coalescer.add({ path: '/s/a', kind: 'changed' });
    coalescer.flush();
    await new Promise((resolve) => setTimeout(resolve, quietMs / 2));
    const addedAt = performance.now();
    coalescer.add({ path: '/s/b', kind: 'changed' });
    for (let waited = 0; flushed.length < 2 && waited < 50; waited++) {
      await new Promise((resolve) => setTimeout(resolve, quietMs / 2));
    }
    assert.deepEqual(
      flushed.map((batch) => batch.changes),
      [[{ path: '/s/a', kind: 'changed' }], [{ path: '/s/b', kind: 'changed' }]],
    );
    // The quiet timer of /s/a would have fired halfway through the quiet time of /s/b.
    assert.ok(flushed[1].at - addedAt >= quietMs - 1, `${flushed[1].at - addedAt} ms`);
  });
});

describe('RootsCatchUp', () => {
  let timers: ManualTimers;
  let reported: SkillChange[];
  let roots: string[];
  let catchUp: RootsCatchUp;

  beforeEach(() => {
    timers = new ManualTimers();
    reported = [];
    roots = [];
    catchUp = new RootsCatchUp(
      (change) => reported.push(change),
      () => roots,
      timers,
    );
  });

  /** Nothing is read again before ROOTS_CATCH_UP_MS, then every current root once. */
  function assertEveryRootReadAfterTheDelay(): void {
    timers.advance(ROOTS_CATCH_UP_MS - 1);
    assert.deepEqual(reported, []);
    timers.advance(1);
    assert.deepEqual(
      reported,
      roots.map((path) => ({ path, kind: 'changed' })),
    );
  }

  it('reads nothing again until the first roots are watched: their discovery reads everything', () => {
    catchUp.watchersRestarted();
    roots = ['/ws/.agent/skills'];
    catchUp.watchersRestarted();
    timers.advance(10_000);
    assert.deepEqual(reported, []);
  });

  it('reads the first roots once more when they were read before their watchers were asked for', () => {
    catchUp.watchersRestarted(true); // No roots yet: nothing was read, nothing to read again.
    timers.advance(ROOTS_CATCH_UP_MS / 2);
    roots = ['/ws/.agent/skills', '/home/me/.agent/skills'];
    catchUp.watchersRestarted(true);
    assertEveryRootReadAfterTheDelay();
  });

  it('reads every root once more, old and new, when the watchers have surely started after a change of roots', () => {
    roots = ['/ws/.agent/skills', '/home/me/.agent/skills'];
    catchUp.watchersRestarted();
    roots = ['/ws/.agent/skills', '/home/me/.agent/skills', '/ws/packages/web/.agent/skills'];
    catchUp.watchersRestarted();
    assertEveryRootReadAfterTheDelay();
  });

  it('makes one catch-up of the roots of the moment after several restarts in a row, and none once disposed', () => {
    roots = ['/a'];
    catchUp.watchersRestarted();
    catchUp.watchersRestarted();
    timers.advance(ROOTS_CATCH_UP_MS / 2);
    roots = ['/b'];
    catchUp.watchersRestarted();
    timers.advance(ROOTS_CATCH_UP_MS);
    assert.deepEqual(reported, [{ path: '/b', kind: 'changed' }]);
    catchUp.watchersRestarted();
    catchUp.dispose();
    timers.advance(ROOTS_CATCH_UP_MS * 2);
    assert.equal(reported.length, 1);
    assert.equal(timers.scheduled, 0);
  });
});
