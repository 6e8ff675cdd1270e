import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { activateSkill, checkInvocation, readResourceOfSkill, renderActivation, unknownSkillMessage } from '../../../../src/core/use/activation';
import { splitArguments, substituteArguments } from '../../../../src/core/use/arguments';
import { SkillRegistry } from '../../../../src/core/discovery/registry';
import { MCP_TOOL_NAMES } from '../../../../src/core/chat/tool-names';
import { fakeRecord, removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { scaffoldSkillText } from '../../../../src/core/skill-file/scaffold';
import { fakeSnapshot } from '../../fake-snapshot';
import type { SkillContent } from '../../../../src/core/use/skill-content';

describe('splitArguments', () => {
  const cases: [string, string[]][] = [
    ['', []],
    ['  one   two ', ['one', 'two']],
    ['"quoted words" plain', ['quoted words', 'plain']],
    ['\'single "kept"\' x', ['single "kept"', 'x']],
    ['a"b c"d', ['ab cd']],
    ['"say \\"hi\\"" \\"raw', ['say "hi"', '"raw']],
    ['C:\\docs\\file.pdf', ['C:\\docs\\file.pdf']],
    ['with\\ space', ['with space']],
    ['"" empty', ['', 'empty']],
    ['"unterminated rest', ['unterminated rest']],
    ["'a\\\"b'", ['a\\"b']],
    ['"C:\\docs"', ['C:\\docs']],
    ['"a\\\\" b', ['a\\', 'b']],
    ['\\ ', [' ']],
  ];
  for (const [input, expected] of cases) {
    it(`splits ${JSON.stringify(input)}`, () => {
      assert.deepEqual(splitArguments(input), expected);
    });
  }
});

describe('substituteArguments', () => {
  it('substitutes the whole string, indexed and positional arguments (0-based)', () => {
    assert.equal(
      substituteArguments('All: $ARGUMENTS. First: $ARGUMENTS[0]. Second: $1. Tenth: $ARGUMENTS[9].', 'report.pdf "page 2"'),
      'All: report.pdf "page 2". First: report.pdf. Second: page 2. Tenth: .',
    );
  });

  it('appends the arguments when the body has no placeholder', () => {
    assert.equal(substituteArguments('Do the thing.', '  fast  '), 'Do the thing.\n\nARGUMENTS: fast');
  });

  it('empties placeholders when no arguments are given, and appends nothing', () => {
    assert.equal(substituteArguments('Target: [$ARGUMENTS] [$0]'), 'Target: [] []');
    assert.equal(substituteArguments('Plain body.', '   '), 'Plain body.');
  });

  it('trims the argument text around $ARGUMENTS but keeps its inner spacing', () => {
    assert.equal(substituteArguments('Run [$ARGUMENTS] on [$0] and [$1].', ' \t a   "b  c" \n'), 'Run [a   "b  c"] on [a] and [b  c].');
    assert.equal(substituteArguments('Run [$ARGUMENTS].', ' \n\t '), 'Run [].');
  });

  it('reads every digit of a placeholder number, escaped or not', () => {
    const eleven = 'a b c d e f g h i j k';
    assert.equal(substituteArguments('$10 $ARGUMENTS[10] \\$10', eleven), 'k k $10');
  });

  it('keeps escaped placeholders literal and leaves look-alikes alone', () => {
    assert.equal(substituteArguments('Cost \\$1, keep \\$ARGUMENTS, $ARGUMENTSX, $x', 'a'), 'Cost $1, keep $ARGUMENTS, $ARGUMENTSX, $x\n\nARGUMENTS: a');
  });
});

describe('renderActivation', () => {
  it('wraps the body with name and folder, then lists resources with the overflow', () => {
    const text = renderActivation(fakeRecord('pdf', 'x', { dir: '/s/p"df' }), '\nBody text.\n', { files: ['a.md', 'b/c.py'], total: 5, complete: true });
    assert.equal(
      text,
      [
        '<skill name="pdf" dir="/s/p&quot;df">',
        'Body text.',
        '',
        'Resource files (paths relative to the skill folder; read one with skills_readResource):',
        '- a.md',
        '- b/c.py',
        '…and 3 more',
        '</skill>',
      ].join('\n'),
    );
  });

  it("escapes every attribute, and names a skill server's skill's server and URI, never its cache folder", () => {
    assert.equal(renderActivation(fakeRecord('pdf', 'x', { dir: '/s/a&b<c' }), 'B', { files: [], total: 0, complete: true }), '<skill name="pdf" dir="/s/a&amp;b&lt;c">\nB\n</skill>');
    const record = fakeRecord('tools/pdf', 'x', { dir: '/cache/x/pdf', uri: 'skill://p"d&f/SKILL.md', root: { path: '/cache/x', kind: 'server', label: 'Tools', server: 'tools & "more"' } });
    assert.equal(
      renderActivation(record, 'B', { files: [], total: 0, complete: true }),
      '<skill name="tools/pdf" server="tools &amp; &quot;more&quot;" uri="skill://p&quot;d&amp;f/SKILL.md">\nB\n</skill>',
    );
  });

  it('marks a listing cut short as a lower bound', () => {
    const text = renderActivation(fakeRecord('a', 'x'), 'B', { files: ['a.md'], total: 1, complete: false });
    assert.ok(text.endsWith('- a.md\n…and 0+ more\n</skill>'), text);
  });

  it('omits the resource section when there are none', () => {
    assert.equal(renderActivation(fakeRecord('a', 'x'), 'B', { files: [], total: 0, complete: true }), '<skill name="a" dir="/skills/a">\nB\n</skill>');
  });
});

describe('activation against a registry', () => {
  let dir: string;
  let registry: SkillRegistry;

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, {
      ws: {
        'pdf-report': {
          'SKILL.md': skillText('pdf-report', 'Build PDF reports.', 'Report on $0 for $ARGUMENTS[1].'),
          scripts: { 'build.py': 'print(1)' },
          references: { 'style.md': '# Style' },
          evals: { 'triggers.json': '[{ "query": "make the pdf report", "should_trigger": true }]' },
        },
        deploy: { 'SKILL.md': skillText('deploy', 'Deploy the app.', 'Deploy now.', 'disable-model-invocation: true\n') },
        internal: { 'SKILL.md': skillText('internal', 'Model-only helper.', 'Help.', 'user-invocable: false\n') },
        blocked: { 'SKILL.md': skillText('blocked', 'Not allowed here.') },
        broken: { 'SKILL.md': '---\nname: broken\n---\n' },
        fresh: { 'SKILL.md': scaffoldSkillText('fresh') },
      },
    });
    registry = new SkillRegistry({ allowlist: ['pdf-*', 'deploy', 'internal', 'broken', 'fresh'] });
    await registry.setRoots([root(path.join(dir, 'ws'))]);
  });

  afterEach(async () => {
    registry.dispose();
    await removeDir(dir);
  });

  it('returns the fresh body with arguments, the folder and the resource files', async () => {
    const file = path.join(dir, 'ws', 'pdf-report', 'SKILL.md');
    await fs.writeFile(file, skillText('pdf-report', 'Build PDF reports.', 'Edited: report on $0 for $ARGUMENTS[1].'));
    const result = await activateSkill(registry.snapshot, 'pdf-report', { mode: 'model', arguments: 'sales "last week"' });
    assert.ok(result.ok);
    assert.equal(
      result.text,
      [
        `<skill name="pdf-report" dir="${path.join(dir, 'ws', 'pdf-report')}">`,
        'Edited: report on sales for last week.',
        '',
        'Resource files (paths relative to the skill folder; read one with skills_readResource):',
        '- references/style.md',
        '- scripts/build.py',
        '</skill>',
      ].join('\n'),
    );
  });

  it("keeps the skill's trigger tests (evals/) from the model: not listed, not readable", async () => {
    for (const mode of ['model', 'user'] as const) {
      const result = await activateSkill(registry.snapshot, 'pdf-report', { mode });
      assert.ok(result.ok);
      assert.doesNotMatch(result.text, /evals|triggers\.json/);
      assert.equal(result.resources.total, 2);
    }
    const read = await readResourceOfSkill(registry.snapshot, 'pdf-report', 'evals/triggers.json');
    assert.deepEqual(read, { ok: false, message: `"evals/triggers.json" is in the skill's evals/ folder, which holds its tests for the skill's authors; it is not given to the model.` });
  });

  it('refuses model invocation of a disable-model-invocation skill but allows /use', async () => {
    const byModel = await activateSkill(registry.snapshot, 'deploy', { mode: 'model' });
    assert.ok(!byModel.ok && byModel.reason === 'refused');
    assert.match(byModel.message, /\/use deploy/);
    const byUser = await activateSkill(registry.snapshot, 'deploy', { mode: 'user' });
    assert.ok(byUser.ok && byUser.text.includes('Deploy now.'));
  });

  it('refuses the model a new skill whose description is still the placeholder, and lets the user start it', async () => {
    const byModel = checkInvocation(registry.snapshot, 'fresh', 'model');
    assert.ok(!byModel.ok && byModel.reason === 'refused');
    assert.equal(byModel.message, `Skill "fresh" is not offered to the model yet: its description is still the placeholder Create Skill wrote (${path.join(dir, 'ws', 'fresh', 'SKILL.md')}).`);
    assert.doesNotMatch(unknownSkillMessage(registry.snapshot, 'nope', 'model'), /fresh/);
    assert.ok((await activateSkill(registry.snapshot, 'fresh', { mode: 'user' })).ok);
  });

  it('refuses /use of a skill that is not user-invocable', () => {
    const check = checkInvocation(registry.snapshot, 'internal', 'user');
    assert.ok(!check.ok && /user-invocable/.test(check.message));
    assert.ok(checkInvocation(registry.snapshot, 'internal', 'model').ok);
  });

  it('explains why a known skill cannot be used', () => {
    const blocked = checkInvocation(registry.snapshot, 'blocked', 'user');
    assert.ok(!blocked.ok && blocked.reason === 'refused' && /allowlist/.test(blocked.message));
    const broken = checkInvocation(registry.snapshot, 'broken', 'model');
    assert.ok(!broken.ok);
    assert.equal(
      broken.message,
      `Skill "broken" is invalid: The required field "description" is missing. Add one saying what the skill does and when to use it: the model chooses skills by their description. (${path.join(dir, 'ws', 'broken', 'SKILL.md')}).`,
    );
  });

  it('explains an untrusted skill without revealing its content', async () => {
    await registry.setRoots([root(path.join(dir, 'ws'), 'workspace', true)]);
    const check = checkInvocation(registry.snapshot, 'pdf-report', 'model');
    assert.ok(!check.ok && /not trusted/.test(check.message));
    assert.ok(!check.message.includes('Build PDF reports'));
  });

  it('answers an unknown name with close matches and the available names', async () => {
    const result = await activateSkill(registry.snapshot, 'pdf-reprot', { mode: 'model' });
    assert.ok(!result.ok && result.reason === 'unknown');
    assert.equal(result.message, 'No skill named "pdf-reprot". Did you mean: pdf-report? Available skills: internal, pdf-report.');
  });

  it('finds a skill whose name was given in another case', () => {
    assert.ok(checkInvocation(registry.snapshot, ' PDF-Report ', 'model').ok);
  });

  it('reads a resource of a usable skill, including one hidden from the model', async () => {
    await writeTree(path.join(dir, 'ws', 'deploy'), { 'steps.md': 'Step 1.' });
    const result = await readResourceOfSkill(registry.snapshot, 'deploy', 'steps.md');
    assert.ok(result.ok && result.text === 'Step 1.');
  });

  it('refuses resources of unusable skills and unsafe paths with a readable message', async () => {
    const blocked = await readResourceOfSkill(registry.snapshot, 'blocked', 'SKILL.md');
    assert.ok(!blocked.ok && /allowlist/.test(blocked.message));
    const escaping = await readResourceOfSkill(registry.snapshot, 'pdf-report', '../blocked/SKILL.md');
    assert.ok(!escaping.ok && /outside the skill folder/.test(escaping.message));
  });

  it('reports a SKILL.md that disappeared since discovery', async () => {
    await fs.rm(path.join(dir, 'ws', 'pdf-report', 'SKILL.md'));
    const result = await activateSkill(registry.snapshot, 'pdf-report', { mode: 'model' });
    assert.ok(!result.ok && result.reason === 'unreadable');
    assert.equal(result.message, `Could not read skill "pdf-report": Cannot read the skill file ${path.join(dir, 'ws', 'pdf-report', 'SKILL.md')}: it does not exist or is not a file`);
  });

  it('lists at most the requested number of resource files', async () => {
    const result = await activateSkill(registry.snapshot, 'pdf-report', { mode: 'model', maxResources: 1 });
    assert.ok(result.ok);
    assert.deepEqual(result.resources, { files: ['references/style.md'], total: 2, complete: true });
  });

  it('lists the skills each caller may start when the name is unknown', async () => {
    const byUser = await activateSkill(registry.snapshot, 'zzz', { mode: 'user' });
    assert.ok(!byUser.ok);
    assert.equal(byUser.message, 'No skill named "zzz". Available skills: deploy, fresh, pdf-report.');
    const resource = await readResourceOfSkill(registry.snapshot, 'zzz', 'a.md');
    assert.ok(!resource.ok);
    assert.equal(resource.message, 'No skill named "zzz". Available skills: internal, pdf-report.');
  });

  it('refuses /use of a model-only skill as refused', () => {
    const check = checkInvocation(registry.snapshot, 'internal', 'user');
    assert.ok(!check.ok);
    assert.equal(check.reason, 'refused');
    assert.equal(check.message, 'Skill "internal" sets user-invocable: false; only the model can use it.');
  });

  it('names the file-system error when a resource cannot be read', async () => {
    await fs.symlink('loop', path.join(dir, 'ws', 'pdf-report', 'loop'));
    const result = await readResourceOfSkill(registry.snapshot, 'pdf-report', 'loop');
    assert.ok(!result.ok);
    assert.ok(result.message.startsWith('Could not read "loop" of skill "pdf-report": ') && result.message.includes('ELOOP'), result.message);
  });
});

