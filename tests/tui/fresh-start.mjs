// One fresh start of the real interactive CLI in tmux, the first prompt typed as soon as the prompt
// box shows, as issue [13] item 5 tried it: what reached the model, when, and whether the Enter was
// taken. Shared by tests/tui/first-prompt.test.mjs (every Enter taken) and bench/first-prompt.mjs
// (the time to the answer, with and without compact-plus and with the reference).
//
//   const s = await freshStart({ variant: 'compact-plus', install: 'marketplace', index: 3 })
//   s.enterToAnswerMs, s.enterToRequestMs, s.lost, s.exact, s.toolInFirst, s.hooks, s.tui
//
// variant: 'none' (the engine alone), 'empty' (a hooks module that hooks nothing: the host's floor),
// 'pass-through' (compact-plus's nine registrations, each passing its event on: the engine's cost of
// hosting such a mod; both bench/host-mods.mjs), 'compact-plus' (this repo), 'reference' (built
// from the seed at run time, tests/e2e/reference-mod.mjs). install: 'marketplace' (a folder marketplace in the
// throwaway HOME, `claude plugin marketplace add` + `claude plugin install`, as people install it)
// or 'plugin-dir' (`--plugin-dir` a copy: the interactive CLI then also writes type roots into the
// folder before it loads the hooks, measured: the plugins load 0.5–1 s later than installed ones,
// any mod alike, a trivial one too: tests/HOST.md).
// typing: 'at-once' (the text and the Enter sent back to back, as a paste or a fast typist), or a
// number: ms between the keys, one key per tmux call (the Enter lands that much later).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Tui, isIdle, inputLine, RECALL_TOOL, textOf } from './driver.mjs'
import { buildReferenceMod } from '../e2e/reference-mod.mjs'
import { REPO_ROOT } from '../e2e/harness.mjs'
import { buildProbe } from '../../bench/host-mods.mjs'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
/** How long a start may take to show the prompt box, and an Enter to reach the API (a busy CI). */
const SHOW_TIMEOUT_MS = 60000
const TAKEN_TIMEOUT_MS = 20000
const POLL_MS = 10

let reference = null
const probes = {}
function sourceOf(variant) {
  // TUI_PLUGIN_SRC: another tree as compact-plus (a `git archive` of another commit, to compare).
  if (variant === 'compact-plus') return process.env.TUI_PLUGIN_SRC ?? REPO_ROOT
  if (variant === 'reference') return (reference ??= buildReferenceMod())
  if (variant === 'empty' || variant === 'pass-through') return (probes[variant] ??= buildProbe(variant, fs.mkdtempSync(path.join(os.tmpdir(), 'cp-probe-'))))
  return null
}

