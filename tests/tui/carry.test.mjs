// The person's words across any number of compactions in the real interactive terminal UI, and
// which request is marked current (issue [13] items 1 and 2).
//
// Measured on Claude Code 2.1.328 (tests/HOST.md): in the terminal a `/compact` dispatches no
// `session.append` at door `compaction`; compact-plus's blocks reach the model as a
// `prompt.context` block the engine sends with the next prompt and stores as a `context_sections`
// attachment, which is not among the next compaction's `messages`. Before issue [13] the second
// `/compact` lost the first message (the carry read the previous block from the messages alone),
// and each block marked a request already answered as the current one, a few lines above the
// person's new prompt.
import { test } from 'node:test'
import fs from 'node:fs'
import path from 'node:path'
import { openTui, requestTable, checkBlocksOnce, additionalInstructions, verbatimBlock, blockWords, allText } from './driver.mjs'

test('terminal: three /compacts with prompts between: the first message is still carried after the third, nothing answered marked current', { timeout: 300000 }, async (t) => {
  const tui = await openTui(t, { label: 'carry-three' })
  const P = [
    'The migration plan: users table first, then orders; never drop a column before its backfill. PLAN-7311',
    'Start with the users table. USERS-7312',
    'Users done; now the orders. ORDERS-7313',
    'Orders done; what is left? LEFT-7314',
    'Thanks, that is all for today. DONE-7315',
  ]
  await tui.launch()
  await tui.say('01-plan', P[0])
  await tui.say('02-users', P[1])
  await tui.say('03-compact', '/compact', { until: /Compacted/ })
  const s3 = await tui.say('04-orders', P[2])
  await tui.say('05-compact-keep', '/compact keep the migration plan', { until: /Compacted/ })
  const s4 = await tui.say('06-left', P[3])
  const c3 = await tui.say('07-compact', '/compact', { until: /Compacted/ })
  const s5 = await tui.say('08-done', P[4])
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)

  tui.check('three summarizer requests', tui.compactionRequests().length === 3, `${tui.compactionRequests().length}`)
  // Each prompt after a /compact comes with that compaction's block: everything said before it,
  // in order, once; none of it current, since the prompt it comes with is newer.
  checkBlocksOnce(tui, 'after /compact 1', tui.requestWith(P[2], s3.from), { prompts: P.slice(0, 2), current: 0 })
  checkBlocksOnce(tui, 'after /compact keep …', tui.requestWith(P[3], s4.from), { prompts: P.slice(0, 3), current: 0 })
  const last = tui.requestWith(P[4], s5.from)
  checkBlocksOnce(tui, 'after /compact 3', last, { prompts: P.slice(0, 4), current: 0 })
  const { words } = blockWords(verbatimBlock(allText(last)))
  tui.check('after /compact 3: the block holds the four prompts before it and nothing else', JSON.stringify(words) === JSON.stringify(P.slice(0, 4)), JSON.stringify(words))
  tui.check('after /compact 3: the plan once in the request', allText(last).split('PLAN-7311').length - 1 === 1)
  // The third summarizer was told the plan is the first message kept word for word.
  const comp3 = tui.compactionRequests().find((r) => r.i >= c3.from)
  tui.check('the third summarizer request names the plan as the first message kept word for word',
    additionalInstructions(comp3 ?? {})?.includes(`from the one beginning "${P[0].slice(0, 40)}`), JSON.stringify(additionalInstructions(comp3 ?? {})?.slice(-400)))
  tui.finish(t)
})

test('terminal: /compact, a prompt, /exit, --resume, a prompt, /compact: the resumed process carries the first process\'s words', { timeout: 300000 }, async (t) => {
  const tui = await openTui(t, { label: 'carry-resume' })
  const P1 = 'Remember the codeword OSPREY-2231 for the release notes.'
  const P2 = 'And the date is the 14th. DATE-2232'
  const P3 = 'Back again: add the changelog link. LINK-2233'
  const P4 = 'What do you have for the release notes? NOTES-2234'
  await tui.launch()
  await tui.say('01-turn', P1)
  await tui.say('02-compact', '/compact', { until: /Compacted/ })
  await tui.say('03-turn', P2)
  await tui.exit('04-exit')
  const sid = tui.sessionId()
  if (!tui.check('the first process left a transcript', sid)) return tui.finish(t)
  const kept = path.join(tui.historyDir(), '.verbatim.json')
  tui.check('the words wait in the session\'s folder', fs.existsSync(kept) && fs.readFileSync(kept, 'utf8').includes('OSPREY-2231'))

  await tui.launch(['--resume', sid])
  await tui.waitFor('05-resumed', { until: /Conversation compacted/, timeoutMs: 30000 })
  await tui.say('06-turn', P3)
  await tui.say('07-compact', '/compact', { until: /Compacted/ })
  const s4 = await tui.say('08-turn', P4)
  await tui.exit('09-exit')
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)
  checkBlocksOnce(tui, 'the resumed process\'s /compact, the next request', tui.requestWith(P4, s4.from), { prompts: [P1, P2, P3], current: 0 })
  tui.finish(t)
})
