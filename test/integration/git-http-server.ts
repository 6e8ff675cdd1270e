// Git's smart HTTP protocol on 127.0.0.1, for sources named by an http:// URL, in the unit tests and
// in the integration suites: each request runs `git http-backend` (CGI) over the bare repositories
// in one folder. It can require a user name and password (HTTP Basic), and records the
// Authorization header of each request. Nothing leaves the machine.

import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** `http://127.0.0.1:PORT`: a repository `NAME.git` of the folder is at `${origin}/NAME.git`. */
  origin: string;
  /** The Authorization header of each request, '' when there was none. */
  authorizations: string[];
  close(): Promise<void>;
}

export async function startGitHttpServer(repositoriesFolder: string, required?: { user: string; password: string }): Promise<GitHttpServer> {
  const authorizations: string[] = [];
  const expected = required && `Basic ${Buffer.from(`${required.user}:${required.password}`).toString('base64')}`;
  const server = http.createServer((request, response) => {
    authorizations.push(request.headers.authorization ?? '');
    if (expected !== undefined && request.headers.authorization !== expected) {
      request.resume();
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      response.end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const backend = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: repositoriesFolder,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method ?? 'GET',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    request.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    backend.on('close', () => {
      // CGI output: header lines, a blank line, then the body.
      const output = Buffer.concat(chunks);
      const end = output.indexOf('\r\n\r\n');
      const headerText = output.subarray(0, end).toString('latin1');
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of headerText.split('\r\n')) {
        const colon = line.indexOf(':');
        const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        if (name.toLowerCase() === 'status') {
          status = Number.parseInt(value, 10);
        } else if (name !== '') {
          headers[name] = value;
        }
      }
      response.writeHead(status, headers);
      response.end(output.subarray(end + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
