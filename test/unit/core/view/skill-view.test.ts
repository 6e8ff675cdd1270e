import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { SkillRegistry, type RegistrySnapshot } from '../../../../src/core/discovery/registry';
import { buildSkillView, displayPath, skillContextValue, skillTooltip, viewBadge, viewMessage, type GroupViewItem, type ViewItem } from '../../../../src/core/view/skill-view';
import { escapeMarkdown } from '../../../../src/core/util/text';
import { fakeSnapshot } from '../../fake-snapshot';
import { fakeRecord, removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';

/** The view as indented lines: `label — description`, groups with their count. */
function outline(items: readonly ViewItem[], depth = 0): string[] {
  return items.flatMap((item) => {
    const line = `${'  '.repeat(depth)}${item.label}${item.kind === 'action' ? '' : ` — ${item.description}`}`;
    return item.kind === 'group' ? [line, ...outline(item.children, depth + 1)] : [line];
  });
}

describe('buildSkillView', () => {
  let dir: string;
  let registry: SkillRegistry;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(path.join(dir, 'ws'), {
      pdf: { 'SKILL.md': skillText('pdf', 'Extract PDF text.') },
      broken: { 'SKILL.md': '---\nname: broken\n---\n' },
      secret: { 'SKILL.md': skillText('secret', 'Hidden by the allowlist.') },
    });
    await writeTree(path.join(dir, 'user'), {
      pdf: { 'SKILL.md': skillText('pdf', 'User PDF.') },
      notes: { 'SKILL.md': skillText('notes', 'Take notes.') },
    });
    await writeTree(path.join(dir, 'other'), { stranger: { 'SKILL.md': skillText('stranger', 'Never read.') } });
    registry = new SkillRegistry({ allowlist: ['pdf', 'notes', 'broken'] });
  });

  afterEach(async () => {
    registry.dispose();
    await removeDir(dir);
  });

  async function snapshot(): Promise<RegistrySnapshot> {
    await registry.setRoots([
      { ...root(path.join(dir, 'ws')), label: 'app' },
      { ...root(path.join(dir, 'user'), 'user'), label: 'User' },
      { ...root(path.join(dir, 'other'), 'workspace', true), label: 'lib' },
    ]);
    registry.activate('notes');
    return registry.snapshot;
  }

  it('groups skills by status, Available by source, and hides empty groups', async () => {
    const view = buildSkillView(await snapshot(), { allowlist: ['pdf', 'notes', 'broken'] });
    assert.deepEqual(outline(view), [
      'Active — 1',
      '  notes — User · Take notes.',
      'Available — 1',
      '  app — 1',
      '    pdf — Extract PDF text.',
      'Problems — 1',
      '  broken — The required field "description" is missing. Add one saying what the skill does and when to use it: the model chooses skills by their description.',
      'Not allowed — 1',
      '  secret — not in agentSkills.allowlist',
      'Shadowed — 1',
      // The winner's source, not its absolute path (the tooltip has the path).
      '  pdf — shadowed by app',
      'Untrusted — 1',
      '  Trust this workspace to use its skills',
      '  stranger — lib (untrusted)',
    ]);
    assert.deepEqual(viewBadge(registry.snapshot), { value: 2, tooltip: '2 skills available, all offered to the model' });
  });

  it('names a source by its location alone when the window has one workspace folder, else by folder and location', async () => {
    await writeTree(path.join(dir, 'app', '.github', 'skills'), { triage: { 'SKILL.md': skillText('triage', 'Triage issues.') } });
    await writeTree(path.join(dir, 'lib', '.agent', 'skills'), { lint: { 'SKILL.md': skillText('lint', 'Lint code.') } });
    const workspaceRoot = (folder: string, location: string) => ({ ...root(path.join(dir, folder, location)), label: `${folder} · ${location}`, folder, location });
    const sources = async (roots: ReturnType<typeof workspaceRoot>[]) => {
      await registry.setRoots([...roots, { ...root(path.join(dir, 'user'), 'user'), label: 'User' }]);
      const available = buildSkillView(registry.snapshot, { allowlist: [] }).find((item) => item.label === 'Available')!;
      return available.children.map((item) => item.label);
    };
    registry.setAllowlist([]);
    assert.deepEqual(await sources([workspaceRoot('app', '.github/skills')]), ['.github/skills', 'User']);
    assert.deepEqual(await sources([workspaceRoot('app', '.github/skills'), workspaceRoot('lib', '.agent/skills')]), ['app · .github/skills', 'lib · .agent/skills', 'User']);
  });
  it('gives every item a unique id, and stale skills a warning icon and their error', async () => {
    const current = await snapshot();
    const ids = new Set<string>();
    const visit = (items: readonly ViewItem[]): void =>
      items.forEach((item) => {
        assert.ok(!ids.has(item.id), `duplicate id ${item.id}`);
        ids.add(item.id);
        if (item.kind === 'group') {
          visit(item.children);
        }
      });
    visit(buildSkillView(current, { allowlist: [] }));

    const stale = {
      ...current.byName('pdf')[0],
      stale: true,
      diagnostics: [{ code: 'yaml-syntax', severity: 'error' as const, message: 'Invalid YAML.', file: '', range: { start: { line: 1, column: 0 }, end: { line: 1, column: 1 } } }],
    };
    const view = buildSkillView({ ...current, skills: [stale], problems: [] } as RegistrySnapshot, { allowlist: [] });
    const item = (view[0] as GroupViewItem).children[0] as GroupViewItem;
    assert.equal(item.children[0].description, 'stale: Invalid YAML.');
    assert.deepEqual(item.children[0].icon, { id: 'warning', color: 'list.warningForeground' });
  });

  it('lists discovery problems under Problems', async () => {
    const current = await snapshot();
    const problem = { code: 'dangling-link', severity: 'warning' as const, message: 'The link goes nowhere.', path: path.join(dir, 'ws', 'gone') };
    const view = buildSkillView({ ...current, skills: [], problems: [problem] } as RegistrySnapshot, { allowlist: [] });
    assert.deepEqual(outline(view), ['Problems — 1', '  gone — The link goes nowhere.']);
  });
});

