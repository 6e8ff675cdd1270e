// The Skills container's activity-bar icon: VS Code draws it as a mask in the bar's own colour, the
// way its built-in icons are drawn, so it must be a 24×24 outline in one colour to sit among them.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import manifest from '../../../package.json';

const repository = path.resolve(__dirname, '../../..');

describe('activity-bar icon', () => {
  const [container] = manifest.contributes.viewsContainers.activitybar;
  const svg = fs.readFileSync(path.join(repository, container.icon), 'utf8');

  it('is a 24×24 SVG drawn in currentColor only', () => {
    assert.match(svg, /^<svg [^>]*viewBox="0 0 24 24"/);
    const colours = [...svg.matchAll(/\b(?:fill|stroke|stop-color|color)="([^"]*)"/g)].map((match) => match[1]);
    assert.ok(colours.length > 0);
    assert.deepEqual([...new Set(colours)].sort(), ['currentColor', 'none']);
    assert.doesNotMatch(svg, /<(?:image|text|linearGradient|radialGradient|style)\b/);
  });

  it('is an outline with nothing filled, like the icons beside it', () => {
    assert.match(svg, /^<svg [^>]*fill="none"/);
    assert.doesNotMatch(svg, /<(?!svg)[a-z]+ [^>]*fill="currentColor"/);
  });
});
