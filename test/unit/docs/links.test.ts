import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { brokenLinks, documentationPages, headingAnchors, headingSlug } from './markdown-links';

const REPOSITORY = path.join(__dirname, '..', '..', '..');
const FIXTURE = path.join(REPOSITORY, 'test', 'fixtures', 'docs-links');

describe('links in the README and docs/', () => {
  it('lead to files that exist and to anchors their headings produce', () => {
    const broken = brokenLinks(documentationPages(REPOSITORY));
    assert.deepEqual(
      broken.map(({ file, line, target, problem }) => `${path.relative(REPOSITORY, file)}:${line}: ${target}: ${problem}`),
      [],
    );
  });

  it('are caught when a file or an anchor is missing', () => {
    const broken = brokenLinks(documentationPages(FIXTURE));
    assert.deepEqual(
      broken.map(({ file, line, target, problem }) => `${path.relative(FIXTURE, file)}:${line}: ${target}: ${problem}`),
      [
        'README.md:5: docs/missing.md: docs/missing.md does not exist',
        'README.md:6: docs/guide.md#no-such-heading: no heading of guide.md has the anchor #no-such-heading',
        'README.md:7: #not-here: no heading of README.md has the anchor #not-here',
        'docs/guide.md:9: ../README.md#fixture-readme-1: no heading of README.md has the anchor #fixture-readme-1',
      ],
    );
  });

  it("slug headings as GitHub does: lowercase, punctuation dropped but '-' and '_', spaces to '-'", () => {
    assert.equal(headingSlug('MCP server: skills in agent mode, and in other MCP clients'), 'mcp-server-skills-in-agent-mode-and-in-other-mcp-clients');
    assert.equal(headingSlug('The `agent-skills` CLI'), 'the-agent-skills-cli');
    assert.equal(headingSlug('Skills from git: add, update & check'), 'skills-from-git-add-update--check');
    assert.equal(headingSlug('snake_case and [a link](x.md)'), 'snake_case-and-a-link');
    assert.deepEqual([...headingAnchors('# Usage\n\n```sh\n# not a heading\n```\n\n## Usage\n<a id="kept"></a>\n')], ['usage', 'usage-1', 'kept']);
  });
});
