// The real interactive Claude Code (its terminal UI, not `-p`), driven in tmux, offline against the
// fake Messages API, with compact-plus loaded from a copy of this repo. Node 20, no dependencies
// beyond tmux, tar and coreutils `timeout`.
//
// Adapted from the kit's scripts (/work/shared/e2e-kit/tui/, CI's ../shared/e2e-kit/tui/: tui-start.sh,
// tui-say.sh, tui-wait.sh, tui-watch.sh, tui-requests.mjs) into a library, with the repo's fake API
// (../e2e/fake-api.mjs) in this process, so a test reads every request as it arrives.
//
//   const tui = await openTui(t, { label: 'compact', env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: 100000 } })
//   await tui.launch()                       // the CLI in tmux, back once the prompt box shows
//   await tui.say('01-turn', 'hello')        // types, presses Enter, waits for "· done" below it
//   await tui.say('02-compact', '/compact', { until: /Compacted/ })
//   tui.requests(), tui.historyFiles(), tui.historyLog(), tui.transcript(), tui.check(...)
//
// Everything of one test lives in its own output folder (a throwaway HOME, the project folder, the
// plugin copy, its own tmux socket, requests.jsonl, debug-<launch>.log, and cap/: every distinct screen
// frame of every step). The folder is removed when the test passes (unless TUI_KEEP=1) and kept,
// and named in the failure, when it does not. TUI_WORK_ROOT: where the folders go (default the
// system's temp folder). TUI_PLUGIN_SRC: the tree copied as the plugin folder (default this repo;
// e.g. a `git archive` export of another commit, to compare).
import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startFakeApi } from '../e2e/fake-api.mjs'
import { claudeBin, findTranscript, readJsonl, textOf, instructionsIn, REPO_ROOT } from '../e2e/harness.mjs'

export { textOf }

// The recall tool's name: a tool the shim's `tool.list` hook adds (src/recall_tool.rs TOOL_NAME).
export const RECALL_TOOL = 'compact_plus_recall'
// The texts compact-plus puts in front of a person or a model (src/compaction/handoff.rs, src/compaction/verbatim.rs).
export const HANDOFF_HEAD = 'From the compact-plus mod:'
export const VERBATIM_OPEN = '<user-messages-verbatim>'
export const POINTER_HEAD = 'compact-plus saved the conversation from before this compaction'
// tests/HOST.md: the visible line a turn-end compaction is queued with, replaced by the handoff.
export const TURN_END_MARKER = 'compact-plus: compacting between turns'

const POLL_MS = 100
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// tmux servers still up (one per test), killed if this process ends before a test closes its own.
const liveSockets = new Set()
const killServers = () => {
  for (const sock of liveSockets) {
    try { execFileSync('tmux', ['-S', sock, 'kill-server'], { stdio: 'ignore', timeout: 5000 }) } catch {}
  }
}
process.on('exit', killServers)
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => { killServers(); process.exit(128 + { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig]) })

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 15000, maxBuffer: 8 << 20, ...opts }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { stdout, stderr }))
      else resolve(stdout)
    })
  })
}

