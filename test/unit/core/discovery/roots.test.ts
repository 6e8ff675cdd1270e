import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildSkillRoots, parseSkillsPath } from '../../../../src/core/discovery/roots';

describe('buildSkillRoots', () => {
  const home = path.resolve('/home/dev');

  it('orders workspace folders × locations, user, AGENT_SKILLS_PATH, skill servers, then built-in', () => {
    const roots = buildSkillRoots({
      workspaceFolders: [
        { name: 'app', path: path.resolve('/repo/app') },
        { name: 'lib', path: path.resolve('/repo/lib') },
      ],
      locations: ['.agent/skills', '.github/skills'],
      homeDir: home,
      skillsPath: [path.resolve('/opt/skills'), path.resolve('/srv/skills')].join(path.delimiter),
      serverRoots: [{ path: path.resolve('/cache/team'), kind: 'server', label: 'team', server: 'team' }],
      builtinDir: path.resolve('/ext/skills'),
    });
    assert.deepEqual(
      roots.map((root) => [root.kind, root.label, root.path]),
      [
        ['workspace', 'app · .agent/skills', path.resolve('/repo/app/.agent/skills')],
        ['workspace', 'app · .github/skills', path.resolve('/repo/app/.github/skills')],
        ['workspace', 'lib · .agent/skills', path.resolve('/repo/lib/.agent/skills')],
        ['workspace', 'lib · .github/skills', path.resolve('/repo/lib/.github/skills')],
        ['user', 'User', path.join(home, '.agent', 'skills')],
        ['env', 'AGENT_SKILLS_PATH', path.resolve('/opt/skills')],
        ['env', 'AGENT_SKILLS_PATH', path.resolve('/srv/skills')],
        ['server', 'team', path.resolve('/cache/team')],
        ['builtin', 'Built-in', path.resolve('/ext/skills')],
      ],
    );
    assert.ok(roots.every((root) => !root.untrusted));
  });

  it('uses the default location and labels roots by folder name', () => {
    const roots = buildSkillRoots({ workspaceFolders: [{ name: 'app', path: path.resolve('/repo/app') }] });
    assert.deepEqual(roots, [{ path: path.resolve('/repo/app/.agent/skills'), kind: 'workspace', label: 'app', folder: 'app', location: '.agent/skills' }]);
  });

  it('marks only workspace roots untrusted in an untrusted workspace', () => {
    const roots = buildSkillRoots({
      workspaceFolders: [{ name: 'app', path: path.resolve('/repo/app') }],
      workspaceTrusted: false,
      homeDir: home,
      builtinDir: path.resolve('/ext/skills'),
    });
    assert.deepEqual(
      roots.map((root) => `${root.kind}:${root.untrusted === true}`),
      ['workspace:true', 'user:false', 'builtin:false'],
    );
  });

  it('skips blank locations', () => {
    const roots = buildSkillRoots({ workspaceFolders: [{ name: 'app', path: path.resolve('/repo/app') }], locations: ['', '  ', '.agent/skills'] });
    assert.deepEqual(
      roots.map((root) => root.path),
      [path.resolve('/repo/app/.agent/skills')],
    );
  });

  it('honours the user and built-in switches', () => {
    const roots = buildSkillRoots({ workspaceFolders: [], homeDir: home, userSkills: false, builtinDir: path.resolve('/ext'), builtinSkills: false });
    assert.deepEqual(roots, []);
  });

  it('keeps the first of two roots with the same folder', () => {
    const roots = buildSkillRoots({
      workspaceFolders: [{ name: 'home', path: home }],
      homeDir: home,
      skillsPath: path.join(home, '.agent', 'skills'),
    });
    assert.deepEqual(
      roots.map((root) => root.kind),
      ['workspace'],
    );
  });
});

describe('parseSkillsPath', () => {
  it('splits on the delimiter, expands ~ and sets aside relative entries', () => {
    const home = path.resolve('/home/dev');
    const entries = parseSkillsPath(` ~/skills ;; relative/skills;${path.resolve('/abs')} `, ';', home);
    assert.deepEqual(entries.paths, [path.join(home, 'skills'), path.resolve('/abs')]);
    assert.deepEqual(entries.ignored, ['relative/skills']);
  });

  it('expands a lone ~ and ~ followed by either separator', () => {
    const home = path.resolve('/home/dev');
    assert.deepEqual(parseSkillsPath('~;~\\skills', ';', home).paths, [home, path.join(home, '\\skills')]);
  });

  it('returns nothing for an unset variable', () => {
    assert.deepEqual(parseSkillsPath(undefined), { paths: [], ignored: [] });
  });
});
