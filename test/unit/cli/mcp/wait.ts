// Waiting in the server tests for what a watcher or a client reports, bounded in time.

/** Polls `probe` until it holds; fails naming `message` after `timeoutMs`. */
export async function waitFor(probe: () => boolean, message: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
