// Secrets kept out of what is shown or written: an API key wherever an answer echoes it, the
// user information of URLs in a text.

import * as assert from 'node:assert/strict';
import { hideCredentials, redactSecrets, withoutCredentials } from '../../../../src/core/util/redact';

describe('redacting secrets', () => {
  it('takes a secret out as written, JSON-escaped or percent-encoded, the longer of two first, ignoring empty ones', () => {
    assert.equal(redactSecrets('key sk-1"/x, "sk-1\\"/x", sk-1%22%2Fx and sk-1"/x-more', ['sk-1"/x']), 'key ***, "***", *** and ***-more');
    assert.equal(redactSecrets('abc and abcdef', ['abc', 'abcdef']), '*** and ***');
    assert.equal(redactSecrets('nothing', ['', undefined]), 'nothing');
  });

  it('takes the user information out of every URL of a text, keeping the account of an ssh URL', () => {
    assert.equal(withoutCredentials('https://alice:p@ss@host/r.git'), 'https://host/r.git');
    assert.equal(
      withoutCredentials("fatal: unable to access 'http://TOKEN@host:8/r/': refused; see https://user:pw@other/x"),
      "fatal: unable to access 'http://host:8/r/': refused; see https://other/x",
    );
    assert.equal(withoutCredentials('ssh://git:pw@host/r'), 'ssh://git@host/r');
    assert.equal(withoutCredentials('git@host:team/r.git'), 'git@host:team/r.git');
    assert.equal(withoutCredentials('https://host/a@b'), 'https://host/a@b');
    assert.equal(hideCredentials('pw=s3cr%21t or s3cr!t, user alice at http://alice:s3cr%21t@host/', 'http://alice:s3cr%21t@host/r'), 'pw=*** or ***, user alice at http://host/');
    assert.equal(hideCredentials('token TOKEN9 at http://TOKEN9@host/', 'http://TOKEN9@host/r'), 'token *** at http://host/');
    assert.equal(hideCredentials('nothing to hide', 'https://host/r'), 'nothing to hide');
  });
});
