import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { emptyUsage, summarizeUsage } from '../../../../src/core/use/usage';
import { foldUsageLog, MAX_USAGE_LOG_BYTES, parseUsageLog, takeUsageLog, usageLogLine, UsageLogWriter, type LoggedActivation } from '../../../../src/core/use/usage-log';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';

const AT = Date.UTC(2026, 10, 26, 21, 5, 7, 123);
const PDF: LoggedActivation = { skill: 'pdf-report', via: 'tool', chars: 1234, at: AT };

describe('usage log lines', () => {
  it('writes one JSON line per activation, with an ISO time, and reads it back', () => {
    const line = usageLogLine(PDF);
    assert.equal(line, '{"skill":"pdf-report","via":"tool","chars":1234,"at":"2026-11-26T21:05:07.123Z"}\n');
    const prompt: LoggedActivation = { skill: 'notes', via: 'prompt', chars: 0, at: AT + 1 };
    assert.deepEqual(parseUsageLog(line + usageLogLine(prompt)), { activations: [PDF, prompt], malformed: 0 });
  });

  it('skips blank lines and counts every line that records no activation', () => {
    const good = usageLogLine(PDF);
    const bad = [
      '{"skill":"pdf-report","via":"tool","chars":12', // cut off mid-write
      'not json',
      '42',
      'null',
      '{"via":"tool","chars":1,"at":"2026-11-26T21:05:07Z"}',
      '{"skill":"","via":"tool","chars":1,"at":"2026-11-26T21:05:07Z"}',
      '{"skill":"a","via":"chat","chars":1,"at":"2026-11-26T21:05:07Z"}',
      '{"skill":"a","via":"tool","chars":-1,"at":"2026-11-26T21:05:07Z"}',
      '{"skill":"a","via":"tool","chars":1.5,"at":"2026-11-26T21:05:07Z"}',
      '{"skill":"a","via":"tool","chars":"1","at":"2026-11-26T21:05:07Z"}',
      '{"skill":"a","via":"tool","chars":1,"at":"yesterday"}',
      '{"skill":"a","via":"tool","chars":1,"at":1764191107000}',
      '{"skill":"a","via":"tool","chars":1,"at":2026}', // a number Date.parse would take as a year
    ];
    assert.deepEqual(parseUsageLog(['', good, ...bad, '   ', good].join('\n')), { activations: [PDF, PDF], malformed: bad.length });
  });

  it('counts the tool as the MCP server and a prompt as the MCP prompt, with their characters and days', () => {
    const usage = foldUsageLog(emptyUsage(), [PDF, { ...PDF, chars: 766, at: AT + 1000 }, { skill: 'pdf-report', via: 'prompt', chars: 1000, at: AT - 86_400_000 }]);
    const [row] = summarizeUsage(usage, ['pdf-report']).rows;
    assert.deepEqual(row.byOrigin, { model: 0, agent: 0, mcp: 2, use: 0, mcpPrompt: 1, view: 0, api: 0 });
    assert.equal(row.chars, 3000);
    assert.equal(row.lastAt, AT + 1000);
    assert.deepEqual(usage.days, [
      { day: '2026-11-25', skills: ['pdf-report'], firstAt: AT - 86_400_000 },
      { day: '2026-11-26', skills: ['pdf-report'], firstAt: AT },
    ]);
    assert.deepEqual(foldUsageLog(usage, []), usage);
  });
});

