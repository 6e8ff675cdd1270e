// What the MCP server tells a client's model: instructions, tool descriptions, input schemas
// (with the skill names as an enum while there are not too many) and the prompts.

import * as assert from 'node:assert/strict';
import { skillUsageLines } from '../../../../src/core/chat/prompt';
import { MCP_TOOL_NAMES } from '../../../../src/core/chat/tool-names';
import { skillToolDefinitions } from '../../../../src/core/chat/tool-definitions';
import {
  activateInputSchema,
  activateToolDescription,
  FIND_INPUT_SCHEMA,
  FIND_TOOL_DESCRIPTION,
  MAX_ENUM_NAMES,
  READ_RESOURCE_TOOL_DESCRIPTION,
  readResourceInputSchema,
  serverInstructions,
  skillPrompts,
  SnapshotTextsCache,
  usableNames,
} from '../../../../src/core/mcp/server-texts';
import { staticSnapshot } from '../../../../src/core/discovery/static-snapshot';
import { renderCatalog } from '../../../../src/core/use/catalog';
import type { SkillRecord } from '../../../../src/core/model/types';
import { fakeRecord } from '../../../fixtures/trees/tree';

const pdf = fakeRecord('pdf', 'Fills PDF forms.');
const docx = fakeRecord('docx', 'Edits Word files.');
/** Records that are not usable, each with the metadata it was loaded with. */
const unusable: SkillRecord[] = [
  fakeRecord('pdf', 'An older pdf.', { status: 'shadowed' }),
  fakeRecord('xlsx', 'Edits spreadsheets.', { status: 'not-allowed' }),
  fakeRecord('pptx', 'Slides.', { status: 'untrusted' }),
];

const ACTIVATE_NAME_DESCRIPTION = 'Exact skill name, e.g. "pdf-forms".';

function manySkills(count: number): SkillRecord[] {
  return Array.from({ length: count }, (_, index) => fakeRecord(`skill-${index}`, `Skill number ${index}.`));
}

describe('serverInstructions', () => {
  it('introduces skills, says how to use them with the MCP tools, then gives the catalog', () => {
    const text = serverInstructions('<available_skills>…</available_skills>');
    assert.equal(
      text,
      [
        'This server gives you Agent Skills: folders of instructions, and sometimes files, written for particular tasks.',
        '',
        ...skillUsageLines(MCP_TOOL_NAMES),
        '',
        '<available_skills>…</available_skills>',
      ].join('\n'),
    );
    assert.match(text, new RegExp(`call ${MCP_TOOL_NAMES.activate} with its exact name`));
  });
});

describe('usableNames', () => {
  it('names each usable skill once, in precedence order, and no other', () => {
    assert.deepEqual(usableNames([pdf, ...unusable, docx, fakeRecord('docx', 'Another docx.'), fakeRecord('hidden', 'Only by hand.', { disableModelInvocation: true })]), ['pdf', 'docx', 'hidden']);
  });
});

describe('activateInputSchema', () => {
  it('asks for a name among the model-invocable skills, and optional arguments', () => {
    assert.deepEqual(activateInputSchema([pdf, ...unusable, docx, fakeRecord('hidden', 'Only by hand.', { disableModelInvocation: true })]), {
      type: 'object',
      properties: {
        name: { type: 'string', enum: ['pdf', 'docx'], description: ACTIVATE_NAME_DESCRIPTION },
        arguments: { type: 'string', description: 'Optional arguments for the skill, as the user would type them.' },
      },
      required: ['name'],
    });
  });

  it('gives no enum without skills, nor over the most names it lists', () => {
    const nameProperty = (skills: SkillRecord[]) => (activateInputSchema(skills).properties as Record<string, Record<string, unknown>>).name;
    assert.deepEqual(nameProperty([]), { type: 'string', description: ACTIVATE_NAME_DESCRIPTION });
    assert.equal((nameProperty(manySkills(MAX_ENUM_NAMES)).enum as string[]).length, 500);
    assert.deepEqual(nameProperty(manySkills(MAX_ENUM_NAMES + 1)), { type: 'string', description: ACTIVATE_NAME_DESCRIPTION });
  });
});

describe('readResourceInputSchema', () => {
  it('asks for a usable skill, also one only the user may start, and a path in its folder', () => {
    assert.deepEqual(readResourceInputSchema([pdf, ...unusable, fakeRecord('hidden', 'Only by hand.', { disableModelInvocation: true })]), {
      type: 'object',
      properties: {
        skill: { type: 'string', enum: ['pdf', 'hidden'], description: 'Skill name.' },
        path: { type: 'string', description: 'Path relative to the skill folder, e.g. "references/forms.md".' },
      },
      required: ['skill', 'path'],
    });
  });
});

describe('the find and read-resource tools', () => {
  it('ask for a query and say what the search covers', () => {
    assert.deepEqual(FIND_INPUT_SCHEMA, {
      type: 'object',
      properties: { query: { type: 'string', description: 'What the task is about, e.g. "fill a pdf form".' } },
      required: ['query'],
    });
    assert.match(FIND_TOOL_DESCRIPTION, /^Searches the available Agent Skills by a free-text query over names and descriptions/);
  });

  it('read a file by its path in the skill folder, as the activation tool lists it', () => {
    assert.match(READ_RESOURCE_TOOL_DESCRIPTION, new RegExp(`^Reads a text file inside a skill's folder .* as listed by ${MCP_TOOL_NAMES.activate}\\.`));
  });
});

