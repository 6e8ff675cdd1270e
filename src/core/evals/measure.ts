// Measuring a set of trigger queries against a snapshot, outside the Testing view: `agent-skills
// eval`, and description tuning, which measures the same queries with a candidate description in
// the catalog. Tool calls other than activation are answered from the snapshot measured, so a
// search sees the candidate too.

import { TOOL_NAMES } from '../chat/tool-names';
import { parseFindInput, parseReadResourceInput, renderFindResult, unavailableToolText, untrustedSkillCount } from '../chat/tool-texts';
import type { RegistrySnapshot } from '../discovery/registry';
import { staticSnapshot } from '../discovery/static-snapshot';
import type { SkillRecord } from '../model/types';
import { readResourceOfSkill } from '../use/activation';
import { modelVisibleSkills, renderCatalog, type Catalog } from '../use/catalog';
import { triggerTestPrompt } from './request';
import { runTriggerJobs, type CancellationFlag, type ModelToolCall, type TriggerModel } from './run';
import type { TriggerQuery } from './trigger-file';
import type { QueryResult } from './tune';

/** The answer to a search or a file read, as the editor's tools would give it over `snapshot`. */
export async function answerToolFromSnapshot(snapshot: RegistrySnapshot, catalog: Catalog, call: ModelToolCall): Promise<string> {
  if (call.name === TOOL_NAMES.find) {
    const parsed = parseFindInput(call.input);
    return parsed.ok ? renderFindResult(snapshot, parsed.input.query, catalog) : parsed.message;
  }
  if (call.name === TOOL_NAMES.readResource) {
    const parsed = parseReadResourceInput(call.input);
    if (!parsed.ok) {
      return parsed.message;
    }
    const result = await readResourceOfSkill(snapshot, parsed.input.skill, parsed.input.path);
    return result.ok ? result.text : result.message;
  }
  return unavailableToolText(call.name);
}

/** The snapshot's skills with the model-visible `skill` described as `description`. */
export function withDescription(skills: readonly SkillRecord[], skill: string, description: string): RegistrySnapshot {
  const target = modelVisibleSkills(skills).find((record) => record.name === skill);
  return staticSnapshot(skills.map((record) => (record === target && record.metadata ? { ...record, metadata: { ...record.metadata, description } } : record)));
}

export interface MeasureSettings {
  /** The catalog's character budget: the one the Testing view and @skills use (currentBudgetChars). */
  budgetChars: number;
  runs: number;
  threshold: number;
  concurrency: number;
  token: CancellationFlag;
}

/**
 * Each query's verdict with `description` for `skill` in the catalog; undefined when cancelled.
 * `send` is the model's; tools are answered from the measured snapshot.
 */
export async function measureDescription(
  skills: readonly SkillRecord[],
  skill: string,
  description: string,
  queries: readonly TriggerQuery[],
  send: TriggerModel['send'],
  settings: MeasureSettings,
): Promise<QueryResult[] | undefined> {
  const snapshot = withDescription(skills, skill, description);
  const catalog = renderCatalog(snapshot.skills, { maxChars: settings.budgetChars });
  // Workspace skills held back in an untrusted workspace are mentioned, as in the Testing view's prompt.
  const untrusted = untrustedSkillCount(snapshot);
  const jobs = queries.map((query) => ({ skill, query, runs: settings.runs, threshold: settings.threshold }));
  const summary = await runTriggerJobs(jobs, {
    prompt: (text) => triggerTestPrompt(catalog.text, untrusted, text),
    model: { send, answerTool: (call) => answerToolFromSnapshot(snapshot, catalog, call) },
    concurrency: settings.concurrency,
    token: settings.token,
  });
  if (summary.cancelled.length > 0) {
    return undefined;
  }
  return jobs.flatMap((job) => {
    const verdict = summary.verdicts.get(job);
    return verdict ? [{ query: job.query, verdict }] : [];
  });
}
