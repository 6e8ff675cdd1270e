import * as assert from 'node:assert/strict';
import { MCP_TOOL_NAMES } from '../../../../src/core/chat/tool-names';
import type { SkillSettings } from '../../../../src/core/model/settings';
import { renderCatalog } from '../../../../src/core/use/catalog';
import { currentCatalog } from '../../../../src/core/use/current-catalog';
import { fakeRecord } from '../../../fixtures/trees/tree';
import { fakeSnapshot } from '../../fake-snapshot';

describe('currentCatalog', () => {
  const skills = Array.from({ length: 30 }, (_, index) => fakeRecord(`skill-${index}`, `Handles task number ${index} with care.`));
  const settings: SkillSettings = {
    enabled: true,
    allowlist: [],
    locations: [],
    nestedLocations: true,
    userSkills: true,
    builtinSkills: true,
    agentMode: 'tools',
    catalogBudgetPercent: 1,
    catalogBudgetChars: 1_000,
  };
  const host = { snapshot: fakeSnapshot(skills), settings };

  it('renders the snapshot within the share of the model window, capped by the character setting', () => {
    // 1 % of 20,000 tokens is 200 tokens, 800 characters.
    assert.deepEqual(currentCatalog(host, 20_000, MCP_TOOL_NAMES), { ...renderCatalog(skills, { maxChars: 800, toolNames: MCP_TOOL_NAMES }), budgetChars: 800 });
    assert.deepEqual(currentCatalog(host), { ...renderCatalog(skills, { maxChars: 1_000 }), budgetChars: 1_000 });
  });
});
