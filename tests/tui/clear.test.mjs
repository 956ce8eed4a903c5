// `/compact`, then `/clear`: nothing of the old conversation reaches the new one, neither the blocks
// the compaction left for the next request nor, at the new conversation's own compaction, the
// words it carried (claude-code.d.ts, SessionEndInput: `/clear` ends the conversation, the process
// goes on under a new session id, no session.start fires; the hook sees session.end with reason
// `clear`). Issue [13] items 1 and 9.
import { test } from 'node:test'
import { openTui, requestTable, checkBlocksOnce, verbatimBlock, blockWords, allText, VERBATIM_OPEN } from './driver.mjs'

test('terminal: /compact, /clear at once, then a compaction of the new conversation: nothing of the old one is carried', { timeout: 240000 }, async (t) => {
  const tui = await openTui(t, { label: 'clear' })
  const P1 = 'Please fix the flaky test in src/parser.rs. KIWI-5150'
  const P2 = 'A new topic altogether: write a haiku. PLUM-5151'
  const P3 = 'Another one, about rain. RAIN-5152'
  await tui.launch()
  await tui.say('01-turn', P1)
  await tui.say('02-compact', '/compact', { until: /Compacted/ })
  await tui.say('03-clear', '/clear', { until: /\(no content\)|cleared|Cleared|❯/ })
  const s4 = await tui.say('04-new-conversation', P2)
  await tui.say('05-compact', '/compact', { until: /Compacted/ })
  const s6 = await tui.say('06-after-compact', P3)
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)
  const req = tui.requestWith(P2, s4.from)
  const body = JSON.stringify(req?.body ?? {})
  tui.check('the new conversation\'s request was sent', !!req)
  tui.check('it carries no verbatim block of the old conversation', !body.includes(VERBATIM_OPEN))
  tui.check('it carries none of the old conversation\'s words', !body.includes('KIWI-5150'))
  // The new conversation's /compact: its own words alone, none current (the prompt follows them).
  const after = tui.requestWith(P3, s6.from)
  checkBlocksOnce(tui, 'after the new conversation\'s /compact', after, { prompts: [P2], current: 0 })
  const { words } = blockWords(verbatimBlock(allText(after)))
  tui.check('its verbatim block holds the new conversation\'s words alone', JSON.stringify(words) === JSON.stringify([P2]), JSON.stringify(words))
  tui.check('nothing of the old conversation in that request', !JSON.stringify(after?.body ?? {}).includes('KIWI-5150'))
  tui.finish(t)
})
