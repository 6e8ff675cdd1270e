// Chat at 1,000 skills: what the catalog costs the model's context, and how long the activation
// tool takes (the core path the tool runs: check, read the body fresh, substitute, list resources,
// mark active, render) next to reading the same SKILL.md alone, measured in the same run.
//
// Figures (sections.chat in bench-results.json): catalogBudgetChars, catalogChars1000,
// catalogTokens1000, catalogDescribed1000 / catalogNamesOnly1000 / catalogUnlisted1000 (what the
// model gets), catalogMostDescribable1000 / catalogDescribedShare (described against the most the
// budget could describe), fullCatalogChars1000 / fullCatalogTokens1000 (every skill described),
// readSkillFileMs, activationToolMs, activationVsReadRatio, findToolMs1000, and the *Goal verdicts.

import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { activateSkill } from '../../src/core/use/activation';
import { estimateTokens, renderCatalog } from '../../src/core/use/catalog';
import { TOOL_NAMES } from '../../src/core/chat/tool-names';
import { activationToolText, parseActivateInput, renderFindResult } from '../../src/core/chat/tool-texts';
import { SkillRegistry } from '../../src/core/discovery/registry';
import { currentCatalog } from '../../src/core/use/current-catalog';
import type { SkillSettings } from '../../src/core/model/settings';
import { writeSyntheticSkills, type SyntheticSkill } from '../core/synthetic-skills';
import { alternatingMediansMs } from '../measure';
import { checkGoal, printFigure, round, type BenchFigures } from '../section';

const SKILL_COUNT = 1000;
/** The settings' defaults (package.json), as a user who changed nothing has them. */
const DEFAULT_SETTINGS: SkillSettings = {
  enabled: true,
  allowlist: [],
  locations: ['.agent/skills'],
  nestedLocations: true,
  userSkills: true,
  builtinSkills: true,
  agentMode: 'mcpServer',
  catalogBudgetPercent: 2,
  catalogBudgetChars: 16000,
};
/** A common chat model's input window, for the share-of-window budget. */
const MODEL_INPUT_TOKENS = 128_000;
const ACTIVATION_RUNS = { warmups: 50, runs: 401 };

