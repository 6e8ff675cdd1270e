import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import {
  compareFolders,
  compareForName,
  compareForRealDir,
  duplicateProblem,
  folderDepth,
  lastFolderName,
  listedFolderProbe,
  listGroupingFolder,
  listRoot,
  probeFolder,
  type FolderKey,
  type FolderProbe,
} from '../../../../src/core/discovery/probe';
import { removeDir, root, skillText, tempDir, writeTree } from '../../../fixtures/trees/tree';
import { failing, fsError, withFs, type FsPromises } from './fs-stub';

const key = (rootIndex: number, folderName: string): FolderKey => ({ rootIndex, folderName });

describe('probe', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDir();
  });

  afterEach(async () => {
    await removeDir(dir);
  });

  describe('listRoot', () => {
    it('lists child folders and links sorted by name, leaving out files, .git and node_modules, and tells real folders from links', async () => {
      await writeTree(dir, { zeta: {}, alpha: {}, mid: {}, omega: {}, beta: {}, 'notes.md': 'x', '.git': { 'SKILL.md': 'x' }, node_modules: {} });
      await fs.symlink(path.join(dir, 'alpha'), path.join(dir, 'kappa-link'));
      await fs.symlink(path.join(dir, 'missing'), path.join(dir, 'dangling'));
      // Listed in reverse, so the order cannot come from the file system.
      const reversed = (readdir: FsPromises['readdir']): FsPromises['readdir'] =>
        (async (...args: Parameters<FsPromises['readdir']>) => ((await readdir(...args)) as unknown[]).reverse()) as unknown as FsPromises['readdir'];
      assert.deepEqual(await withFs('readdir', reversed, () => listRoot(root(dir))), {
        folderNames: ['alpha', 'beta', 'dangling', 'kappa-link', 'mid', 'omega', 'zeta'],
        realPath: dir,
        plainFolderNames: new Set(['zeta', 'alpha', 'mid', 'omega', 'beta']),
      });
    });

    it('gives the real path of a root reached through a link', async () => {
      await writeTree(dir, { real: { pdf: {} } });
      await fs.symlink(path.join(dir, 'real'), path.join(dir, 'linked'));
      const listing = await listRoot(root(path.join(dir, 'linked')));
      assert.equal(listing.realPath, path.join(dir, 'real'));
      assert.deepEqual(listing.folderNames, ['pdf']);
    });

    it('treats a missing root, or one below a file, as empty without a problem', async () => {
      await fs.writeFile(path.join(dir, 'file'), 'x');
      assert.deepEqual(await listRoot(root(path.join(dir, 'missing'))), { folderNames: [] });
      assert.deepEqual(await listRoot(root(path.join(dir, 'file', 'skills'))), { folderNames: [] });
    });

    it('reports a root that is a link loop', async () => {
      const loop = path.join(dir, 'loop');
      await fs.symlink(loop, loop);
      assert.deepEqual(await listRoot(root(loop)), {
        folderNames: [],
        problem: { code: 'root-unreadable', severity: 'warning', message: `Cannot read skill folder ${loop}: it is a symbolic link loop.`, path: loop },
      });
    });

    it('reports a root that is a file', async () => {
      const file = path.join(dir, 'file-root');
      await fs.writeFile(file, 'x');
      assert.deepEqual(await listRoot(root(file)), {
        folderNames: [],
        realPath: file,
        problem: { code: 'root-unreadable', severity: 'warning', message: `Cannot read skill folder ${file}: it is a file, not a folder.`, path: file },
      });
    });

    it('reports a root it may not resolve or read, with the reason the system gives', async () => {
      const denied = failing('EACCES', 'permission denied');
      const problem = { code: 'root-unreadable', severity: 'warning', message: `Cannot read skill folder ${dir}: permission denied.`, path: dir };
      assert.deepEqual(await withFs('realpath', denied, () => listRoot(root(dir))), { folderNames: [], problem });
      assert.deepEqual(await withFs('readdir', denied, () => listRoot(root(dir))), { folderNames: [], realPath: dir, problem });
    });

    it('treats a root deleted between resolving and reading it as empty', async () => {
      const gone = failing('ENOENT', 'no such file or directory');
      assert.deepEqual(await withFs('readdir', gone, () => listRoot(root(dir))), { folderNames: [] });
    });
  });

  describe('probeFolder', () => {
    it('finds a skill folder and its SKILL.md', async () => {
      await writeTree(dir, { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') } });
      const pdf = path.join(dir, 'pdf');
      assert.deepEqual(await probeFolder(root(dir), 'pdf', dir), { kind: 'skill', dir: pdf, realDir: pdf, file: path.join(pdf, 'SKILL.md') });
    });

    it('gives a linked skill folder the real path of its target', async () => {
      await writeTree(dir, { shared: { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') } }, skills: {} });
      const link = path.join(dir, 'skills', 'pdf-link');
      await fs.symlink(path.join(dir, 'shared', 'pdf'), link);
      assert.deepEqual(await probeFolder(root(path.join(dir, 'skills')), 'pdf-link'), {
        kind: 'skill',
        dir: link,
        realDir: path.join(dir, 'shared', 'pdf'),
        file: path.join(link, 'SKILL.md'),
      });
    });

    it('finds nothing in .git, node_modules, files, links to files and children that do not exist', async () => {
      await writeTree(dir, { node_modules: { 'SKILL.md': skillText('mod', 'Not a skill.') }, '.git': { 'SKILL.md': skillText('git', 'Not a skill.') }, 'SKILL.md': 'x' });
      await fs.symlink(path.join(dir, 'SKILL.md'), path.join(dir, 'file-link'));
      for (const name of ['node_modules', '.git', 'SKILL.md', 'file-link', 'missing', path.join('group', 'node_modules')]) {
        assert.deepEqual(await probeFolder(root(dir), name, dir), { kind: 'none' }, name);
      }
      assert.deepEqual(await probeFolder(root(path.join(dir, 'SKILL.md')), 'pdf'), { kind: 'none' }, 'a child of a root that is a file');
    });

    it('takes a real folder without a SKILL.md for a grouping folder, unless hidden, a link or too deep', async () => {
      await writeTree(dir, { plain: { 'README.md': 'x' }, '.cache': {}, a: { b: { c: { d: {} } } }, shipping: { 'land-it': { 'SKILL.md': skillText('land-it', 'Land it.') } } });
      await fs.symlink(path.join(dir, 'plain'), path.join(dir, 'plain-link'));
      const probe = (folderName: string): Promise<FolderProbe> => probeFolder(root(dir), folderName, dir);
      for (const folderName of ['plain', 'shipping', 'a', path.join('a', 'b'), path.join('a', 'b', 'c')]) {
        assert.deepEqual(await probe(folderName), { kind: 'group' }, folderName);
      }
      for (const folderName of ['.cache', 'plain-link', path.join('a', 'b', 'c', 'd')]) {
        assert.deepEqual(await probe(folderName), { kind: 'none' }, folderName);
      }
      const landIt = path.join(dir, 'shipping', 'land-it');
      assert.deepEqual(await probe(path.join('shipping', 'land-it')), { kind: 'skill', dir: landIt, realDir: landIt, file: path.join(landIt, 'SKILL.md') });
    });

    it('reports a link loop, a dangling link and a link through a file, each with its own message', async () => {
      await fs.symlink(path.join(dir, 'loop'), path.join(dir, 'loop'));
      await fs.symlink(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
      await fs.writeFile(path.join(dir, 'file'), 'x');
      await fs.symlink(path.join(dir, 'file', 'below'), path.join(dir, 'through-file'));
      const loop = path.join(dir, 'loop');
      const dangling = path.join(dir, 'dangling');
      const throughFile = path.join(dir, 'through-file');
      const reason = await fs.realpath(throughFile).then(String, (error: Error) => error.message);
      assert.deepEqual(await probeFolder(root(dir), 'loop', dir), {
        kind: 'problem',
        problem: { code: 'symlink-loop', severity: 'warning', message: `The link ${loop} loops back on itself; it was skipped.`, path: loop },
      });
      assert.deepEqual(await probeFolder(root(dir), 'dangling', dir), {
        kind: 'problem',
        problem: { code: 'dangling-symlink', severity: 'warning', message: `The link ${dangling} points to ${path.join(dir, 'nowhere')}, which does not exist; it was skipped.`, path: dangling },
      });
      assert.deepEqual(await probeFolder(root(dir), 'through-file', dir), {
        kind: 'problem',
        problem: { code: 'unreadable-folder', severity: 'warning', message: `Cannot read ${throughFile}: ${reason}.`, path: throughFile },
      });
    });

    it('reports a link to the root or one of its ancestors, resolving the root itself when not told its real path', async () => {
      const skills = path.join(dir, 'skills');
      await writeTree(skills, {});
      await fs.symlink(dir, path.join(skills, 'up'));
      const up = path.join(skills, 'up');
      assert.deepEqual(await probeFolder(root(skills), 'up'), {
        kind: 'problem',
        problem: { code: 'symlink-loop', severity: 'warning', message: `The link ${up} points to ${dir}, which contains the skill folder itself; it was skipped.`, path: up },
      });
    });

    it('still probes a child when the root cannot be resolved at that moment', async () => {
      await writeTree(dir, { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') } });
      const rootUnresolvable = (realpath: FsPromises['realpath']): FsPromises['realpath'] =>
        (async (target: string) => {
          if (target === dir) {
            throw fsError('EACCES', 'permission denied');
          }
          return realpath(target);
        }) as FsPromises['realpath'];
      const probe = await withFs('realpath', rootUnresolvable, () => probeFolder(root(dir), 'pdf'));
      assert.equal(probe.kind, 'skill');
    });

    it('finds nothing in a folder deleted while being resolved', async () => {
      await writeTree(dir, { pdf: { 'SKILL.md': skillText('pdf', 'PDF.') } });
      const gone = failing('ENOENT', 'no such file or directory');
      assert.deepEqual(await withFs('realpath', gone, () => probeFolder(root(dir), 'pdf', dir)), { kind: 'none' });
    });
  });

  describe('listGroupingFolder', () => {
    it('lists folders and links inside a grouping folder as keys of the root, without files, hidden folders, .git and node_modules', async () => {
      await writeTree(dir, { shipping: { 'land-it': {}, 'README.md': 'x', '.cache': {}, node_modules: {}, '.git': {}, alpha: {} } });
      await fs.symlink(path.join(dir, 'shipping', 'alpha'), path.join(dir, 'shipping', 'beta-link'));
      const inShipping = (name: string): string => path.join('shipping', name);
      assert.deepEqual(await listGroupingFolder(root(dir), 'shipping'), {
        folderNames: ['alpha', 'beta-link', 'land-it'].map(inShipping),
        plainFolderNames: new Set(['alpha', 'land-it'].map(inShipping)),
      });
    });

    it('lists nothing for a folder that went away', async () => {
      assert.deepEqual(await listGroupingFolder(root(dir), 'gone'), { folderNames: [], plainFolderNames: new Set() });
    });
  });

  describe('listedFolderProbe', () => {
    it('builds the probe of a listed folder from the root, with SKILL.md as its file', () => {
      assert.deepEqual(listedFolderProbe(root('/skills'), 'pdf', '/skills'), {
        kind: 'skill',
        dir: path.resolve('/skills/pdf'),
        realDir: path.resolve('/skills/pdf'),
        file: path.join(path.resolve('/skills/pdf'), 'SKILL.md'),
      });
    });

    it('places the real folder under the real path of a linked root', () => {
      assert.deepEqual(listedFolderProbe(root('/linked'), 'pdf', '/real'), {
        kind: 'skill',
        dir: path.resolve('/linked/pdf'),
        realDir: path.resolve('/real/pdf'),
        file: path.join(path.resolve('/linked/pdf'), 'SKILL.md'),
      });
    });

    it('keeps the SKILL.md found last time, spelled as it was', () => {
      assert.equal(listedFolderProbe(root('/skills'), 'pdf', '/skills', '/skills/pdf/skill.md').file, '/skills/pdf/skill.md');
    });
  });

  it('names a second path to a folder as a duplicate of the one loaded', () => {
    assert.deepEqual(duplicateProblem('/b/pdf-link', '/a/pdf'), {
      code: 'duplicate-skill-folder',
      severity: 'info',
      message: '/b/pdf-link is the same folder as /a/pdf; the skill is loaded once, from /a/pdf.',
      path: '/b/pdf-link',
    });
  });

  describe('precedence', () => {
    it('orders folders by root, then by folder name', () => {
      assert.ok(compareFolders(key(0, 'b'), key(1, 'a')) < 0);
      assert.ok(compareFolders(key(1, 'a'), key(0, 'b')) > 0);
      assert.equal(compareFolders(key(0, 'a'), key(0, 'b')), -1);
      assert.equal(compareFolders(key(0, 'b'), key(0, 'a')), 1);
      assert.equal(compareFolders(key(0, 'a'), key(0, 'a')), 0);
    });

    it('puts the folder named like the skill first within one root, never across roots', () => {
      assert.equal(compareForName('pdf', key(0, 'pdf'), key(0, 'a')), -1);
      assert.equal(compareForName('pdf', key(0, 'a'), key(0, 'pdf')), 1);
      assert.equal(compareForName('pdf', key(0, 'a'), key(0, 'b')), -1);
      assert.equal(compareForName('pdf', key(0, 'b'), key(0, 'a')), 1);
      assert.ok(compareForName('pdf', key(0, 'z'), key(1, 'pdf')) < 0);
      assert.ok(compareForName('pdf', key(1, 'pdf'), key(0, 'z')) > 0);
    });

    it('inside grouping folders, compares the name with the folder holding the SKILL.md, then puts fewer grouping folders first', () => {
      const inGroup = (...names: string[]): string => path.join(...names);
      assert.equal(compareForName('deploy', key(0, inGroup('ops', 'deploy')), key(0, 'a')), -1);
      assert.equal(compareForName('deploy', key(0, 'a'), key(0, inGroup('ops', 'deploy'))), 1);
      assert.equal(compareForName('deploy', key(0, 'deploy'), key(0, inGroup('a', 'deploy'))), -1);
      assert.equal(compareForName('deploy', key(0, inGroup('a', 'deploy')), key(0, 'deploy')), 1);
      assert.equal(compareForName('deploy', key(0, inGroup('z', 'deploy')), key(0, inGroup('a', 'b', 'deploy'))), -1);
      assert.equal(compareForName('deploy', key(0, inGroup('ops', 'deploy')), key(0, inGroup('shipping', 'deploy'))), -1);
      assert.equal(compareForName('deploy', key(0, inGroup('shipping', 'deploy')), key(0, inGroup('ops', 'deploy'))), 1);
      assert.ok(compareForName('deploy', key(0, inGroup('a', 'b', 'c', 'x')), key(1, 'deploy')) < 0);
    });

    it('measures keys in folders and names them by their last folder', () => {
      assert.equal(folderDepth('pdf'), 1);
      assert.equal(folderDepth(path.join('a', 'b', 'pdf')), 3);
      assert.equal(lastFolderName('pdf'), 'pdf');
      assert.equal(lastFolderName(path.join('shipping', 'land-it')), 'land-it');
    });

    it('puts the path named like the real folder first', () => {
      assert.equal(compareForRealDir('/real/pdf', key(0, 'pdf'), key(0, 'a-alias')), -1);
      assert.equal(compareForRealDir('/real/pdf', key(0, 'a-alias'), key(0, 'pdf')), 1);
    });
  });
});