describe('the MCP tools and the one source of tool texts', () => {
  it('say what the source says with the MCP names, the schemas adding only the enum of names', () => {
    const [activate, find, read] = skillToolDefinitions(MCP_TOOL_NAMES, 'below');
    const skills = [pdf, docx];
    assert.equal(activateToolDescription(skills).split('\n')[0], activate.description);
    assert.equal(FIND_TOOL_DESCRIPTION, find.description);
    assert.equal(READ_RESOURCE_TOOL_DESCRIPTION, read.description);
    assert.deepEqual(FIND_INPUT_SCHEMA, find.inputSchema);
    const withoutEnum = (schema: Record<string, unknown>, property: string): unknown => {
      const properties = schema.properties as Record<string, Record<string, unknown>>;
      const { enum: names, ...rest } = properties[property];
      assert.deepEqual(names, ['pdf', 'docx']);
      return { ...schema, properties: { ...properties, [property]: rest } };
    };
    assert.deepEqual(withoutEnum(activateInputSchema(skills), 'name'), activate.inputSchema);
    assert.deepEqual(withoutEnum(readResourceInputSchema(skills), 'skill'), read.inputSchema);
  });
});

describe('activateToolDescription', () => {
  it('says what the tool does with the MCP tool names, then lists the skills with short descriptions within its budget', () => {
    const long = fakeRecord('long', `Handles ${'very '.repeat(40)}long requests.`);
    const text = activateToolDescription([pdf, long, ...manySkills(100)]);
    const [intro, blank, ...list] = text.split('\n');
    assert.equal(
      intro,
      `Loads the full instructions of an Agent Skill by its exact name, as listed below. Call it before doing a task that a listed skill covers, then follow the returned instructions. Returns the skill body, its folder and its resource files (read them with ${MCP_TOOL_NAMES.readResource}). Optional "arguments" are substituted into the skill. Call ${MCP_TOOL_NAMES.find} to search every skill by topic.`,
    );
    assert.equal(blank, '');
    const catalog = list.join('\n');
    assert.ok(catalog.length <= 2_000, `${catalog.length} characters`);
    assert.ok(list.includes('pdf: Fills PDF forms.'));
    const longLine = list.find((line) => line.startsWith('long: '))!;
    assert.equal(longLine.length, 'long: '.length + 100);
    assert.ok(longLine.endsWith('…'));
    assert.match(catalog, new RegExp(`call ${MCP_TOOL_NAMES.activate} with a name below`));
  });
});

describe('skillPrompts', () => {
  it('offers each usable skill the user may start once, with its argument hint or a general one', () => {
    const hinted = fakeRecord('pdf', 'Fills PDF forms.', {
      metadata: { name: 'pdf', description: 'Fills PDF forms.', userInvocable: true, disableModelInvocation: false, argumentHint: '<form file>' },
    });
    const modelOnly = fakeRecord('auto', 'Model only.', { metadata: { name: 'auto', description: 'Model only.', userInvocable: false, disableModelInvocation: false } });
    assert.deepEqual(skillPrompts([hinted, ...unusable, docx, fakeRecord('docx', 'Another docx.'), modelOnly]), [
      { name: 'pdf', description: 'Fills PDF forms.', argumentDescription: 'Arguments: <form file>' },
      { name: 'docx', description: 'Edits Word files.', argumentDescription: 'Optional arguments for the skill.' },
    ]);
  });
});

describe('SnapshotTextsCache', () => {
  it('derives the texts of a snapshot once, as the functions above do', () => {
    const cache = new SnapshotTextsCache(200);
    const snapshot = staticSnapshot([pdf, docx]);
    const texts = cache.of(snapshot);
    assert.equal(cache.of(snapshot), texts);
    assert.equal(texts.snapshot, snapshot);
    assert.equal(texts.catalog.text, renderCatalog([pdf, docx], { maxChars: 200, toolNames: MCP_TOOL_NAMES }).text);
    assert.equal(texts.tools.activateDescription, activateToolDescription([pdf, docx]));
    assert.deepEqual(texts.tools.activateSchema, activateInputSchema([pdf, docx]));
    assert.deepEqual(texts.tools.readSchema, readResourceInputSchema([pdf, docx]));
    assert.equal(texts.tools.activateEnabled, true);
    assert.deepEqual([...texts.prompts.values()], skillPrompts([pdf, docx]));
    assert.equal(cache.of(staticSnapshot([fakeRecord('hidden', 'Hidden.', { disableModelInvocation: true })])).tools.activateEnabled, false);
  });

  it('keeps the objects of what a new snapshot left unchanged, so each server updates only what changed', () => {
    const cache = new SnapshotTextsCache(16_000);
    const before = cache.of(staticSnapshot([pdf, docx]));
    const same = cache.of(staticSnapshot([fakeRecord('pdf', 'Fills PDF forms.'), fakeRecord('docx', 'Edits Word files.')]));
    assert.notEqual(same, before);
    assert.equal(same.tools, before.tools);
    assert.equal(same.prompts.get('pdf'), before.prompts.get('pdf'));
    const edited = cache.of(staticSnapshot([fakeRecord('pdf', 'Fills and flattens PDF forms.'), fakeRecord('docx', 'Edits Word files.')]));
    assert.notEqual(edited.tools, same.tools, 'the activate tool lists the new description');
    assert.match(edited.tools.activateDescription, /flattens/);
    assert.notEqual(edited.prompts.get('pdf'), same.prompts.get('pdf'));
    assert.equal(edited.prompts.get('pdf')?.description, 'Fills and flattens PDF forms.');
    assert.equal(edited.prompts.get('docx'), same.prompts.get('docx'));
  });
});
