import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describeTransport, parseServerSettings, serverCacheFolder, serverRoot, serverTokenKey } from '../../../../src/core/servers/server-config';
import { buildSkillRoots } from '../../../../src/core/discovery/roots';

describe('skill server settings', () => {
  it("reads stdio and HTTP servers, the user's first, and says which entries are ignored and why", () => {
    const settings = parseServerSettings(
      [{ name: 'team', url: 'http://127.0.0.1:8080/mcp' }, { name: 'local', command: 'node', args: ['cli.js', 'mcp'] }, { url: 'http://x/mcp' }],
      [
        { name: 'team', url: 'http://evil.example/mcp' },
        { name: 'both', url: 'http://a/mcp', command: 'x' },
        { name: 'ftp', url: 'ftp://a/mcp' },
        { name: 'args', command: 'x', args: [1] },
        { name: 'repo', command: 'npx' },
      ],
    );
    assert.deepEqual(settings.servers, [
      { name: 'team', transport: { kind: 'http', url: 'http://127.0.0.1:8080/mcp' }, skills: [], scope: 'user' },
      { name: 'local', transport: { kind: 'stdio', command: 'node', args: ['cli.js', 'mcp'] }, skills: [], scope: 'user' },
      { name: 'repo', transport: { kind: 'stdio', command: 'npx', args: [] }, skills: [], scope: 'workspace' },
    ]);
    assert.deepEqual(settings.problems, [
      'agentSkills.servers in the user settings, entry 3: needs a "name"; it is ignored.',
      'agentSkills.servers in the workspace settings, entry 1: another server is already named "team"; this one is ignored.',
      'agentSkills.servers in the workspace settings, entry 2 ("both"): give either "url" (Streamable HTTP) or "command" (stdio), not both or neither; it is ignored.',
      'agentSkills.servers in the workspace settings, entry 3 ("ftp"): "url" must be an http:// or https:// address, such as http://127.0.0.1:8080/mcp; it is ignored.',
      'agentSkills.servers in the workspace settings, entry 4 ("args"): "args" must be a list of strings; it is ignored.',
    ]);
    assert.deepEqual(parseServerSettings({ name: 'x' }, undefined).problems, ['agentSkills.servers in the user settings is not a list of servers; it is ignored.']);
  });

  it('gives each server its own cache folder, which changes when its address does', () => {
    const [team] = parseServerSettings([{ name: 'Team.skills_1', url: 'http://127.0.0.1:8080/mcp' }], undefined).servers;
    const folder = serverCacheFolder('/cache', team);
    assert.match(folder, /^\/cache\/Team-skills_1-[0-9a-f]{12}$/);
    assert.notEqual(serverCacheFolder('/cache', { ...team, transport: { kind: 'http', url: 'http://127.0.0.1:9090/mcp' } }), folder);
    assert.equal(serverTokenKey('http://127.0.0.1:8080/mcp'), 'agentSkills.serverToken:http://127.0.0.1:8080/mcp');
  });

  it('labels a server root by name, and says when it is offline or ignored', () => {
    const [team] = parseServerSettings([{ name: 'team', url: 'http://127.0.0.1:8080/mcp' }], undefined).servers;
    assert.deepEqual(serverRoot('/cache', team), { path: serverCacheFolder('/cache', team), kind: 'server', label: 'team', server: 'team' });
    const offline = serverRoot('/cache', team, { offline: 'connection refused' });
    assert.equal(offline.label, 'team (offline, cached)');
    assert.equal(offline.notice?.message, 'Skill server "team" cannot be reached: connection refused. Skills it listed before stay available from the cache.');
    assert.equal(
      serverRoot('/cache', team, { offline: 'HTTP 401: Unauthorized.' }).notice?.message,
      'Skill server "team" cannot be reached: HTTP 401: Unauthorized. Skills it listed before stay available from the cache.',
    );
    const ignored = serverRoot('/cache', team, { ignored: true });
    assert.equal(ignored.untrusted, true);
    assert.match(ignored.notice!.message, /named in this workspace's settings, so it is not started in Restricted Mode/);
  });

  it("places servers after the user's skills and AGENT_SKILLS_PATH, before the built-in skills", () => {
    const [team] = parseServerSettings([{ name: 'team', url: 'http://127.0.0.1:8080/mcp' }], undefined).servers;
    const roots = buildSkillRoots({
      workspaceFolders: [{ name: 'app', path: '/app' }],
      homeDir: '/home/me',
      skillsPath: '/extra',
      builtinDir: '/ext/skills',
      serverRoots: [serverRoot('/cache', team)],
    });
    assert.deepEqual(
      roots.map((root) => [root.kind, root.label]),
      [
        ['workspace', 'app'],
        ['user', 'User'],
        ['env', 'AGENT_SKILLS_PATH'],
        ['server', 'team'],
        ['builtin', 'Built-in'],
      ],
    );
    assert.equal(roots[3].path, path.join('/cache', path.basename(serverCacheFolder('/cache', team))));
  });

  it('checks each field of an entry, trims names and commands, and names what is wrong', () => {
    const settings = parseServerSettings(
      [
        null,
        ['team'],
        'team',
        { name: '   ' },
        { name: ' team ', url: 'https://skills.example/mcp' },
        { name: 'bad-url', url: 'not a url' },
        { name: 'number-url', url: 3 },
        { name: 'list-url', url: ['http://127.0.0.1:8080/mcp'] },
        { name: 'blank', command: '   ' },
        { name: 'number', command: 3 },
        { name: 'mixed', command: 'x', args: [1, 'a'] },
        { name: 'text-args', command: 'x', args: 'a b' },
        { name: 'tool', command: ' node ', args: ['cli.js'] },
      ],
      undefined,
    );
    assert.deepEqual(settings.servers, [
      { name: 'team', transport: { kind: 'http', url: 'https://skills.example/mcp' }, skills: [], scope: 'user' },
      { name: 'tool', transport: { kind: 'stdio', command: 'node', args: ['cli.js'] }, skills: [], scope: 'user' },
    ]);
    const where = 'agentSkills.servers in the user settings';
    assert.deepEqual(settings.problems, [
      `${where}, entry 1: needs a "name"; it is ignored.`,
      `${where}, entry 2: needs a "name"; it is ignored.`,
      `${where}, entry 3: needs a "name"; it is ignored.`,
      `${where}, entry 4: needs a "name"; it is ignored.`,
      `${where}, entry 6 ("bad-url"): "url" must be an http:// or https:// address, such as http://127.0.0.1:8080/mcp; it is ignored.`,
      `${where}, entry 7 ("number-url"): "url" must be an http:// or https:// address, such as http://127.0.0.1:8080/mcp; it is ignored.`,
      `${where}, entry 8 ("list-url"): "url" must be an http:// or https:// address, such as http://127.0.0.1:8080/mcp; it is ignored.`,
      `${where}, entry 9 ("blank"): "command" must be the program to start; it is ignored.`,
      `${where}, entry 10 ("number"): "command" must be the program to start; it is ignored.`,
      `${where}, entry 11 ("mixed"): "args" must be a list of strings; it is ignored.`,
      `${where}, entry 12 ("text-args"): "args" must be a list of strings; it is ignored.`,
    ]);
  });

  it("takes as a server's name only what can go in front of its skills' names, and skill URIs to fetch besides its listing", () => {
    const settings = parseServerSettings(
      [
        { name: 'My Team', url: 'http://a/mcp' },
        { name: 'team/a', url: 'http://a/mcp' },
        { name: '-team', url: 'http://a/mcp' },
        { name: 'x'.repeat(65), url: 'http://a/mcp' },
        { name: 'Team.b_2-c', url: 'http://a/mcp', skills: ['skill://acme/unlisted/SKILL.md', ' github://o/r/x/SKILL.md ', 'skill://acme/unlisted/SKILL.md'] },
        { name: 'uris', url: 'http://a/mcp', skills: ['skill://acme/unlisted'] },
        { name: 'uri', url: 'http://a/mcp', skills: 'skill://acme/unlisted/SKILL.md' },
      ],
      undefined,
    );
    assert.deepEqual(settings.servers, [
      { name: 'Team.b_2-c', transport: { kind: 'http', url: 'http://a/mcp' }, skills: ['skill://acme/unlisted/SKILL.md', 'github://o/r/x/SKILL.md'], scope: 'user' },
    ]);
    const nameRule = `"name" must be at most 64 letters, digits, ".", "_" or "-", starting with a letter or digit: it goes in front of its skills' names, as in "team/beta"; it is ignored.`;
    const skillsRule = '"skills" must be a list of skill URIs, each that of a SKILL.md, such as skill://acme/refunds/SKILL.md; it is ignored.';
    const where = 'agentSkills.servers in the user settings';
    assert.deepEqual(settings.problems, [
      `${where}, entry 1 ("My Team"): ${nameRule}`,
      `${where}, entry 2 ("team/a"): ${nameRule}`,
      `${where}, entry 3 ("-team"): ${nameRule}`,
      `${where}, entry 4 ("${'x'.repeat(65)}"): ${nameRule}`,
      `${where}, entry 6 ("uris"): ${skillsRule}`,
      `${where}, entry 7 ("uri"): ${skillsRule}`,
    ]);
  });

  it('tells where a server is, and keeps the cache of a stdio server by its command line', () => {
    assert.equal(describeTransport({ kind: 'http', url: 'http://127.0.0.1:8080/mcp' }), 'http://127.0.0.1:8080/mcp');
    assert.equal(describeTransport({ kind: 'stdio', command: 'node', args: ['cli.js', 'mcp'] }), 'node cli.js mcp');
    const stdio = { name: 'local', transport: { kind: 'stdio', command: 'node', args: ['a.js'] }, skills: [], scope: 'user' } as const;
    const folder = serverCacheFolder('/cache', stdio);
    assert.notEqual(serverCacheFolder('/cache', { ...stdio, transport: { ...stdio.transport, args: ['b.js'] } }), folder);
    assert.notEqual(serverCacheFolder('/cache', { ...stdio, transport: { ...stdio.transport, command: 'nodejs' } }), folder);
    assert.match(serverCacheFolder('/cache', { ...stdio, name: `a  b${'x'.repeat(60)}` }), new RegExp(`^/cache/a-b${'x'.repeat(37)}-[0-9a-f]{12}$`));
  });

  it('gives the root of an ignored or offline server its notice, a warning, ending each reason with one full stop', () => {
    const [team] = parseServerSettings([{ name: 'team', url: 'http://127.0.0.1:8080/mcp' }], undefined).servers;
    assert.deepEqual(serverRoot('/cache', team, { ignored: true }).notice, {
      code: 'server-ignored',
      severity: 'warning',
      message: 'Skill server "team" is named in this workspace\'s settings, so it is not started in Restricted Mode. Trust the workspace to use it.',
    });
    assert.deepEqual(serverRoot('/cache', team, { offline: 'connect ECONNREFUSED 127.0.0.1:8080' }).notice, {
      code: 'server-offline',
      severity: 'warning',
      message: 'Skill server "team" cannot be reached: connect ECONNREFUSED 127.0.0.1:8080. Skills it listed before stay available from the cache.',
    });
  });
});
