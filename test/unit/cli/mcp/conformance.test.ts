// The official MCP conformance suite (@modelcontextprotocol/conformance) against the built server
// over HTTP, at both protocol revisions it serves on the one endpoint: every scenario a revision
// requires, and the Skills extension's (SEP-2640) scenarios. No check may fail but those listed
// below, each with why it does not apply to this server and the failure that shows it: they call
// fixtures only the suite's own test server has (tools such as test_simple_text, resources such as
// test://static-text), or capabilities and extensions this server does not offer. A listed
// failure that no longer fails, or a new failure, fails the tests until the list is updated.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ensureServerNode } from '../../../../scripts/harness/vscode-server';
import { ensureBundle, REPOSITORY } from '../bundle';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';
import { startHttpProcess, type HttpProcess } from './http-process';
import { writePublicShapes } from './public-shapes';

const CONFORMANCE = path.join(REPOSITORY, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CHAT_SKILLS = path.join(REPOSITORY, 'test', 'workspaces', 'chat', '.agent', 'skills');
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const SKILLS_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

interface ExpectedFailure {
  why: string;
  failure: RegExp;
}

const FIXTURE = 'calls a fixture that only the suite’s own test server has';
const fixtureTool = (name: string): ExpectedFailure => ({ why: `${FIXTURE}: the tool ${name}`, failure: new RegExp(`Tool '?${name}'? not found`) });
const fixturePrompt = (name: string): ExpectedFailure => ({ why: `${FIXTURE}: the prompt ${name}`, failure: new RegExp(`Prompt ${name} not found`) });
const fixtureResource = (uri: string): ExpectedFailure => ({ why: `${FIXTURE}: the resource ${uri}`, failure: new RegExp(`Resource not found: ${uri}`) });
const notOffered = (capability: string): ExpectedFailure => ({ why: `the server does not offer ${capability}, so the method is not found`, failure: /Method not found/ });
const diagnosticTool = (name: string): ExpectedFailure => ({ why: `${FIXTURE}: the diagnostic tool ${name}`, failure: new RegExp(`Not testable: server does not list the diagnostic tool '${name}'`) });
const noTasks: ExpectedFailure = {
  why: 'the server does not offer the tasks extension (io.modelcontextprotocol/tasks), which the suite reports without scoring, nor its fixture tools',
  failure:
    /io\.modelcontextprotocol\/tasks"\] MUST be present|Tool \w+ not found|MUST return -32021; got -32601|expected -32602; got -32601|no task was created|fixture from Check \d unavailable|returned error code -32602; spec requires -32021/,
};

/** By scenario (every failing check of it) or `scenario:check` (that check only). */
const EXPECTED_FAILURES: Readonly<Record<string, ExpectedFailure>> = {
  'logging-set-level': notOffered('the logging capability (it logs to stderr)'),
  'tools-call-with-logging': notOffered('the logging capability (it logs to stderr)'),
  'completion-complete': notOffered('completions'),
  'resources-subscribe': notOffered('resource subscriptions (clients are told of changes by list_changed)'),
  'resources-unsubscribe': notOffered('resource subscriptions (clients are told of changes by list_changed)'),
  'tools-call-simple-text': fixtureTool('test_simple_text'),
  'tools-call-image': fixtureTool('test_image_content'),
  'tools-call-audio': fixtureTool('test_audio_content'),
  'tools-call-embedded-resource': fixtureTool('test_embedded_resource'),
  'tools-call-mixed-content': fixtureTool('test_multiple_content_types'),
  'tools-call-error': fixtureTool('test_error_handling'),
  'tools-call-with-progress': fixtureTool('test_tool_with_progress'),
  'tools-call-sampling': fixtureTool('test_sampling'),
  'tools-call-elicitation': fixtureTool('test_elicitation'),
  'json-schema-2020-12': fixtureTool('json_schema_2020_12_tool'),
  'elicitation-sep1034-defaults': fixtureTool('test_elicitation_sep1034_defaults'),
  'elicitation-sep1330-enums': fixtureTool('test_elicitation_sep1330_enums'),
  'resources-read-text': fixtureResource('test://static-text'),
  'resources-read-binary': fixtureResource('test://static-binary'),
  'resources-templates-read': fixtureResource('test://template/123/data'),
  'prompts-get-simple': fixturePrompt('test_simple_prompt'),
  'prompts-get-with-args': fixturePrompt('test_prompt_with_arguments'),
  'prompts-get-embedded-resource': fixturePrompt('test_prompt_with_embedded_resource'),
  'prompts-get-with-image': fixturePrompt('test_prompt_with_image'),
  'server-stateless:sep-2575-server-rejects-undeclared-capability': diagnosticTool('test_missing_capability'),
  'server-stateless:sep-2575-missing-capability-http-400': diagnosticTool('test_missing_capability'),
  'server-stateless:sep-2575-http-server-no-independent-requests-on-stream': diagnosticTool('test_streaming_elicitation'),
  'server-stateless:sep-2575-server-no-log-without-loglevel': diagnosticTool('test_logging_tool'),
  // The suite changes the lists through diagnostic tools; this server's lists change with the files (tested in http-server.test.ts).
  'server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription': {
    why: `${FIXTURE}: the diagnostic tool test_trigger_tool_change, which changes the tool list`,
    failure: /^Mutated the tool list but no notifications\/tools\/list_changed arrived/,
  },
  'server-stateless:sep-2575-server-sends-prompts-list-changed-on-subscription': {
    why: `${FIXTURE}: the diagnostic tool test_trigger_prompt_change, which changes the prompt list`,
    failure: /^Mutated the prompt list but no notifications\/prompts\/list_changed arrived/,
  },
  'input-required-result-basic-elicitation': fixtureTool('test_input_required_result_elicitation'),
  'input-required-result-basic-sampling': fixtureTool('test_input_required_result_sampling'),
  'input-required-result-basic-list-roots': fixtureTool('test_input_required_result_list_roots'),
  'input-required-result-capability-check': fixtureTool('test_input_required_result_capabilities'),
  'input-required-result-multiple-input-requests': fixtureTool('test_input_required_result_multiple_inputs'),
  'input-required-result-request-state': fixtureTool('test_input_required_result_request_state'),
  'input-required-result-result-type': fixtureTool('test_input_required_result_elicitation'),
  'input-required-result-non-tool-request': fixturePrompt('test_input_required_result_prompt'),
  'input-required-result-multi-round': { why: `${FIXTURE}: a tool that asks the client for input over several rounds`, failure: /Expected InputRequiredResult with inputRequests and requestState/ },
  'input-required-result-ignore-extra-params': fixtureTool('test_input_required_result_elicitation'),
  'input-required-result-missing-input-response': {
    why: `${FIXTURE}: the tool test_input_required_result_elicitation, called with a wrong input response`,
    failure: /^Server returned JSON-RPC error instead of re-requesting via InputRequiredResult/,
  },
  'input-required-result-tampered-state': {
    why: `${FIXTURE}: a tool that asks the client for input (no request state to tamper with)`,
    failure: /Prerequisite failed: could not get initial InputRequiredResult/,
  },
  'http-custom-header-server-validation': {
    why: 'no tool of this server declares parameters sent as headers (x-mcp-header), which the suite reports as pending',
    failure: /Not testable: server exposes no tool with x-mcp-header annotations/,
  },
  'tasks-lifecycle': noTasks,
  'tasks-capability-negotiation': noTasks,
  'tasks-wire-fields': noTasks,
  'tasks-request-state-removal': noTasks,
  'tasks-mrtr-input': noTasks,
  'tasks-request-headers': noTasks,
  'tasks-dispatch-and-envelope': noTasks,
  'tasks-required-task-error': noTasks,
  'tasks-mrtr-composition': noTasks,
};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO' | string;
  errorMessage?: string;
}

