// Install Locked Skills and signed sources in the editor, against a bare repository of commits
// signed with an SSH key the suite makes (file:// URL, no network): the offer a lock listing missing
// skills brings once, the palette command, and "signed by NAME" / "unsigned" on installed rows.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { click, harnessAvailable, notificationsText, waitFor } from '../../util';
import { firstWorkspaceFolder, setWorkspaceSetting, skillsApi, skillText, treeItem, workspaceSkillsFolder, type AgentSkillsApi } from '../../editor-helpers';

const SIGNER = 'alice@example.com';
const LINT_RULES = skillText('lint-rules', 'Explains the team lint rules.');

/** Runs git with a fixed author and no configuration of the user's. */
function git(cwd: string, ...args: string[]): string {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: os.devNull, GIT_AUTHOR_NAME: 'Alice', GIT_AUTHOR_EMAIL: SIGNER, GIT_COMMITTER_NAME: 'Alice', GIT_COMMITTER_EMAIL: SIGNER };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A bare repository holding one commit of lint-rules, signed with a new SSH key; resolves to its URL and the public key. */
function signedRepository(parent: string): { url: string; publicKey: string } {
  const key = path.join(parent, 'alice-key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', SIGNER, '-f', key], { stdio: 'ignore' });
  const bare = path.join(parent, 'signed-skills.git');
  const work = path.join(parent, 'signed-skills-work');
  git(parent, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(parent, 'init', '--quiet', '--initial-branch=main', work);
  fs.mkdirSync(path.join(work, 'skills', 'lint-rules'), { recursive: true });
  fs.writeFileSync(path.join(work, 'skills', 'lint-rules', 'SKILL.md'), LINT_RULES);
  git(work, 'add', '--all');
  git(work, '-c', 'gpg.format=ssh', '-c', `user.signingkey=${key}`, 'commit', '--quiet', '-S', '-m', 'lint rules');
  git(work, 'push', '--quiet', bare, 'HEAD:main');
  return { url: pathToFileURL(bare).href, publicKey: fs.readFileSync(`${key}.pub`, 'utf8').trim() };
}