export async function run(): Promise<BenchFigures> {
  const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-skills-bench-chat-')));
  const registry = new SkillRegistry();
  try {
    const root = path.join(workspace, 'skills');
    const skills = await writeSyntheticSkills(root, SKILL_COUNT);
    await registry.setRoots([{ path: root, kind: 'env', label: 'bench' }]);
    if (registry.snapshot.skills.length !== SKILL_COUNT) {
      throw new Error(`discovered ${registry.snapshot.skills.length} of ${SKILL_COUNT} skills`);
    }
    console.log(`  ${SKILL_COUNT.toLocaleString('en-US')} synthetic skills in ${root}`);
    return { ...catalogSize(registry), ...(await activationLatency(registry, skills)), ...(await findLatency(registry)) };
  } finally {
    registry.dispose();
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

/** The catalog the participant gives the model (currentCatalog, as Show Catalog), and the full one for scale. */
function catalogSize(registry: SkillRegistry): BenchFigures {
  const host = { snapshot: registry.snapshot, settings: DEFAULT_SETTINGS };
  const given = currentCatalog(host, MODEL_INPUT_TOKENS);
  const full = renderCatalog(registry.snapshot.skills, { maxChars: Infinity });
  printFigure(`catalog given to a ${MODEL_INPUT_TOKENS / 1000}k-token model, characters`, given.chars, '');
  printFigure('  estimated tokens', given.estimatedTokens, '');
  printFigure('  skills described / by name only / only via find', given.included.length, ` / ${given.overflow.length - given.unlisted.length} / ${given.unlisted.length}`);
  printFigure('full catalog, every skill described, characters', full.chars, '');
  // The most skills the budget could describe: the catalog's description lines alone, in
  // precedence order, with nothing spent on the names of the rest. The catalog keeps room for
  // those names (at most half the budget), so it describes fewer; the goal says how many fewer.
  const lines = full.text.split('\n');
  const descriptionLines = lines.slice(2, -1);
  let mostDescribable = 0;
  for (let used = full.chars - descriptionLines.reduce((sum, line) => sum + line.length + 1, 0); mostDescribable < descriptionLines.length; mostDescribable++) {
    used += descriptionLines[mostDescribable].length + 1;
    if (used > given.budgetChars) {
      break;
    }
  }
  const described = given.included.length / mostDescribable;
  printFigure('  estimated tokens', full.estimatedTokens, '');
  printFigure('skills described / the most the budget could describe', given.included.length, ` / ${mostDescribable}`);
  return {
    catalogBudgetChars: given.budgetChars,
    catalogChars1000: given.chars,
    catalogTokens1000: given.estimatedTokens,
    catalogDescribed1000: given.included.length,
    catalogNamesOnly1000: given.overflow.length - given.unlisted.length,
    catalogUnlisted1000: given.unlisted.length,
    fullCatalogChars1000: full.chars,
    fullCatalogTokens1000: estimateTokens(full.text),
    catalogMostDescribable1000: mostDescribable,
    catalogDescribedShare: round(described, 2),
    catalogDescribedGoal: checkGoal({ label: 'skills described ÷ the most whose descriptions fit the budget', value: described, unit: '', target: 0.45, better: 'higher' }),
  };
}

/**
 * The activation tool's work for one call, without the editor: parse the input, activate from the
 * current snapshot (body read fresh from disk), mark active, render the result text.
 */
async function activationToolCall(registry: SkillRegistry, name: string): Promise<string> {
  const parsed = parseActivateInput({ name, arguments: 'data.csv "Quarterly report"' });
  if (!parsed.ok) {
    throw new Error(parsed.message);
  }
  const result = await activateSkill(registry.snapshot, parsed.input.name, { mode: 'model', arguments: parsed.input.arguments });
  if (!result.ok) {
    throw new Error(result.message);
  }
  registry.activate(result.record.name);
  return activationToolText(result);
}

async function activationLatency(registry: SkillRegistry, skills: readonly SyntheticSkill[]): Promise<BenchFigures> {
  // Each round takes the next skill, for both tasks alike, so neither gains from a warm file.
  let call = 0;
  const next = (): SyntheticSkill => skills[Math.floor(call++ / 2) % skills.length];
  const medians = await alternatingMediansMs(
    {
      readSkillFile: () => fs.readFile(next().file, 'utf8'),
      activationTool: () => activationToolCall(registry, next().name),
    },
    ACTIVATION_RUNS,
  );
  const ratio = medians.activationTool / medians.readSkillFile;
  printFigure('read one SKILL.md whole (median)', medians.readSkillFile, ' ms');
  printFigure(`${TOOL_NAMES.activate}, core path of the tool (median)`, medians.activationTool, ' ms');
  printFigure('activation ÷ read of the SKILL.md alone', ratio, '×');
  return {
    readSkillFileMs: round(medians.readSkillFile),
    activationToolMs: round(medians.activationTool),
    activationVsReadRatio: round(ratio, 2),
    activationLatencyGoal: checkGoal({ label: 'activation tool latency at 1,000 skills (median)', value: medians.activationTool, unit: ' ms', target: 5, better: 'lower' }),
  };
}

/**
 * The find tool ranking every skill for a query. Goal: no noticeable delay next to the model round
 * trip around every tool call (a second or more).
 */
async function findLatency(registry: SkillRegistry): Promise<BenchFigures> {
  const catalog = currentCatalog({ snapshot: registry.snapshot, settings: DEFAULT_SETTINGS });
  const { find: ms } = await alternatingMediansMs({ find: async () => renderFindResult(registry.snapshot, 'generate a pdf report from the invoice table', catalog) }, { warmups: 5, runs: 41 });
  return {
    findToolMs1000: round(ms),
    findLatencyGoal: checkGoal({ label: `${TOOL_NAMES.find}, ranked query over 1,000 skills (median)`, value: ms, unit: ' ms', target: 100, better: 'lower' }),
  };
}
