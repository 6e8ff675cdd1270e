// `agent-skills publish --out DIR [--legacy] [--allow PATTERN]… [--project DIR] [ROOT…]`: writes the
// Agent Skills discovery index and each skill's artifact under DIR/.well-known/, as plain files any
// static web server or CDN serves; `add https://HOST` and `npx skills add https://HOST` install
// from them. Only usable skills are published; one that cannot be is named with the reason, and the
// command then exits 1 (the others are still written).

import * as path from 'node:path';
import { discoverSkills } from '../core/discovery/discover';
import { firstError } from '../core/model/status';
import { buildSite, INDEX_PATH, LEGACY_INDEX_PATH, writeSite } from '../core/site/publish';
import { parseArguments } from './args';
import { PUBLISH_USAGE } from './usage/publish';
import { projectFromArguments, rootsFromArguments } from './inputs';
import { displayPath, ExitCode, InputError, plural, PROGRAM, UsageError, type CliIo } from './io';
import { formatTable, reportProblems } from './list-command';

export async function publishCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArguments('publish', args, PUBLISH_USAGE.options);
  const out = parsed.options.get('out');
  if (typeof out !== 'string') {
    throw new UsageError('publish: name the folder to write the site to with --out DIR.');
  }
  const project = await projectFromArguments(parsed, io, true);
  const discovery = await discoverSkills([...project.roots, ...(await rootsFromArguments(parsed.operands, io))], { allowlist: parsed.lists.get('allow') ?? [], blockingReads: true });
  reportProblems([...project.problems, ...discovery.problems], io);

  let failed = false;
  for (const record of discovery.skills.filter((candidate) => candidate.status === 'invalid')) {
    io.stderr(`${PROGRAM}: ${displayPath(record.file, io)}: not published: ${firstError(record)?.message ?? 'the skill is invalid'}\n`);
    failed = true;
  }
  const build = await buildSite(discovery.skills, { legacy: parsed.options.has('legacy') });
  for (const skill of build.leftOut) {
    io.stderr(`${PROGRAM}: ${displayPath(skill.file, io)}: not published${skill.legacyOnly ? ' in the legacy index' : ''}: ${skill.reason}\n`);
    failed = true;
  }
  if (build.skills.length === 0) {
    throw new InputError(`publish: no skill to publish${discovery.skills.length > 0 ? ' (none of those found is usable)' : ''}; nothing was written.`);
  }
  const folder = path.resolve(io.cwd, out);
  const written = await writeSite(folder, build);
  io.stdout(formatTable([['NAME', 'TYPE', 'FILES', 'DIGEST'], ...build.skills.map((skill) => [skill.name, skill.type, String(skill.files), skill.digest])], io.columns));
  const indexes = [INDEX_PATH, ...(build.files.has(LEGACY_INDEX_PATH) ? [LEGACY_INDEX_PATH] : [])].map((index) => displayPath(path.join(folder, index), io));
  const changes = [`${plural(written.written.length, 'file')} written`, `${written.unchanged.length} unchanged`, ...(written.removed.length > 0 ? [`${written.removed.length} removed`] : [])];
  io.stdout(`Published ${plural(build.skills.length, 'skill')} to ${indexes.join(' and ')} (${changes.join(', ')}).\n`);
  return failed ? ExitCode.failure : ExitCode.ok;
}
