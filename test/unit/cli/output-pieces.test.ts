// Long command-line output is written in pieces (outputPieces): together they are the text, each
// is at most the piece length, and none ends between the two halves of a character.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { OUTPUT_PIECE_LENGTH, outputPieces } from '../../../src/cli/io';
import { BUNDLE, ensureBundle } from './bundle';
import { removeDir, skillText, tempDir, writeTree } from '../../fixtures/trees/tree';

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

describe('agent-skills output in pieces', () => {
  it('cuts text into pieces that join to it, never between the halves of a character', () => {
    const alphabet = ['a', ' ', '\n', 'é', '日', '😀', '𝔸'];
    let state = 11;
    const next = (bound: number): number => ((state = (state * 1103515245 + 12345) % 2147483648), state % bound);
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]).join('');
      const length = 2 + next(6);
      const pieces = outputPieces(text, length);
      assert.equal(pieces.join(''), text);
      for (const piece of pieces) {
        assert.ok(piece.length > 0 && piece.length <= length, JSON.stringify({ text, length, piece }));
        assert.ok(!isHighSurrogate(piece.charCodeAt(piece.length - 1)), JSON.stringify({ text, length, piece }));
      }
    }
    assert.deepEqual(outputPieces(''), []);
    assert.deepEqual(outputPieces('ab😀', 3), ['ab', '😀']);
  });

  it('writes megabytes of JSON whole and well encoded through the process', async function () {
    this.timeout(60000);
    await ensureBundle();
    const dir = await tempDir();
    try {
      // Names and descriptions outside ASCII, enough skills for several pieces.
      const description = `Fills in 😀 forms of the café ${'and its many fields '.repeat(40)}`;
      await writeTree(dir, Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`form-${index}`, { 'SKILL.md': skillText(`form-${index}`, description) }])));
      const { stdout } = await promisify(execFile)(process.execPath, [BUNDLE, 'list', '--json', dir], { maxBuffer: 64 * 1024 * 1024 });
      assert.ok(stdout.length > 2 * OUTPUT_PIECE_LENGTH, `only ${stdout.length} characters`);
      const listed = JSON.parse(stdout) as { skills: Array<{ description: string }> };
      assert.equal(listed.skills.length, 200);
      assert.ok(listed.skills.every((skill) => skill.description === description.trim()));
      assert.ok(!stdout.includes('\ufffd'));
    } finally {
      await removeDir(dir);
    }
  });
});
