// One skill server that is two replicas of `agent-skills mcp --http` behind Debian's nginx, with
// the configuration docs/mcp-server.md shows: its skills in the Skills view, found and activated
// through the extension's tools, and still served, edits included, once one replica has stopped.
// Skipped, and counted as such, only where nginx is not installed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findNginx, startNginx, type RunningNginx } from '../../../../scripts/harness/nginx';
import { invokeSkillTool } from '../../chat-helpers';
import { skillsApi, treeOutline } from '../../editor-helpers';
import { startListeningProcess, type ListeningProcess } from '../../listening-process';
import { cliPath, servedSkillsFolder, setUserServers, waitForOutline, writeServedSkill } from '../../server-helpers';
import { waitFor } from '../../util';

describe('a skill server of two replicas behind nginx', function () {
  this.timeout(120000);
  const nginxBinary = findNginx();
  const root = servedSkillsFolder({
    'deploy-notes': ['Write the notes of a deploy for the team channel.', 'List what shipped, then what to watch.'],
    'incident-review': ['Review an incident after it is resolved.', 'Start with the timeline, then the causes.'],
  });
  let replicas: ListeningProcess[] = [];
  let nginx: RunningNginx | undefined;

  before(async function () {
    if (nginxBinary === undefined) {
      console.log('    nginx is not installed (apt-get install -y nginx): the replica test is skipped.');
      this.skip();
    }
    // On 127.0.0.1 the replicas need no token; the one the suite's environment may carry is left out.
    replicas = await Promise.all(
      ['a', 'b'].map((name) =>
        startListeningProcess(process.execPath, [cliPath(), 'mcp', '--http', '127.0.0.1:0', '--replica', name, '--no-user', '--no-builtin', root], { AGENT_SKILLS_MCP_TOKEN: '' }),
      ),
    );
    nginx = await startNginx(
      nginxBinary!,
      replicas.map((replica) => new URL(replica.url).host),
    );
  });

  after(async () => {
    await setUserServers(undefined);
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it('lists, finds and activates its skills through nginx, and keeps serving them, edits included, once one replica stops', async () => {
    const api = await skillsApi();
    await setUserServers([{ name: 'team', url: `${nginx!.base}/mcp` }]);
    await waitForOutline(api, ['  team — 2', '    team/deploy-notes — Write the notes of a deploy for the team channel.', '    team/incident-review — Review an incident after it is resolved.']);
    assert.match(await invokeSkillTool('skills_find', { query: 'review an incident' }), /team\/incident-review/);
    assert.match(
      await invokeSkillTool('skills_activate', { name: 'team/deploy-notes' }),
      /^<skill name="team\/deploy-notes" server="team" uri="skill:\/\/deploy-notes\/SKILL\.md">\nList what shipped, then what to watch\.\n/,
    );
    const answeredBefore = nginx!.answered();
    for (const replica of replicas) {
      const address = new URL(replica.url).host;
      assert.ok(
        answeredBefore.some((request) => request.upstream === address),
        `replica at ${address} answered: ${JSON.stringify(answeredBefore)}`,
      );
    }

    await replicas[0].stop();
    // The change subscription the extension held may have been on the stopped replica: it then
    // takes the server for lost and connects again a second later, through nginx to the other.
    // Never fetched before, this skill comes from the replica left.
    let activated = '';
    await waitFor(
      async () => {
        activated = await invokeSkillTool('skills_activate', { name: 'team/incident-review' });
        return /server="team" uri="skill:\/\/incident-review\/SKILL\.md">\nStart with the timeline, then the causes\.\n/.test(activated);
      },
      { timeoutMs: 15000, intervalMs: 500, message: () => `team/incident-review was not served once replica a stopped: ${activated}` },
    );
    writeServedSkill(root, 'deploy-notes', 'Write the notes of a deploy, risks first.', 'List the risks, then what shipped.');
    // Shown under Active or Available, whichever it is in now.
    await waitForOutline(api, [/^ +team\/deploy-notes — Write the notes of a deploy, risks first\.$/], 30000);
    assert.match(await invokeSkillTool('skills_activate', { name: 'team/deploy-notes' }), /\nList the risks, then what shipped\.\n/);
    assert.deepEqual(
      treeOutline(api).filter((line) => /offline|cannot be reached/.test(line)),
      [],
      'the server is online, through the replica left',
    );
    const answeredAfter = nginx!.answered().slice(answeredBefore.length);
    assert.deepEqual(
      answeredAfter.filter((request) => request.status >= 500),
      [],
      'no request failed once replica a stopped',
    );
    await vscode.commands.executeCommand('agentSkills.deactivateAll');
  });
});
