// A static web server on 127.0.0.1 for skills sites, in the unit tests and the integration suites:
// it serves the files of one folder as any static host would, and a test can replace what one path
// answers (a redirect, a lie about a size, an endless body) to play a hostile or broken site.
// Nothing leaves the machine.

import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

/** Answers one request in place of the folder's file; return false to serve the file after all. */
export type SiteRoute = (request: http.IncomingMessage, response: http.ServerResponse) => boolean | void;

export interface SiteServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The paths requested, in order. */
  requested: string[];
  /** Answers requests for `pathname` with `route` from now on. */
  route(pathname: string, route: SiteRoute): void;
  close(): Promise<void>;
}

export async function startSiteServer(folder: string): Promise<SiteServer> {
  const routes = new Map<string, SiteRoute>();
  const requested: string[] = [];
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    requested.push(pathname);
    const route = routes.get(pathname);
    if (route && route(request, response) !== false) {
      return;
    }
    const file = path.join(folder, ...pathname.split('/'));
    if (!file.startsWith(folder + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    const bytes = fs.readFileSync(file);
    response.writeHead(200, { 'content-type': file.endsWith('.json') ? 'application/json' : 'application/octet-stream', 'content-length': bytes.length });
    response.end(bytes);
  });
  // A test that stops mid-answer (an endless body) must not keep the server from closing.
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    route: (pathname, route) => routes.set(pathname, route),
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}