const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`

/** The lines of `screen` below the last line holding `anchor` (all lines when there is no anchor). */
export function below(screen, anchor) {
  const lines = screen.split('\n')
  if (!anchor) return lines
  let at = -1
  lines.forEach((l, i) => { if (l.includes(anchor)) at = i })
  return at < 0 ? [] : lines.slice(at + 1)
}

/** The text of the prompt box: the last `❯ ` line on the screen (the transcript's echoes are above it). */
export function inputLine(screen) {
  const lines = screen.split('\n').filter((l) => l.startsWith('❯'))
  return lines.length ? lines[lines.length - 1].replace(/^❯\s?/, '') : null
}

/**
 * Ready for input: the footer is up and nothing runs. Seen in this suite's frames: the footer reads
 * `… (shift+tab to cycle) · esc to interrupt` while a turn or a compaction runs, without the latter after.
 */
export const isIdle = (screen) => screen.includes('shift+tab to cycle') && !screen.includes('esc to interrupt')

/** How often `needle` occurs in `hay`. */
export function count(hay, needle) {
  let n = 0
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) n++
  return n
}

/** The messages of a request without the mid-conversation `system` role ones. */
const conversation = (req) => (req?.body?.messages ?? []).filter((m) => m && m.role !== 'system')

/** The text of the last message of a request (the summarizer prompt for a compaction request). */
export function lastMessageText(req) {
  const msgs = conversation(req)
  return textOf(msgs[msgs.length - 1]?.content)
}

/** The paragraph after `Additional Instructions:` of a summarizer prompt (the engine's "REMINDER" cut off). */
export const additionalInstructions = (req) => instructionsIn(lastMessageText(req))

/** Every tool_result block a request carries: [{ text, isError }]. */
export function toolResults(req) {
  return conversation(req).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b?.type === 'tool_result').map((b) => ({ text: textOf(b.content) ?? String(b.content ?? ''), isError: b.is_error }))
}

/** Does any message of the request (the mid-conversation system ones aside) hold `text`? */
export const carries = (req, text) => conversation(req).some((m) => textOf(m.content).includes(text))

/**
 * Opens a TUI run for test `t`: the output folder, the fake API, the plugin copy. The run closes
 * with the test: its tmux server and fake stop; its folder goes when the test passed.
 * opts: label, env (extra env for the CLI), fake (starting knobs of ../e2e/fake-api.mjs), mod
 * ('repo', the default: compact-plus from the plugin copy; 'none': the CLI with no --plugin-dir, the
 * engine alone, to compare)
 */
export async function openTui(t, opts = {}) {
  const tui = new Tui(opts)
  await tui.prepare()
  t.diagnostic(`output folder ${tui.dir}`)
  t.after(async () => {
    await tui.close()
    if (tui.ok && !process.env.TUI_KEEP) fs.rmSync(tui.dir, { recursive: true, force: true })
    else t.diagnostic(`kept ${tui.dir} (screen frames in cap/, requests.jsonl, debug-*.log, home/)`)
  })
  return tui
}

export class Tui {
  constructor({ label = 'run', env = {}, fake = {}, mod = 'repo', src = null } = {}) {
    this.label = label.replace(/[^A-Za-z0-9_.-]/g, '_')
    this.withPlugin = mod !== 'none'
    // The tree copied as the plugin folder: `src`, else TUI_PLUGIN_SRC, else this repo.
    this.src = src
    this.extraEnv = env
    this.knobs = fake
    this.launches = 0
    this.ok = false
    this.checks = []
  }

  async prepare() {
    await run('tmux', ['-V']).catch(() => {
      throw new Error('tmux is not installed: scripts/setup installs Debian\'s tmux (as root), or install it by hand')
    })
    const root = process.env.TUI_WORK_ROOT ?? os.tmpdir()
    fs.mkdirSync(root, { recursive: true })
    this.dir = fs.realpathSync(fs.mkdtempSync(path.join(root, `cp-tui-${this.label}-`)))
    this.home = path.join(this.dir, 'home')
    this.proj = path.join(this.dir, 'proj')
    this.cap = path.join(this.dir, 'cap')
    this.mod = path.join(this.dir, 'mod')
    for (const d of [this.home, path.join(this.home, '.claude'), this.proj, this.cap, this.mod]) fs.mkdirSync(d, { recursive: true })
    // A unix socket path is at most 107 bytes.
    const sock = path.join(this.dir, 'tmux.sock')
    this.sock = sock.length < 100 ? sock : path.join(os.tmpdir(), `cp-tui-${process.pid}-${Date.now().toString(36)}.sock`)
    this.cli = fs.realpathSync(claudeBin())
    // The interactive CLI writes .claude-plugin/types/ and a root tsconfig.json into its
    // --plugin-dir (kit README, item 3): it gets a copy of the repo, never the checkout.
    const src = this.src ?? process.env.TUI_PLUGIN_SRC ?? REPO_ROOT
    await run('bash', ['-c', `set -o pipefail; tar -C ${q(src)} --exclude=./.git --exclude=./target --exclude=./node_modules --exclude=./fuzz/target --exclude=./fuzz/corpus `
      + `--exclude=./tests/e2e/out -cf - . | tar -C ${q(this.mod)} -xf -`], { timeout: 60000 })
    // The kit's throwaway HOME (tui-start.sh): no onboarding, API-key or trust prompt for the project.
    fs.writeFileSync(path.join(this.home, '.claude.json'), JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: '2.1.328',
      theme: 'dark',
      numStartups: 5,
      customApiKeyResponses: { approved: ['dummy-key'], rejected: [] },
      projects: { [this.proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
    }, null, 2))
    this.fake = await startFakeApi({ knobs: this.knobs, logPath: path.join(this.dir, 'requests.jsonl') })
  }

  /**
   * Starts the CLI (again, for --resume) in a new tmux window of this run's own server, and comes
   * back once the prompt box shows (with `wait: false`, at once: the caller watches for it). Each
   * launch gets a fresh window name `cli<N>`.
   */
  async launch(args = [], { timeoutMs = 60000, wait = true } = {}) {
    this.launches++
    this.target = `cli${this.launches}`
    this.launchedAt = this.fake.requests.length
    const env = {
      PATH: process.env.PATH,
      HOME: this.home,
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      ANTHROPIC_API_KEY: 'dummy-key',
      ANTHROPIC_BASE_URL: this.fake.url,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      ...Object.fromEntries(Object.entries(this.extraEnv).map(([k, v]) => [k, String(v)])),
    }
    const argv = ['--debug-file', path.join(this.dir, `debug-${this.launches}.log`),
      ...(this.withPlugin ? ['--plugin-dir', this.mod] : []), ...args]
    // A clean environment (env -i): nothing of the calling session leaks into the CLI. The
    // watchdog (timeout -s KILL) ends a CLI that outlives its test by any route.
    const script = ['#!/bin/bash', `cd ${q(this.proj)}`,
      `exec env -i ${Object.entries(env).map(([k, v]) => `${k}=${q(v)}`).join(' ')} \\`,
      `  timeout --foreground -s KILL 600 ${q(this.cli)} ${argv.map(q).join(' ')}`, ''].join('\n')
    const file = path.join(this.dir, `run-claude-${this.launches}.sh`)
    fs.writeFileSync(file, script, { mode: 0o755 })
    const shell = `${q(file)}; echo "EXITED rc=$?"; sleep 600`
    if (this.launches === 1) {
      await this.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'tui', '-n', this.target, '-x', '200', '-y', '50', shell)
      liveSockets.add(this.sock)
    } else {
      await this.tmux('new-window', '-d', '-t', 'tui', '-n', this.target, shell)
      await this.tmux('resize-window', '-t', `tui:${this.target}`, '-x', '200', '-y', '50').catch(() => {})
    }
    if (!wait) return
    await this.waitFor(`${String(this.launches).padStart(2, '0')}-start`, { until: isIdle, timeoutMs })
  }

  tmux(...args) {
    return run('tmux', ['-u', '-S', this.sock, ...args])
  }

  /** The visible screen of the current CLI window. */
  async screen() {
    return this.tmux('capture-pane', '-p', '-t', `tui:${this.target}`)
  }

  /**
   * Polls the screen until `until` (a RegExp, tested on the lines below `anchor`, or a function of
   * the whole screen) holds, keeping every distinct frame in cap/<name>/frame-<ms>.txt and the last
   * in cap/<name>.txt. Throws on timeout, naming the capture (with `soft`, returns { timedOut: true }).
   */
  async waitFor(name, { until, anchor = null, timeoutMs = 60000, stableMs = 0, soft = false }) {
    const dir = path.join(this.cap, name)
    fs.mkdirSync(dir, { recursive: true })
    const t0 = Date.now()
    let prev = null
    let since = null
    for (;;) {
      const ms = Date.now() - t0
      const frame = await this.screen().catch((err) => `(no screen: ${err.message})`)
      if (frame !== prev) {
        fs.writeFileSync(path.join(dir, `frame-${String(ms).padStart(6, '0')}.txt`), frame)
        prev = frame
      }
      const hit = typeof until === 'function' ? until(frame) : below(frame, anchor).some((l) => until.test(l))
      if (hit) {
        since ??= Date.now()
        if (Date.now() - since >= stableMs) {
          fs.writeFileSync(path.join(this.cap, `${name}.txt`), frame)
          return { ms, frame }
        }
      } else since = null
      if (ms > timeoutMs) {
        fs.writeFileSync(path.join(this.cap, `${name}.txt`), frame)
        if (soft) return { ms, frame, timedOut: true }
        throw new Error(`${name}: the screen did not show ${until} ${anchor ? `below "${anchor}" ` : ''}within ${timeoutMs} ms; `
          + `last screen: ${path.join(this.cap, `${name}.txt`)}`)
      }
      await sleep(POLL_MS)
    }
  }

  /** Waits until the CLI takes input (footer up, no spinner), steady for 300 ms. */
  waitIdle(name, timeoutMs = 60000) {
    return this.waitFor(name, { until: isIdle, timeoutMs, stableMs: 300 })
  }

  /**
   * Types `text` like a person once the CLI is idle, waits for it in the prompt box, presses Enter and
   * waits for `until` (default the turn's "· done" line) below the echoed prompt. Returns
   * { from, to }: the fake's request count when Enter was pressed and when the pattern showed.
   */
  async say(name, text, { until = /· done/, timeoutMs = 90000 } = {}) {
    await this.waitIdle(`${name}-idle`, timeoutMs)
    await this.tmux('send-keys', '-t', `tui:${this.target}`, '-l', text)
    const head = text.slice(0, 60)
    await this.waitFor(`${name}-typed`, { until: (s) => (inputLine(s) ?? '').startsWith(head), timeoutMs: 15000 })
    const from = this.fake.requests.length
    await this.tmux('send-keys', '-t', `tui:${this.target}`, 'Enter')
    await this.waitFor(name, { until, anchor: `❯ ${head}`, timeoutMs })
    return { from, to: this.fake.requests.length }
  }

  /** Types /exit and waits for the CLI to end (the window then shows `EXITED rc=`). */
  async exit(name = 'zz-exit') {
    await this.waitIdle(`${name}-idle`, 30000).catch(() => {})
    await this.tmux('send-keys', '-t', `tui:${this.target}`, '-l', '/exit')
    await this.waitFor(`${name}-typed`, { until: (s) => (inputLine(s) ?? '').startsWith('/exit'), timeoutMs: 15000 })
    await this.tmux('send-keys', '-t', `tui:${this.target}`, 'Enter')
    await this.waitFor(name, { until: /EXITED rc=/, timeoutMs: 30000 })
  }

  async close() {
    if (this.target) {
      try { fs.writeFileSync(path.join(this.cap, 'zz-last.txt'), await this.screen()) } catch {}
    }
    if (liveSockets.has(this.sock)) {
      await this.tmux('kill-server').catch(() => {})
      liveSockets.delete(this.sock)
    }
    if (this.sock && !this.sock.startsWith(this.dir)) fs.rmSync(this.sock, { force: true })
    await this.fake?.close()
  }

  // ---- what the run left: requests, history, log, transcript -------------------------------

  /** The /v1/messages requests (normal and compaction), each with its index `i` in the fake's log. */
  requests() {
    return this.fake.requests.map((r, i) => ({ ...r, i })).filter((r) => r.kind === 'normal' || r.kind === 'compaction')
  }

  compactionRequests() {
    return this.requests().filter((r) => r.kind === 'compaction')
  }

  /** The first normal request at or after index `from` that carries `text` (the turn's first request). */
  requestWith(text, from = 0) {
    return this.requests().find((r) => r.i >= from && r.kind === 'normal' && carries(r, text)) ?? null
  }

  /** The session's id: the transcript's file name (one session per HOME; --resume keeps it). */
  /** The session's id: its transcript is the one written last (a test may place older ones). */
  sessionId() {
    const dir = path.join(this.home, '.claude', 'projects')
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).flatMap((d) => fs.readdirSync(path.join(dir, d)).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, d, f))) : []
    const newest = files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]
    return newest ? path.basename(newest).replace(/\.jsonl$/, '') : null
  }

  transcript() {
    const file = findTranscript(path.join(this.home, '.claude'), this.sessionId())
    return file ? readJsonl(file) : []
  }

  historyDir() {
    return path.join(this.home, '.claude', 'compact-history', this.sessionId() ?? '(no session)')
  }

  /** The history .md files, oldest first: [{ name, path, text }]. */
  historyFiles() {
    const dir = this.historyDir()
    if (!fs.existsSync(dir)) return []
    // The history parts, not the summaries saved beside them (`<time>-<trigger>.summary.md`).
    return fs.readdirSync(dir).filter((f) => f.endsWith('.md') && !f.endsWith('.summary.md')).sort()
      .map((name) => ({ name, path: path.join(dir, name), text: fs.readFileSync(path.join(dir, name), 'utf8') }))
  }

  historyLog() {
    return readJsonl(path.join(this.historyDir(), 'log.jsonl'))
  }

  /** The CLI's debug-log lines (every launch) matching `re`, without their time stamps. */
  debugLines(re) {
    return fs.readdirSync(this.dir).filter((f) => /^debug-\d+\.log$/.test(f)).sort()
      .flatMap((f) => fs.readFileSync(path.join(this.dir, f), 'utf8').split('\n'))
      .filter((l) => re.test(l)).map((l) => l.replace(/^\S+ \[\w+\] /, ''))
  }

  /** How many compact_boundary rows the transcript holds. */
  boundaries() {
    return this.transcript().filter((r) => r.type === 'system' && r.subtype === 'compact_boundary').length
  }

  /**
   * What the transcript stores after compaction number `k` (0-based), up to the next one: the summary
   * row's text and every `context_sections` attachment's section texts (the two rows the engine
   * sends on, and replays on --resume). api-request-blob rows (copies of requests) are left out.
   */
  storedAfter(k) {
    const rows = this.transcript()
    const at = rows.map((r, i) => (r.type === 'system' && r.subtype === 'compact_boundary' ? i : -1)).filter((i) => i >= 0)
    if (k >= at.length) return null
    const seg = rows.slice(at[k] + 1, at[k + 1] ?? rows.length)
    const summary = seg.find((r) => r.type === 'user' && r.isCompactSummary)
    const sections = seg.filter((r) => r.type === 'attachment' && r.attachment?.type === 'context_sections')
      .flatMap((r) => (r.attachment.sections ?? []).map((s) => `# ${s.name}\n${s.text}`))
    return { summary: summary ? textOf(summary.message?.content) : null, sections, text: [summary ? textOf(summary.message?.content) : '', ...sections].join('\n') }
  }

  // ---- verdicts -----------------------------------------------------------------------------

  /** Records one check; `finish()` fails the test with every failed one. */
  check(name, ok, detail = '') {
    this.checks.push({ name, ok: !!ok, detail })
    return !!ok
  }

  /** Fails with the list of failed checks (and where the frames are), or marks the run passed. */
  finish(t) {
    for (const c of this.checks) t.diagnostic(`${c.ok ? 'PASS' : 'FAIL'} ${c.name}${c.detail ? ` (${c.detail})` : ''}`)
    const failed = this.checks.filter((c) => !c.ok)
    if (failed.length) {
      throw new Error(`${failed.length} of ${this.checks.length} checks failed:\n`
        + failed.map((c) => `  - ${c.name}${c.detail ? `: ${c.detail}` : ''}`).join('\n')
        + `\nscreen frames of every step: ${this.cap}; requests: ${path.join(this.dir, 'requests.jsonl')}`)
    }
    this.ok = true
  }
}

