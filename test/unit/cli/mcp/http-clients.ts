// The official SDK's clients of `agent-skills mcp --http`, at either protocol revision, with a
// bearer token: a 2025-11-25 client (initialize, then a session) and a 2026-07-28 one (no session).

import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { STATELESS_REVISION } from './envelope';

function authorization(token: string | null): Record<string, string> {
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

/** A 2025-11-25 client, in a session of its own once connected; `token` null sends none. */
export async function connectClient(url: string, token: string | null): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: authorization(token) } }));
  return client;
}

/** A client of the stateless revision (2026-07-28): no initialize, no session; `fetch` sends its requests. */
export async function connectStatelessClient(url: string, token: string | null, fetchRequest?: FetchLike): Promise<Client> {
  const client = new Client({ name: 'http-test-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: STATELESS_REVISION } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: authorization(token) }, ...(fetchRequest ? { fetch: fetchRequest } : {}) }));
  return client;
}