describe('unknownSkillMessage', () => {
  const many = Array.from({ length: 52 }, (_, index) => fakeRecord(`skill-${String(index).padStart(2, '0')}`, 'x'));

  it('lists fifty names, then points at the find tool for the rest', () => {
    const listed = many
      .slice(0, 50)
      .map((record) => record.name)
      .join(', ');
    assert.equal(unknownSkillMessage(fakeSnapshot(many), 'zzz', 'model'), `No skill named "zzz". Available skills: ${listed} …and 2 more (call skills_find to search them).`);
    assert.equal(unknownSkillMessage(fakeSnapshot(many.slice(0, 50)), 'zzz', 'model'), `No skill named "zzz". Available skills: ${listed}.`);
  });

  it('names the tools the caller offers', async () => {
    const result = await readResourceOfSkill(fakeSnapshot(many), 'zzz', 'a.md', { toolNames: MCP_TOOL_NAMES });
    assert.ok(!result.ok);
    assert.ok(result.message.endsWith('…and 2 more (call find_skills to search them).'), result.message);
  });

  it('offers every close name', () => {
    const snapshot = fakeSnapshot([fakeRecord('pdf-a', 'x'), fakeRecord('pdf-b', 'x')]);
    assert.equal(unknownSkillMessage(snapshot, 'pdf-c', 'model'), 'No skill named "pdf-c". Did you mean: pdf-a, pdf-b? Available skills: pdf-a, pdf-b.');
  });

  it('says when there are no skills at all', () => {
    const snapshot = new SkillRegistry().snapshot;
    assert.equal(unknownSkillMessage(snapshot, 'x', 'model'), 'No skill named "x": no skills are available.');
  });
});