/** One line per /v1/messages request, like the kit's tui-requests.mjs: for a failure's diagnostics. */
export function requestTable(tui) {
  return tui.requests().map((r) => {
    const s = JSON.stringify(r.body ?? {})
    const f = (b, flag) => (b ? flag : '-'.repeat(flag.length))
    return [`#${r.i}`, r.kind.padEnd(10), `in=${r.inputTokens}`.padEnd(9), `msgs=${(r.body?.messages ?? []).length}`.padEnd(7),
      f((r.body?.tools ?? []).some((x) => x?.name === RECALL_TOOL), 'tools'), f(s.includes(HANDOFF_HEAD), 'handoff'),
      `verbatim×${count(s, VERBATIM_OPEN)}`, `pointer×${count(s, POINTER_HEAD)}`, r.toolUse ? `tool_use:${r.toolUse.name}` : ''].join(' ')
  }).join('\n')
}

/** All the text a request carries in `messages`, every role. */
export const allText = (req) => (req?.body?.messages ?? []).map((m) => textOf(m.content)).join('\n')

/** The verbatim block in `text` (the last one), or null. */
export function verbatimBlock(text) {
  const start = text.lastIndexOf(VERBATIM_OPEN)
  const end = text.indexOf('</user-messages-verbatim>', start)
  return start >= 0 && end > start ? text.slice(start, end) : null
}

