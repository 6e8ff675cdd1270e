import * as assert from 'node:assert/strict';
import type { PromptMessage } from '../../../../src/core/chat/conversation';
import { plannedRequests, runTriggerJobs, runTriggerOnce, type ModelAnswer, type ModelToolCall, type TriggerJob, type TriggerModel } from '../../../../src/core/evals/run';

const prompt: PromptMessage[] = [
  { role: 'user', parts: [{ kind: 'text', text: 'instructions' }] },
  { role: 'user', parts: [{ kind: 'text', text: 'fill the form' }] },
];
const activate = (name: string, callId = `c-${name}`): ModelToolCall => ({ callId, name: 'skills_activate', input: { name } });
const find = (query: string): ModelToolCall => ({ callId: 'f1', name: 'skills_find', input: { query } });

/** A model answering from a list, recording what it was sent and which tools it had to answer. */
function listModel(...answers: (ModelAnswer | Error)[]): TriggerModel & { sent: PromptMessage[][]; toolCalls: string[] } {
  const sent: PromptMessage[][] = [];
  const toolCalls: string[] = [];
  return {
    sent,
    toolCalls,
    async send(messages) {
      sent.push([...messages]);
      const answer = answers.shift() ?? { text: '', calls: [] };
      if (answer instanceof Error) {
        throw answer;
      }
      return answer;
    },
    async answerTool(call) {
      toolCalls.push(call.name);
      return `result of ${call.name}`;
    },
  };
}

const notCancelled = { isCancellationRequested: false };

describe('runTriggerOnce', () => {
  it('triggers when the first answer activates the skill, without running the activation', async () => {
    const model = listModel({ text: '', calls: [activate('pdf')] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, model, notCancelled), { kind: 'completed', triggered: true, loaded: ['pdf'], firstLine: '' });
    assert.equal(model.sent.length, 1);
    assert.deepEqual(model.toolCalls, []);
    assert.deepEqual(model.sent[0], prompt);
  });

  it('counts a search followed by an activation, sending the search result back', async () => {
    const model = listModel({ text: 'Searching.', calls: [find('pdf forms')] }, { text: '', calls: [activate('pdf')] });
    const result = await runTriggerOnce('pdf', prompt, model, notCancelled);
    assert.deepEqual(result, { kind: 'completed', triggered: true, loaded: ['pdf'], firstLine: 'Searching.' });
    assert.deepEqual(model.toolCalls, ['skills_find']);
    const second = model.sent[1];
    assert.deepEqual(second.slice(2), [
      {
        role: 'assistant',
        parts: [
          { kind: 'text', text: 'Searching.' },
          { kind: 'toolCall', callId: 'f1', name: 'skills_find', input: { query: 'pdf forms' } },
        ],
      },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'f1', text: 'result of skills_find' }] },
    ]);
  });

  it('stops after two rounds and reports another skill or none', async () => {
    const searching = listModel({ text: '', calls: [find('a')] }, { text: '', calls: [find('b')] }, { text: '', calls: [activate('pdf')] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, searching, notCancelled), { kind: 'completed', triggered: false, loaded: [], firstLine: '' });
    assert.equal(searching.sent.length, 2);
    assert.deepEqual(searching.toolCalls, ['skills_find'], 'the second round ends the run: its search is not answered');
    const wrong = listModel({ text: '\nI will use docx.\nMore.', calls: [activate('docx')] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, wrong, notCancelled), { kind: 'completed', triggered: false, loaded: ['docx'], firstLine: 'I will use docx.' });
  });

  it('counts only activation calls, each with a usable name, and stops as soon as one loads a skill', async () => {
    const other: ModelToolCall = { callId: 'r1', name: 'skills_readResource', input: { name: 'pdf', skill: 'pdf', path: 'a.md' } };
    const reading = listModel({ text: '', calls: [other] }, { text: '', calls: [] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, reading, notCancelled), { kind: 'completed', triggered: false, loaded: [], firstLine: '' });
    assert.deepEqual(reading.toolCalls, ['skills_readResource']);

    const nameless = listModel({ text: '', calls: [{ callId: 'a1', name: 'skills_activate', input: {} }] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, nameless, notCancelled), { kind: 'completed', triggered: false, loaded: [], firstLine: '' });
    assert.equal(nameless.sent.length, 1, 'an activation call alone ends the run, usable or not');
    assert.deepEqual(nameless.toolCalls, []);

    const both = listModel({ text: '', calls: [find('pdf'), activate('pdf')] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, both, notCancelled), { kind: 'completed', triggered: true, loaded: ['pdf'], firstLine: '' });
    assert.equal(both.sent.length, 1);
    assert.deepEqual(both.toolCalls, []);
  });

  it('sends back only the tool calls of an answer without text', async () => {
    const model = listModel({ text: '', calls: [find('pdf forms')] });
    await runTriggerOnce('pdf', prompt, model, notCancelled);
    assert.deepEqual(model.sent[1][2], { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'f1', name: 'skills_find', input: { query: 'pdf forms' } }] });
  });

  it('sends nothing once cancelled', async () => {
    const model = listModel({ text: '', calls: [activate('pdf')] });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, model, { isCancellationRequested: true }), { kind: 'cancelled' });
    assert.equal(model.sent.length, 0);
  });

  it('reports a model error in words and a cancellation as such', async () => {
    const failing = listModel(Object.assign(new Error('quota exceeded'), { code: 'Blocked' }));
    assert.deepEqual(await runTriggerOnce('pdf', prompt, failing, notCancelled), {
      kind: 'errored',
      message: 'The model refused the request (blocked: quota exceeded). Try again later or pick another model.',
    });
    const cancelled = listModel(Object.assign(new Error('Canceled'), { name: 'Canceled' }));
    assert.deepEqual(await runTriggerOnce('pdf', prompt, cancelled, notCancelled), { kind: 'cancelled' });
    assert.deepEqual(await runTriggerOnce('pdf', prompt, listModel(), { isCancellationRequested: true }), { kind: 'cancelled' });
  });

  it('counts an answer that ends without error after the cancellation as cancelled', async () => {
    const token = { isCancellationRequested: false };
    const endsQuietly: TriggerModel = {
      async send() {
        token.isCancellationRequested = true;
        return { text: '', calls: [] };
      },
      answerTool: async () => '',
    };
    assert.deepEqual(await runTriggerOnce('pdf', prompt, endsQuietly, token), { kind: 'cancelled' });
  });
});

