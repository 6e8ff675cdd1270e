import * as assert from 'node:assert/strict';
import type { Catalog } from '../../../../src/core/use/catalog';
import { describeCatalogSize } from '../../../../src/core/use/catalog-report';

function catalog(fields: Partial<Catalog>): Catalog {
  return { text: '', included: [], overflow: [], unlisted: [], chars: 0, estimatedTokens: 0, ...fields };
}

describe('describeCatalogSize', () => {
  it('gives characters, estimated tokens and the budget', () => {
    assert.equal(
      describeCatalogSize(catalog({ included: ['a'], chars: 1234, estimatedTokens: 309 }), 16000),
      'Skill catalog: 1,234 characters (~309 tokens) of a 16,000-character budget; 1 skill described.',
    );
  });

  it('says how many skills are listed by name only and how many not at all', () => {
    const text = describeCatalogSize(catalog({ included: ['a', 'b'], overflow: ['c', 'd', 'e'], unlisted: ['e'], chars: 500, estimatedTokens: 125 }), 500);
    assert.match(text, /2 skills described, 2 by name only, 1 unlisted \(reachable through the find tool\)\.$/);
  });
});
