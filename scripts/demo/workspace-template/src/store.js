// In-memory bookmark store. Production uses Postgres (see migrations/); the interface is the same.
import { randomUUID } from 'node:crypto';

export class BookmarkStore {
  #items = new Map();

  list(tag) {
    const all = [...this.#items.values()];
    return tag ? all.filter((b) => b.tags.includes(tag)) : all;
  }

  add({ url, title, tags = [] }) {
    const parsed = new URL(url); // throws TypeError on an invalid URL
    if (!['http:', 'https:'].includes(parsed.protocol)) {
      throw new TypeError(`unsupported protocol: ${parsed.protocol}`);
    }
    const bookmark = {
      id: randomUUID(),
      url: parsed.href,
      title: title?.trim() || parsed.hostname,
      tags: [...new Set(tags.map((t) => String(t).toLowerCase()))],
      createdAt: new Date().toISOString(),
    };
    this.#items.set(bookmark.id, bookmark);
    return bookmark;
  }

  remove(id) {
    return this.#items.delete(id);
  }
}
