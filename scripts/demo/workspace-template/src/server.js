import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { BookmarkStore } from './store.js';

const store = new BookmarkStore();

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

export async function handle(req, res) {
  const url = new URL(req.url, 'http://localhost');

  if (req.method === 'GET' && url.pathname === '/health') {
    return send(res, 200, { ok: true });
  }
  if (req.method === 'GET' && url.pathname === '/bookmarks') {
    return send(res, 200, store.list(url.searchParams.get('tag') ?? undefined));
  }
  if (req.method === 'POST' && url.pathname === '/bookmarks') {
    try {
      return send(res, 201, store.add(await readJson(req)));
    } catch (error) {
      return send(res, 400, { error: error.message });
    }
  }
  const match = url.pathname.match(/^\/bookmarks\/([\w-]+)$/);
  if (req.method === 'DELETE' && match) {
    return store.remove(match[1]) ? send(res, 204) : send(res, 404, { error: 'not found' });
  }
  return send(res, 404, { error: 'not found' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000);
  createServer(handle).listen(port, () => console.log(`bookmarks-api on http://localhost:${port}`));
}
