// The rescue's promises of issue [13] through the real shim and the real core (pkg/), against the
// fake host (./fake-host.mjs): a refusal of the engine's is no failure (item 3); a summary after a
// preamble stands (7); the rescue's row is never quoted as the person's words (6); a cool-down
// belongs to its conversation and ends at `/clear` (8); a long conversation's parts are asked at
// once and what came back is kept (14). The engine's texts are those measured on 2.1.328
// (tests/HOST.md, "Why a compaction did not happen" and "The summary row the engine writes").
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim, SUMMARY_HEAD, VERBATIM_OPEN, OTHER_SESSION, count, uuid } from './fake-host.mjs'

const shim = (opts, options) => withShim(register, opts, options)

const RESCUED = '[compact-plus wrote this summary'
const FAILED_500 = 'Error during compaction: API Error: 500 Internal server error. This is a server-side issue, usually temporary'
const NOT_ENOUGH = 'Not enough messages to compact.'

test('/compact right after /clear: the engine\'s refusal passes up as it came, and no rescue is asked', async () => {
  const host = shim({ mode: 'tui' })
  host.conversation = [{ role: 'user', text: 'hello', toolUses: [], handle: uuid() }]
  const refusal = new Error(NOT_ENOUGH)
  host.summarizer.reject = refusal
  const out = await host.compact({ trigger: 'manual' })
  assert.equal(out.hookError, refusal, 'the very error object passes up')
  assert.equal(out.failed, refusal)
  assert.equal(host.callsOf('model.complete').length, 0, 'the rescue model was asked')
  await host.settle()
  assert.deepEqual(host.logLines().filter((l) => l.event === 'rescue'), [])
})

test('a summary row with words before its summary is the engine\'s and stands', async () => {
  const host = shim({ mode: 'headless' })
  await host.prompt('turn one: the parser fails on nested lists')
  const row = `${SUMMARY_HEAD} The summary below covers the earlier portion of the conversation.\n\nHere is the summary of our conversation so far.\n\nSummary:\n1. Primary Request and Intent: PREAMBLE-KEPT`
  const given = { messages: [{ role: 'user', text: row, toolUses: [], handle: uuid() }], tokensBefore: 6000, tokensAfter: 900 }
  const out = await host.fire('session.compact', { trigger: 'manual', messages: host.conversation }, () => given)
  assert.equal(out.value, given, 'the engine\'s compaction, as it came')
  assert.equal(host.callsOf('model.complete').length, 0)
})

test('after a rescue, the next compaction quotes the person, not the rescue\'s row', async () => {
  const host = shim({ mode: 'tui' })
  await host.prompt('turn one: the parser fails on nested lists')
  host.summarizer.reject = new Error(FAILED_500)
  const first = await host.compact({ trigger: 'manual' })
  assert.ok(first.value.messages[0].text.startsWith(RESCUED))
  host.summarizer.reject = null
  await host.prompt('turn two: now the lexer, please')
  await host.compact({ trigger: 'manual' })
  const context = await host.promptContext()
  const block = context.value.blocks.find((b) => b.name === 'compact-plus')?.text ?? ''
  assert.ok(block.includes(VERBATIM_OPEN) && block.includes('now the lexer, please'), block)
  assert.equal(count(block, RESCUED), 0, 'the rescue\'s header quoted as the person\'s words')
})

test('a cool-down is its conversation\'s: after /clear the new conversation\'s automatic compaction asks its summarizer', async () => {
  const host = shim({ mode: 'tui' })
  await host.prompt('turn one: the parser fails on nested lists')
  host.summarizer.reject = new Error(FAILED_500)
  await host.compact({ trigger: 'manual' })
  // Within the cool-down, an automatic compaction is answered without the summarizer.
  await host.advance(10_000)
  const asked = () => host.requests.filter((r) => r.kind === 'summarizer').length
  const before = asked()
  const cooled = await host.compact({ trigger: 'auto' })
  assert.equal(asked(), before, 'the failing summarizer was asked again in the cool-down')
  assert.ok(cooled.value.messages[0].text.includes('summarizer failing (cool-down)'))
  // `/clear`: session.end, and the process goes on under a new session id [dts SessionEndInput].
  await host.fire('session.end', { reason: 'clear', sessionId: host.sessionId }, () => ({}))
  host.sessionId = OTHER_SESSION
  host.summarizer.reject = null
  host.conversation = [{ role: 'user', text: 'a new topic', toolUses: [], handle: uuid() }, { role: 'assistant', text: 'ok', toolUses: [], handle: uuid() }]
  const fresh = await host.compact({ trigger: 'auto' })
  assert.equal(asked(), before + 1, 'the new conversation\'s summarizer was not asked')
  assert.deepEqual(fresh.value, fresh.below)
})

test('a long conversation\'s parts are asked of the rescue model at once, and a part that fails costs that part alone', async () => {
  const host = shim({ mode: 'headless' })
  // 60 exchanges of 10 kB: three parts of 25 exchanges at most.
  host.conversation = []
  for (let i = 0; i < 60; i++) {
    host.conversation.push({ role: 'user', text: `question ${i}`, toolUses: [], handle: uuid() })
    host.conversation.push({ role: 'assistant', text: `answer ${i} ${'z'.repeat(10_000)}`, toolUses: [], handle: uuid() })
  }
  host.summarizer.reject = new Error(FAILED_500)
  const held = host.hold('model.complete')
  host.completions.push(
    { isAnswered: true, text: '## Decisions\n- part one summary with enough words', usage: {} },
    { isAnswered: false, reason: 'aborted', usage: {} },
    { isAnswered: true, text: '## Decisions\n- part three summary with enough words', usage: {} },
    { isAnswered: true, text: '## Decisions\n- the merge of parts one and three', usage: {} },
  )
  const running = host.compact({ trigger: 'manual' })
  for (let i = 0; i < 200 && host.callsOf('model.complete').length < 3; i++) await host.hop()
  const inFlight = host.callsOf('model.complete').length
  held.open()
  const out = await running
  assert.equal(inFlight, 3, 'the parts were not asked at once')
  const row = out.value.messages[0].text
  assert.ok(row.includes('summarized by the rescue model') && row.includes('the merge of parts one and three'), row.slice(0, 400))
  assert.ok(row.includes('Parts not in this summary, by number: 2 ('), row.slice(0, 600))
  const merge = host.callsOf('model.complete')[3].args[0].prompt
  assert.ok(merge.includes('part one summary') && merge.includes('part three summary'))
})
