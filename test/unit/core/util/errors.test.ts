import * as assert from 'node:assert/strict';
import { errorCode, errorDetail, errorMessage, unlessMissing } from '../../../../src/core/util/errors';

describe('errorCode, errorMessage and errorDetail', () => {
  it('read the code of a file-system error, and nothing of a missing one', () => {
    assert.equal(errorCode(Object.assign(new Error('gone'), { code: 'ENOENT' })), 'ENOENT');
    assert.equal(errorCode(new Error('plain')), undefined);
    assert.equal(errorCode(undefined), undefined);
    assert.equal(errorCode(null), undefined);
  });

  it('give the message of an Error and the text of anything else thrown', () => {
    assert.equal(errorMessage(new Error('broken')), 'broken');
    assert.equal(errorMessage('just text'), 'just text');
    assert.equal(errorMessage(42), '42');
  });

  it('give the stack of an Error for logs, else its message, else the thrown value as text', () => {
    const withStack = new Error('broken');
    assert.equal(errorDetail(withStack), withStack.stack);
    assert.match(errorDetail(withStack), /^Error: broken\n\s+at /);
    const withoutStack = Object.assign(new Error('no stack'), { stack: undefined });
    assert.equal(errorDetail(withoutStack), 'no stack');
    assert.equal(errorDetail('just text'), 'just text');
  });

  it('give what a file operation gives, nothing when the file is missing, and throw any other failure', async () => {
    assert.equal(await unlessMissing(Promise.resolve('text')), 'text');
    assert.equal(await unlessMissing(Promise.reject(Object.assign(new Error('gone'), { code: 'ENOENT' }))), undefined);
    const denied = Object.assign(new Error('denied'), { code: 'EACCES' });
    await assert.rejects(unlessMissing(Promise.reject(denied)), (error) => error === denied);
  });
});
