import * as assert from 'node:assert/strict';
import {
  dayOf,
  emptyUsage,
  invocationModeOf,
  MAX_SKILLS_KEPT,
  readUsage,
  recordActivation,
  summarizeUsage,
  UNUSED_AFTER_DAYS_OF_USE,
  usageWindowStart,
  type UsageOrigin,
  type UsageRecord,
} from '../../../../src/core/use/usage';
import { describeWhen, renderUsageMarkdown } from '../../../../src/core/use/usage-report';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 10, 1, 9, 30);

function record(usage: UsageRecord, skill: string, origin: UsageOrigin, chars: number, at: number): UsageRecord {
  return recordActivation(usage, { skill, origin, chars, at });
}

describe('skill usage', () => {
  it('counts activations per skill and origin, sums the characters, keeps the last time', () => {
    let usage = emptyUsage();
    usage = record(usage, 'pdf', 'model', 1000, START);
    usage = record(usage, 'pdf', 'use', 1200, START + DAY);
    usage = record(usage, 'pdf', 'model', 801, START + 2 * DAY);
    usage = record(usage, 'docx', 'agent', 400, START + DAY);
    const { rows } = summarizeUsage(usage, ['pdf', 'docx']);
    assert.deepEqual(rows[0], {
      skill: 'pdf',
      activations: 3,
      byOrigin: { model: 2, agent: 0, mcp: 0, use: 1, mcpPrompt: 0, view: 0, api: 0 },
      lastAt: START + 2 * DAY,
      chars: 3001,
      averageChars: 1000,
      estimatedTokens: 751,
      averageTokens: 250,
    });
    assert.deepEqual(
      rows.map((row) => [row.skill, row.activations]),
      [
        ['pdf', 3],
        ['docx', 1],
      ],
    );
  });

  it('points out available skills not activated on any of the last 30 days of use, by the clock given', () => {
    let usage = emptyUsage();
    usage = record(usage, 'old', 'model', 10, START);
    // 30 more days of use, weeks apart: 'old' drops out of the window once 30 newer days exist.
    for (let index = 1; index <= UNUSED_AFTER_DAYS_OF_USE; index++) {
      usage = record(usage, 'daily', 'model', 10, START + index * 3 * DAY);
      if (index === UNUSED_AFTER_DAYS_OF_USE - 1) {
        assert.deepEqual(summarizeUsage(usage, ['old', 'daily', 'never']).unused, ['never']);
      }
    }
    const summary = summarizeUsage(usage, ['old', 'daily', 'never']);
    assert.deepEqual(summary.unused, ['never', 'old']);
    assert.equal(summary.daysOfUse, UNUSED_AFTER_DAYS_OF_USE);
    assert.equal(summary.since, dayOf(START + 3 * DAY));
    // Its counts stay in the table.
    assert.equal(summary.rows.find((row) => row.skill === 'old')?.activations, 1);
  });

  it('counts a day once however many activations it had, and follows UTC dates', () => {
    let usage = emptyUsage();
    usage = record(usage, 'a', 'model', 1, Date.UTC(2026, 0, 1, 23, 59));
    usage = record(usage, 'b', 'model', 1, Date.UTC(2026, 0, 1, 0, 1));
    usage = record(usage, 'a', 'model', 1, Date.UTC(2026, 0, 2, 0, 0));
    assert.deepEqual(usage.days, [
      { day: '2026-01-01', skills: ['a', 'b'], firstAt: Date.UTC(2026, 0, 1, 0, 1) },
      { day: '2026-01-02', skills: ['a'], firstAt: Date.UTC(2026, 0, 2, 0, 0) },
    ]);
  });

  it('does not point out a skill installed or created after the days of use began, and says it left it out', () => {
    const HOUR = 60 * 60 * 1000;
    const usage = record(record(emptyUsage(), 'used', 'model', 1, START + 2 * HOUR), 'used', 'model', 1, START + DAY);
    assert.equal(usageWindowStart(usage), START + 2 * HOUR);
    const addedAt = new Map([
      ['before', START + HOUR],
      ['after', START + 3 * HOUR],
      ['later', START + 2 * DAY],
    ]);
    const summary = summarizeUsage(usage, ['used', 'before', 'after', 'later', 'unknown'], addedAt);
    assert.deepEqual(summary.unused, ['before', 'unknown']);
    assert.deepEqual(summary.addedSince, ['after', 'later']);
    const text = renderUsageMarkdown(summary, START + 3 * DAY);
    assert.match(text, /\n- `before`\n- `unknown`\n\nNot counted, as they were installed or created since those days began: `after`, `later`\.\n/);
    // A record written before the first activation's time was kept starts its days at midnight UTC.
    const older = readUsage({ version: 1, skills: {}, days: [{ day: '2026-01-01', skills: ['used'] }] });
    assert.equal(usageWindowStart(older), Date.UTC(2026, 0, 1));
    assert.deepEqual(
      summarizeUsage(
        older,
        ['early', 'late'],
        new Map([
          ['early', Date.UTC(2025, 11, 31)],
          ['late', Date.UTC(2026, 0, 1, 9)],
        ]),
      ).unused,
      ['early'],
    );
    assert.equal(usageWindowStart(emptyUsage()), undefined);
    assert.deepEqual(summarizeUsage(emptyUsage(), ['new'], new Map([['new', START]])).unused, ['new']);
  });

  it('reads back the first activation of each day, dropping one that is not a time', () => {
    const stored = {
      version: 1,
      skills: {},
      days: [
        { day: '2026-01-01', skills: ['a'], firstAt: 5 },
        { day: '2026-01-02', skills: ['a'], firstAt: 'soon' },
      ],
    };
    assert.deepEqual(readUsage(stored).days, [
      { day: '2026-01-01', skills: ['a'], firstAt: 5 },
      { day: '2026-01-02', skills: ['a'] },
    ]);
  });

  it('lists the most activated skills first, then the most recently activated, then by name', () => {
    let usage = emptyUsage();
    usage = record(usage, 'once', 'model', 1, START + 9 * DAY);
    usage = record(usage, 'zeta', 'model', 1, START);
    usage = record(usage, 'zeta', 'model', 1, START + DAY);
    usage = record(usage, 'beta', 'model', 1, START);
    usage = record(usage, 'beta', 'model', 1, START + DAY);
    usage = record(usage, 'later', 'model', 1, START);
    usage = record(usage, 'later', 'model', 1, START + 2 * DAY);
    usage = record(usage, 'most', 'model', 1, START);
    usage = record(usage, 'most', 'use', 1, START);
    usage = record(usage, 'most', 'view', 1, START);
    assert.deepEqual(
      summarizeUsage(usage, []).rows.map((row) => row.skill),
      ['most', 'later', 'beta', 'zeta', 'once'],
    );
  });

  it('forgets the skill activated longest ago even when it was recorded later than others, and on a tie the one recorded first', () => {
    let usage = emptyUsage();
    for (let index = 0; index < MAX_SKILLS_KEPT; index++) {
      usage = record(usage, `skill-${index}`, 'model', 1, START + index * 1000);
    }
    usage = record(usage, 'skill-0', 'model', 1, START + DAY);
    usage = record(usage, 'newcomer', 'model', 1, START + DAY);
    assert.ok(usage.skills['skill-0'] && usage.skills.newcomer);
    assert.equal(usage.skills['skill-1'], undefined);

    let tied = emptyUsage();
    for (let index = 0; index <= MAX_SKILLS_KEPT; index++) {
      tied = record(tied, `skill-${index}`, 'model', 1, START);
    }
    assert.equal(tied.skills['skill-0'], undefined);
    assert.ok(tied.skills[`skill-${MAX_SKILLS_KEPT}`], 'the skill just activated is kept');
  });

  it('stays bounded: at most 500 skills, the one activated longest ago forgotten first', () => {
    let usage = emptyUsage();
    for (let index = 0; index <= MAX_SKILLS_KEPT; index++) {
      usage = record(usage, `skill-${index}`, 'model', 1, START + index * 1000);
    }
    assert.equal(Object.keys(usage.skills).length, MAX_SKILLS_KEPT);
    assert.equal(usage.skills['skill-0'], undefined);
    assert.ok(usage.skills[`skill-${MAX_SKILLS_KEPT}`]);
    assert.ok(JSON.stringify(usage).length < 100_000);
  });

  it("lets the user's own choices (/use, the Skills view) reach skills hidden from the model, and no other origin", () => {
    assert.deepEqual((['model', 'agent', 'use', 'view', 'api'] as const).map(invocationModeOf), ['model', 'model', 'user', 'user', 'model']);
  });

  it('reads back what it stored, and drops what it cannot trust', () => {
    const usage = record(emptyUsage(), 'pdf', 'use', 12, START);
    assert.deepEqual(readUsage(JSON.parse(JSON.stringify(usage))), usage);
    assert.deepEqual(readUsage(undefined), emptyUsage());
    assert.deepEqual(readUsage(null), emptyUsage());
    assert.deepEqual(readUsage({ version: 2, skills: usage.skills, days: usage.days }), emptyUsage());
    for (const skills of [undefined, null, 'pdf', 7]) {
      assert.deepEqual(readUsage({ version: 1, skills, days: usage.days }), { ...usage, skills: {} }, `skills: ${String(skills)}`);
    }
    for (const days of [undefined, null, {}, 'days']) {
      assert.deepEqual(readUsage({ version: 1, skills: usage.skills, days }), { ...usage, days: [] }, `days: ${String(days)}`);
    }
    const pdf = { byOrigin: { use: 1 }, chars: 12, lastAt: START };
    const untrusted = {
      chars: { ...pdf, chars: '12' },
      negative: { ...pdf, chars: -1 },
      endless: { ...pdf, chars: Infinity },
      nothing: { ...pdf, chars: null },
      when: { ...pdf, lastAt: 'yesterday' },
      origins: { ...pdf, byOrigin: 3 },
      noOrigins: { ...pdf, byOrigin: null },
    };
    const kept = { pdf, empty: { byOrigin: { model: 0 }, chars: 0, lastAt: 0 } };
    assert.deepEqual(readUsage({ version: 1, skills: { ...untrusted, ...kept }, days: [] }).skills, kept);
    const manyDays = Array.from({ length: UNUSED_AFTER_DAYS_OF_USE + 5 }, (_, index) => ({ day: dayOf(START + index * DAY), skills: ['pdf'] }));
    assert.deepEqual(readUsage({ version: 1, skills: {}, days: [...manyDays, { day: 7, skills: [] }, { day: '2027-01-01' }] }).days, manyDays.slice(-UNUSED_AFTER_DAYS_OF_USE));
    assert.deepEqual(
      readUsage({
        version: 1,
        skills: { pdf: { byOrigin: { model: 2, bogus: 3, use: -1 }, chars: 5, lastAt: START }, bad: { chars: 'x' } },
        days: [{ day: '2026-11-01', skills: ['pdf', 7] }, 'junk'],
      }),
      { version: 1, skills: { pdf: { byOrigin: { model: 2 }, chars: 5, lastAt: START } }, days: [{ day: '2026-11-01', skills: ['pdf'] }] },
    );
  });
});

