import * as assert from 'node:assert/strict';
import { Emitter, type Disposable } from '../../../../src/core/model/event';

describe('Emitter', () => {
  it('calls each listener with the value and its thisArgs, and hands the handle to disposables', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const owner = { label: 'owner' };
    const disposables: Disposable[] = [];
    const handle = emitter.event(
      function (this: typeof owner, value) {
        seen.push(`${this.label}:${value}`);
      },
      owner,
      disposables,
    );
    emitter.event((value) => seen.push(`plain:${value}`));
    emitter.fire(1);
    assert.deepEqual(seen, ['owner:1', 'plain:1']);
    assert.deepEqual(disposables, [handle]);
    assert.equal(emitter.listenerCount, 2);
  });

  it('starts with no listener and calls nothing', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((error) => errors.push(error));
    assert.equal(emitter.listenerCount, 0);
    emitter.fire(1);
    assert.deepEqual(errors, []);
  });

  it('removes only the listener whose handle is disposed', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const first = emitter.event((value) => seen.push(`first:${value}`));
    emitter.event((value) => seen.push(`second:${value}`));
    first.dispose();
    assert.equal(emitter.listenerCount, 1);
    emitter.fire(2);
    assert.deepEqual(seen, ['second:2']);
  });

  it('passes what a listener throws to its error handler and still calls the others', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((error) => errors.push(error));
    const failure = new Error('listener failed');
    const seen: number[] = [];
    emitter.event(() => {
      throw failure;
    });
    emitter.event((value) => seen.push(value));
    emitter.fire(3);
    assert.deepEqual(errors, [failure]);
    assert.deepEqual(seen, [3]);
  });

  it('logs what a listener throws to the console when given no error handler', () => {
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(...args);
    try {
      const emitter = new Emitter<number>();
      const failure = new Error('listener failed');
      emitter.event(() => {
        throw failure;
      });
      emitter.fire(4);
      assert.deepEqual(logged, [failure]);
    } finally {
      console.error = original;
    }
  });

  it('once disposed, drops its listeners and takes no new ones', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((error) => errors.push(error));
    const seen: number[] = [];
    emitter.event((value) => seen.push(value));
    emitter.dispose();
    assert.equal(emitter.listenerCount, 0);
    const late = emitter.event((value) => seen.push(value));
    assert.equal(emitter.listenerCount, 0);
    late.dispose();
    emitter.fire(5);
    assert.deepEqual(seen, []);
    assert.deepEqual(errors, []);
  });
});