describe('runTriggerJobs', () => {
  const job = (query: string, shouldTrigger: boolean, runs = 3): TriggerJob => ({
    skill: 'pdf',
    query: { query, shouldTrigger, range: { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } } },
    runs,
    threshold: 0.5,
  });

  /** Activates pdf when the query mentions pdf; answers after `delayMs`; tracks requests in flight. */
  function keywordModel(delayMs: number) {
    let inFlight = 0;
    let maxInFlight = 0;
    const order: string[] = [];
    const model: TriggerModel = {
      async send(messages) {
        const query = (messages.at(-1)!.parts[0] as { text: string }).text;
        order.push(query);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        inFlight--;
        return query.includes('pdf') ? { text: '', calls: [activate('pdf')] } : { text: 'No skill needed.', calls: [] };
      },
      answerTool: async () => '',
    };
    return { model, order, maxInFlight: () => maxInFlight };
  }

  it('runs every query its number of runs, at most `concurrency` at a time, and gives each a verdict', async () => {
    const jobs = [job('merge pdf files', true), job('write a haiku', false), job('print it', true, 2)];
    const { model, order, maxInFlight } = keywordModel(5);
    const started: string[] = [];
    const runs: string[] = [];
    const summary = await runTriggerJobs(jobs, {
      prompt: (query) => [prompt[0], { role: 'user', parts: [{ kind: 'text', text: query }] }],
      model,
      concurrency: 2,
      token: notCancelled,
      onStarted: (started_) => started.push(started_.query.query),
      onRun: (done, run, result) => runs.push(`${done.query.query}#${run}:${result.kind}`),
    });
    assert.equal(order.length, 8);
    assert.equal(maxInFlight(), 2);
    assert.deepEqual(started, ['merge pdf files', 'write a haiku', 'print it']);
    assert.equal(runs.length, 8);
    assert.deepEqual(
      jobs.map((each) => summary.verdicts.get(each)?.kind),
      ['passed', 'passed', 'failed'],
    );
    assert.deepEqual(summary.cancelled, []);
  });

  it('starts no query once cancelled before the first run, and lists them all', async () => {
    const jobs = [job('pdf one', true, 2), job('pdf two', true, 1)];
    const { model, order } = keywordModel(1);
    const events: string[] = [];
    const summary = await runTriggerJobs(jobs, {
      prompt: (query) => [{ role: 'user', parts: [{ kind: 'text', text: query }] }],
      model,
      concurrency: 2,
      token: { isCancellationRequested: true },
      onStarted: (started) => events.push(`started ${started.query.query}`),
      onRun: (ran, run, result) => events.push(`${ran.query.query}#${run}:${result.kind}`),
      onDone: (finished) => events.push(`done ${finished.query.query}`),
    });
    assert.deepEqual(order, []);
    assert.deepEqual(events, []);
    assert.equal(summary.verdicts.size, 0);
    assert.deepEqual(summary.cancelled, jobs);
  });

  it('needs no listener for each run', async () => {
    const jobs = [job('merge pdf files', true, 2)];
    const { model } = keywordModel(1);
    const done: string[] = [];
    const summary = await runTriggerJobs(jobs, {
      prompt: (query) => [{ role: 'user', parts: [{ kind: 'text', text: query }] }],
      model,
      concurrency: 1,
      token: notCancelled,
      onDone: (finished, verdict) => done.push(`${finished.query.query}: ${verdict.kind}`),
    });
    assert.deepEqual(done, ['merge pdf files: passed']);
    assert.equal(summary.verdicts.get(jobs[0])?.kind, 'passed');
  });

  it('answers the same tool call once for all runs, however many ask it', async () => {
    const answered: string[] = [];
    const model: TriggerModel = {
      async send(messages) {
        const searched = messages.some((message) => message.parts.some((part) => part.kind === 'toolResult'));
        const query = messages.at(-1)?.parts[0]?.kind === 'text' ? (messages.at(-1)?.parts[0] as { text: string }).text : '';
        return searched ? { text: '', calls: [activate('pdf')] } : { text: '', calls: [find(query)] };
      },
      async answerTool(call) {
        answered.push(JSON.stringify(call.input));
        return 'pdf: fills PDF forms';
      },
    };
    const jobs = [job('fill the form', true, 3), job('sign the pdf', true, 3)];
    const summary = await runTriggerJobs(jobs, {
      prompt: (query) => [{ role: 'user', parts: [{ kind: 'text', text: query }] }],
      model,
      concurrency: 4,
      token: notCancelled,
    });
    assert.deepEqual(answered, ['{"query":"fill the form"}', '{"query":"sign the pdf"}']);
    assert.deepEqual(
      jobs.map((each) => summary.verdicts.get(each)?.kind),
      ['passed', 'passed'],
    );
  });

  it('plans one request for each run of each query', () => {
    assert.equal(plannedRequests([job('a', true, 3), job('b', false, 2), job('c', true, 1)]), 6);
    assert.equal(plannedRequests([]), 0);
  });

  it('stops sending once cancelled and lists the unfinished queries', async () => {
    const token = { isCancellationRequested: false };
    const jobs = [job('pdf one', true), job('pdf two', true), job('pdf three', true)];
    const { model, order } = keywordModel(1);
    const done: string[] = [];
    const summary = await runTriggerJobs(jobs, {
      prompt: (query) => [{ role: 'user', parts: [{ kind: 'text', text: query }] }],
      model,
      concurrency: 1,
      token,
      onRun: (_job, _run, result) => {
        if (result.kind === 'completed' && order.length === 4) {
          token.isCancellationRequested = true;
        }
      },
      onDone: (finished) => done.push(finished.query.query),
    });
    assert.equal(order.length, 4);
    assert.deepEqual(done, ['pdf one']);
    assert.deepEqual(
      summary.cancelled.map((each) => each.query.query),
      ['pdf two', 'pdf three'],
    );
  });
});