describe('checkInvocation of unusable skills', () => {
  it('says why each kind of unusable skill cannot be used', () => {
    const records = [fakeRecord('off', 'x', { status: 'disabled' }), fakeRecord('twin', 'x', { status: 'shadowed' }), fakeRecord('Bad-Name', 'x', { status: 'invalid' })];
    const snapshot = fakeSnapshot(records);
    const message = (name: string) => {
      const check = checkInvocation(snapshot, name, 'model');
      assert.ok(!check.ok && check.reason === 'refused');
      return check.message;
    };
    assert.equal(message('off'), 'Skills are turned off (setting agentSkills.enabled).');
    assert.equal(message('twin'), 'Skill "twin" cannot be used (status: shadowed).');
    assert.equal(message('Bad-Name'), 'Skill "Bad-Name" is invalid (/skills/Bad-Name/SKILL.md).');
  });
});

describe('activation of a skill whose SKILL.md an edit broke', () => {
  const BROKEN = '---\nname: notes\ndescription: [unclosed\n---\n\nBROKEN BODY\n';
  const YAML_PROBLEM =
    'Invalid YAML in the frontmatter (line 3, column 23): fix the syntax there; quote values that contain ": " or start with a special character. The YAML parser says: unexpected end of the stream within a flow collection.';
  let dir: string;
  let registry: SkillRegistry;
  const file = () => path.join(dir, 'ws', 'notes', 'SKILL.md');

  beforeEach(async () => {
    dir = await tempDir();
    await writeTree(dir, { ws: { notes: { 'SKILL.md': skillText('notes', 'Take notes.', 'VALID BODY for $ARGUMENTS.'), 'style.md': '# Style' } } });
    registry = new SkillRegistry({ keepValidFiles: true });
    await registry.setRoots([root(path.join(dir, 'ws'))]);
  });

  afterEach(async () => {
    registry.dispose();
    await removeDir(dir);
  });

  async function activated(mode: 'model' | 'user'): Promise<{ text: string; lastValid: boolean }> {
    const result = await activateSkill(registry.snapshot, 'notes', { mode, arguments: 'today' });
    assert.ok(result.ok, result.ok ? '' : result.message);
    return { text: result.text, lastValid: result.lastValid };
  }

  it('serves the last valid body once the registry marked the skill stale, to the model and to /use', async () => {
    await fs.writeFile(file(), BROKEN);
    await registry.apply([{ path: file(), kind: 'changed' }]);
    assert.equal(registry.snapshot.usable('notes')?.stale, true);
    for (const mode of ['model', 'user'] as const) {
      const { text, lastValid } = await activated(mode);
      assert.match(text, /VALID BODY for today\./);
      assert.doesNotMatch(text, /BROKEN/);
      assert.equal(lastValid, true);
    }
  });

  it('serves the last valid body before the registry saw the edit', async () => {
    await fs.writeFile(file(), BROKEN);
    const { text, lastValid } = await activated('model');
    assert.match(text, /VALID BODY for today\./);
    assert.equal(lastValid, true);
  });

  it('serves the file on disk again once it is fixed, even before the registry saw the fix', async () => {
    await fs.writeFile(file(), BROKEN);
    await registry.apply([{ path: file(), kind: 'changed' }]);
    await fs.writeFile(file(), skillText('notes', 'Take notes.', 'FIXED BODY.'));
    const { text, lastValid } = await activated('model');
    assert.match(text, /FIXED BODY\./);
    assert.equal(lastValid, false);
  });

  it('serves the last valid version of the latest valid edit, not of the first one', async () => {
    await fs.writeFile(file(), skillText('notes', 'Take notes.', 'SECOND BODY.'));
    await registry.apply([{ path: file(), kind: 'changed' }]);
    await fs.writeFile(file(), BROKEN);
    await registry.apply([{ path: file(), kind: 'changed' }]);
    assert.match((await activated('model')).text, /SECOND BODY\./);
  });

  it('hands the last valid SKILL.md to the read-resource tool, and other files from disk', async () => {
    await fs.writeFile(file(), BROKEN);
    await fs.writeFile(path.join(dir, 'ws', 'notes', 'style.md'), '# Style, edited');
    await registry.apply([{ path: file(), kind: 'changed' }]);
    for (const requested of ['SKILL.md', './skill.md']) {
      const resource = await readResourceOfSkill(registry.snapshot, 'notes', requested);
      assert.ok(resource.ok);
      assert.equal(resource.text, skillText('notes', 'Take notes.', 'VALID BODY for $ARGUMENTS.'));
    }
    const other = await readResourceOfSkill(registry.snapshot, 'notes', 'style.md');
    assert.ok(other.ok && other.text === '# Style, edited');
  });

  it('serves nothing of a skill broken since it was first seen, naming the file and the YAML problem', async () => {
    await fs.writeFile(file(), BROKEN);
    const fresh = new SkillRegistry({ keepValidFiles: true });
    try {
      await fresh.setRoots([root(path.join(dir, 'ws'))]);
      const expected = `Skill "notes" is invalid: ${YAML_PROBLEM} (${file()}).`;
      const result = await activateSkill(fresh.snapshot, 'notes', { mode: 'user' });
      assert.ok(!result.ok);
      assert.equal(result.message, expected);
      const resource = await readResourceOfSkill(fresh.snapshot, 'notes', 'SKILL.md');
      assert.ok(!resource.ok);
      assert.equal(resource.message, expected);
    } finally {
      fresh.dispose();
    }
  });

  it('says the same of a skill whose valid version this process never kept', async () => {
    const forgetful = new SkillRegistry();
    try {
      await forgetful.setRoots([root(path.join(dir, 'ws'))]);
      await fs.writeFile(file(), BROKEN);
      const result = await activateSkill(forgetful.snapshot, 'notes', { mode: 'model' });
      assert.ok(!result.ok);
      assert.equal(result.message, `Skill "notes" is invalid: ${YAML_PROBLEM} (${file()}).`);
    } finally {
      forgetful.dispose();
    }
  });
});