describe('usage document', () => {
  it('shows a table per skill with origins, last time against the clock, characters and tokens, then the unused skills', () => {
    let usage = emptyUsage();
    usage = record(usage, 'pdf', 'model', 1000, START);
    usage = record(usage, 'pdf', 'use', 1002, START + 2 * DAY);
    usage = record(usage, 'pdf', 'mcp', 1001, START + 2 * DAY);
    usage = record(usage, 'pdf', 'mcpPrompt', 1001, START + 2 * DAY);
    const text = renderUsageMarkdown(summarizeUsage(usage, ['pdf', 'sheets']), START + 5 * DAY);
    assert.match(text, /^# Skills: usage in this workspace\n/);
    assert.match(text, /\n\| `pdf` \| 4 \| model 1, MCP server \(agent mode\) 1, \/use 1, MCP prompt 1 \| 2026-11-03 09:30 UTC \(3 days ago\) \| 4,004 · 1,001 \| 1,001 · 251 \|\n/);
    assert.match(text, /## Not activated lately\n\nAvailable now, but not activated on any of the 2 days of use recorded \(since 2026-11-01\);[^\n]*\n\n- `sheets`\n/);
    assert.match(text, /never sent anywhere/);
    assert.match(text, /the `agent-skills mcp` server this extension starts for agent mode \(MCP server \(agent mode\): its `activate_skill` tool; MCP prompt: a skill's prompt\)/);
    assert.match(text, /Not counted: `agent-skills mcp` servers started by other programs/);
  });

  it('says when nothing was activated, and points nothing out without a day of use', () => {
    const text = renderUsageMarkdown(summarizeUsage(emptyUsage(), ['pdf']), START);
    assert.match(text, /No skill has been activated in this workspace yet/);
    assert.doesNotMatch(text, /Not activated lately|\| skill \|/);
  });

  it('averages nothing over a stored skill whose activations were all dropped', () => {
    const [row] = summarizeUsage(readUsage({ version: 1, skills: { pdf: { byOrigin: { retired: 4 }, chars: 400, lastAt: START } }, days: [] }), []).rows;
    assert.deepEqual([row.activations, row.averageChars, row.averageTokens, row.chars], [0, 0, 0, 400]);
  });

  it('is laid out as a title, the table and the unused skills, each after a blank line, then what is counted', () => {
    const row = {
      skill: 'pdf',
      activations: 1,
      byOrigin: { model: 1, agent: 0, mcp: 0, use: 0, mcpPrompt: 0, view: 0, api: 0 },
      lastAt: START,
      chars: 40,
      averageChars: 40,
      estimatedTokens: 10,
      averageTokens: 10,
    };
    const text = renderUsageMarkdown({ rows: [row], unused: ['docx', 'sheets'], addedSince: [], daysOfUse: 1, since: '2026-11-01' }, START);
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 7), [
      '# Skills: usage in this workspace',
      '',
      lines[2],
      '',
      '| skill | activations | by | last | characters (total · average) | ~tokens (total · average) |',
      '| --- | ---: | --- | --- | ---: | ---: |',
      '| `pdf` | 1 | model 1 | 2026-11-01 09:30 UTC (today) | 40 · 40 | 10 · 10 |',
    ]);
    assert.deepEqual(lines.slice(7, 14), [
      '',
      '## Not activated lately',
      '',
      'Available now, but not activated on any of the 1 day of use recorded (since 2026-11-01); a day of use is a day on which some skill was activated here. Their descriptions may never match what people ask, or they may no longer be needed:',
      '',
      '- `docx`',
      '- `sheets`',
    ]);
    assert.deepEqual(lines.slice(14, 17), ['', '---', '']);
    assert.match(lines[17], /^Counted here: /);
    assert.deepEqual(lines.slice(18), ['']);
  });

  it('names the period of the unused skills: the days recorded, at most the last 30', () => {
    const period = (daysOfUse: number): string | undefined =>
      /not activated on any of (.*?);/.exec(renderUsageMarkdown({ rows: [], unused: ['docx'], addedSince: [], daysOfUse, since: '2026-11-01' }, START))?.[1];
    assert.equal(period(2), 'the 2 days of use recorded (since 2026-11-01)');
    assert.equal(period(UNUSED_AFTER_DAYS_OF_USE - 1), 'the 29 days of use recorded (since 2026-11-01)');
    assert.equal(period(UNUSED_AFTER_DAYS_OF_USE), 'the last 30 days of use (since 2026-11-01)');
    assert.doesNotMatch(renderUsageMarkdown({ rows: [], unused: [], addedSince: [], daysOfUse: 3, since: '2026-11-01' }, START), /Not activated lately/, 'every skill was used');
  });

  it('shows skill names as code, and escapes a name that could break out of it', () => {
    const text = renderUsageMarkdown(summarizeUsage(record(record(emptyUsage(), 'a|b_<c>', 'model', 1, START), 'pdf-forms', 'model', 1, START), ['a|b_<c>', 'pdf-forms']), START);
    assert.match(text, /\| a\\\|b\\_\\<c\\> \| 1 \|/);
    assert.match(text, /\| `pdf-forms` \| 1 \|/);
  });

  it('says when an activation was, relative to the clock', () => {
    assert.equal(describeWhen(START, START + 1000), '2026-11-01 09:30 UTC (today)');
    assert.equal(describeWhen(START, START + DAY), '2026-11-01 09:30 UTC (yesterday)');
    assert.equal(describeWhen(START, START + 40 * DAY), '2026-11-01 09:30 UTC (40 days ago)');
  });
});
