// The agent-skills command line, run in-process over fixture skills and temporary trees, plus the
// built bundle run as a real subprocess.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import nodeFs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { discoverSkills } from '../../../src/core/discovery/discover';
import { splitArguments } from '../../../src/core/use/arguments';
import { loadSkillFile, MAX_SKILL_FILE_BYTES } from '../../../src/core/skill-file/load';
import { joinArguments } from '../../../src/cli/activate-command';
import type { FoundSkillJson } from '../../../src/cli/find-command';
import type { CliIo } from '../../../src/cli/io';
import type { ListedSkillJson } from '../../../src/cli/list-command';
import { runCli } from '../../../src/cli/run';
import type { LocationProblemJson, ValidatedSkillJson } from '../../../src/cli/validate-command';
import { version } from '../../../package.json';
import { BUNDLE, ensureBundle, REPOSITORY } from './bundle';
import { fixtureSkill, fixtureSkillFolders } from '../../fixtures/skills/temp-skills';
import { fakeSnapshot } from '../fake-snapshot';
import { FIXTURE_TREES, removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';

const WORKSPACE_ROOT = path.join(FIXTURE_TREES, 'two-roots', 'workspace');
const USER_ROOT = path.join(FIXTURE_TREES, 'two-roots', 'user');
const RESOURCES_ROOT = path.join(FIXTURE_TREES, 'with-resources');

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], options: { cwd?: string; columns?: number } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: options.cwd ?? REPOSITORY,
    columns: options.columns,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** A failure the user can act on: one line, naming the path, never a stack trace. */
function assertOneLineError(run: CliRun, mentioned: string): void {
  const errorLines = lines(run.stderr);
  assert.equal(errorLines.length, 1, run.stderr);
  assert.match(errorLines[0], /^agent-skills: /);
  assert.ok(errorLines[0].includes(mentioned), `"${errorLines[0]}" should name ${mentioned}`);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
}

function parseValidateOutput(run: CliRun): { skills: ValidatedSkillJson[]; problems: LocationProblemJson[] } {
  const parsed = JSON.parse(run.stdout) as { skills: ValidatedSkillJson[]; problems: LocationProblemJson[] };
  assert.deepEqual(Object.keys(parsed), ['skills', 'problems']);
  return parsed;
}

function parseValidateJson(run: CliRun): ValidatedSkillJson[] {
  return parseValidateOutput(run).skills;
}

function relativeToRepository(file: string): string {
  return path.relative(REPOSITORY, file).split(path.sep).join('/');
}

