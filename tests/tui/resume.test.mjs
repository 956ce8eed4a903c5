// `--resume <id>` after a compaction in the real interactive terminal UI: a new CLI process in the
// same HOME goes on with the stored conversation, and its first request must carry compact-plus's
// blocks once (from the transcript: the new process has nothing pending).
//
// Measured (kit README, "Also seen in the TUI"): `--resume <id>` keeps the session id and goes on in
// the same transcript file; with a compaction in it the screen shows `Conversation compacted`.
// tests/HOST.md: the blocks of a terminal `/compact` are stored as a `context_sections` attachment row,
// "so --resume keeps it".
import { test } from 'node:test'
import fs from 'node:fs'
import path from 'node:path'
import { openTui, requestTable, checkBlocksOnce } from './driver.mjs'

/**
 * One session: two turns (one a Bash tool call), `/compact`, then `between` (the prompts typed
 * before `/exit`), then `--resume <id>` in a new process and one more prompt.
 */
async function resumeAfterCompact(t, label, between) {
  const tui = await openTui(t, { label })
  const P1 = 'Please remember the codeword OSPREY-2231 for the release notes.'
  const P2 = 'PROBE_TOOL:echo "release check RELEASE-OUT-$((6*7))-WREN"'
  const P3 = 'Back again: what was the codeword? HERON-5150'

  await tui.launch()
  await tui.say('01-turn', P1)
  await tui.say('02-tool', P2)
  await tui.say('03-compact', '/compact', { until: /Compacted/ })
  for (const [k, p] of between.entries()) await tui.say(`04-turn-${k + 1}`, p)
  await tui.exit('05-exit')
  const sid = tui.sessionId()
  if (!tui.check('the first process left a transcript', sid)) return tui.finish(t)
  const [hist] = tui.historyFiles()
  tui.check('the /compact wrote a history file', hist, tui.historyFiles().map((f) => f.name).join(', ') || 'none')

  await tui.launch(['--resume', sid])
  await tui.waitFor('06-resumed', { until: /Conversation compacted/, timeoutMs: 30000 })
  const s3 = await tui.say('07-after-resume', P3)
  await tui.exit('08-exit')
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)

  tui.check('--resume kept the session id', tui.sessionId() === sid, `${tui.sessionId()} vs ${sid}`)
  const historyRoot = path.join(tui.home, '.claude', 'compact-history')
  tui.check('one history folder (the session\'s)', fs.readdirSync(historyRoot).join(',') === sid, fs.readdirSync(historyRoot).join(', '))
  const first = tui.requests().find((r) => r.i >= tui.launchedAt && r.kind === 'normal')
  tui.check('the resumed process\'s first request is the new prompt\'s', first && first.i >= s3.from && first.i < s3.to, `#${first?.i}`)
  checkBlocksOnce(tui, 'the resumed conversation\'s first request', first, { file: hist?.path, prompts: [P1, P2] })
  tui.check('no compaction after the resume', !tui.compactionRequests().some((r) => r.i >= tui.launchedAt))
  tui.finish(t)
}

test('terminal: /compact, a turn, /exit, --resume: the resumed conversation\'s first request carries the blocks once', { timeout: 240000 }, (t) =>
  resumeAfterCompact(t, 'resume-after-turn', ['Thanks, I will be back later. FIG-7007']))

// A person who compacts and closes the terminal at once: nothing was sent after the compaction,
// so the blocks can only come from what the first process stored.
test('terminal: /compact, /exit at once, --resume: the resumed conversation\'s first request carries the blocks once', { timeout: 240000 }, (t) =>
  resumeAfterCompact(t, 'resume-at-once', []))