describe("activation of a skill server's skill", () => {
  const SERVER_ROOT = { path: '/cache/tools', kind: 'server' as const, label: 'Tools', server: 'tools' };
  const served = fakeRecord('lint', 'Lint the code.', { dir: '/cache/tools/lint', root: SERVER_ROOT });
  const local = fakeRecord('notes', 'Take notes.');
  let calls: string[];
  /** The server's copy, as the verified cache gives it; every call noted. */
  const content: SkillContent = {
    readBody: (record) => {
      calls.push(`body ${record.name}`);
      return record.name === 'lint' ? Promise.resolve('Lint $ARGUMENTS now.') : Promise.reject(new Error('the server is gone'));
    },
    listResources: (record, limit) => {
      calls.push(`list ${record.name} ${limit}`);
      return Promise.resolve({ files: ['rules.md'], total: 1, complete: true });
    },
    readResource: (record, requestedPath) => {
      calls.push(`read ${record.name} ${requestedPath}`);
      return Promise.resolve({ kind: 'text', path: requestedPath, text: 'From the server.', size: 16, truncated: false });
    },
  };

  beforeEach(() => {
    calls = [];
  });

  it('reads its body and files from the server, never from the cache folder on disk', async () => {
    const result = await activateSkill(fakeSnapshot([served]), 'lint', { mode: 'model', arguments: 'src', maxResources: 7, content });
    assert.ok(result.ok);
    assert.equal(result.text, '<skill name="lint" server="tools">\nLint src now.\n\nResource files (paths relative to the skill folder; read one with skills_readResource):\n- rules.md\n</skill>');
    assert.equal(result.lastValid, false);
    assert.deepEqual(calls, ['body lint', 'list lint 7']);
    const read = await readResourceOfSkill(fakeSnapshot([served]), 'lint', 'rules.md', { content });
    assert.ok(read.ok);
    assert.equal(read.text, 'From the server.');
    assert.deepEqual(calls.slice(2), ['read lint rules.md']);
  });

  it('says why when the server cannot give the body', async () => {
    const failing = fakeRecord('gone', 'Gone.', { dir: '/cache/tools/gone', root: SERVER_ROOT });
    const result = await activateSkill(fakeSnapshot([failing]), 'gone', { mode: 'model', content });
    assert.deepEqual(result, { ok: false, reason: 'unreadable', record: failing, message: 'Could not read skill "gone": the server is gone' });
  });

  it('reads a skill in a folder from disk even when server content is given', async () => {
    const dir = await tempDir();
    try {
      await writeTree(dir, { notes: { 'SKILL.md': skillText('notes', 'Take notes.', 'Write it down.'), 'form.md': 'A form.' } });
      const record = { ...local, dir: path.join(dir, 'notes'), file: path.join(dir, 'notes', 'SKILL.md'), realDir: path.join(dir, 'notes') };
      const result = await activateSkill(fakeSnapshot([record]), 'notes', { mode: 'model', content });
      assert.ok(result.ok);
      assert.match(result.text, /^<skill name="notes" dir="[^"]+">\nWrite it down\.\n/);
      const read = await readResourceOfSkill(fakeSnapshot([record]), 'notes', 'form.md', { content });
      assert.ok(read.ok);
      assert.equal(read.text, 'A form.');
      assert.deepEqual(calls, []);
      await fs.rm(record.file);
      const gone = await activateSkill(fakeSnapshot([record]), 'notes', { mode: 'model' });
      assert.ok(!gone.ok && gone.reason === 'unreadable' && gone.message.includes(record.file), JSON.stringify(gone));
      const skillFile = await readResourceOfSkill(fakeSnapshot([record]), 'notes', 'SKILL.md');
      assert.ok(!skillFile.ok && skillFile.message === gone.message, JSON.stringify(skillFile));
    } finally {
      await removeDir(dir);
    }
  });
});
