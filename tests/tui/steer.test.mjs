// Issue [16] in the real interactive terminal, typed into like a person: what the screen shows
// after a compaction (the receipt below `Compacted`), `/pin`, `/unpin` and `/recall` answered on
// screen with no model request, a pin through five compactions and `--resume`, the brief at a new
// session's start, and the options off. What the engine does here was measured first
// (tests/HOST.md, "The person's commands and lines"): a command a hook answers without `next` runs
// nothing beneath it; its row is drawn as a hook left it at door `command`; `$.ui.log` lines are
// drawn as `● compact-plus: …` rows, below `Compacted` when logged after the hook returned.
import { test } from 'node:test'
import fs from 'node:fs'
import path from 'node:path'
import { openTui, requestTable, count, allText } from './driver.mjs'

const KEY = `sk-ant-api03-${'Ab3dEf6hIj'.repeat(9)}-AA`
const PIN = 'Never push to main; open a pull request. PIN-16'
const SUMMARY = '1. Primary Request and Intent:\n   Fix the flaky parser test.\n\n7. Pending Tasks:\n   - Re-run the whole suite NEXT-KIWI\n\n## Open Questions\n- Keep the public API? OPEN-LIME'
const BRIEF_HEAD = 'From compact-plus: a brief from an earlier session of this project'

/** The lines of `screen` from the last one holding `anchor` on. */
function from(screen, anchor) {
  const lines = screen.split('\n')
  let at = -1
  lines.forEach((l, i) => { if (l.includes(anchor)) at = i })
  return at < 0 ? [] : lines.slice(at)
}

/** A slash command: typed, Enter, the screen waited on for `until` anywhere (a rewritten row is drawn rewritten). */
const slash = (tui, name, text, until) => tui.say(name, text, { until: (s) => until.test(s) })

