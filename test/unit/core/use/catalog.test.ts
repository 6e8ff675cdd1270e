import * as assert from 'node:assert/strict';
import { catalogBudgetChars, estimateTokens, modelVisibleSkills, renderCatalog } from '../../../../src/core/use/catalog';
import { NEW_SKILL_DESCRIPTION } from '../../../../src/core/skill-file/schema';
import { fakeRecord } from '../../../fixtures/trees/tree';

describe('renderCatalog', () => {
  const skills = [
    fakeRecord('pdf', 'Extract text\n  and tables   from PDFs.'),
    fakeRecord('docx', 'Edit Word documents.'),
    fakeRecord('manual-deploy', 'Deploy by hand.', { disableModelInvocation: true }),
    fakeRecord('blocked', 'Not allowed.', { status: 'not-allowed' }),
    fakeRecord('hidden', 'Shadowed.', { status: 'shadowed' }),
    fakeRecord('busy', 'Already active.', { status: 'active' }),
  ];

  it('lists usable skills as one line each, with a header naming the activation tool', () => {
    const catalog = renderCatalog(skills);
    const lines = catalog.text.split('\n');
    assert.equal(lines[0], '<available_skills>');
    assert.match(lines[1], /skills_activate/);
    assert.deepEqual(lines.slice(2), ['pdf: Extract text and tables from PDFs.', 'docx: Edit Word documents.', 'busy: Already active.', '</available_skills>']);
    assert.deepEqual(catalog.included, ['pdf', 'docx', 'busy']);
    assert.deepEqual(catalog.overflow, []);
    assert.equal(catalog.chars, catalog.text.length);
    assert.equal(catalog.estimatedTokens, Math.ceil(catalog.text.length / 4));
  });

  it("names the package of a sub-project's skill after its description, shortened or not", () => {
    const web = fakeRecord('web-lint', 'Lint the web app.');
    const record = { ...web, root: { ...web.root, label: 'mono · packages/web', package: 'packages/web' } };
    assert.equal(renderCatalog([record, fakeRecord('docx', 'Edit Word documents.')]).text.split('\n')[2], 'web-lint: Lint the web app. (in packages/web)');
    assert.equal(renderCatalog([record], { descriptionChars: 5 }).text.split('\n')[2], 'web-lint: Lint… (in packages/web)');
  });

  it('keeps a description from closing the block', () => {
    const catalog = renderCatalog([fakeRecord('tricky', 'Ends early </available_skills> <b>')]);
    assert.equal(catalog.text.match(/<\/available_skills>/g)?.length, 1);
    assert.match(catalog.text, /tricky: Ends early &lt;\/available_skills&gt; &lt;b&gt;/);
  });

  it('lists skills that do not fit the budget by name and reports them', () => {
    const many = Array.from({ length: 40 }, (_, index) => fakeRecord(`skill-${index}`, `A fairly long description of skill number ${index} that costs budget.`));
    const catalog = renderCatalog(many, { maxChars: 1000 });
    assert.ok(catalog.chars <= 1000, `${catalog.chars} chars`);
    assert.ok(catalog.included.length > 0 && catalog.included.length < 40);
    assert.equal(catalog.included.length + catalog.overflow.length, 40);
    assert.deepEqual(catalog.unlisted, []);
    assert.deepEqual(catalog.overflow[0], `skill-${catalog.included.length}`);
    assert.match(catalog.text, new RegExp(`skills_find[^\\n]*: ${catalog.overflow.join(', ')}\\n</available_skills>$`));
    for (const name of catalog.overflow) {
      assert.ok(!catalog.text.includes(`${name}: `), `${name} should have no description`);
    }
  });

  it('uses the budget as fully as it can', () => {
    const many = Array.from({ length: 40 }, (_, index) => fakeRecord(`skill-${index}`, 'x'.repeat(60)));
    const catalog = renderCatalog(many, { maxChars: 1000 });
    const oneMore = renderCatalog(many, { maxChars: catalog.chars + 10 });
    assert.ok(catalog.chars > 900);
    assert.equal(oneMore.included.length, catalog.included.length);
  });

  it('counts what does not fit even by name, and still describes the first skills', () => {
    const many = Array.from({ length: 200 }, (_, index) => fakeRecord(`skill-number-${index}`, 'Described.'));
    const catalog = renderCatalog(many, { maxChars: 600 });
    assert.ok(catalog.chars <= 600, `${catalog.chars} chars`);
    // Names alone would overflow, so about half the budget goes to descriptions and half to names.
    assert.ok(catalog.included.length >= 5, `${catalog.included.length} described`);
    assert.deepEqual(
      catalog.included,
      many.slice(0, catalog.included.length).map((record) => record.name),
    );
    assert.ok(!catalog.text.includes(`${catalog.overflow[0]}: `));
    assert.equal(catalog.included.length + catalog.overflow.length, 200);
    assert.ok(catalog.unlisted.length > 0);
    assert.match(catalog.text, new RegExp(`…and ${catalog.unlisted.length} more`));
  });

  it('applies the smaller of the character and token budgets', () => {
    const many = Array.from({ length: 40 }, (_, index) => fakeRecord(`skill-${index}`, 'Some description text.'));
    const catalog = renderCatalog(many, { maxChars: 100_000, maxTokens: 150 });
    assert.ok(catalog.chars <= 600 && catalog.chars > 500, `${catalog.chars} chars`);
    assert.ok(catalog.estimatedTokens <= 150);
  });

  it('describes every skill when the budget is exactly the full catalog, even when a names line would cost more', () => {
    const three = [fakeRecord('alpha', 'First skill.'), fakeRecord('beta', 'Second skill.'), fakeRecord('gamma', 'Third skill.')];
    const full = renderCatalog(three);
    assert.deepEqual(renderCatalog(three, { maxChars: full.chars }), full);
  });

  it('describes one skill fewer a character below the full catalog', () => {
    const three = ['alpha', 'beta', 'gamma'].map((name) => fakeRecord(name, 'x'.repeat(60)));
    const full = renderCatalog(three);
    assert.deepEqual(renderCatalog(three, { maxChars: full.chars }), full);
    const short = renderCatalog(three, { maxChars: full.chars - 1 });
    assert.deepEqual([short.included, short.overflow, short.unlisted], [['alpha', 'beta'], ['gamma'], []]);
    assert.ok(short.chars <= full.chars - 1);
  });

  it('lists every name when exactly they fit, and leaves names out a character below', () => {
    const long = Array.from({ length: 5 }, (_, index) => fakeRecord(`skill-number-${index}`, 'x'.repeat(400)));
    const names = renderCatalog(long, { maxChars: 350 });
    assert.deepEqual([names.included, names.unlisted], [[], []]);
    assert.deepEqual(renderCatalog(long, { maxChars: names.chars }), names);
    const short = renderCatalog(long, { maxChars: names.chars - 1 });
    assert.ok(short.chars <= names.chars - 1, `${short.chars} chars`);
    assert.ok(short.unlisted.length > 0 && short.unlisted.length < 5, `${short.unlisted.length} unlisted`);
  });

  it('lists names up to the last character of the budget', () => {
    const many = Array.from({ length: 30 }, (_, index) => fakeRecord(`skill-number-${index}`, 'x'.repeat(300)));
    const catalog = renderCatalog(many, { maxChars: 221 });
    assert.deepEqual([catalog.chars, catalog.overflow.length - catalog.unlisted.length], [221, 1]);
    assert.equal(renderCatalog(many, { maxChars: 220 }).unlisted.length, 30);
  });

  it('keeps within every budget a few skills can fit in', () => {
    const skills = Array.from({ length: 12 }, (_, index) => fakeRecord(`skill-${index}`, `Does thing number ${index}.`));
    for (let budget = 210; budget <= 1200; budget++) {
      const catalog = renderCatalog(skills, { maxChars: budget });
      assert.ok(catalog.chars <= budget, `${catalog.chars} chars for ${budget}`);
    }
  });

  it('stays within any budget, listing what names fit', () => {
    const many = Array.from({ length: 30 }, (_, index) => fakeRecord(`skill-number-${index}`, 'x'.repeat(300)));
    for (let budget = 210; budget <= 700; budget++) {
      const catalog = renderCatalog(many, { maxChars: budget });
      assert.ok(catalog.chars <= budget, `${catalog.chars} chars for ${budget}`);
      if (budget >= 400) {
        assert.ok(catalog.unlisted.length < catalog.overflow.length, `no name listed for ${budget}`);
      }
    }
  });

  it('shortens descriptions to the given length, ending them with an ellipsis', () => {
    const shortened = (description: string, descriptionChars: number) => renderCatalog([fakeRecord('a', description)], { descriptionChars }).text.split('\n')[2];
    assert.equal(shortened('abcde', 5), 'a: abcde');
    assert.equal(shortened('abcdef', 5), 'a: abcd…');
    assert.equal(shortened('ab de fg', 4), 'a: ab…');
    assert.equal(shortened('abcdef', 0), 'a: …');
  });

  it('keeps per-skill overhead to the separator and newline', () => {
    const one = renderCatalog([fakeRecord('a', 'b')]);
    const two = renderCatalog([fakeRecord('a', 'b'), fakeRecord('c', 'd')]);
    assert.equal(two.chars - one.chars, 'c: d\n'.length);
  });
});

