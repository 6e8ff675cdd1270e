// Activations counted in another process for the editor: the `agent-skills mcp` server that the
// editor starts for agent mode appends one JSON line per activation to the file the editor names in
// AGENT_SKILLS_USAGE_LOG (in the workspace's storage); the editor takes the file whole (renamed away,
// read, deleted) and folds its lines into its usage record. A server given no file records nothing.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { USAGE_LOG_ENV } from '../defaults';
import { errorMessage, unlessMissing } from '../util/errors';
import { recordActivation, type UsageOrigin, type UsageRecord } from './usage';

export { USAGE_LOG_ENV };
/** The file stops growing at this size until the editor takes it (a line is about 90 bytes). */
export const MAX_USAGE_LOG_BYTES = 256 * 1024;

/** How the server was asked: its activate tool (a model, in agent mode) or a skill's prompt (the user). */
export type LoggedVia = 'tool' | 'prompt';

const ORIGIN_OF_VIA: Record<LoggedVia, UsageOrigin> = { tool: 'mcp', prompt: 'mcpPrompt' };

export interface LoggedActivation {
  skill: string;
  via: LoggedVia;
  /** Characters of the skill text the activation returned. */
  chars: number;
  /** Epoch milliseconds. */
  at: number;
}

export function usageLogLine({ skill, via, chars, at }: LoggedActivation): string {
  return `${JSON.stringify({ skill, via, chars, at: new Date(at).toISOString() })}\n`;
}

export interface ParsedUsageLog {
  activations: LoggedActivation[];
  /** Lines that are not an activation (a cut-off write, a hand edit): skipped. */
  malformed: number;
}

function parseLine(line: string): LoggedActivation | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // Not JSON (a write cut off): value stays undefined, which the test below refuses.
  }
  const { skill, via, chars, at } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const time = typeof at === 'string' ? Date.parse(at) : NaN;
  if (typeof skill !== 'string' || skill === '' || (via !== 'tool' && via !== 'prompt') || !Number.isSafeInteger(chars) || (chars as number) < 0 || !Number.isFinite(time)) {
    return undefined;
  }
  return { skill, via, chars: chars as number, at: time };
}

export function parseUsageLog(text: string): ParsedUsageLog {
  const parsed: ParsedUsageLog = { activations: [], malformed: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const activation = parseLine(line);
    if (activation) {
      parsed.activations.push(activation);
    } else {
      parsed.malformed++;
    }
  }
  return parsed;
}

/** The record with the logged activations counted, by the MCP server's tool or prompt. */
export function foldUsageLog(usage: UsageRecord, activations: readonly LoggedActivation[]): UsageRecord {
  return activations.reduce((record, { skill, via, chars, at }) => recordActivation(record, { skill, origin: ORIGIN_OF_VIA[via], chars, at }), usage);
}

/**
 * The server's side: appends activations one after another and never throws, so serving goes on
 * whatever the disk says. A problem is logged when it starts, not once per activation.
 */
export class UsageLogWriter {
  private writing: Promise<void> = Promise.resolve();
  private problem: string | undefined;

  constructor(
    private readonly file: string,
    private readonly log: (message: string) => void,
    private readonly maxBytes = MAX_USAGE_LOG_BYTES,
  ) {}

  /** Resolves once the line is written, or given up. */
  record(activation: LoggedActivation): Promise<void> {
    this.writing = this.writing.then(() => this.append(usageLogLine(activation)));
    return this.writing;
  }

  /** Resolves once every activation recorded so far is written, or given up. */
  settled(): Promise<void> {
    return this.writing;
  }

  private async append(line: string): Promise<void> {
    try {
      const size = await unlessMissing(fs.stat(this.file).then((stats) => stats.size));
      if (size === undefined) {
        await fs.mkdir(path.dirname(this.file), { recursive: true });
      } else if (size + Buffer.byteLength(line) > this.maxBytes) {
        this.report('full', `the usage log ${this.file} is full (${this.maxBytes} bytes); activations are not recorded until the editor reads it.`);
        return;
      }
      await fs.appendFile(this.file, line, { mode: 0o600 });
      this.problem = undefined;
    } catch (error) {
      this.report('error', `could not record an activation in ${this.file}: ${errorMessage(error)}`);
    }
  }

  private report(kind: string, message: string): void {
    if (this.problem !== kind) {
      this.problem = kind;
      this.log(message);
    }
  }
}

/** Reads at most `maxBytes` of a file; undefined when it does not exist. */
async function readHead(file: string, maxBytes: number): Promise<string | undefined> {
  const handle = await unlessMissing(fs.open(file, 'r'));
  if (handle === undefined) {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(Math.min((await handle.stat()).size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The editor's side: the activations logged since the last take. The file is renamed away before
 * it is read, so what the server appends meanwhile starts a new file for the next take; a file a
 * take left behind (the editor stopped between rename and delete) is read first. Reads stop at
 * twice the writer's limit, whatever else wrote there.
 */
export async function takeUsageLog(file: string): Promise<ParsedUsageLog> {
  const taken = `${file}.taken`;
  const leftover = await readHead(taken, 2 * MAX_USAGE_LOG_BYTES);
  const renamed = (await unlessMissing(fs.rename(file, taken).then(() => true))) ?? false;
  const text = renamed ? await readHead(taken, 2 * MAX_USAGE_LOG_BYTES) : undefined;
  await fs.rm(taken, { force: true });
  // A leftover's last line, cut off without its newline, stays a line of its own.
  return parseUsageLog(`${leftover ?? ''}\n${text ?? ''}`);
}
