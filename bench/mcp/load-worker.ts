// Run as `node out/bench/mcp/load-worker.js URL CLIENTS START_AT SECONDS QUERY`, its bundle (a child
// process of the replicas section, so that several load generators share the client load across
// cores): CLIENTS plain 2026-07-28 clients call find_skills back to back at URL, warming up until
// START_AT (epoch milliseconds, the same for every worker), then counting the calls answered in
// the next SECONDS. Prints {"calls": N, "errors": E}.

import { load, PlainSession } from './http-load';

async function main([url, clients, startAt, seconds, query]: string[]): Promise<void> {
  const sessions = Array.from({ length: Number(clients) }, () => new PlainSession(new URL(url), '2026-07-28'));
  await Promise.all(sessions.map((session) => session.open()));
  await load(sessions, query, Number(startAt));
  const measured = await load(sessions, query, Number(startAt) + Number(seconds) * 1000);
  sessions.forEach((session) => session.close());
  process.stdout.write(`${JSON.stringify({ calls: measured.latencies.length, errors: measured.errors })}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
