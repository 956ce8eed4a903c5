// session.compact and the summary row after it (session.append, door
// compaction), through the mod's hooks and its wasm core.

import { test, expect } from 'claude-code/testing'
import type { SessionAppendInput, SessionMessage } from 'claude-code'
import { world, DIR, LOG } from './world.ts'

const FIRST = 'please rename the zebra-4417 module'
const MESSAGES: SessionMessage[] = [
  { role: 'user', text: FIRST, toolUses: [] },
  { role: 'assistant', text: 'Renamed it.', toolUses: [] },
  { role: 'user', text: 'now run the tests', toolUses: [] },
  { role: 'assistant', text: 'All 12 pass.', toolUses: [] },
]
/** What the engine keeps: its summary alone. */
const HISTORY = `${DIR}/2025-11-29T120000Z-manual.md`
/** The summary row as the engine (2.1.328) writes it: its opening, then the summary (src/engine/summary_row.rs). */
const ROW =
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\nThe summary.'
/** What the engine keeps: its summary row alone. */
const SUMMARY: SessionMessage = { role: 'user', text: ROW, toolUses: [] }

function summaryRow(uuid: string): SessionAppendInput {
  return {
    door: 'compaction',
    origin: { kind: 'engine' },
    uuid,
    message: { type: 'user', role: 'user', isMeta: true, content: [{ type: 'text', text: ROW }] },
  } as SessionAppendInput
}

const texts = (r: { message?: { content: readonly unknown[] } }) =>
  (r.message?.content ?? []).map((b) => (b as { text?: string }).text)

test('with nothing pending the summary row passes unchanged and nothing is touched', async ($, on) => {
  const w = world(on)
  const r = await $.session.append(summaryRow('u1'))
  expect(texts(r)).toEqual([ROW])
  expect(r.uuid).toBe('u1')
  expect(w.calls).toEqual([])
})

test('a compaction hands the summarizer the handoff, saves the history, and its summary row carries the verbatim block and the pointer', async ($, on) => {
  const w = world(on)
  const beneath: { instructions?: string; messages: readonly SessionMessage[] }[] = []
  on('session.compact', (_$, e) => {
    beneath.push({ instructions: e.instructions, messages: e.messages })
    return { messages: [SUMMARY], tokensBefore: 150000, tokensAfter: 9000 }
  })

  const r = await $.session.compact({ trigger: 'manual', messages: MESSAGES })

  // The engine's own result stands.
  expect(r).toEqual({ messages: [SUMMARY], tokensBefore: 150000, tokensAfter: 9000 })
  // The summarizer got the conversation as it was, and the handoff instructions.
  expect(beneath).toHaveLength(1)
  expect(beneath[0]?.messages).toEqual(MESSAGES)
  expect(beneath[0]?.instructions).toStartWith('From the compact-plus mod:\n- Write a handoff')
  expect(beneath[0]?.instructions).toContain(`from the one beginning "${FIRST}" onward follow your summary word for word`)
  // The history file, one `## [n] role` section per message.
  expect(w.text(HISTORY)).toStartWith('# Conversation before compaction\n')
  expect(w.text(HISTORY)).toContain(`## [1] user\n\n${FIRST}\n`)
  expect(w.text(HISTORY)).toContain('## [4] assistant\n\nAll 12 pass.\n')
  expect(JSON.parse(w.text(LOG))).toEqual({
    at: '2025-11-29T12:00:00.000Z',
    event: 'compact',
    trigger: 'manual',
    messages: 4,
    kept: 0,
    verbatim: 2,
    tokensBefore: 150000,
    tokensAfter: 9000,
    file: HISTORY,
  })
  expect(w.debug).toEqual([])

  // The summary row: the person's own words, then where the history is.
  const row = await $.session.append(summaryRow('u2'))
  const [summary, verbatim, pointer, ...rest] = texts(row)
  expect(summary).toBe(ROW)
  expect(verbatim).toStartWith('<user-messages-verbatim>\n')
  expect(verbatim).toContain(`--- user message (earlier) ---\n${FIRST}\n`)
  // A /compact between turns: the next prompt follows the row, so no request in it is current.
  expect(verbatim).toContain('--- user message (earlier) ---\nnow run the tests\n</user-messages-verbatim>')
  expect(verbatim).not.toContain('(current request')
  expect(pointer).toContain(`searchable text: "${HISTORY}"`)
  expect(pointer).toContain(`"${DIR}"`)
  expect(pointer).toContain('call the recall tool (compact_plus_recall)')
  expect(rest).toEqual([])

  // Once only: the next summary row is left alone.
  expect(texts(await $.session.append(summaryRow('u3')))).toEqual([ROW])
})

test('the person\'s own /compact instructions come first, ours after', async ($, on) => {
  world(on)
  const seen: (string | undefined)[] = []
  on('session.compact', (_$, e) => {
    seen.push(e.instructions)
    return { messages: [SUMMARY] }
  })
  await $.session.compact({ trigger: 'manual', instructions: '  focus on the KIWI parser \n', messages: MESSAGES })
  expect(seen).toHaveLength(1)
  expect(seen[0]).toStartWith('focus on the KIWI parser\n\nFrom the compact-plus mod:\n')
})

test('a subagent\'s compaction gets the handoff alone: nothing saved, nothing pending', async ($, on) => {
  const w = world(on)
  const seen: (string | undefined)[] = []
  on('session.compact', (_$, e) => {
    seen.push(e.instructions)
    return { messages: [SUMMARY] }
  })
  await $.session.compact({ trigger: 'auto', agentId: 'agent-7', messages: MESSAGES })
  expect(seen).toHaveLength(1)
  expect(seen[0]).toStartWith('From the compact-plus mod:\n')
  // No verbatim block is promised for a subagent.
  expect(seen[0]).not.toContain('word for word')
  expect(w.ops('write')).toEqual([])
  expect(texts(await $.session.append(summaryRow('u1')))).toEqual([ROW])
})

test('a compaction the engine skips leaves the summary row alone', async ($, on) => {
  const w = world(on)
  on('session.compact', () => ({ skip: 'a PreCompact hook blocked it' }))
  const r = await $.session.compact({ trigger: 'auto', messages: MESSAGES })
  expect(r).toEqual({ skip: 'a PreCompact hook blocked it' })
  // The history is saved before the summarizer runs; nothing is logged as compacted.
  expect(Object.keys(w.files)).toEqual([`${DIR}/2025-11-29T120000Z-auto.md`])
  expect(texts(await $.session.append(summaryRow('u1')))).toEqual([ROW])
})