describe('agent-skills CLI', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  describe('validate', () => {
    it('passes a valid skill silently, with a summary', async () => {
      const run = await cli(['validate', fixtureSkill('minimal')]);
      assert.equal(run.code, 0);
      assert.deepEqual(lines(run.stdout), ['1 skill checked: 0 errors, 0 warnings']);
      assert.equal(run.stderr, '');
    });

    it('prints compiler-style warnings and still exits 0 when no skill has an error', async () => {
      const run = await cli(['validate', relativeToRepository(fixtureSkill('name-mismatch')), relativeToRepository(fixtureSkill('unknown-fields'))]);
      assert.equal(run.code, 0);
      const output = lines(run.stdout);
      assert.match(output[0], /^test\/fixtures\/skills\/name-mismatch\/SKILL\.md:2:7: warning: The name "another-name" does not match its folder "name-mismatch"\..* \[name-mismatch\]$/);
      assert.match(output[1], /^test\/fixtures\/skills\/unknown-fields\/SKILL\.md:4:1: warning: Unknown frontmatter field "allowed_tools".* \[unknown-field\]$/);
      assert.equal(output.at(-1), '2 skills checked: 0 errors, 3 warnings');
    });

    it('exits 1 on broken YAML, pointing at its line and column', async () => {
      const run = await cli(['validate', relativeToRepository(fixtureSkill('bad-yaml'))]);
      assert.equal(run.code, 1);
      assert.match(lines(run.stdout)[0], /^test\/fixtures\/skills\/bad-yaml\/SKILL\.md:4:13: error: Invalid YAML in the frontmatter \(line 4, column 13\).* \[yaml-syntax\]$/);
      assert.equal(lines(run.stdout).at(-1), '1 skill checked: 1 error, 0 warnings');
    });

    it('reports a binary SKILL.md as an error on the file', async () => {
      const run = await cli(['validate', relativeToRepository(fixtureSkill('binary'))]);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /^test\/fixtures\/skills\/binary\/SKILL\.md:1:1: error: .*binary.* \[binary-file\]$/m);
    });

    it('reports an over-size SKILL.md without reading it', async () => {
      const huge = path.join(dir, 'huge');
      await writeTree(huge, { 'SKILL.md': skillText('huge', 'Too big.', 'x'.repeat(MAX_SKILL_FILE_BYTES)) });
      const run = await cli(['validate', huge]);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /huge\/SKILL\.md:1:1: error: SKILL\.md is \d+ bytes, over the 1048576-byte .* \[file-too-large\]/);
    });

    it('reports a SKILL.md that cannot be read as an error naming the file', async function () {
      const skill = path.join(dir, 'locked');
      if (process.getuid?.() === 0) {
        // Permissions do not stop root; reading this file fails with EIO for any user.
        if (process.platform !== 'linux') {
          this.skip();
        }
        await fs.mkdir(skill);
        await fs.symlink('/proc/self/mem', path.join(skill, 'SKILL.md'));
      } else {
        await writeTree(skill, { 'SKILL.md': skillText('locked', 'Unreadable.') });
        await fs.chmod(path.join(skill, 'SKILL.md'), 0o000);
      }
      const run = await cli(['validate', skill]);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /locked\/SKILL\.md:1:1: error: Cannot read .*locked\/SKILL\.md: .* \[file-unreadable\]/);
      assert.doesNotMatch(run.stdout + run.stderr, /\n\s+at /);
    });

    it('validates every skill of a folder of skills, including a lowercase skill.md', async () => {
      const run = await cli(['validate', '--json', path.dirname(fixtureSkill('minimal'))]);
      assert.equal(run.code, 1);
      const skills = parseValidateJson(run);
      const folders = await fixtureSkillFolders();
      assert.equal(skills.length, folders.length);
      const lowercase = skills.find((skill) => skill.name === 'lowercase-file');
      assert.equal(lowercase?.path, path.join(fixtureSkill('lowercase-file'), 'skill.md'));
      assert.equal(lowercase?.valid, true);
      assert.equal(skills.find((skill) => skill.name === 'bad-yaml')?.valid, false);
    });

    it('accepts the path of a SKILL.md itself', async () => {
      const run = await cli(['validate', path.join(fixtureSkill('valid'), 'SKILL.md')]);
      assert.equal(run.code, 0);
      assert.equal(lines(run.stdout).at(-1), '1 skill checked: 0 errors, 0 warnings');
    });

    it('prints --json in exactly the documented shape, with 1-based positions', async () => {
      const run = await cli(['validate', '--json', fixtureSkill('minimal'), fixtureSkill('invalid-name')]);
      assert.equal(run.code, 1);
      const skills = parseValidateJson(run);
      assert.deepEqual(skills[0], { path: path.join(fixtureSkill('minimal'), 'SKILL.md'), name: 'minimal', valid: true, diagnostics: [] });
      const invalid = skills[1];
      assert.deepEqual(Object.keys(invalid), ['path', 'name', 'valid', 'diagnostics']);
      assert.equal(invalid.name, 'invalid-name');
      assert.equal(invalid.valid, false);
      const loaded = await loadSkillFile(fixtureSkill('invalid-name'), { checkBody: true });
      assert.deepEqual(
        invalid.diagnostics.map((diagnostic) => Object.keys(diagnostic)),
        invalid.diagnostics.map(() => ['severity', 'code', 'message', 'line', 'column']),
      );
      assert.deepEqual(
        invalid.diagnostics.map(({ code, line, column }) => `${code}@${line}:${column}`).sort(),
        loaded!.diagnostics.map((diagnostic) => `${diagnostic.code}@${diagnostic.range.start.line + 1}:${diagnostic.range.start.column + 1}`).sort(),
      );
      assert.ok(invalid.diagnostics.some((diagnostic) => diagnostic.code === 'name-uppercase' && diagnostic.severity === 'error' && diagnostic.line === 2 && diagnostic.column === 7));
    });

    it("checks a skill's trigger tests, with positions in evals/triggers.json, as text and as JSON", async () => {
      const skill = path.join(dir, 'tested');
      await writeTree(skill, {
        'SKILL.md': skillText('tested', 'A tested skill.'),
        evals: { 'triggers.json': '[\n  { "query": "a", "should_trigger": true },\n  { "query": "A", "should_trigger": "no" }\n]\n' },
      });
      const run = await cli(['validate', skill]);
      assert.equal(run.code, 1);
      const output = lines(run.stdout);
      assert.match(output[0], /tested\/evals\/triggers\.json:3:14: error: Duplicate query "A" \(also on line 2\); each query is tested once\. \[triggers-duplicate-query\]$/);
      assert.match(output[1], /tested\/evals\/triggers\.json:3:37: error: "should_trigger" must be true or false.* \[triggers-should-trigger-type\]$/);
      assert.equal(output.at(-1), '1 skill checked: 2 errors, 0 warnings');

      const [json] = parseValidateJson(await cli(['validate', '--json', skill]));
      assert.equal(json.valid, false);
      assert.deepEqual(json.diagnostics, []);
      assert.equal(json.triggerTests?.path, path.join(skill, 'evals', 'triggers.json'));
      assert.deepEqual(
        json.triggerTests?.diagnostics.map(({ code, line, column }) => `${code}@${line}:${column}`),
        ['triggers-duplicate-query@3:14', 'triggers-should-trigger-type@3:37'],
      );
    });

    it('turns specification-only findings into errors with --strict', async () => {
      const lenient = await cli(['validate', '--json', fixtureSkill('name-mismatch'), fixtureSkill('extensions')]);
      const strict = await cli(['validate', '--strict', '--json', fixtureSkill('name-mismatch'), fixtureSkill('extensions')]);
      assert.equal(lenient.code, 0);
      assert.equal(strict.code, 1);
      const [lenientMismatch, lenientExtensions] = parseValidateJson(lenient);
      const [strictMismatch, strictExtensions] = parseValidateJson(strict);
      assert.equal(lenientMismatch.diagnostics.find((diagnostic) => diagnostic.code === 'name-mismatch')?.severity, 'warning');
      assert.equal(strictMismatch.diagnostics.find((diagnostic) => diagnostic.code === 'name-mismatch')?.severity, 'error');
      assert.equal(lenientExtensions.valid, true);
      assert.equal(strictExtensions.valid, false);
      assert.ok(strictExtensions.diagnostics.every((diagnostic) => diagnostic.code === 'extension-field'));
      assert.equal(strictExtensions.diagnostics.length, 5);
    });

    it('accepts any files and folders beside SKILL.md, as the specification does, in both modes', async () => {
      const skill = path.join(dir, 'skills', 'kit');
      await writeTree(skill, {
        'SKILL.md': skillText('kit', 'Builds release kits.'),
        templates: { nested: { 'kit.yaml': 'a: b\n' } },
        'data.bin': '\0\x01',
        '.hidden': 'x',
        'README.md': '# Kit\n',
        'LICENSE.txt': 'MIT\n',
      });
      for (const mode of [[], ['--strict']]) {
        const run = await cli(['validate', ...mode, skill]);
        assert.equal(run.code, 0, run.stdout);
        assert.deepEqual(lines(run.stdout), ['1 skill checked: 0 errors, 0 warnings']);
      }
    });

    it('reports a symbolic link loop inside a folder of skills as a warning, and validates the rest', async () => {
      const skills = path.join(dir, 'skills');
      await writeTree(skills, { good: { 'SKILL.md': skillText('good', 'A good skill.') } });
      await fs.symlink(path.join(skills, 'loop-b'), path.join(skills, 'loop-a'));
      await fs.symlink(path.join(skills, 'loop-a'), path.join(skills, 'loop-b'));
      const run = await cli(['validate', skills]);
      assert.equal(run.code, 0);
      const output = lines(run.stdout);
      assert.match(output[0], /loop-a: warning: The link .*loop-a loops back on itself; it was skipped\. \[symlink-loop\]$/);
      assert.equal(output.at(-1), '1 skill checked: 0 errors, 2 warnings');

      const json = await cli(['validate', '--json', skills]);
      const report = parseValidateOutput(json);
      assert.deepEqual(
        report.skills.map((skill) => skill.name),
        ['good'],
      );
      // Location problems are part of the JSON, so a machine reading it misses nothing.
      assert.deepEqual(
        report.problems.map((problem) => [path.basename(problem.path), problem.severity, problem.code]),
        [
          ['loop-a', 'warning', 'symlink-loop'],
          ['loop-b', 'warning', 'symlink-loop'],
        ],
      );
      assert.match(report.problems[0].message, /loops back on itself/);
      assert.equal(json.stderr, '');
    });

    it('refuses a PATH that is itself a symbolic link loop, in one line', async () => {
      const loop = path.join(dir, 'loop');
      await fs.symlink(loop, loop);
      const run = await cli(['validate', loop]);
      assert.equal(run.code, 1);
      assertOneLineError(run, loop);
      assert.match(run.stderr, /symbolic link loop/);
      assert.equal(run.stdout, '');
    });

    it('refuses a missing PATH in one line naming it, before validating anything', async () => {
      const run = await cli(['validate', fixtureSkill('minimal'), 'no/such/skill']);
      assert.equal(run.code, 1);
      assertOneLineError(run, 'no/such/skill');
      assert.equal(run.stdout, '');
    });

    it('refuses a file that is not a SKILL.md', async () => {
      const run = await cli(['validate', 'package.json']);
      assert.equal(run.code, 1);
      assertOneLineError(run, 'package.json');
    });

    it('fails on a folder that holds no skills, so a mistyped path in CI does not pass', async () => {
      const run = await cli(['validate', dir]);
      assert.equal(run.code, 1);
      const [problem, summary] = lines(run.stdout);
      assert.ok(problem.includes(dir), problem);
      assert.match(problem, /: error: No skill folders \(folders holding a SKILL\.md\) found in .*Check the path.* \[no-skills\]$/);
      assert.equal(summary, '0 skills checked: 1 error, 0 warnings');
      const json = parseValidateOutput(await cli(['validate', '--json', dir]));
      assert.deepEqual(
        json.problems.map((item) => [item.path, item.severity, item.code]),
        [[dir, 'error', 'no-skills']],
      );
    });

    it('reports a SKILL.md that is a folder instead of skipping it', async () => {
      const skills = path.join(dir, 'with-folder');
      await writeTree(skills, { good: { 'SKILL.md': skillText('good', 'A good skill.') }, 'dir-skill': { 'SKILL.md': { 'notes.md': 'x' } } });
      const all = await cli(['validate', skills]);
      assert.equal(all.code, 1);
      assert.match(all.stdout, /dir-skill\/SKILL\.md:1:1: error: Cannot read .*dir-skill\/SKILL\.md: it is a folder, not a file\. .*\[file-unreadable\]/);
      assert.equal(lines(all.stdout).at(-1), '2 skills checked: 1 error, 0 warnings');
      const one = await cli(['validate', path.join(skills, 'dir-skill')]);
      assert.equal(one.code, 1);
      assert.equal(lines(one.stdout).at(-1), '1 skill checked: 1 error, 0 warnings');
    });
  });

  describe('list', () => {
    it('prints an aligned table in precedence order, naming the winner of a shadowed skill', async () => {
      const run = await cli(['list', relativeToRepository(WORKSPACE_ROOT), relativeToRepository(USER_ROOT)]);
      assert.equal(run.code, 0);
      const [heading, ...rows] = lines(run.stdout);
      const summary = rows.pop();
      const statusColumn = heading.indexOf('STATUS');
      const sourceColumn = heading.indexOf('SOURCE');
      assert.ok(statusColumn > 0 && sourceColumn > statusColumn);
      for (const row of rows) {
        assert.equal(row[statusColumn - 1], ' ', row);
        assert.match(row.slice(statusColumn), /^\S/, `STATUS column misaligned in "${row}"`);
        assert.match(row.slice(sourceColumn), /^test\/fixtures\/trees\/two-roots\/(workspace|user) /, `SOURCE column misaligned in "${row}"`);
      }
      assert.deepEqual(
        rows.map((row) => row.split(/\s+/).slice(0, 2).join(' ')),
        ['broken invalid', 'docs available', 'pdf available', 'extra available', 'pdf shadowed'],
      );
      assert.match(rows[4], /shadowed by test\/fixtures\/trees\/two-roots\/workspace\/pdf\/SKILL\.md$/);
      assert.match(rows[0], /The required field "description" is missing/);
      assert.match(rows[1], /Write and review project documentation\.$/);
      assert.equal(summary, '5 skills: 1 invalid, 3 available, 1 shadowed');
    });

    it('gives precedence by argument order', async () => {
      const run = await cli(['list', '--json', USER_ROOT, WORKSPACE_ROOT]);
      const { skills } = JSON.parse(run.stdout) as { skills: ListedSkillJson[] };
      const pdfs = skills.filter((skill) => skill.name === 'pdf');
      assert.deepEqual(
        pdfs.map((skill) => [skill.source, skill.status]),
        [
          [USER_ROOT, 'available'],
          [WORKSPACE_ROOT, 'shadowed'],
        ],
      );
      assert.equal(pdfs[1].shadowedBy, path.join(USER_ROOT, 'pdf', 'SKILL.md'));
    });

    it('prints --json with name, description, status, source and paths', async () => {
      const run = await cli(['list', '--json', WORKSPACE_ROOT, USER_ROOT]);
      assert.equal(run.code, 0);
      const parsed = JSON.parse(run.stdout) as { skills: ListedSkillJson[]; problems: unknown[] };
      assert.deepEqual(parsed.problems, []);
      assert.deepEqual(
        parsed.skills.find((skill) => skill.name === 'docs'),
        {
          name: 'docs',
          description: 'Write and review project documentation.',
          status: 'available',
          source: WORKSPACE_ROOT,
          path: path.join(WORKSPACE_ROOT, 'docs', 'Skill.md'),
        },
      );
      const broken = parsed.skills.find((skill) => skill.name === 'broken');
      assert.equal(broken?.description, null);
      assert.equal(broken?.status, 'invalid');
      assert.match(broken?.error ?? '', /"description" is missing/);
    });

    it('cuts long descriptions to the terminal width', async () => {
      const run = await cli(['list', '.'], { columns: 60, cwd: WORKSPACE_ROOT });
      for (const line of lines(run.stdout)) {
        assert.ok(line.length <= 60, line);
      }
      assert.match(run.stdout, /…$/m);
    });

    it('fits a terminal however long the ROOT: its path is shortened before the description', async () => {
      const deep = path.join(dir, 'a-rather-long-folder-name', 'and-another-one-below-it', '.agent', 'skills');
      await writeTree(deep, { pdf: { 'SKILL.md': skillText('pdf', 'Fills PDF forms and extracts their tables.') } });
      const run = await cli(['list', deep], { columns: 80 });
      const [, row] = lines(run.stdout);
      assert.ok(row.length <= 80, row);
      assert.match(row, /^pdf +available +….*\/\.agent\/skills +Fills PDF forms/);
    });

    it('words a status as chat /list does: a skill hidden from the model is "/use only"', async () => {
      await writeTree(dir, {
        deploy: { 'SKILL.md': skillText('deploy', 'Deploys the app.', undefined, 'disable-model-invocation: true\n') },
        audit: { 'SKILL.md': skillText('audit', 'Audits the code.', undefined, 'context: fork\n') },
      });
      const run = await cli(['list', dir]);
      assert.match(run.stdout, /^deploy +available, \/use only +/m);
      assert.match(run.stdout, /^audit +available, runs isolated +/m);
      assert.match(run.stdout, /^2 skills: 2 available$/m);
    });

    it('reports discovery problems on stderr, keeping the table on stdout', async () => {
      await writeTree(dir, { good: { 'SKILL.md': skillText('good', 'A good skill.') } });
      await fs.symlink(path.join(dir, 'missing'), path.join(dir, 'dangling'));
      const run = await cli(['list', dir]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^good +available/m);
      assertOneLineError(run, path.join(dir, 'dangling'));
      assert.match(run.stderr, /\[dangling-symlink\]/);
    });

    it('prints only the count for a ROOT without skills', async () => {
      const run = await cli(['list', dir]);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, '0 skills\n');
    });

    it('refuses a ROOT that does not exist or is not a folder', async () => {
      const missing = await cli(['list', WORKSPACE_ROOT, 'nowhere']);
      assert.equal(missing.code, 1);
      assertOneLineError(missing, 'nowhere');
      const file = await cli(['list', 'package.json']);
      assert.equal(file.code, 1);
      assertOneLineError(file, 'package.json: not a folder');
    });
  });

  describe('catalog', () => {
    it('prints the exact catalog of the usable skills', async () => {
      const run = await cli(['catalog', WORKSPACE_ROOT, USER_ROOT]);
      assert.equal(run.code, 0);
      assert.equal(
        run.stdout,
        [
          '<available_skills>',
          'Skills: call skills_activate with a name below to load its instructions before a task it covers.',
          'docs: Write and review project documentation.',
          'pdf: Extract text and tables from PDF files (workspace copy).',
          'extra: An extra personal skill.',
          '</available_skills>',
          '',
        ].join('\n'),
      );
      assert.equal(run.stderr, '');
    });

    it('leaves out skills the model may not invoke', async () => {
      await writeTree(dir, {
        shown: { 'SKILL.md': skillText('shown', 'Shown to the model.') },
        hidden: { 'SKILL.md': skillText('hidden', 'Only for the user.', 'Body.', 'disable-model-invocation: true\n') },
      });
      const run = await cli(['catalog', dir]);
      assert.match(run.stdout, /^shown: Shown to the model\.$/m);
      assert.doesNotMatch(run.stdout, /hidden/);
    });

    it('lists skills by name only past the budget and reports the overflow on stderr', async () => {
      const run = await cli(['catalog', '--budget-chars', '200', WORKSPACE_ROOT, USER_ROOT]);
      assert.equal(run.code, 0);
      assert.ok(run.stdout.length - 1 <= 200);
      assert.match(run.stdout, /^More skills \(call skills_find for details\): docs, pdf, extra$/m);
      assert.match(run.stderr, /0 skills described, 3 by name only/);
      // A summary line with counts: the names (thousands, in a big catalog) only with --verbose.
      assertOneLineError(run, '--verbose lists their names.');
      assert.doesNotMatch(run.stderr, /docs, pdf/);
      const verbose = await cli(['catalog', '--verbose', '--budget-chars', '200', WORKSPACE_ROOT, USER_ROOT]);
      assertOneLineError(verbose, 'By name only: docs, pdf, extra.');
      assert.equal(verbose.stdout, run.stdout);
    });

    it('accepts --budget-chars=N and refuses a budget that is not a positive number', async () => {
      assert.equal((await cli(['catalog', '--budget-chars=100000', WORKSPACE_ROOT])).code, 0);
      const bad = await cli(['catalog', '--budget-chars', 'lots', WORKSPACE_ROOT]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--budget-chars must be a positive whole number, not "lots"/);
      assert.equal((await cli(['catalog', WORKSPACE_ROOT, '--budget-chars'])).code, 2);
    });
  });

  describe('--target', () => {
    function manySkills(count: number, extra = ''): Record<string, { 'SKILL.md': string }> {
      return Object.fromEntries(Array.from({ length: count }, (_, index) => [`skill-${index}`, { 'SKILL.md': skillText(`skill-${index}`, 'd'.repeat(700), 'Body.', extra) }]));
    }

    it('validate warns, named by host, once about a folder the host does not read, and per skill about a field it ignores', async () => {
      await writeTree(dir, {
        '.agent/skills/forked': { 'SKILL.md': skillText('forked', 'Runs apart.', 'Body.', 'context: fork\n') },
        '.agent/skills/plain': { 'SKILL.md': skillText('plain', 'Runs inline.') },
        '.agents/skills/forked': { 'SKILL.md': skillText('forked', 'Runs apart.', 'Body.', 'context: fork\n') },
      });
      const hidden = await cli(['validate', '--target', 'codex', '--target=claude-code', '.agent/skills'], { cwd: dir });
      assert.equal(hidden.code, 0);
      assert.deepEqual(lines(hidden.stdout), [
        '.agent/skills: warning: Codex reads `.agents/skills`, not `.agent/skills`: the 2 skills there are invisible to it. [host-folder]',
        '.agent/skills: warning: Claude Code reads `.claude/skills`, not `.agent/skills`: the 2 skills there are invisible to it. [host-folder]',
        '2 skills checked: 0 errors, 2 warnings',
      ]);
      const json = JSON.parse((await cli(['validate', '--json', '--target', 'codex', '.agent/skills'], { cwd: dir })).stdout) as { skills: ValidatedSkillJson[]; problems: unknown[] };
      assert.deepEqual(
        json.skills.map((skill) => skill.diagnostics),
        [[], []],
      );
      assert.deepEqual(json.problems, [
        {
          path: path.join(dir, '.agent/skills'),
          severity: 'warning',
          code: 'host-folder',
          message: 'Codex reads `.agents/skills`, not `.agent/skills`: the 2 skills there are invisible to it.',
          host: 'codex',
        },
      ]);
      const seen = await cli(['validate', '--json', '--target', 'codex,opencode', '.agents/skills/forked'], { cwd: dir });
      const [skill] = (JSON.parse(seen.stdout) as { skills: ValidatedSkillJson[] }).skills;
      assert.deepEqual(
        skill.diagnostics.map((diagnostic) => [diagnostic.host, diagnostic.code, diagnostic.message, diagnostic.line]),
        [
          ['codex', 'host-ignores-field', 'Codex ignores `context: fork`.', 4],
          ['opencode', 'host-ignores-field', 'OpenCode ignores `context: fork`.', 4],
        ],
      );
      // Without --target no host is checked.
      assert.equal(lines((await cli(['validate', '.agent/skills'], { cwd: dir })).stdout).length, 1);
    });

    it('validate warns where the host list cuts a skill at the given context size', async () => {
      await writeTree(path.join(dir, '.claude/skills'), manySkills(30));
      const run = await cli(['validate', '--target', 'claude-code', '--context', '100000', '.claude/skills'], { cwd: dir });
      const cut = lines(run.stdout).filter((line) => line.includes('[host-budget]'));
      assert.ok(cut.length > 20 && cut.length < 30, String(cut.length));
      assert.match(cut[0], /: warning: With this project's 30 skills, Claude Code lists this one by name only at a 100,000-token context\. \[host-budget\]$/);
    });

    it('catalog prints the host list and names what it cuts on stderr', async () => {
      await writeTree(dir, { ...manySkills(40), hidden: { 'SKILL.md': skillText('hidden', 'Only by hand.', 'Body.', 'disable-model-invocation: true\n') } });
      const run = await cli(['catalog', '--target', 'codex', '--context', '100000', dir]);
      assert.equal(run.code, 0);
      const listed = lines(run.stdout);
      assert.equal(listed.length, 41, 'Codex does not honour disable-model-invocation, so it lists that skill too');
      assert.ok(run.stdout.length <= 8000);
      assert.match(listed[0], /^hidden: Only by hand\.$/);
      assert.match(listed[1], /^skill-0: d+$/);
      assert.ok(listed[1].length < 'skill-0: '.length + 700);
      assertOneLineError(run, 'Codex at a 100,000-token context: budget 8,000 characters');
      assert.match(run.stderr, /; 1 in full, 40 shortened\. Shortened: skill-0, skill-1, /);
      const two = await cli(['catalog', '--target', 'gemini-cli,claude-code', dir]);
      assert.match(two.stdout, /^# Gemini CLI\n/);
      assert.match(two.stdout, /\n\n# Claude Code\n/);
      assert.equal(lines(two.stderr).length, 2);
      assert.match(two.stderr, /Claude Code at a 200,000-token context: budget 8,000 characters, [\d,]+ used; \d+ in full, \d+ by name only, 1 not offered to the model/);
    });

    it('catalog names the skills of a folder the host does not read at all', async () => {
      await writeTree(dir, {
        '.agent': { skills: { alpha: { 'SKILL.md': skillText('alpha', 'Alpha things.') }, beta: { 'SKILL.md': skillText('beta', 'Beta things.') } } },
        '.claude': { skills: { gamma: { 'SKILL.md': skillText('gamma', 'Gamma things.') } } },
      });
      const run = await cli(['catalog', '--target', 'claude-code', '.agent/skills', '.claude/skills'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^agent-skills: Claude Code reads `\.claude\/skills`, not `\.agent\/skills`: the 2 skills there are invisible to it: alpha, beta\.$/m);
      assert.doesNotMatch(run.stderr, /gamma/);
      const read = await cli(['catalog', '--target', 'claude-code', '.claude/skills'], { cwd: dir });
      assert.doesNotMatch(read.stderr, /invisible/);
    });

    it('refuses an unknown host and a context that is not a positive number', async () => {
      const unknown = await cli(['validate', '--target', 'codex,claude', '.']);
      assert.equal(unknown.code, 2);
      assert.equal(lines(unknown.stderr)[0], 'agent-skills: validate: unknown --target "claude" (hosts: vscode, copilot-cli, claude-code, codex, gemini-cli, cursor, opencode).');
      const context = await cli(['catalog', '--target', 'codex', '--context', '0', '.']);
      assert.equal(context.code, 2);
      assert.equal(lines(context.stderr)[0], 'agent-skills: catalog: --context must be a positive whole number, not "0".');
    });
  });

  describe('activate', () => {
    it('prints the activation tool result: body, folder and resource files', async () => {
      const run = await cli(['activate', RESOURCES_ROOT, 'report']);
      assert.equal(run.code, 0);
      const output = lines(run.stdout);
      assert.equal(output[0], `<skill name="report" dir="${path.join(RESOURCES_ROOT, 'report')}">`);
      assert.ok(output.includes('See [the guide](references/guide.md) and run scripts/build.py.'));
      assert.deepEqual(output.slice(-3), ['- references/guide.md', '- scripts/build.py', '</skill>']);
      assert.equal(run.stderr, '');
    });

    it('substitutes the arguments word by word, as the shell passed them', async () => {
      await writeTree(dir, { convert: { 'SKILL.md': skillText('convert', 'Converts a file.', 'Convert $0 to $1 (all: $ARGUMENTS).') } });
      const run = await cli(['activate', dir, 'convert', 'my report.pdf', '--format=md']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^Convert my report\.pdf to --format=md \(all: "my report\.pdf" --format=md\)\.$/m);
    });

    it('activates a skill only the user may start, as /use would', async () => {
      await writeTree(dir, { manual: { 'SKILL.md': skillText('manual', 'Started by hand.', 'Manual steps.', 'disable-model-invocation: true\n') } });
      const run = await cli(['activate', dir, 'manual']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^Manual steps\.$/m);
    });

    it('passes the arguments to a skill only the user may start, and refuses one neither may start', async () => {
      await writeTree(dir, {
        manual: { 'SKILL.md': skillText('manual', 'Started by hand.', 'Convert $0.', 'disable-model-invocation: true\n') },
        nobody: { 'SKILL.md': skillText('nobody', 'Started by no one.', 'Body.', 'disable-model-invocation: true\nuser-invocable: false\n') },
      });
      const manual = await cli(['activate', dir, 'manual', 'a.pdf']);
      assert.equal(manual.code, 0);
      assert.match(manual.stdout, /^Convert a\.pdf\.$/m);
      const nobody = await cli(['activate', dir, 'nobody']);
      assert.equal(nobody.code, 1);
      assertOneLineError(nobody, 'Skill "nobody" sets user-invocable: false; only the model can use it.');
    });

    it('suggests the names the model may activate for an unknown name', async () => {
      await writeTree(dir, { helper: { 'SKILL.md': skillText('helper', 'Helps the model.', 'Body.', 'user-invocable: false\n') } });
      assertOneLineError(await cli(['activate', dir, 'helpr']), 'No skill named "helpr". Did you mean: helper?');
    });

    it('exits 1 with the tool error for an unknown name, suggesting close names', async () => {
      const run = await cli(['activate', WORKSPACE_ROOT, 'pfd']);
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      assertOneLineError(run, 'No skill named "pfd". Did you mean: pdf?');
    });

    it('exits 1 naming the file when the skill is invalid', async () => {
      const run = await cli(['activate', WORKSPACE_ROOT, 'broken']);
      assert.equal(run.code, 1);
      assertOneLineError(run, path.join(WORKSPACE_ROOT, 'broken', 'SKILL.md'));
    });

    it('needs a ROOT and a NAME', async () => {
      const run = await cli(['activate', WORKSPACE_ROOT]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /activate: give a ROOT .* and a skill NAME/);
    });

    it('quotes arguments so that the core splits them back into the same words', () => {
      const words = ['plain', 'two words', 'say "hi"', 'C:\\dir\\file', "it's", ''];
      assert.deepEqual(splitArguments(joinArguments(words)), words);
    });
  });

  describe('find', () => {
    const treeOfSkills = (): Promise<void> =>
      writeTree(dir, {
        'pdf-forms': { 'SKILL.md': skillText('pdf-forms', 'Fill in and flatten PDF forms.') },
        'pdf-extract': { 'SKILL.md': skillText('pdf-extract', 'Extract text and tables from PDF documents.') },
        spreadsheet: { 'SKILL.md': skillText('spreadsheet', 'Create and edit Excel workbooks.') },
        hidden: { 'SKILL.md': skillText('hidden', 'Fill PDF forms for the user only.', 'Body.', 'disable-model-invocation: true\n') },
      });

    it('prints the matches best first as a table, with a count', async () => {
      await treeOfSkills();
      const run = await cli(['find', 'fill a pdf form', dir]);
      assert.equal(run.code, 0);
      assert.deepEqual(lines(run.stdout), [
        'NAME         DESCRIPTION',
        'pdf-forms    Fill in and flatten PDF forms.',
        'pdf-extract  Extract text and tables from PDF documents.',
        '2 of 3 skills match',
      ]);
      assert.equal(run.stderr, '');
    });

    it('ranks exactly as the find tool does, tolerating typos, and leaves out skills the model may not invoke', async () => {
      await treeOfSkills();
      const run = await cli(['find', '--json', 'spredsheet workbok', dir]);
      const { matches } = JSON.parse(run.stdout) as { matches: FoundSkillJson[] };
      assert.deepEqual(Object.keys(JSON.parse(run.stdout) as object), ['matches']);
      assert.deepEqual(
        matches.map((match) => Object.keys(match)),
        [['name', 'description', 'score', 'path']],
      );
      assert.equal(matches[0].name, 'spreadsheet');
      assert.equal(matches[0].path, path.join(dir, 'spreadsheet', 'SKILL.md'));
      const all = JSON.parse((await cli(['find', '--json', 'pdf', dir])).stdout) as { matches: FoundSkillJson[] };
      assert.ok(!all.matches.some((match) => match.name === 'hidden'));
      const snapshot = fakeSnapshot((await discoverSkills([{ path: dir, kind: 'env', label: dir }], { blockingReads: true })).skills);
      assert.deepEqual(
        all.matches.map((match) => match.name),
        snapshot.findSkills('pdf').map((match) => match.record.name),
      );
      assert.ok(all.matches[0].score >= all.matches[1].score);
    });

    it('gives precedence by argument order', async () => {
      const run = await cli(['find', '--json', 'pdf', USER_ROOT, WORKSPACE_ROOT]);
      const { matches } = JSON.parse(run.stdout) as { matches: FoundSkillJson[] };
      assert.deepEqual(
        matches.map((match) => [match.name, match.description]),
        [['pdf', 'Extract text from PDF files (user copy, shadowed by the workspace).']],
      );
    });

    it('honours --limit and says how many more matched', async () => {
      await treeOfSkills();
      const run = await cli(['find', '--limit', '1', 'pdf', dir]);
      assert.equal(lines(run.stdout).length, 3);
      assert.match(run.stdout, /^2 of 3 skills match; 1 more with a higher --limit/m);
      const json = JSON.parse((await cli(['find', '--json', '--limit=1', 'pdf', dir])).stdout) as { matches: FoundSkillJson[] };
      assert.equal(json.matches.length, 1);
    });

    it('says when nothing matches, and still exits 0', async () => {
      await treeOfSkills();
      const run = await cli(['find', 'kubernetes', dir]);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, 'No skill matches "kubernetes" (3 skills searched).\n');
      assert.deepEqual(JSON.parse((await cli(['find', '--json', 'kubernetes', dir])).stdout), { matches: [] });
    });

    it('needs a QUERY and a positive --limit', async () => {
      for (const argv of [['find'], ['find', '', dir], ['find', '--limit', '0', 'pdf', dir]]) {
        const run = await cli(argv);
        assert.equal(run.code, 2, argv.join(' '));
        assert.match(run.stderr, /^agent-skills: find: /);
      }
      assertOneLineError(await cli(['find', 'pdf', path.join(dir, 'missing')]), 'missing');
    });
  });

  describe('command line', () => {
    it('prints usage for --help, -h and help, and exits 0', async () => {
      for (const argv of [['--help'], ['-h'], ['help']]) {
        const run = await cli(argv);
        assert.equal(run.code, 0, argv.join(' '));
        assert.match(run.stdout, /^Usage:\n {2}agent-skills validate \[--strict\] \[--json\] \[--target ID\]… \[--context TOKENS\] \[--project DIR\] \[PATH…\]$/m);
        assert.match(run.stdout, /^ {2}mcp {8}Serve skills/m);
      }
    });

    it("prints one command's help, the same for help COMMAND and COMMAND --help, in at most 50 lines", async () => {
      const commands = /\(commands: ([^)]+)\)/.exec((await cli(['frobnicate'])).stderr)![1].split(', ');
      assert.ok(commands.length >= 15, commands.join(', '));
      for (const name of commands) {
        const help = await cli(['help', name]);
        assert.equal(help.code, 0, name);
        assert.deepEqual(await cli([name, '--help']), help, name);
        assert.ok(help.stdout.split('\n').length <= 50, `${name}: ${help.stdout.split('\n').length} lines`);
        assert.match(help.stdout, new RegExp(`^Usage:\n {2}agent-skills ${name}\\b`, 'm'), name);
        assert.match(help.stdout, new RegExp(`^ {2}${name} +\\S`, 'm'), name);
        assert.match(help.stdout, /^Exit status:/m, name);
        const others = commands.filter((other) => other !== name && new RegExp(`^ {2}${other} {2,}\\S`, 'm').test(help.stdout));
        assert.deepEqual(others, [], `${name}'s help holds the entry of ${others.join(', ')}`);
      }
      assert.match((await cli(['list', 'x', '-h'])).stdout, /^ {2}agent-skills list \[--json\]/m);
      assert.match((await cli(['help', 'find'])).stdout, /^--project DIR discovers DIR/m);
      assert.doesNotMatch((await cli(['help', 'activate'])).stdout, /^--project DIR/m);
    });

    it('refuses help for a command that does not exist, or for two', async () => {
      for (const [argv, message] of [
        [['help', 'frobnicate'], /^agent-skills: help: unknown command "frobnicate" \(commands: validate, .*\)\.$/m],
        [['help', 'list', 'find'], /^agent-skills: help: give at most one COMMAND, not 2\.$/m],
      ] as const) {
        const run = await cli([...argv]);
        assert.equal(run.code, 2, argv.join(' '));
        assert.match(run.stderr, message);
      }
    });

    it('passes --help after the skill name on to the skill', async () => {
      const run = await cli(['activate', RESOURCES_ROOT, 'report', '--help']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /ARGUMENTS: --help/);
    });

    it('prints the package version', async () => {
      const run = await cli(['--version']);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, `${version}\n`);
    });

    it('exits 2 with a pointer to --help on usage errors', async () => {
      for (const argv of [[], ['validate', '--fast', '.'], ['list', '-x', '.'], ['validate', '--json=yes', '.'], ['frobnicate']]) {
        const run = await cli(argv);
        assert.equal(run.code, 2, argv.join(' '));
        assert.equal(run.stdout, '');
        assert.match(run.stderr, /agent-skills --help/);
        assert.doesNotMatch(run.stderr, /\n\s+at /);
      }
    });

    it('reports an unexpected failure as an internal error, exit 70', async () => {
      let stderr = '';
      const io: CliIo = {
        stdout: () => {
          throw new Error('disk full');
        },
        stderr: (text) => (stderr += text),
        cwd: REPOSITORY,
      };
      assert.equal(await runCli(['validate', fixtureSkill('minimal')], io), 70);
      assert.equal(stderr, 'agent-skills: internal error: disk full\n');
    });
  });

  describe('messages and edges', () => {
    /** The usage error of a command line, without the pointer to --help. */
    async function usageError(argv: string[]): Promise<string> {
      const run = await cli(argv);
      assert.equal(run.code, 2, argv.join(' '));
      return lines(run.stderr)[0];
    }

    it('names the command in its usage errors', async () => {
      assert.equal(await usageError(['catalog', '--fast', '.']), 'agent-skills: catalog: unknown option --fast (options: --budget-chars, --verbose, --target, --context, --project).');
      assert.equal(await usageError(['list', '--fast', '.']), 'agent-skills: list: unknown option --fast (options: --json, --project).');
      assert.equal(await usageError(['validate', '--fast', '.']), 'agent-skills: validate: unknown option --fast (options: --strict, --json, --target, --context, --project).');
      assert.equal(await usageError(['catalog', '--budget-chars=0', '.']), 'agent-skills: catalog: --budget-chars must be a positive whole number, not "0".');
      assert.equal(await usageError(['find', '--limit=x', 'pdf', '.']), 'agent-skills: find: --limit must be a positive whole number, not "x".');
      assert.equal(await usageError(['find', '--fast', 'pdf', '.']), 'agent-skills: find: unknown option --fast (options: --json, --limit, --project).');
      assert.equal(await usageError(['activate', '--fast', '.', 'pdf']), 'agent-skills: activate: unknown option --fast (this command takes no options).');
      assert.equal(await usageError(['find', '  ', '.']), 'agent-skills: find: give a QUERY (what the task is about); without ROOT or --project DIR, the current folder is the project.');
      assert.equal(
        await usageError(['frobnicate']),
        'agent-skills: unknown command "frobnicate" (commands: validate, list, catalog, activate, find, eval, tune, audit, add, update, check, remove, install, publish, mcp).',
      );
    });

    it('prints the usage on stderr when no command is given, and help after any option of a command but activate', async () => {
      const none = await cli([]);
      assert.match(none.stderr, /^Usage:$/m);
      assert.equal(none.stdout, '');
      const late = await cli(['validate', 'a', 'b', '--help']);
      assert.equal(late.code, 0);
      assert.match(late.stdout, /^Usage:$/m);
    });

    it('says why a path cannot be used', async () => {
      const failure = async (argv: string[]): Promise<string> => {
        const run = await cli(argv);
        assert.equal(run.code, 1, argv.join(' '));
        return run.stderr;
      };
      assert.equal(await failure(['list', 'nowhere']), 'agent-skills: nowhere: no such file or folder.\n');
      assert.equal(await failure(['list', 'package.json/skills']), 'agent-skills: package.json/skills: a part of the path is not a folder.\n');
      const long = 'x'.repeat(300);
      assert.match(await failure(['list', long]), new RegExp(`^agent-skills: ${long}: ENAMETOOLONG: `));
      assert.equal(await failure(['validate', 'package.json']), 'agent-skills: package.json: not a skill folder, a folder of skills or a SKILL.md file.\n');
      assert.equal(await failure(['validate', '/dev/null']), 'agent-skills: /dev/null: not a folder.\n');
    });

    it('says so when the SKILL.md it was given is gone by the time it is read', async () => {
      await writeTree(dir, { one: { 'SKILL.md': skillText('one', 'A skill.') } });
      const file = path.join(dir, 'one', 'SKILL.md');
      const promises = nodeFs.promises as unknown as { stat: (file: string) => Promise<unknown> };
      const { stat } = promises;
      promises.stat = async (checked: string) => {
        const found = await stat(checked);
        await fs.rm(file);
        return found;
      };
      try {
        const run = await cli(['validate', file]);
        assert.equal(run.code, 1);
        assert.equal(run.stderr, `agent-skills: ${file}: the one folder no longer holds a SKILL.md.\n`);
      } finally {
        promises.stat = stat;
      }
    });

    it('says a path it may not read is denied', async () => {
      const promises = nodeFs.promises as unknown as { stat: (file: string) => Promise<unknown> };
      const { stat } = promises;
      try {
        for (const code of ['EACCES', 'EPERM']) {
          promises.stat = () => Promise.reject(Object.assign(new Error(`${code}: operation refused`), { code }));
          const run = await cli(['list', 'locked']);
          assert.equal(run.code, 1, code);
          assert.equal(run.stderr, 'agent-skills: locked: permission denied.\n', code);
        }
      } finally {
        promises.stat = stat;
      }
    });

    it('checks the body of each skill it validates, and reads trigger tests with blocking calls', async () => {
      await writeTree(dir, {
        linked: { 'SKILL.md': skillText('linked', 'Links.', 'See [the guide](references/gone.md).'), evals: { 'triggers.json': '[{ "query": "a", "should_trigger": true }]' } },
      });
      const promises = nodeFs.promises as unknown as { readFile: (...args: unknown[]) => Promise<unknown> };
      const { readFile } = promises;
      let asynchronousReads = 0;
      promises.readFile = (...args: unknown[]) => {
        asynchronousReads++;
        return readFile(...args);
      };
      try {
        for (const target of [dir, path.join(dir, 'linked')]) {
          const run = await cli(['validate', '--json', target]);
          const [skill] = parseValidateJson(run);
          assert.deepEqual(
            skill.diagnostics.map((diagnostic) => diagnostic.code),
            ['missing-link'],
            target,
          );
          assert.equal(skill.triggerTests?.path, path.join(dir, 'linked', 'evals', 'triggers.json'));
        }
        assert.equal(asynchronousReads, 0);
      } finally {
        promises.readFile = readFile;
      }
    });

    it('names the working folder itself by its full path', async () => {
      const run = await cli(['validate', '.'], { cwd: dir });
      assert.equal(run.code, 1);
      assert.ok(run.stdout.startsWith(`${dir}: error: `), run.stdout);
    });

    it('says "matches" for a single match', async () => {
      await writeTree(dir, { one: { 'SKILL.md': skillText('one', 'Only one.') }, other: { 'SKILL.md': skillText('other', 'Something else.') } });
      const run = await cli(['find', 'one', dir]);
      assert.equal(lines(run.stdout).at(-1), '1 of 2 skills matches');
    });

    it('counts notes in the validation summary', async () => {
      await writeTree(dir, { one: { 'SKILL.md': skillText('one', 'A skill.') } });
      await fs.symlink(path.join(dir, 'one'), path.join(dir, 'again'));
      const run = await cli(['validate', dir], { cwd: dir });
      assert.equal(run.code, 0);
      assert.match(run.stdout, /: note: .* \[duplicate-skill-folder\]$/m);
      assert.equal(lines(run.stdout).at(-1), '1 skill checked: 0 errors, 0 warnings, 1 note');
    });

    it('lists by name only and not at all on stderr with --verbose, each part only when it has names', async () => {
      await writeTree(dir, Object.fromEntries(['alpha', 'beta', 'gamma'].map((name) => [name, { 'SKILL.md': skillText(name, `The ${name} skill.`) }])));
      const budget = async (chars: number): Promise<string> => lines((await cli(['catalog', '--verbose', '--budget-chars', String(chars), dir])).stderr)[0];
      const nothing = await budget(1);
      assert.match(nothing, /^agent-skills: .*\. Not listed: alpha, beta, gamma\.$/);
      assert.doesNotMatch(nothing, /By name only/);
      const partly = await budget(200);
      assert.match(partly, /\. By name only: alpha, beta, gamma\.$/);
      assert.doesNotMatch(partly, /Not listed/);
    });

    it('reads the skills with blocking calls', async () => {
      await writeTree(dir, { one: { 'SKILL.md': skillText('one', 'A skill.') } });
      const patched = nodeFs as unknown as Record<'read', (...args: unknown[]) => void>;
      const { read } = patched;
      let asynchronousReads = 0;
      patched.read = (...args: unknown[]) => {
        asynchronousReads++;
        read(...args);
      };
      try {
        for (const argv of [
          ['list', dir],
          ['catalog', dir],
          ['find', 'skill', dir],
          ['validate', dir],
          ['validate', path.join(dir, 'one')],
        ]) {
          assert.equal((await cli(argv)).code, 0, argv.join(' '));
          assert.equal(asynchronousReads, 0, argv.join(' '));
        }
      } finally {
        patched.read = read;
      }
    });
  });

  describe('built bundle', function () {
    this.timeout(60_000);
    const execNode = promisify(execFile);

    async function runBundle(args: string[]): Promise<CliRun> {
      try {
        const { stdout, stderr } = await execNode(process.execPath, [BUNDLE, ...args], { cwd: REPOSITORY });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout: string; stderr: string };
        if (typeof failed.code !== 'number') {
          throw error;
        }
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
      }
    }

    before(async () => {
      await ensureBundle();
    });

    it('is an executable script that validates with the right exit codes', async () => {
      assert.match(await fs.readFile(BUNDLE, 'utf8'), /^#!\/usr\/bin\/env node\n/);
      const valid = await runBundle(['validate', '--json', fixtureSkill('minimal')]);
      assert.equal(valid.code, 0);
      assert.equal(parseValidateJson(valid)[0].valid, true);
      const broken = await runBundle(['validate', relativeToRepository(fixtureSkill('bad-yaml'))]);
      assert.equal(broken.code, 1);
      assert.match(broken.stdout, /bad-yaml\/SKILL\.md:4:13: error: .*\[yaml-syntax\]/);
    });

    it('fails on bad input and bad usage without a stack trace', async () => {
      const missing = await runBundle(['list', 'no-such-root']);
      assert.equal(missing.code, 1);
      assertOneLineError(missing, 'no-such-root');
      const usage = await runBundle(['catalog', '--budget', '5']);
      assert.equal(usage.code, 2);
      assert.doesNotMatch(usage.stderr, /\n\s+at /);
    });

    it("reports bad input to the commands that install and audit skills as the user's mistake, not an internal error", async () => {
      const missing = await runBundle(['audit', 'no-such-folder']);
      assert.equal(missing.code, 1);
      assertOneLineError(missing, 'no-such-folder');
      assert.doesNotMatch(missing.stderr, /internal error/);
      const usage = await runBundle(['add']);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /give exactly one SOURCE/);
    });

    it('runs the commands bundled apart (dist/cli-rare-commands.js) with the errors of dist/cli.js', async () => {
      const usage = await runBundle(['eval', '--model', 'm']);
      assert.equal(usage.code, 2, usage.stderr);
      assert.match(usage.stderr, /^agent-skills: eval: give --endpoint URL .*\nRun "agent-skills --help" for usage\.\n$/);
      const missing = await runBundle(['tune', 'some-skill', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', 'no-such-root']);
      assert.equal(missing.code, 1, missing.stderr);
      assertOneLineError(missing, 'no-such-root');
      const audited = await runBundle(['audit', '--json', fixtureSkill('minimal')]);
      assert.equal(audited.code, 0, audited.stderr);
      assert.deepEqual(
        (JSON.parse(audited.stdout) as { skills: Array<{ verdict: string }> }).skills.map(({ verdict }) => verdict),
        ['clean'],
      );
    });

    it('runs mcp from a bundle of its own (dist/cli-mcp-command.js), which the other commands never parse', async () => {
      const serverLog = /serving skills from/;
      assert.doesNotMatch(await fs.readFile(BUNDLE, 'utf8'), serverLog);
      assert.match(await fs.readFile(path.join(path.dirname(BUNDLE), 'cli-mcp-command.js'), 'utf8'), serverLog);
      // Its usage error is dist/cli.js's class: exit 2 and the usage hint, not an internal error.
      const usage = await runBundle(['mcp', '--http', '0.0.0.0:1']);
      assert.equal(usage.code, 2, usage.stderr);
      assert.match(usage.stderr, /^agent-skills: mcp: --http 0\.0\.0\.0:1 would serve skills beyond this machine without a token\. .*\nRun "agent-skills --help" for usage\.\n$/);
      const help = await runBundle(['mcp', '--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /--max-sessions N .*\(default 500\)/s);
    });

    it("bundles no JSON Schema validator with mcp's libraries, which only an elicitation would call", async () => {
      const libraries = await fs.readFile(path.join(path.dirname(BUNDLE), 'cli-mcp-libraries.js'), 'utf8');
      // Not the SDK's own validator (@cfworker/json-schema's), which took Ajv's place: the server elicits nothing.
      assert.doesNotMatch(libraries, /github\.com\/cfworker/);
      assert.match(libraries, /Validating against a JSON Schema is not part of this bundle/);
    });
  });
});