describe('Install Locked Skills and signed sources', function () {
  // Clones, signatures and notifications take their time on a loaded machine.
  this.timeout(90000);
  let parent: string;
  let repository: { url: string; publicKey: string };
  let api: AgentSkillsApi;
  const lockPath = (): string => path.join(firstWorkspaceFolder(), 'skills-lock.json');
  const installedFolder = (): string => path.join(workspaceSkillsFolder(), 'lint-rules');

  before(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-skills-signed-suite-'));
    repository = signedRepository(parent);
    api = await skillsApi();
  });

  after(async () => {
    fs.rmSync(parent, { recursive: true, force: true });
    // The suites after this one see a project without a trust policy, as before it: no signature words in the rows.
    const project = firstWorkspaceFolder();
    fs.rmSync(path.join(project, 'skills-trust.json'), { force: true });
    fs.rmSync(path.join(project, '.github', 'allowed_signers'), { force: true });
    await waitFor(() => !api.listSkills().some((skill) => /· (un)?signed/.test(treeItem(api, 'Available', skill.name)?.description ?? '')), {
      message: 'rows still speak of signatures once skills-trust.json is gone',
    });
  });

  it('adds a skill signed by a listed key and shows "signed by NAME"; a skill no policy entry covers shows "unsigned"', async () => {
    const project = firstWorkspaceFolder();
    fs.mkdirSync(path.join(project, '.github'), { recursive: true });
    fs.writeFileSync(path.join(project, '.github', 'allowed_signers'), `${SIGNER} ${repository.publicKey}\n`);
    fs.writeFileSync(
      path.join(project, 'skills-trust.json'),
      JSON.stringify({ version: 1, sources: [{ match: '*/signed-skills.git', require: 'signed', allowedSigners: '.github/allowed_signers' }] }),
    );

    const added = await vscode.commands.executeCommand<string[] | undefined>('agentSkills.addFromGit', { source: repository.url, skills: ['lint-rules'] });
    assert.deepEqual(added, ['lint-rules']);
    const entry = (JSON.parse(fs.readFileSync(lockPath(), 'utf8')) as { skills: Record<string, { signature?: { signer: string } }> }).skills['lint-rules'];
    assert.equal(entry.signature?.signer, SIGNER);

    const signed = await waitFor(() => {
      const item = treeItem(api, 'Available', 'lint-rules');
      return item?.description?.includes('signed by') && item;
    });
    assert.match(signed.description ?? '', new RegExp(`^${escape(repository.url)}@[0-9a-f]{7} · signed by ${escape(SIGNER)} — Explains the team lint rules\\.$`));
    assert.match(signed.tooltip ?? '', /Signed by alice@example\\\.com \(key `SHA256:[^`]+`\), as skills-trust\.json requires/);
    // Installed from the suite's other repository (those the earlier tests left), which no entry of the policy covers.
    const unsigned = await waitFor(() => ['fetcher', 'changelog', 'release-notes'].map((name) => treeItem(api, 'Available', name)).find((item) => item?.description?.includes(' · unsigned')));
    assert.match(unsigned.tooltip ?? '', /Unsigned: no entry of skills\\-trust\\\.json matches its source/);
  });

  it('offers once to install the skills a lock lists that are missing, installs them as pinned, and keeps the command in the palette', async () => {
    const lockText = fs.readFileSync(lockPath(), 'utf8');
    fs.rmSync(installedFolder(), { recursive: true });
    await vscode.commands.executeCommand('notifications.clearAll');
    // As a pull brings it: the lock lists a skill this clone has not installed.
    fs.writeFileSync(lockPath(), `${lockText}\n`);
    if (harnessAvailable()) {
      await waitFor(async () => /skills-lock\.json lists 1 skill not installed in this workspace: lint-rules\./.test(await notificationsText()), { timeoutMs: 30000 });
      await vscode.commands.executeCommand('notifications.showList');
      await click({ role: 'button', name: 'Install 1 locked skill', exact: true, within: '.notifications-center' });
    } else {
      await vscode.commands.executeCommand('agentSkills.installLocked');
    }
    await waitFor(() => fs.existsSync(path.join(installedFolder(), 'SKILL.md')), { timeoutMs: 45000 });
    assert.equal(fs.readFileSync(path.join(installedFolder(), 'SKILL.md'), 'utf8'), LINT_RULES);
    assert.equal(fs.readFileSync(lockPath(), 'utf8'), `${lockText}\n`, 'the lock is not written');
    await waitFor(() => treeItem(api, 'Available', 'lint-rules')?.description?.includes(`signed by ${SIGNER}`));

    // Offered once: missing again, the palette command installs it.
    fs.rmSync(installedFolder(), { recursive: true });
    await vscode.commands.executeCommand('notifications.clearAll');
    fs.writeFileSync(lockPath(), lockText);
    assert.deepEqual(await vscode.commands.executeCommand<string[]>('agentSkills.installLocked'), ['lint-rules']);
    if (harnessAvailable()) {
      assert.doesNotMatch(await notificationsText(), /not installed in this workspace/);
    }
    assert.equal(fs.readFileSync(path.join(installedFolder(), 'SKILL.md'), 'utf8'), LINT_RULES);
    assert.deepEqual(await vscode.commands.executeCommand<string[]>('agentSkills.installLocked'), [], 'nothing is missing');
  });

  it('installs nowhere outside the workspace folder, whatever its agentSkills.locations says', async () => {
    fs.rmSync(installedFolder(), { recursive: true });
    const outside = path.join(path.dirname(firstWorkspaceFolder()), 'outside-skills');
    try {
      await setWorkspaceSetting(api, 'locations', ['../outside-skills']);
      assert.deepEqual(await vscode.commands.executeCommand<string[]>('agentSkills.installLocked'), []);
      assert.equal(fs.existsSync(outside), false);
      assert.equal(fs.existsSync(installedFolder()), false);
      if (harnessAvailable()) {
        assert.match(await notificationsText(), /agentSkills\.locations: the location "\.\.\/outside-skills" must stay inside the workspace folder/);
        await vscode.commands.executeCommand('notifications.clearAll');
      }
    } finally {
      await setWorkspaceSetting(api, 'locations', undefined);
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