/** Installs the plugin at `src` into the run's throwaway HOME from a folder marketplace. */
function installFromMarketplace(tui, src) {
  const mp = path.join(tui.dir, 'marketplace')
  execFileSync('bash', ['-c', `mkdir -p '${mp}' && tar -C '${src}' --exclude=./.git --exclude=./target --exclude=./node_modules --exclude=./tests/e2e/out -cf - . | tar -C '${mp}' -xf -`], { timeout: 60000 })
  const name = JSON.parse(fs.readFileSync(path.join(mp, '.claude-plugin', 'plugin.json'), 'utf8')).name
  fs.writeFileSync(path.join(mp, '.claude-plugin', 'marketplace.json'), JSON.stringify({
    name: 'first-prompt', owner: { name: 'compact-plus tests' }, plugins: [{ name, source: './', description: 'under test' }],
  }))
  const env = { PATH: process.env.PATH, HOME: tui.home, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' }
  execFileSync(tui.cli, ['plugin', 'marketplace', 'add', mp], { env, stdio: 'ignore', timeout: 60000 })
  execFileSync(tui.cli, ['plugin', 'install', `${name}@first-prompt`], { env, stdio: 'ignore', timeout: 60000 })
}

/** The prompt's text in a request: the last user message's text blocks, reminders left out. */
function promptOf(req) {
  const last = (req?.body?.messages ?? []).filter((m) => m?.role === 'user').at(-1)
  const blocks = Array.isArray(last?.content) ? last.content : [{ type: 'text', text: textOf(last?.content) }]
  return blocks.filter((b) => b?.type === 'text' && !String(b.text).startsWith('<system-reminder>')).map((b) => b.text).join('\n').trim()
}

/** The first hook times of the mod's hooks module (ours, the reference, a probe) in the debug log. */
function hookTimes(tui) {
  const times = {}
  for (const l of tui.debugLines(/hooks module (compact-plus|probe-)\S*@\S+ \S+ settled in/)) {
    const m = /hooks module \S+@\S+ (\S+) settled in ([\d.]+)ms/.exec(l)
    if (m && times[m[1]] === undefined) times[m[1]] = Number(m[2])
  }
  return times
}

/**
 * Starts the CLI, waits for the prompt box (polled every 10 ms), types the first prompt and presses
 * Enter, then waits for the answer on screen. `tui` is returned open: the caller closes it
 * (`tui.close()`), or passes `t` to have the test do it (`openTui`'s folder handling).
 */
export async function freshStart({ variant = 'compact-plus', install = 'marketplace', typing = 'at-once', index = 0, label = 'first-prompt', tree = null } = {}) {
  // `tree`: the plugin folder to install under this variant's name (an earlier commit's, to compare).
  const src = tree ?? sourceOf(variant)
  const answer = `ANSWER-${index}-${Math.random().toString(36).slice(2, 8)}`
  const tui = new Tui({ label: `${label}-${variant.replace(/\W+/g, '-')}`, mod: src && install === 'plugin-dir' ? 'repo' : 'none', src, fake: { reply: answer } })
  await tui.prepare()
  if (src && install === 'marketplace') installFromMarketplace(tui, src)
  const prompt = `first prompt ${index}: say hello`
  const out = { variant, install, typing, index, prompt, tui, lost: false, exact: false, cleared: false, toolInFirst: false }
  const t0 = Date.now()
  await tui.launch([], { wait: false })
  let screen = ''
  for (;;) {
    screen = await tui.screen().catch(() => '')
    if (isIdle(screen)) break
    if (Date.now() - t0 > SHOW_TIMEOUT_MS) throw new Error(`start ${index} (${variant}): no prompt box within ${SHOW_TIMEOUT_MS} ms; kept ${tui.dir}`)
    await sleep(POLL_MS)
  }
  out.shownMs = Date.now() - t0
  const key = (...k) => tui.tmux('send-keys', '-t', `tui:${tui.target}`, ...k)
  if (typing === 'at-once') {
    await key('-l', prompt)
  } else {
    for (const ch of prompt) {
      await key('-l', ch)
      await sleep(Number(typing))
    }
  }
  await key('Enter')
  const tEnter = Date.now()
  const normal = () => tui.fake.requests.find((r) => r.kind === 'normal')
  for (;;) {
    screen = await tui.screen().catch(() => '')
    const req = normal()
    if (req && out.enterToRequestMs === undefined) out.enterToRequestMs = Date.now() - tEnter
    if (screen.includes(answer)) {
      out.enterToAnswerMs = Date.now() - tEnter
      break
    }
    if (!req && Date.now() - tEnter > TAKEN_TIMEOUT_MS) {
      // The Enter was not taken: issue [13] item 5 saw the text stay in the box.
      out.lost = true
      out.boxAfter = inputLine(screen)
      break
    }
    if (Date.now() - tEnter > TAKEN_TIMEOUT_MS * 3) break
    await sleep(POLL_MS)
  }
  fs.writeFileSync(path.join(tui.cap, 'after-enter.txt'), screen)
  const first = normal()
  out.requestPrompt = first ? promptOf(first) : null
  // Every keystroke taken: the request carries the prompt exactly, once (not joined to another).
  out.exact = out.requestPrompt === prompt
  out.cleared = !out.lost && (inputLine(screen) ?? '').trim() === ''
  out.toolInFirst = (first?.body?.tools ?? []).some((t) => t?.name === RECALL_TOOL)
  // The recall tool as `$.tool.register` named it before it joined through `tool.list` (an earlier tree).
  out.mcpToolInFirst = (first?.body?.tools ?? []).some((t) => t?.name === 'mcp__compact-plus__recall')
  out.hooks = hookTimes(tui)
  return out
}