test('terminal: the receipt below Compacted; /pin, /recall and /unpin answered on screen with no model request', { timeout: 300000 }, async (t) => {
  const tui = await openTui(t, { label: 'steer' })
  const P1 = `Please fix the flaky parser test KIWI-7781; deploy with my key ${KEY}`
  await tui.launch()
  await tui.say('01-turn', P1)
  await tui.say('02-tool', 'PROBE_TOOL:echo "test result: FAILED parser::tests::nested TOOL-OUT-16"')

  const pin = await slash(tui, '03-pin', `/pin ${PIN}`, /compact-plus: pinned as pin 1 \(/)
  tui.check('/pin: no model request', pin.to === pin.from, `${pin.to - pin.from} requests`)
  const list = await slash(tui, '04-pin-list', '/pin', /1\. Never push to main/)
  tui.check('/pin alone lists the pin: no model request', list.to === list.from)

  await tui.say('05-compact', '/compact', { until: /Compacted/ })
  const { frame } = await tui.waitFor('05-receipt', { until: (s) => /redacted 1 credential/.test(s), timeoutMs: 15000 })
  const below = from(frame, 'Compacted (ctrl+o')
  const saved = below.findIndex((l) => l.includes('● compact-plus: history saved to ~/.claude/compact-history/'))
  const redacted = below.findIndex((l) => l.includes('● compact-plus: redacted 1 credential (1 anthropic-key)'))
  tui.check('the receipt is drawn below "Compacted"', saved > 0 && redacted > saved, below.slice(0, 6).join(' | '))
  tui.check('its first line: the history file, its size, the words kept, the pin', saved > 0 && / \(\d+(\.\d)? (B|KB)\) · \d+ of your messages kept word for word.* · 1 pin kept/.test(below.slice(saved, redacted).join(' ')), below[saved])
  tui.check('no credential on screen after /pin', !frame.includes('sk-ant-api03-Ab3d') || frame.indexOf('sk-ant-api03-Ab3d') < frame.indexOf('/pin'))

  const s3 = await tui.say('06-after-compact', 'What next? LIME-4410')
  const r3 = tui.requestWith('LIME-4410', s3.from)
  const b3 = JSON.stringify(r3?.body ?? {})
  tui.check('after /compact: the pin once, in the block with the words', count(b3, 'PIN-16') === 1 && count(b3, '<user-pinned>') === 1, `${count(b3, 'PIN-16')} copies`)
  tui.check('no /pin line with its text reached the model', tui.requests().every((r) => !JSON.stringify(r.body).includes('<command-args>Never push')))
  tui.check('no receipt in any request', tui.requests().every((r) => !JSON.stringify(r.body).includes('history saved to')))

  const rc = await slash(tui, '07-recall', '/recall KIWI-7781', /for you alone: nothing of this goes to the model/)
  tui.check('/recall: no model request', rc.to === rc.from, `${rc.to - rc.from} requests`)
  const shot = fs.readFileSync(path.join(tui.cap, '07-recall.txt'), 'utf8')
  tui.check('/recall shows the file and the message heading to open', /-manual\.md:\d+ · compaction .* · \[\d+\] user/.test(shot), shot.split('\n').filter((l) => l.includes('──')).join(' | '))
  tui.check('the command line is drawn without the query', /❯ \/recall\s*$/m.test(shot))
  const s4 = await tui.say('08-after-recall', 'Thanks. PLUM-1234')
  const b4 = allText(tui.requestWith('PLUM-1234', s4.from))
  tui.check('after /recall: neither its query nor its answer in the request', !b4.includes('<command-args>KIWI-7781') && !b4.includes("this session (saved history):"), b4.slice(-300))

  const un = await slash(tui, '09-unpin', '/unpin 1', /compact-plus: unpinned "Never push to main/)
  tui.check('/unpin: no model request', un.to === un.from)
  await tui.say('10-compact', '/compact', { until: /Compacted/ })
  await tui.waitFor('10-receipt', { until: (s) => from(s, 'Compacted (ctrl+o').some((l) => l.includes('history saved to')), timeoutMs: 15000 })
  const s5 = await tui.say('11-after-unpin', 'And now? FIG-9902')
  const b5 = JSON.stringify(tui.requestWith('FIG-9902', s5.from)?.body ?? {})
  tui.check('after /unpin and /compact: no pin', count(b5, 'PIN-16') === 0 && count(b5, '<user-pinned>') === 0, `${count(b5, 'PIN-16')} copies`)
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)
  tui.finish(t)
})

test('terminal: a pin through five compactions and --resume, once in each request', { timeout: 400000 }, async (t) => {
  const tui = await openTui(t, { label: 'steer-pins' })
  await tui.launch()
  await tui.say('01-turn', 'Please fix the flaky parser test KIWI-7781')
  await slash(tui, '02-pin', `/pin ${PIN}`, /pinned as pin 1/)
  for (let n = 1; n <= 5; n++) {
    await tui.say(`${n}-compact`, '/compact', { until: /Compacted/ })
    const s = await tui.say(`${n}-turn`, `step ${n} STEP-${n}0`)
    const b = JSON.stringify(tui.requestWith(`STEP-${n}0`, s.from)?.body ?? {})
    tui.check(`compaction ${n}: the pin once`, count(b, 'PIN-16') === 1 && count(b, '<user-pinned>') === 1, `${count(b, 'PIN-16')} copies`)
  }
  await tui.exit('6-exit')
  await tui.launch(['--resume', tui.sessionId()])
  await tui.say('7-compact', '/compact', { until: /Compacted/ })
  const s = await tui.say('7-turn', 'after the resume STEP-70')
  const b = JSON.stringify(tui.requestWith('STEP-70', s.from)?.body ?? {})
  tui.check('after --resume and /compact: the pin once', count(b, 'PIN-16') === 1, `${count(b, 'PIN-16')} copies`)
  await tui.exit('8-exit')
  tui.finish(t)
})

test('terminal: a new session shows and gets the brief from the last one; with the options off, no brief and no receipt', { timeout: 300000 }, async (t) => {
  const tui = await openTui(t, { label: 'steer-brief', fake: { summary: SUMMARY } })
  await tui.launch()
  await tui.say('01-turn', 'Please fix the flaky parser test KIWI-7781')
  await tui.say('02-compact', '/compact', { until: /Compacted/ })
  await tui.exit('03-exit')
  const earlier = tui.sessionId()

  // A new session in the same project (no --resume): the brief goes with its first prompt (the
  // terminal asks the context when the first prompt is sent), and its line is on screen.
  await tui.launch()
  const s = await tui.say('05-first', 'Where were we? BRIEF-Q1')
  const { frame } = await tui.waitFor('05-brief', { until: (f) => f.includes('● compact-plus: gave the model a brief from an earlier session of this project'), timeoutMs: 15000 })
  tui.check('the brief\'s line names the earlier session', frame.includes(`(${earlier.slice(0, 8)}, summary of `), earlier)
  const r = tui.requestWith('BRIEF-Q1', s.from)
  const text = allText(r)
  tui.check('the first request carries the brief once', count(JSON.stringify(r?.body ?? {}), BRIEF_HEAD) === 1)
  tui.check('with its next steps and open questions', text.includes('NEXT-KIWI') && text.includes('OPEN-LIME'))
  const brief = text.slice(text.indexOf(BRIEF_HEAD), text.indexOf('</earlier-session-brief>'))
  tui.check('and nothing of the engine\'s paragraph after the summary ("Continue the conversation…")', brief.length > 0 && !brief.includes('Continue the conversation'))
  tui.check('before the prompt, never as the request', text.indexOf(BRIEF_HEAD) < text.indexOf('BRIEF-Q1') && text.includes('Nothing in it is a request'))
  const s2 = await tui.say('06-second', 'And then? BRIEF-Q2')
  tui.check('the second request: still once', count(JSON.stringify(tui.requestWith('BRIEF-Q2', s2.from)?.body ?? {}), BRIEF_HEAD) === 1)
  await tui.exit('07-exit')

  // Both options off.
  fs.writeFileSync(path.join(tui.home, '.claude', 'settings.json'), JSON.stringify({ pluginConfigs: { 'compact-plus': { options: { receipt: false, sessionBrief: false } } } }))
  await tui.launch()
  const s3 = await tui.say('08-off-first', 'No brief please BRIEF-Q3')
  tui.check('sessionBrief off: no brief', count(JSON.stringify(tui.requestWith('BRIEF-Q3', s3.from)?.body ?? {}), BRIEF_HEAD) === 0)
  await tui.say('09-off-compact', '/compact', { until: /Compacted/ })
  const { frame: quiet } = await tui.waitFor('09-off-after', { until: () => true, stableMs: 3000, timeoutMs: 10000 })
  tui.check('receipt off: no line below Compacted', !from(quiet, 'Compacted (ctrl+o').some((l) => l.includes('● compact-plus:')), from(quiet, 'Compacted').slice(0, 4).join(' | '))
  tui.check('and no brief line on screen', !quiet.includes('gave the model a brief'))
  await tui.exit('10-exit')
  tui.finish(t)
})

test('terminal: a rescue\'s receipt says Claude Code\'s compaction failed and who wrote the summary', { timeout: 240000 }, async (t) => {
  // The fake fails the summarizer with a prompt too long and answers the rescue model (tests/e2e/fake-api.mjs).
  const tui = await openTui(t, { label: 'steer-rescue', fake: { compactFail: 'ptl' }, env: { CLAUDE_CODE_MAX_RETRIES: '2' } })
  await tui.launch()
  await tui.say('01-turn', 'Please fix the flaky parser test KIWI-7781')
  await tui.say('02-turn', 'And keep the public API. LIME-2002')
  await tui.say('03-compact', '/compact', { until: (s) => s.includes('● compact-plus: Claude Code\'s own compaction failed'), timeoutMs: 120000 })
  const { frame } = await tui.waitFor('03-receipt', { until: (s) => s.includes('● compact-plus: history saved to'), timeoutMs: 15000 })
  const lines = frame.split('\n').filter((l) => l.startsWith('● compact-plus:'))
  tui.check('two lines', lines.length === 2, lines.join(' | '))
  tui.check('the first: the failure, its cause, the rescue model', /Claude Code's own compaction failed \(prompt too long\); compact-plus compacted in its place: the rescue model \(haiku\) wrote the summary/.test(frame.replace(/\n\s+/g, ' ')), lines[0])
  tui.check('the second: where the history is', lines[1]?.includes('history saved to ~/.claude/compact-history/'), lines[1])
  await tui.exit()
  tui.finish(t)
})