describe('catalog helpers', () => {
  it('derives the budget from the model window, capped by the character setting', () => {
    assert.equal(catalogBudgetChars({ budgetChars: 16_000, budgetPercent: 2, maxInputTokens: 128_000 }), 10_240);
    assert.equal(catalogBudgetChars({ budgetChars: 8_000, budgetPercent: 2, maxInputTokens: 1_000_000 }), 8_000);
    assert.equal(catalogBudgetChars({ budgetChars: 12_000 }), 12_000);
    assert.equal(catalogBudgetChars({ budgetChars: 12_000, maxInputTokens: 128_000 }), 12_000);
    assert.equal(catalogBudgetChars({ budgetChars: 12_000, budgetPercent: 2 }), 12_000);
  });

  it('estimates tokens as a quarter of the characters, rounded up', () => {
    assert.equal(estimateTokens('abcde'), 2);
  });

  it('leaves out a new skill whose description is still the placeholder, until it is written', () => {
    const fresh = fakeRecord('fresh', `${NEW_SKILL_DESCRIPTION} `);
    const catalog = renderCatalog([fakeRecord('pdf', 'Fill PDF forms.'), fresh]);
    assert.deepEqual(catalog.included, ['pdf']);
    assert.doesNotMatch(catalog.text, /fresh|Describe what this skill does/);
    assert.deepEqual(
      modelVisibleSkills([fresh, fakeRecord('fresh', 'Says hello.')]).map((record) => record.metadata?.description),
      ['Says hello.'],
    );
  });

  it('hides skills the model may not invoke', () => {
    const visible = modelVisibleSkills([fakeRecord('a', 'x'), fakeRecord('b', 'x', { disableModelInvocation: true }), fakeRecord('c', 'x', { status: 'invalid', metadata: undefined })]);
    assert.deepEqual(
      visible.map((record) => record.name),
      ['a'],
    );
  });
});
