// What `mcp --http` reads from its command line: the address, the token, the host names allowed.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { allowedHostnames, isLoopbackHost, parseListenAddress, readBearerToken, requireTokenBeyondLoopback } from '../../../../src/cli/mcp/http-options';
import { InputError, UsageError } from '../../../../src/cli/io';
import { removeDir, tempDir } from '../../../fixtures/trees/tree';

describe('mcp --http options', () => {
  it('reads PORT, HOST:PORT and [IPV6]:PORT, with 127.0.0.1 when no host is given', () => {
    assert.deepEqual(parseListenAddress('8080'), { host: '127.0.0.1', port: 8080 });
    assert.deepEqual(parseListenAddress('0.0.0.0:80'), { host: '0.0.0.0', port: 80 });
    assert.deepEqual(parseListenAddress('skills.internal:0'), { host: 'skills.internal', port: 0 });
    assert.deepEqual(parseListenAddress('[::1]:65535'), { host: '::1', port: 65535 });
  });

  it('refuses an address without a port, a port out of range and a bare IPv6 address', () => {
    for (const value of ['', 'localhost', 'localhost:', '65536', 'host:port', ':8080', '[::1]']) {
      assert.throws(() => parseListenAddress(value), UsageError, value);
    }
    assert.throws(() => parseListenAddress('::1:8080'), /put an IPv6 address in brackets/);
  });

  it('takes the address whole, spaces around it aside, and hints at brackets only when it has several colons', () => {
    assert.deepEqual(parseListenAddress(' 127.0.0.1:8080 '), { host: '127.0.0.1', port: 8080 });
    for (const value of ['8080x', '127.0.0.1:80abc']) {
      assert.throws(() => parseListenAddress(value), { message: `mcp: --http takes [HOST:]PORT with a port from 0 to 65535, not "${value}".` });
    }
    assert.throws(() => parseListenAddress('host:port'), { message: 'mcp: --http takes [HOST:]PORT with a port from 0 to 65535, not "host:port".' });
    assert.throws(() => parseListenAddress('a:b:80x'), {
      message: 'mcp: --http takes [HOST:]PORT with a port from 0 to 65535, not "a:b:80x" (put an IPv6 address in brackets: [::1]:8080).',
    });
  });

  it('counts 127.0.0.1, ::1 and localhost as this machine only', () => {
    assert.deepEqual(['127.0.0.1', '::1', 'localhost', 'LOCALHOST', '0.0.0.0', '::', '10.0.0.5', 'skills.example.com'].map(isLoopbackHost), [true, true, true, true, false, false, false, false]);
  });

  it('refuses an address beyond this machine without a token, and accepts it with one', () => {
    const token = { value: 'x'.repeat(32), origin: 'AGENT_SKILLS_MCP_TOKEN' };
    assert.throws(() => requireTokenBeyondLoopback({ host: '0.0.0.0', port: 8080 }, undefined), /0\.0\.0\.0:8080 would serve skills beyond this machine without a token/);
    assert.throws(() => requireTokenBeyondLoopback({ host: '::', port: 8080 }, undefined), /\[::\]:8080/);
    assert.doesNotThrow(() => requireTokenBeyondLoopback({ host: '0.0.0.0', port: 8080 }, token));
    assert.doesNotThrow(() => requireTokenBeyondLoopback({ host: '::1', port: 8080 }, undefined));
  });

  it('refuses a token shorter than 32 characters beyond this machine, naming where it was read, and takes any on loopback', () => {
    const short = (length: number, origin = '/etc/agent-skills/token'): { value: string; origin: string } => ({ value: 'a'.repeat(length), origin });
    for (const host of ['0.0.0.0', '10.0.0.5', 'skills.example.com']) {
      assert.throws(
        () => requireTokenBeyondLoopback({ host, port: 8080 }, short(1)),
        (error: Error) =>
          error instanceof InputError && error.message.startsWith('mcp: /etc/agent-skills/token: the token has 1 character; serving beyond this machine') && /at least 32/.test(error.message),
      );
    }
    assert.throws(() => requireTokenBeyondLoopback({ host: '0.0.0.0', port: 8080 }, short(31, 'AGENT_SKILLS_MCP_TOKEN')), /^Error: mcp: AGENT_SKILLS_MCP_TOKEN: the token has 31 characters;/);
    assert.doesNotThrow(() => requireTokenBeyondLoopback({ host: '0.0.0.0', port: 8080 }, short(32)));
    for (const host of ['127.0.0.1', '::1', 'localhost']) {
      assert.doesNotThrow(() => requireTokenBeyondLoopback({ host, port: 8080 }, short(1)));
    }
  });

  it('allows the loopback names, the bound host unless it is a wildcard, and the names given', () => {
    assert.deepEqual(allowedHostnames({ host: '127.0.0.1', port: 1 }, []), ['localhost', '127.0.0.1', '[::1]']);
    assert.deepEqual(allowedHostnames({ host: 'Skills.Internal', port: 1 }, ['skills.example.com', '2001:db8::1']), [
      'localhost',
      '127.0.0.1',
      '[::1]',
      'skills.internal',
      'skills.example.com',
      '[2001:db8::1]',
    ]);
    assert.deepEqual(allowedHostnames({ host: '0.0.0.0', port: 1 }, ['[::1]']), ['localhost', '127.0.0.1', '[::1]']);
    assert.deepEqual(allowedHostnames({ host: '::', port: 1 }, []), ['localhost', '127.0.0.1', '[::1]']);
  });

  describe('the bearer token', () => {
    let dir: string;
    before(async () => {
      dir = await tempDir();
    });
    after(async () => {
      await removeDir(dir);
    });

    it('takes the first line of --token-file over AGENT_SKILLS_MCP_TOKEN', async () => {
      const file = path.join(dir, 'token');
      await fs.writeFile(file, '  from-file  \r\nsecond line\n');
      assert.deepEqual(await readBearerToken(file, { AGENT_SKILLS_MCP_TOKEN: 'from-env' }), { value: 'from-file', origin: file });
      assert.deepEqual(await readBearerToken(undefined, { AGENT_SKILLS_MCP_TOKEN: ' from-env\n' }), { value: 'from-env', origin: 'AGENT_SKILLS_MCP_TOKEN' });
      assert.equal(await readBearerToken(undefined, { AGENT_SKILLS_MCP_TOKEN: '  ' }), undefined);
      assert.equal(await readBearerToken(undefined, {}), undefined);
    });

    it('refuses a token file it cannot read, an empty one, and a token an HTTP header cannot carry', async () => {
      await assert.rejects(readBearerToken(path.join(dir, 'missing'), {}), (error: Error) => error instanceof InputError && /cannot read the token file .*missing/.test(error.message));
      const empty = path.join(dir, 'empty');
      await fs.writeFile(empty, '\nsecret on the second line\n');
      await assert.rejects(readBearerToken(empty, {}), /empty: the token is empty/);
      await assert.rejects(readBearerToken(undefined, { AGENT_SKILLS_MCP_TOKEN: 'two words' }), /AGENT_SKILLS_MCP_TOKEN: the token holds spaces/);
      await assert.rejects(readBearerToken(undefined, { AGENT_SKILLS_MCP_TOKEN: 'café' }), /printable ASCII/);
    });
  });
});
