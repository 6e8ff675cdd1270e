import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BookmarkStore } from '../src/store.js';

test('adds a bookmark and lists it by tag', () => {
  const store = new BookmarkStore();
  const added = store.add({ url: 'https://example.com/docs', tags: ['Docs', 'docs'] });
  assert.equal(added.title, 'example.com');
  assert.deepEqual(added.tags, ['docs']);
  assert.deepEqual(store.list('docs'), [added]);
  assert.deepEqual(store.list('other'), []);
});

test('rejects URLs that are not http or https', () => {
  const store = new BookmarkStore();
  assert.throws(() => store.add({ url: 'javascript:alert(1)' }), /unsupported protocol/);
  assert.throws(() => store.add({ url: 'not a url' }), TypeError);
});

test('removes a bookmark once', () => {
  const store = new BookmarkStore();
  const { id } = store.add({ url: 'https://example.com' });
  assert.equal(store.remove(id), true);
  assert.equal(store.remove(id), false);
});