describe('usage log file', () => {
  let dir: string;
  let file: string;
  let logs: string[];
  const log = (message: string): number => logs.push(message);

  beforeEach(async () => {
    dir = await tempDir();
    file = path.join(dir, 'storage', 'folder', 'mcp-activations.jsonl');
    logs = [];
  });
  afterEach(() => removeDir(dir));

  it('is appended to in order, its folder made on the first activation, and taken whole', async () => {
    const writer = new UsageLogWriter(file, log);
    const activations = Array.from({ length: 20 }, (_, index): LoggedActivation => ({ skill: `skill-${index}`, via: index % 2 ? 'prompt' : 'tool', chars: index, at: AT + index }));
    await Promise.all(activations.map((activation) => writer.record(activation)));
    assert.equal(await fs.readFile(file, 'utf8'), activations.map(usageLogLine).join(''));
    assert.deepEqual(await takeUsageLog(file), { activations, malformed: 0 });
    assert.deepEqual(await fs.readdir(path.dirname(file)), [], 'taken and deleted');
    assert.deepEqual(await takeUsageLog(file), { activations: [], malformed: 0 }, 'nothing twice');
    // The next activation starts a new file.
    await writer.record(PDF);
    assert.deepEqual((await takeUsageLog(file)).activations, [PDF]);
    assert.deepEqual(logs, []);
  });

  it('takes nothing, and makes nothing, when the server recorded nothing', async () => {
    assert.deepEqual(await takeUsageLog(file), { activations: [], malformed: 0 });
    await assert.rejects(fs.stat(path.dirname(file)), /ENOENT/);
  });

  it('is readable and writable by its owner only', async function () {
    if (process.platform === 'win32') {
      this.skip(); // Windows has no such mode bits
    }
    await new UsageLogWriter(file, log).record(PDF);
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
  });

  it('has every activation recorded so far on disk once settled', async () => {
    const writer = new UsageLogWriter(file, log);
    for (let index = 0; index < 3; index++) {
      void writer.record({ ...PDF, at: AT + index });
    }
    await writer.settled();
    assert.equal((await fs.readFile(file, 'utf8')).split('\n').length, 4);
  });

  it('leaves no file open after a take', async function () {
    const openFiles = (): Promise<number> => fs.readdir('/proc/self/fd').then((entries) => entries.length);
    if (process.platform !== 'linux') {
      this.skip(); // the count of open files is read from /proc
    }
    const writer = new UsageLogWriter(file, log);
    await writer.record(PDF);
    await fs.writeFile(`${file}.taken`, usageLogLine(PDF));
    const before = await openFiles();
    for (let index = 0; index < 5; index++) {
      await writer.record(PDF);
      await takeUsageLog(file);
    }
    assert.equal(await openFiles(), before);
  });

  it('keeps a leftover line cut off mid-write apart from the first line of the next file', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(`${file}.taken`, usageLogLine(PDF).slice(0, 20));
    await new UsageLogWriter(file, log).record(PDF);
    assert.deepEqual(await takeUsageLog(file), { activations: [PDF], malformed: 1 });
  });

  it('reads first what a take interrupted between rename and delete left behind', async () => {
    const second: LoggedActivation = { ...PDF, skill: 'second' };
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Cut off without its newline, as a write interrupted at the end would leave it.
    await fs.writeFile(`${file}.taken`, usageLogLine(PDF) + usageLogLine(PDF).slice(0, 20));
    assert.deepEqual(await takeUsageLog(file), { activations: [PDF], malformed: 1 });
    await fs.writeFile(`${file}.taken`, usageLogLine(PDF));
    await new UsageLogWriter(file, log).record(second);
    assert.deepEqual(await takeUsageLog(file), { activations: [PDF, second], malformed: 0 });
    assert.deepEqual(await fs.readdir(path.dirname(file)), []);
  });

  it('stops growing at its limit, says so once, and records again once taken', async () => {
    const line = usageLogLine(PDF);
    const writer = new UsageLogWriter(file, log, 3 * Buffer.byteLength(line));
    for (let index = 0; index < 5; index++) {
      await writer.record(PDF);
    }
    assert.equal(await fs.readFile(file, 'utf8'), line.repeat(3));
    assert.deepEqual(logs, [`the usage log ${file} is full (${3 * Buffer.byteLength(line)} bytes); activations are not recorded until the editor reads it.`]);
    assert.equal((await takeUsageLog(file)).activations.length, 3);
    await writer.record(PDF);
    assert.equal(await fs.readFile(file, 'utf8'), line);
    assert.equal(logs.length, 1);
  });

  it('never rejects on a disk error: the activation is dropped and the problem said once, until a write works again', async () => {
    // The log's folder is a file: every write fails.
    await fs.mkdir(path.dirname(path.dirname(file)), { recursive: true });
    await fs.writeFile(path.dirname(file), 'not a folder');
    const writer = new UsageLogWriter(file, log);
    await writer.record(PDF);
    await writer.record(PDF);
    assert.equal(logs.length, 1);
    assert.match(logs[0], new RegExp(`^could not record an activation in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOTDIR`));
    await fs.rm(path.dirname(file));
    await writer.record(PDF);
    assert.deepEqual((await takeUsageLog(file)).activations, [PDF]);
    await fs.rm(path.dirname(file), { recursive: true });
    await fs.writeFile(path.dirname(file), 'not a folder');
    await writer.record(PDF);
    assert.equal(logs.length, 2, 'a new problem is said again');
  });

  it('reads at most twice the limit of a file something else made huge', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const line = usageLogLine(PDF);
    const lines = Math.ceil((3 * MAX_USAGE_LOG_BYTES) / line.length);
    await fs.writeFile(file, line.repeat(lines));
    const { activations, malformed } = await takeUsageLog(file);
    assert.equal(activations.length, Math.floor((2 * MAX_USAGE_LOG_BYTES) / line.length));
    assert.ok(malformed <= 1);
    assert.deepEqual(await fs.readdir(path.dirname(file)), []);
  });
});
