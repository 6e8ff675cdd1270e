// A skills site as the source commands' tests meet one: skills written to a folder, published by
// `agent-skills publish` and served on 127.0.0.1, beside an empty project to add them to.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { writeTree, type Tree } from '../../fixtures/trees/tree';
import { startSiteServer, type SiteServer } from '../../integration/site-server';
import { cli } from './run-in-process';

export interface PublishedSite {
  /** The project folder, `DIR/project` (made if missing). */
  project: string;
  /** The published skills' folder: publish it again after changing it. */
  skills: string;
  /** The site's folder, `DIR/site`. */
  site: string;
  server: SiteServer;
}

/** Writes `skillsTree` to `DIR/skillsFolder`, publishes it into `DIR/site` and serves that. */
export async function publishedSite(dir: string, skillsTree: Tree, skillsFolder = 'skills'): Promise<PublishedSite> {
  const project = path.join(dir, 'project');
  const skills = path.join(dir, skillsFolder);
  const site = path.join(dir, 'site');
  await fs.mkdir(project, { recursive: true });
  await writeTree(skills, skillsTree);
  await publish(dir, site, skills);
  return { project, skills, site, server: await startSiteServer(site) };
}

/** Runs `agent-skills publish --out SITE …ARGS` in `dir`, which must succeed. */
export async function publish(dir: string, site: string, ...args: string[]): Promise<void> {
  const run = await cli(dir, ['publish', '--out', site, ...args]);
  assert.equal(run.code, 0, run.stderr);
}