describe('skillContextValue', () => {
  it('offers Activate for available skills the user may invoke', () => {
    assert.equal(skillContextValue(fakeRecord('pdf', 'x'), { allowlist: [] }), 'skill activatable');
    const hidden = fakeRecord('pdf', 'x', { metadata: { name: 'pdf', description: 'x', userInvocable: false, disableModelInvocation: false } });
    assert.equal(skillContextValue(hidden, { allowlist: [] }), 'skill');
  });

  it('offers Deactivate for active skills', () => {
    assert.equal(skillContextValue(fakeRecord('pdf', 'x', { status: 'active' }), { allowlist: [] }), 'skill active');
  });

  it('offers Allow only for skills the allowlist filters out, and Remove only for entries naming the skill', () => {
    assert.equal(skillContextValue(fakeRecord('pdf', 'x', { status: 'not-allowed' }), { allowlist: ['docs'] }), 'skill allowable');
    assert.equal(skillContextValue(fakeRecord('pdf', 'x'), { allowlist: ['PDF', 'docs'] }), 'skill activatable allowlisted');
    assert.equal(skillContextValue(fakeRecord('pdf', 'x'), { allowlist: ['p*'] }), 'skill activatable');
  });
});

describe('skillTooltip', () => {
  it('shows description, status, source path and fields, escaped', () => {
    const record = fakeRecord('pdf', 'Use *bold* [links]', {
      metadata: { name: 'pdf', description: 'Use *bold* [links]', license: 'MIT', userInvocable: true, disableModelInvocation: true, metadata: { team: 'docs' } },
    });
    const tooltip = skillTooltip(record);
    assert.match(tooltip, /^\*\*pdf\*\*\n\nUse \\\*bold\\\* \\\[links\\\]\n\n\*Available\*\n\nWorkspace: `\/skills\/pdf\/SKILL.md`/);
    assert.match(tooltip, /- `license`: MIT/);
    assert.match(tooltip, /- `disable-model-invocation`: true/);
    assert.match(tooltip, /- `metadata.team`: docs/);
  });

  it('shows nothing but the name and place of an untrusted skill', () => {
    const record = fakeRecord('pdf', 'SECRET TEXT', { status: 'untrusted' });
    const tooltip = skillTooltip(record);
    assert.doesNotMatch(tooltip, /SECRET/);
    assert.match(tooltip, /Restricted Mode/);
  });

  it('escapes Markdown and theme-icon syntax', () => {
    assert.equal(escapeMarkdown('$(alert) a_b'), '\\$\\(alert\\) a\\_b');
  });

  it('shortens paths under the home folder', () => {
    assert.equal(displayPath(path.resolve('/home/me/.agent/skills/pdf/SKILL.md'), path.resolve('/home/me')), `~${path.sep}${path.join('.agent', 'skills', 'pdf', 'SKILL.md')}`);
    assert.equal(displayPath('/elsewhere/SKILL.md', path.resolve('/home/me')), '/elsewhere/SKILL.md');
  });
});

describe('viewBadge', () => {
  it('says how many of the skills it counts are offered to the model', () => {
    const skills = [
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((name) => fakeRecord(name, 'x')),
      fakeRecord('deploy', 'x', { disableModelInvocation: true }),
      fakeRecord('broken', 'x', { status: 'invalid' }),
    ];
    assert.deepEqual(viewBadge(fakeSnapshot(skills)), { value: 7, tooltip: '7 skills available: 6 offered to the model, 1 only through @skills /use' });
    assert.deepEqual(viewBadge(fakeSnapshot(skills.slice(0, 1))), { value: 1, tooltip: '1 skill available, offered to the model' });
    assert.equal(viewBadge(fakeSnapshot(skills.slice(7))), undefined);
  });
});

describe('viewMessage', () => {
  const snapshot = (statuses: string[]) => ({ skills: statuses.map((status, index) => fakeRecord(`s${index}`, 'x', { status: status as 'available' })) }) as unknown as RegistrySnapshot;
  const fits = { included: ['a'], overflow: [], unlisted: [] };

  it('says nothing when the rows say it all', () => {
    assert.equal(viewMessage(snapshot(['available']), fits), undefined);
  });

  it('explains Restricted Mode', () => {
    assert.equal(viewMessage(snapshot(['untrusted', 'available']), fits), 'Restricted Mode: 1 workspace skill is listed by name only and never given to a chat model.');
  });

  it('reports skills the catalog budget lists by name only, or not at all', () => {
    assert.equal(
      viewMessage(snapshot(['available']), { included: ['a', 'b'], overflow: ['c', 'd', 'e'], unlisted: ['e'] }),
      'The catalog budget fits 2 of 5 skills with their descriptions; the others are given to the model by name only (1 not even by name: the model finds them with the find tool). See Show Catalog.',
    );
  });
});
