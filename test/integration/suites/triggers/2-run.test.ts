// Running trigger tests against the scripted model deciding by rule: verdicts with rates and what
// happened instead, precision and recall on the skill, exactly @skills's first turn as the request,
// model errors, cancellation reaching the model.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describeRequests, productApi, useChatView } from '../../chat-helpers';
import { setWorkspaceSetting } from '../../editor-helpers';
import { activated, findItem, queryOf, runItems, triggerTests, TRIGGER_RULES } from '../../trigger-helpers';
import { click, openChat, readTreeRows, readViewText, screenshot, scriptedModel, waitFor, waitForViewText, type DrawnTreeRow } from '../../util';

const deterministic = [
  'fill in the W-9 PDF form for me',
  'search first, then complete my visa application',
  'turn this spreadsheet into a chart',
  'write a limerick about PDF forms',
  "summarise yesterday's meeting",
];

describe('running trigger tests', () => {
  beforeEach(async () => {
    const model = await scriptedModel();
    model.reset();
    model.answerByRules(TRIGGER_RULES);
    await productApi();
  });

  it('passes and fails queries by trigger rate, says what happened instead, and scores the skill', async () => {
    const controller = await triggerTests();
    const results = await runItems(
      controller,
      deterministic.map((query) => findItem(controller, 'pdf-forms', query)),
    );
    const verdicts = deterministic.map((query) => {
      const result = [...results.values()].find((candidate) => candidate.query === query);
      return [query, result?.verdict.kind, result?.verdict.message];
    });
    assert.deepEqual(verdicts, [
      ['fill in the W-9 PDF form for me', 'passed', 'Triggered pdf-forms in 3 of 3 runs (should trigger, threshold 50%).'],
      ['search first, then complete my visa application', 'passed', 'Triggered pdf-forms in 3 of 3 runs (should trigger, threshold 50%).'],
      ['turn this spreadsheet into a chart', 'passed', 'Triggered pdf-forms in 0 of 3 runs (should not trigger, threshold 50%).'],
      ['write a limerick about PDF forms', 'failed', 'Triggered pdf-forms in 3 of 3 runs (should not trigger, threshold 50%): 100% reaches the threshold.'],
      [
        "summarise yesterday's meeting",
        'failed',
        'Triggered pdf-forms in 0 of 3 runs (should trigger, threshold 50%): 0% is under the threshold. All 3 runs loaded no skill. The model wrote: "I can answer that directly."',
      ],
    ]);
    // Triggered: W-9, search, limerick (2 right of 3). Should trigger: W-9, search, meeting (2 found of 3).
    assert.equal(findItem(controller, 'pdf-forms').description, 'precision 67% · recall 67%');

    const requests = (await scriptedModel()).requests();
    // Three runs each; the search takes a second round with the find tool's real result.
    assert.equal(requests.length, 5 * 3 + 3, describeRequests(requests));
    const searchRounds = requests.filter((request) => request.messages.some((message) => message.parts.some((part) => part.kind === 'toolResult')));
    assert.equal(searchRounds.length, 3);
    assert.match(searchRounds[0].messages.at(-1)?.text ?? '', /pdf-forms/);
    assert.ok(requests.every((request) => request.modelId === 'scripted-model'));
    // Nothing was activated for real: a test only watches what the model asks for.
    assert.notEqual((await productApi()).listSkills().find((skill) => skill.name === 'pdf-forms')?.status, 'active');
  });

  it('rates a flaky query by the runs that triggered', async () => {
    const controller = await triggerTests();
    const query = 'maybe sign the lease, it is a flaky one';
    const [result] = (await runItems(controller, [findItem(controller, 'pdf-forms', query)])).values();
    const requests = (await scriptedModel()).requests().filter((request) => queryOf(request) === query);
    const triggered = requests.filter((request) => activated(request).includes('pdf-forms')).length;
    assert.equal(requests.length, 3);
    assert.ok(result.verdict.kind !== 'errored');
    assert.equal(result.verdict.triggeredRuns, triggered);
    assert.equal(result.verdict.kind, triggered >= 2 ? 'passed' : 'failed');
    assert.match(result.verdict.message, new RegExp(`^Triggered pdf-forms in ${triggered} of 3 runs`));
  });

  it("marks a query errored with the model's message and runs the others", async () => {
    const controller = await triggerTests();
    const results = await runItems(controller, [findItem(controller, 'pdf-forms', 'fill the form while over quota'), findItem(controller, 'pdf-forms', 'fill in the W-9 PDF form for me')]);
    const byQuery = new Map([...results.values()].map((result) => [result.query, result.verdict]));
    assert.deepEqual(byQuery.get('fill the form while over quota'), {
      kind: 'errored',
      message: 'The model refused the request (blocked: Rate limit exceeded, try again in 60 s). Try again later or pick another model.',
    });
    assert.equal(byQuery.get('fill in the W-9 PDF form for me')?.kind, 'passed');
  });

  it('stops the model requests when the run is cancelled', async () => {
    const controller = await triggerTests();
    const model = await scriptedModel();
    model.answerByRules({ ...TRIGGER_RULES, delayMs: 20000 });
    const source = new vscode.CancellationTokenSource();
    const items = deterministic.map((query) => findItem(controller, 'pdf-forms', query));
    const started = Date.now();
    const running = runItems(controller, items, source.token);
    const inFlight = await model.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    source.cancel();
    const results = await running;
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 10000, `the run ended ${elapsed} ms after it started`);
    assert.equal(results.size, 0);
    const requests = model.requests();
    // Four at a time (agentSkills.triggerTests.concurrency), none sent after the cancellation.
    assert.equal(requests.length, 4, describeRequests(requests));
    assert.ok(inFlight.length >= 1);
    await waitFor(() => model.requests().every((request) => request.cancelled), {
      message: () =>
        `requests not cancelled: ${model
          .requests()
          .filter((request) => !request.cancelled)
          .map((request) => request.index)
          .join(', ')}`,
    });
  });

  it('reports routing over a run of several skills: the query names the skill that took it, which gets a note', async () => {
    const model = await scriptedModel();
    // A model that sends journal queries to pdf-forms: daily-journal's query is taken by another skill.
    model.answerByRules({ ...TRIGGER_RULES, rules: [{ keywords: ['journal', 'w-9'], activate: 'pdf-forms' }] });
    const controller = await triggerTests();
    const results = await runItems(controller, [findItem(controller, 'pdf-forms', deterministic[0]), findItem(controller, 'daily-journal')]);
    const journal = [...results.values()].find((result) => result.query === 'log my day in the journal');
    assert.equal(journal?.verdict.kind, 'failed');
    assert.match(journal?.verdict.message ?? '', /All 3 runs loaded pdf-forms\.$/);
    const routing = controller.lastRouting;
    assert.deepEqual(routing?.rows.map(({ expected, runs, rate }) => [expected, runs, rate]).sort(), [
      ['daily-journal', 3, 0],
      ['pdf-forms', 3, 1],
    ]);
    assert.deepEqual(
      routing?.confusions.map(({ expected, loaded, runs, queries }) => ({ expected, loaded, runs, queries })),
      [{ expected: 'daily-journal', loaded: 'pdf-forms', runs: 3, queries: [{ query: 'log my day in the journal', runs: 3 }] }],
    );
    assert.deepEqual(routing?.falseTriggers, []);
    // The note on the skill that took the query, in the run's output as the Test Results panel shows it.
    await vscode.commands.executeCommand('testing.showMostRecentOutput');
    // The terminal draws only the lines in sight: the whole panel's height shows the run's last ones.
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
    try {
      let shown = '';
      await waitFor(
        async () => {
          // Lines are cut for a narrow panel (a hyphen may end one): compared without spaces.
          shown = await readViewText('panel');
          const unspaced = shown.replace(/\s/g, '');
          return (
            unspaced.includes(`pdf-forms took 3 runs of daily-journal's queries ("log my day in the journal").`.replace(/\s/g, '')) &&
            unspaced.includes('pdf-forms: precision 100% · recall 100% over 1 query.'.replace(/\s/g, ''))
          );
        },
        { timeoutMs: 15000, intervalMs: 500, message: () => `the Test Results panel shows no note on pdf-forms:\n${shown}` },
      );
      await screenshot('routing-test-results');
    } finally {
      await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
    }
  });

  describe('as @skills sends it', () => {
    useChatView();

    it('sends exactly the first turn of @skills: instructions with the whole catalog, the three tools, the query', async () => {
      const model = await scriptedModel();
      model.answerByRules(TRIGGER_RULES);
      const controller = await triggerTests();
      const query = 'fill in the W-9 PDF form for me';
      await runItems(controller, [findItem(controller, 'pdf-forms', query)]);
      const [fromTest] = model.requests();
      model.reset();
      model.answerByRules({ rules: [], otherwise: 'Answered directly.' });
      const turn = await openChat(`@skills ${query}`, { newSession: true });
      const [fromChat] = turn.modelRequests;
      assert.deepEqual(fromTest.messages, fromChat.messages);
      assert.deepEqual(fromTest.tools, fromChat.tools);
      assert.equal(fromTest.toolMode, fromChat.toolMode);
      assert.deepEqual(
        fromTest.tools.map((tool) => tool.name),
        ['skills_activate', 'skills_find', 'skills_readResource'],
      );
    });

    it('asks before a run above agentSkills.triggerTests.confirmAbove, and sends nothing when declined', async () => {
      const model = await scriptedModel();
      model.answerByRules(TRIGGER_RULES);
      const api = await productApi();
      const controller = await triggerTests();
      await setWorkspaceSetting(api, 'triggerTests.confirmAbove', 2);
      try {
        const running = runItems(controller, [findItem(controller, 'pdf-forms', 'fill in the W-9 PDF form for me')]);
        await waitForViewText('css:.quick-input-widget', 'Run 3 model requests?');
        await click({ role: 'option', name: 'Cancel', within: '.quick-input-widget' });
        assert.equal((await running).size, 0);
        assert.equal(model.requests().length, 0);
      } finally {
        await setWorkspaceSetting(api, 'triggerTests.confirmAbove', undefined);
      }
    });

    it('asks once for the model when several exist and none is set, and marks queries errored for an unknown one', async () => {
      const model = await scriptedModel();
      model.answerByRules(TRIGGER_RULES);
      const api = await productApi();
      const controller = await triggerTests();
      const query = () => findItem(controller, 'pdf-forms', 'fill in the W-9 PDF form for me');
      try {
        await setWorkspaceSetting(api, 'triggerTests.model', 'no-such-model');
        const [unknown] = (await runItems(controller, [query()])).values();
        assert.equal(unknown.verdict.kind, 'errored');
        assert.match(
          unknown.verdict.kind === 'errored' ? unknown.verdict.message : '',
          /^The model "no-such-model" \(setting agentSkills\.triggerTests\.model\) is not available\. Available: .*scripted-mini-model \(scripted-mini\)/,
        );
        assert.equal(model.requests().length, 0);

        await setWorkspaceSetting(api, 'triggerTests.model', '');
        const picking = runItems(controller, [query()]);
        await waitForViewText('css:.quick-input-widget', 'Model for trigger tests');
        await click({ role: 'option', name: 'Scripted Mini', within: '.quick-input-widget' });
        assert.equal((await picking).size, 1);
        assert.ok(model.requests().every((request) => request.modelId === 'scripted-mini-model'));

        // Remembered for the workspace: the next run asks nothing.
        model.reset();
        model.answerByRules(TRIGGER_RULES);
        assert.equal((await runItems(controller, [query()])).size, 1);
        assert.equal(model.requests().length, 3);
        assert.ok(model.requests().every((request) => request.modelId === 'scripted-mini-model'));
      } finally {
        // The suite's own value (registry.ts).
        await setWorkspaceSetting(api, 'triggerTests.model', 'scripted');
      }
    });

    it('gives each skill its own result in Test Results: passed when all its queries passed, else failed with precision and recall', async () => {
      const model = await scriptedModel();
      model.answerByRules(TRIGGER_RULES);
      const controller = await triggerTests();
      const items = [...deterministic.map((query) => findItem(controller, 'pdf-forms', query)), findItem(controller, 'daily-journal')];
      await runItems(controller, items);
      await vscode.commands.executeCommand('workbench.panel.testResults.view.focus');
      let rows: DrawnTreeRow[] = [];
      const row = (label: string) => rows.find((candidate) => candidate.label === label);
      await waitFor(
        async () => {
          rows = await readTreeRows('panel');
          return (
            row('pdf-forms')?.icon === 'testing-failed-icon' &&
            row('pdf-forms')?.description.startsWith('precision 67% · recall 67% over 5 queries: 2 failed.') === true &&
            row('daily-journal')?.icon === 'testing-passed-icon' &&
            row('write a limerick about PDF forms')?.icon === 'testing-failed-icon'
          );
        },
        {
          timeoutMs: 20000,
          intervalMs: 500,
          message: () => `Test Results drew:\n${rows.map((drawn) => `${'  '.repeat(drawn.level - 1)}[${drawn.icon}] ${drawn.label} — ${drawn.description}`).join('\n')}`,
        },
      );
      await screenshot('test-results');
    });

    it('shows the results in the Testing view', async () => {
      const model = await scriptedModel();
      model.answerByRules(TRIGGER_RULES);
      const controller = await triggerTests();
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
      await vscode.commands.executeCommand('workbench.view.testing.focus');
      const items = [...deterministic.map((query) => findItem(controller, 'pdf-forms', query)), findItem(controller, 'daily-journal')];
      await runItems(controller, items);
      // Revealing a query expands its source and skill, as a user would (again, while the view settles).
      let shown = '';
      const text = await waitFor(
        async () => {
          await vscode.commands.executeCommand('vscode.revealTestInExplorer', findItem(controller, 'daily-journal', 'log my day in the journal'));
          await vscode.commands.executeCommand('vscode.revealTestInExplorer', findItem(controller, 'pdf-forms', deterministic[0]));
          shown = await readViewText('sidebar');
          // Each skill's line carries its scores from this run; its queries are listed below it.
          return /pdf-formsprecision 67% · recall 67%/.test(shown) && /daily-journalprecision 100% · recall 100%/.test(shown) && shown;
        },
        { timeoutMs: 20000, intervalMs: 500, message: () => `the Testing view does not show both skills with their scores:\n${shown}` },
      );
      assert.match(text, /write a limerick about PDF formsshould not trigger/);
      assert.match(text, /log my day in the journalshould trigger/);
      // The failure's message at its entry in the file, as a user sees it from the Testing view.
      const limerick = findItem(controller, 'pdf-forms', 'write a limerick about PDF forms');
      await vscode.window.showTextDocument(limerick.uri!, { selection: limerick.range });
      await vscode.commands.executeCommand('testing.openOutputPeek');
      await waitForViewText('editor', /100% reaches the threshold/).catch(() => undefined);
      await screenshot('testing-view');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
  });
});
