import * as assert from 'node:assert/strict';
import { ChangeCoalescer, type Timers } from '../../../../src/core/discovery/change-coalescer';
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
  function setup(): { timers: ManualTimers; batches: SkillChange[][]; coalescer: ChangeCoalescer } {
    const timers = new ManualTimers();
    const batches: SkillChange[][] = [];
    const coalescer = new ChangeCoalescer((changes) => batches.push(changes), { quietMs: 100, maxWaitMs: 300, timers });
    return { timers, batches, coalescer };
  }

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
    timers.advance(1000);
    assert.equal(batches.length, 1);
    assert.equal(coalescer.pending, false);
  });
});
