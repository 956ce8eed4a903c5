// `/compact`, then `/clear` before any prompt: the blocks the compaction left for the next
// request must not reach the new conversation (claude-code.d.ts, SessionEndInput: `/clear` ends
// the conversation, the process goes on under a new session id, no session.start fires; the
// hook sees session.end with reason `clear`).
import { test } from 'node:test'
import { openTui, VERBATIM_OPEN } from './driver.mjs'

test('terminal: /compact, then /clear at once: the new conversation gets none of the old one\'s blocks', { timeout: 240000 }, async (t) => {
  const tui = await openTui(t, { label: 'clear' })
  const P1 = 'Please fix the flaky test in src/parser.rs. KIWI-5150'
  const P2 = 'A new topic altogether: write a haiku. PLUM-5151'
  await tui.launch()
  await tui.say('01-turn', P1)
  await tui.say('02-compact', '/compact', { until: /Compacted/ })
  await tui.say('03-clear', '/clear', { until: /\(no content\)|cleared|Cleared|❯/ })
  const s4 = await tui.say('04-new-conversation', P2)
  await tui.exit()
  const req = tui.requestWith(P2, s4.from)
  const body = JSON.stringify(req?.body ?? {})
  tui.check('the new conversation\'s request was sent', !!req)
  tui.check('it carries no verbatim block of the old conversation', !body.includes(VERBATIM_OPEN))
  tui.check('it carries none of the old conversation\'s words', !body.includes('KIWI-5150'))
  tui.finish(t)
})
