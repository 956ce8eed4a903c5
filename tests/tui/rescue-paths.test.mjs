// The paths after a rescue in the real interactive terminal UI (issue [13] items 3 and 4), as they
// were tried there: `/clear` then `/compact`, and `--resume` after a rescue.
//
// The fake API (../e2e/fake-api.mjs) fails the summarizer request alone (`compactFail: '500'`, the
// kit's failures/fake-api-fail.mjs answer, measured against 2.1.328 in e2e-kit failures/README.md
// section 1); the rescue model answers (tier 1), so no digest quotes a reply. What the engine alone
// shows and stores is measured in the same runs (mod 'none') or in tests/HOST.md.
import { test } from 'node:test'
import { openTui, requestTable, allText, count, below } from './driver.mjs'

const RESCUED = '[compact-plus wrote this summary'
const ENV = { CLAUDE_CODE_MAX_RETRIES: 2 }
const NOT_ENOUGH = 'Not enough messages to compact.'
const COMPACT_END = /Compacted|Compaction failed|Error during compaction|Not enough messages|Not compacted/

for (const mod of ['repo', 'none']) {
  test(`terminal: /clear, then /compact: the engine's own message, ${mod === 'repo' ? 'and compact-plus sends no rescue' : 'no mod'}`, { timeout: 240000 }, async (t) => {
    const tui = await openTui(t, { label: `clear-compact-${mod}`, mod, env: ENV, fake: { rescueFail: '500' } })
    await tui.launch()
    await tui.say('01-turn', 'turn one: remember KIWI-1001')
    await tui.say('02-clear', '/clear', { until: /\(no content\)|cleared|Cleared|❯/ })
    const c = await tui.say('03-compact', '/compact', { until: COMPACT_END, timeoutMs: 60000 })
    const settled = (await tui.waitIdle('04-settled', 30000)).frame
    const shown = below(settled, '❯ /compact').join('\n')
    t.diagnostic(`screen after /compact: ${below(settled, '❯ /compact').filter((l) => l.trim()).slice(0, 4).join(' | ')}`)
    tui.check('the screen shows the engine\'s own refusal', shown.includes(NOT_ENOUGH), shown.slice(0, 300))
    tui.check('no rescue summary on screen', !settled.includes('compact-plus wrote this summary'))
    const after = tui.fake.requests.slice(c.from)
    tui.check('no rescue request sent', after.filter((r) => r.kind === 'rescue').length === 0, `${after.filter((r) => r.kind === 'rescue').length}`)
    tui.check('not compacted', tui.boundaries() === 0, `${tui.boundaries()}`)
    if (mod === 'repo') tui.check('log.jsonl has no rescue line', !tui.historyLog().some((e) => e.event === 'rescue'), JSON.stringify(tui.historyLog()))
    const s = await tui.say('05-turn', 'turn two: a new topic')
    tui.check('the next turn is answered', !!tui.requestWith('turn two: a new topic', s.from))
    await tui.exit()
    tui.finish(t)
  })
}

/** The whole scrollback of the current CLI window: the resumed conversation as drawn. */
const scrollback = (tui) => tui.tmux('capture-pane', '-p', '-S', '-', '-t', `tui:${tui.target}`)

test('terminal: a rescue of a 500, two turns, /exit, --resume, one turn: each reply once on screen and in the request, the rescue summary in it', { timeout: 300000 }, async (t) => {
  // Issue [13] item 4: resumed, every reply showed once per rescue, and with a tool call among the
  // messages kept after the rescue's row the rescue summary was gone from the next summarizer
  // request (tests/HOST.md, "What --resume rebuilds after a hook's compaction").
  const tui = await openTui(t, { label: 'rescue-resume', env: ENV })
  await tui.launch(['--allowedTools', 'Bash'])
  tui.fake.configure({ reply: 'REPLY-ONE' })
  await tui.say('01-turn', 'turn one: remember KIWI-1001')
  tui.fake.configure({ reply: 'REPLY-TWO' })
  await tui.say('02-tool', 'turn two: PROBE_TOOL:echo TOOL-OUT-$((6*7))')
  tui.fake.configure({ compactFail: '500' })
  const c = await tui.say('03-compact', '/compact', { until: COMPACT_END, timeoutMs: 60000 })
  tui.check('the summarizer failed and the rescue answered', tui.fake.requests.slice(c.from).some((r) => r.kind === 'compaction' && r.injected === '500') && tui.historyLog().some((e) => e.event === 'rescue'), JSON.stringify(tui.historyLog()))
  tui.fake.configure({ compactFail: null, reply: 'REPLY-THREE' })
  await tui.say('04-turn', 'turn three: after the rescue')
  tui.fake.configure({ reply: 'REPLY-FOUR' })
  await tui.say('05-turn', 'turn four: still here')
  await tui.exit('06-exit')
  const sid = tui.sessionId()
  if (!tui.check('the first process left a transcript', sid)) return tui.finish(t)

  await tui.launch(['--resume', sid, '--allowedTools', 'Bash'])
  await tui.waitIdle('07-resumed', 30000)
  tui.fake.configure({ reply: 'REPLY-FIVE' })
  const s = await tui.say('08-after-resume', 'turn five: resumed')
  const screen = await scrollback(tui)
  const replies = ['REPLY-ONE', 'REPLY-TWO', 'REPLY-THREE', 'REPLY-FOUR', 'REPLY-FIVE']
  const onScreen = replies.map((r) => screen.split('\n').filter((l) => l.includes(`● ${r}`)).length)
  tui.check('each reply once on screen', onScreen.every((n) => n === 1), replies.map((r, i) => `${r}×${onScreen[i]}`).join(' '))
  const req = tui.requestWith('turn five: resumed', s.from)
  const text = allText(req)
  const inRequest = replies.slice(0, 4).map((r) => count(text, r))
  tui.check('each reply once in the resumed turn\'s request', inRequest.every((n) => n === 1), replies.slice(0, 4).map((r, i) => `${r}×${inRequest[i]}`).join(' '))
  tui.check('the tool result once', count(text, 'TOOL-OUT-42') === 1, `${count(text, 'TOOL-OUT-42')}`)
  tui.check('the rescue summary in it, once', count(text, `${RESCUED} (summarized by the rescue model)`) === 1 && text.includes('fake rescue summary'), `${count(text, RESCUED)}`)

  // The next compaction summarizes what the person had: each reply once, the rescue's summary too.
  const d = await tui.say('09-compact', '/compact', { until: /Compacted/, timeoutMs: 60000 })
  const summarizer = tui.compactionRequests().find((r) => r.i >= d.from)
  const sent = allText(summarizer)
  const inSummarizer = replies.map((r) => count(sent, r))
  tui.check('the next summarizer request: each reply once', inSummarizer.every((n) => n === 1), replies.map((r, i) => `${r}×${inSummarizer[i]}`).join(' '))
  tui.check('the next summarizer request: the rescue summary', count(sent, RESCUED) === 1, `${count(sent, RESCUED)}`)
  await tui.exit('10-exit')
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)
  tui.finish(t)
})
