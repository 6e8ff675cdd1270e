// The client's side of a stdio connection inside the test process: JSON-RPC messages written as
// lines to the server's input and read as lines from its output, for the SDK's client.

import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

export class LineClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffered = '';

  constructor(
    private readonly toServer: Writable,
    private readonly fromServer: Readable,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      const lines = this.buffered.split('\n');
      this.buffered = lines.pop()!;
      for (const line of lines.filter((text) => text.trim() !== '')) {
        this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
      }
    });
    this.fromServer.once('end', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}
