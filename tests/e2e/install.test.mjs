// The marketplace install, as a person who installs compact-plus from its repository gets it: the
// real CLI adds this repository as a marketplace over git (smart HTTP on 127.0.0.1, the transport a
// GitHub marketplace uses: the engine clones it shallow, so a dumb server is refused), installs
// compact-plus from it, and a session then compacts with the installed copy alone (no --plugin-dir).
//
// Measured on 2.1.328 (tests/HOST.md, "The marketplace install"): the engine clones the whole
// marketplace repository into ~/.claude/plugins/marketplaces/, and copies the plugin entry's
// `source` folder, links followed, into ~/.claude/plugins/cache/<marketplace>/<plugin>/<version>/,
// which is what runs. `.claude-plugin/marketplace.json` names `./plugin`, the folder scripts/build
// fills with the manifests, js/ and pkg/, so the copy that runs holds those and nothing else.
//
// The repository served is this working tree's files as git sees them (tracked and untracked, not
// ignored), committed afresh in a temp folder: what a push of the tree would publish.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { claudeBin, runSession, listPaths, summaryRows, textOf, REPO_ROOT } from './harness.mjs';

const TEST_TIMEOUT_MS = 180000;
const GIT = ['-c', 'user.name=compact-plus tests', '-c', 'user.email=tests@compact-plus.invalid', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false'];

/** The working tree as a fresh repository, bare, ready to serve. */
function publish(root) {
  const tree = path.join(root, 'tree');
  fs.mkdirSync(tree, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT })
    .toString('utf8')
    .split('\0')
    .filter((f) => f && fs.existsSync(path.join(REPO_ROOT, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(tree, f)), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, f), path.join(tree, f));
  }
  execFileSync('git', [...GIT, 'init', '-q'], { cwd: tree })
  execFileSync('git', [...GIT, 'add', '-A'], { cwd: tree })
  execFileSync('git', [...GIT, 'commit', '-q', '-m', 'compact-plus as published'], { cwd: tree })
  execFileSync('git', [...GIT, 'clone', '-q', '--bare', tree, path.join(root, 'srv', 'compact-plus.git')])
  return path.join(root, 'srv')
}

/** git's smart HTTP (`git http-backend`, a CGI program) on 127.0.0.1. */
function serveGit(projectRoot) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1')
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method,
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: req.headers['git-protocol'] ?? '',
      },
    })
    req.pipe(cgi.stdin)
    let head = Buffer.alloc(0)
    let started = false
    cgi.stdout.on('data', (chunk) => {
      if (started) return res.write(chunk)
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      started = true
      let status = 200
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const at = line.indexOf(':')
        const [k, v] = [line.slice(0, at), line.slice(at + 1).trim()]
        if (k.toLowerCase() === 'status') status = parseInt(v, 10)
        else res.setHeader(k, v)
      }
      res.writeHead(status)
      res.write(head.subarray(end + 4))
    })
    cgi.stdout.on('end', () => res.end())
    cgi.on('error', () => res.destroy())
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

// Not execFileSync: the git server answering the CLI runs in this process.
async function claude(args, home) {
  const { stdout } = await promisify(execFile)(claudeBin(), args, {
    env: { PATH: process.env.PATH, HOME: home, DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    timeout: 60000,
  })
  return stdout
}

function sizeOf(dir) {
  let n = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.git') continue
    const p = path.join(dir, e.name)
    n += e.isDirectory() ? sizeOf(p) : fs.statSync(p).size
  }
  return n
}

test('a marketplace install holds what runs, and compacts', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const workDir = fs.mkdtempSync(path.join(process.env.E2E_WORK_ROOT ?? os.tmpdir(), 'cp-e2e-install-'))
  const home = path.join(workDir, 'home')
  fs.mkdirSync(home, { recursive: true })
  const server = await serveGit(publish(workDir))
  t.after(() => server.close())
  const url = `http://127.0.0.1:${server.address().port}/compact-plus.git`

  const added = await claude(['plugin', 'marketplace', 'add', url], home)
  assert.match(added, /Successfully added marketplace: compact-plus/, added)
  const installed = await claude(['plugin', 'install', 'compact-plus@compact-plus'], home)
  assert.match(installed, /Successfully installed plugin: compact-plus@compact-plus/, installed)

  const record = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8'))
  const [entry] = record.plugins['compact-plus@compact-plus']
  const copy = entry.installPath
  // What runs: the manifests, the shim, pkg/, each as scripts/build put it into plugin/.
  const files = (root) => listPaths(root).filter((p) => p.kind === 'file').map((p) => p.rel)
  const want = files(path.join(REPO_ROOT, 'plugin')).sort()
  // `.in_use/` is the engine's own mark on a copy a session runs.
  const got = files(copy).filter((p) => !p.startsWith('.in_use')).sort()
  assert.deepEqual(got, want, `the installed copy at ${copy}`)
  for (const rel of want) {
    assert.ok(fs.readFileSync(path.join(copy, rel)).equals(fs.readFileSync(path.join(REPO_ROOT, 'plugin', rel))), rel)
  }
  for (const rel of ['js/compact-plus.js', 'pkg/compact_plus_bg.wasm', 'pkg/recall/compact_plus_recall_bg.wasm', '.claude-plugin/plugin.json', 'mod.json']) {
    assert.ok(got.includes(rel), `${rel} is installed`)
  }
  const bytes = sizeOf(copy)
  assert.ok(bytes < 2 * 1024 * 1024, `the install is ${bytes} bytes`)
  t.diagnostic(`installed copy: ${got.length} files, ${(bytes / 1048576).toFixed(2)} MiB (the repository's files: ${(sizeOf(path.join(workDir, 'tree')) / 1048576).toFixed(2)} MiB)`)

  // The installed copy alone, in a session that compacts.
  const run = await runSession({ mod: 'none', workDir, label: 'install', turns: ['Please remember the word KIWI-INSTALL.', '/compact'] })
  t.after(() => { if (!process.env.E2E_KEEP) run.cleanup() })
  assert.ok(run.ok, `the session ran (work dir ${workDir})`)
  assert.match(run.debugLog, /hooks module compact-plus@compact-plus loaded/, 'the installed module loaded')
  const written = run.history.map((f) => f.rel)
  assert.ok(written.some((f) => /^[0-9a-f-]{36}\/[0-9TZ-]+-manual\.md$/.test(f)), `a history file: ${written.join(', ')}`)
  const row = summaryRows(run).at(-1)
  assert.ok(row && textOf(row.message?.content).includes('compact-plus saved the conversation'), 'the pointer is in the summary row')
})