/** The words of a verbatim block (verbatimBlock's), oldest first, and how many are marked current. */
export function blockWords(block) {
  const pieces = (block ?? '').split('\n--- user message ').slice(1)
  return {
    words: pieces.map((p) => p.slice(p.indexOf(' ---\n') + 5).trim()),
    current: pieces.filter((p) => p.startsWith('(current request')).length,
  }
}

/**
 * Checks that request `req` carries compact-plus's blocks exactly once, counted over the whole
 * request body (system, messages, tools): the verbatim block holding `prompts` in order, and the
 * pointer naming `file`; with `current`, that many of its messages marked current (0 where the
 * blocks come with a new prompt: issue [13] item 2).
 */
export function checkBlocksOnce(tui, where, req, { file = null, prompts = [], current = null } = {}) {
  if (!tui.check(`${where}: the request was sent`, req, req ? '' : 'no such request')) return
  const body = JSON.stringify(req.body ?? {})
  const v = count(body, VERBATIM_OPEN)
  const p = count(body, POINTER_HEAD)
  tui.check(`${where} (request #${req.i}): the verbatim block exactly once`, v === 1, `${v} copies of ${VERBATIM_OPEN}`)
  tui.check(`${where} (request #${req.i}): the pointer exactly once`, p === 1, `${p} copies of "${POINTER_HEAD}"`)
  const text = allText(req)
  if (file && p) tui.check(`${where}: the pointer names the history file`, text.includes(`"${file}"`), path.basename(file))
  const block = verbatimBlock(text)
  if (v >= 1 && prompts.length) {
    let from = 0
    const missing = prompts.find((pr) => { const i = block?.indexOf(pr, from) ?? -1; if (i < 0) return true; from = i + pr.length; return false })
    tui.check(`${where}: the verbatim block holds the person's prompts in order`, !missing, missing ? `lacks ${JSON.stringify(missing)}` : `${prompts.length} prompts`)
  }
  if (v >= 1 && current !== null) {
    const marked = blockWords(block).current
    tui.check(`${where}: ${current} of its messages marked current`, marked === current, `${marked} marked`)
  }
}

/** Checks that the transcript stores the blocks of compaction `k` once (summary row or context_sections row). */
export function checkStoredOnce(tui, where, k, { file = null } = {}) {
  const stored = tui.storedAfter(k)
  if (!tui.check(`${where}: the transcript has compaction ${k + 1}`, stored, stored ? '' : `${tui.boundaries()} compact_boundary rows`)) return
  const v = count(stored.text, VERBATIM_OPEN)
  const p = count(stored.text, POINTER_HEAD)
  tui.check(`${where}: the engine's summary row keeps isCompactSummary`, stored.summary !== null)
  const rows = `${stored.summary === null ? 'no' : 'a'} summary row, ${stored.sections.length} context_sections section(s)`
  tui.check(`${where}: the transcript stores the verbatim block once`, v === 1, `${v} copies; ${rows}`)
  tui.check(`${where}: the transcript stores the pointer once`, p === 1, `${p} copies; ${rows}`)
  if (file && p) tui.check(`${where}: the stored pointer names the history file`, stored.text.includes(`"${file}"`), path.basename(file))
}