/** The checks of each scenario run at one revision, by scenario name. */
type Results = Map<string, Check[]>;

/** A check the suite counts against the server: failed, or a SHOULD it found unmet. */
function counts(check: Check): boolean {
  return check.status === 'FAILURE' || check.status === 'WARNING';
}

function expectationOf(scenario: string, check: Check): ExpectedFailure | undefined {
  return EXPECTED_FAILURES[`${scenario}:${check.id}`] ?? EXPECTED_FAILURES[scenario];
}

describe('agent-skills mcp --http, checked by the official MCP conformance suite at both protocol revisions', function () {
  this.timeout(600_000);
  let node: string;
  let output: string;
  let server: HttpProcess;
  const results = new Map<string, Results>();

  async function conformance(args: string[]): Promise<string> {
    // The suite needs Node 22 or later (fs.globSync); the project's own Node may be older.
    const { stdout } = await promisify(execFile)(node, [CONFORMANCE, ...args], { cwd: output, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return stdout;
  }

  async function readResults(folder: string, into: Results): Promise<void> {
    for (const run of await fs.readdir(folder)) {
      const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(run)?.[1];
      if (scenario) {
        into.set(scenario, JSON.parse(await fs.readFile(path.join(folder, run, 'checks.json'), 'utf8')) as Check[]);
      }
    }
  }

  before(async () => {
    await ensureBundle();
    node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : await ensureServerNode();
    output = await tempDir();
    // The public shapes first: the directory scenario reads the folders of the first skill listed.
    const shapes = path.join(output, 'skills');
    await writePublicShapes(shapes);
    server = await startHttpProcess(['--no-user', shapes, CHAT_SKILLS]);
    for (const revision of REVISIONS) {
      const folder = path.join(output, revision);
      await conformance(['server', '--url', server.url, '--requirements', revision, '-o', folder]);
      const wire = revision === '2026-07-28' ? [] : ['--spec-version', revision, '--force'];
      for (const scenario of SKILLS_SCENARIOS) {
        await conformance(['server', '--url', server.url, '--scenario', scenario, ...wire, '-o', folder]);
      }
      const revisionResults: Results = new Map();
      await readResults(folder, revisionResults);
      results.set(revision, revisionResults);
    }
  });

  after(async () => {
    server?.signal('SIGTERM');
    await server?.exited;
    await removeDir(output);
  });

  it('ran every scenario each revision requires, and the Skills extension’s, at both revisions', async () => {
    for (const revision of REVISIONS) {
      const listing = await conformance(['list', '--server', '--requirements', revision]);
      // The server scenarios only: the listing goes on with the client scenarios, then those reported without a score.
      const serverSection = listing.slice(listing.indexOf('Server scenarios'), listing.indexOf('Client scenarios'));
      const required = serverSection.match(/^ {2}- (\S+)/gm)?.map((line) => line.slice(4)) ?? [];
      assert.ok(required.length > 10, `the suite lists what ${revision} requires`);
      const ran = [...results.get(revision)!.keys()];
      assert.deepEqual(
        [...required, ...SKILLS_SCENARIOS].filter((scenario) => !ran.includes(scenario)),
        [],
        `scenarios that did not run at ${revision}`,
      );
    }
  });

  it('fails no check (nor warns) but those listed, each for the reason it is listed with', () => {
    const unexpected: string[] = [];
    for (const [revision, revisionResults] of results) {
      for (const [scenario, checks] of revisionResults) {
        for (const check of checks.filter(counts)) {
          const expected = expectationOf(scenario, check);
          if (!expected || !expected.failure.test(check.errorMessage ?? '')) {
            unexpected.push(`${revision} ${scenario}:${check.id}: ${check.errorMessage}`);
          }
        }
      }
    }
    assert.deepEqual(unexpected, []);
  });

  it('still fails every listed check, at one revision or the other (a listed failure that passes now must come off the list)', () => {
    const failing = new Set<string>();
    for (const revisionResults of results.values()) {
      for (const [scenario, checks] of revisionResults) {
        for (const check of checks.filter(counts)) {
          failing.add(EXPECTED_FAILURES[`${scenario}:${check.id}`] ? `${scenario}:${check.id}` : scenario);
        }
      }
    }
    assert.deepEqual(
      Object.keys(EXPECTED_FAILURES).filter((key) => !failing.has(key)),
      [],
    );
  });

  it('passes the Skills extension’s scenarios whole at both revisions, frontmatter verbatim and every digest included', () => {
    for (const [revision, revisionResults] of results) {
      for (const scenario of SKILLS_SCENARIOS) {
        const checks = revisionResults.get(scenario) ?? [];
        assert.ok(checks.length > 5, `${revision} ${scenario} ran its checks`);
        assert.deepEqual(
          checks.filter(counts).map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ''}`),
          [],
          `${revision} ${scenario}`,
        );
      }
      const identical = revisionResults.get('sep-2640-skills-enumeration')!.filter((check) => check.id === 'sep-2640-entry-frontmatter-identical');
      assert.ok(identical.length > 0 && identical.every((check) => check.status === 'SUCCESS'), `${revision}: the frontmatter of every entry is the file's`);
    }
  });

  it('passes the core scenarios that apply, each with a check that succeeded', () => {
    const core = ['tools-list', 'resources-list', 'prompts-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];
    const onlyAt: Record<(typeof REVISIONS)[number], string[]> = {
      '2025-11-25': ['server-initialize', 'ping', 'server-session-lifecycle'],
      '2026-07-28': ['server-stateless', 'caching', 'sep-2164-resource-not-found', 'http-header-validation'],
    };
    for (const revision of REVISIONS) {
      for (const scenario of [...core, ...onlyAt[revision]]) {
        const checks = results.get(revision)!.get(scenario) ?? [];
        assert.ok(
          checks.some((check) => check.status === 'SUCCESS'),
          `${revision} ${scenario} passed a check`,
        );
      }
    }
  });
});
