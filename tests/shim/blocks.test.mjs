// Design-8 item 1: a compaction's blocks (the verbatim block, the pointer and audit) are made once
// `next` resolved and leave through whichever channel fires first, once: the summary row at door
// `compaction` (headless, the engine's auto compaction) or a `prompt.context` block named
// `compact-plus` (a terminal `/compact`, which dispatches no door `compaction` [kit item 1]). After
// delivery nothing is pending, so the other channel adds nothing. Counted in what the fake engine
// sends the model: the stored rows since the compaction and the unrouted context blocks, kept in
// one copy as the engine keeps them [dts PromptContextResult, d8].
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim, VERBATIM_OPEN, POINTER_HEAD, count } from './fake-host.mjs'

const summaryRow = (text = 'This session is being continued from a previous conversation that ran out of context.') => ({
  message: { type: 'user', role: 'user', content: [{ type: 'text', text }] },
  door: 'compaction',
  origin: { kind: 'engine' },
  uuid: 'summary-row',
})
const texts = (message) => message.content.map((c) => c.text).join('\n')

function once(host, what) {
  const sees = host.modelSees()
  assert.equal(count(sees, VERBATIM_OPEN), 1, `${what}: the verbatim block ${count(sees, VERBATIM_OPEN)} times`)
  assert.equal(count(sees, POINTER_HEAD), 1, `${what}: the pointer ${count(sees, POINTER_HEAD)} times`)
}

test('terminal /compact: the blocks come once, as a prompt.context block after the engine\'s; a summary row then adds nothing', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.compact({ trigger: 'manual', instructions: 'keep the parser details' })
  assert.equal(host.outcomes.filter((o) => o.event === 'session.append').length, 0, 'the terminal /compact raised the door')
  assert.equal(count(host.modelSees(), VERBATIM_OPEN), 0)

  const context = await host.promptContext()
  const names = context.value.blocks.map((b) => b.name)
  assert.deepEqual(names, ['currentDate', 'compact-plus'], 'compact-plus last, after the engine\'s blocks')
  const block = context.value.blocks.at(-1).text
  assert.ok(block.includes('Please fix the flaky test in src/parser.rs, remember KIWI-3003'), 'the person\'s words verbatim')
  assert.ok(block.includes(`${host.historyDir()}/`), 'the pointer names the history folder')
  once(host, 'after prompt.context')

  // A summary row reaching the door later (a hook of another compaction path) adds nothing.
  const row = await host.fire('session.append', summaryRow(), (d) => ({ message: d.message, uuid: 'summary-row' }))
  assert.equal(row.value.message.content.length, 1)
  // And the engine asking for the context again adds no second copy.
  const again = await host.promptContext()
  assert.deepEqual(again.value.blocks.map((b) => b.name), ['currentDate'])
  once(host, 'at the end')
})

test('headless /compact: the blocks come once, on the summary row; prompt.context then adds nothing', async () => {
  const host = withShim(register, { mode: 'headless' })
  await host.compact({ trigger: 'manual' })
  const appends = host.outcomes.filter((o) => o.event === 'session.append')
  assert.equal(appends.length, 2, 'headless raises the door for both rows [kit item 1]')
  assert.equal(appends[0].value.message.content.length, 1, 'the compact_boundary row is left alone')
  const stored = texts(appends[1].value.message)
  assert.equal(count(stored, VERBATIM_OPEN), 1)
  assert.equal(count(stored, POINTER_HEAD), 1)
  assert.ok(stored.startsWith('This session is being continued'), 'the summary first, the blocks after it')

  await host.prompt('turn two')
  const context = host.outcomes.filter((o) => o.event === 'prompt.context').at(-1)
  assert.deepEqual(context.value.blocks.map((b) => b.name), ['currentDate'])
  once(host, 'after the next request')
})

test('terminal: session.compact, then a summary row at the door, then prompt.context: the row carries them, the context adds nothing', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.compact({ trigger: 'manual' })
  const row = await host.fire('session.append', summaryRow(), (d) => ({ message: d.message, uuid: 'summary-row' }))
  assert.equal(count(texts(row.value.message), VERBATIM_OPEN), 1)
  assert.equal(count(texts(row.value.message), POINTER_HEAD), 1)
  const context = await host.promptContext()
  assert.deepEqual(context.value.blocks.map((b) => b.name), ['currentDate'])
})

test('the engine\'s own threshold compaction in the terminal raises the door: the blocks once, on the summary row', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.compact({ trigger: 'auto' })
  await host.prompt('next request')
  const context = host.outcomes.filter((o) => o.event === 'prompt.context').at(-1)
  assert.deepEqual(context.value.blocks.map((b) => b.name), ['currentDate'])
  once(host, 'after the auto compaction')
})

test('two terminal /compacts with no prompt between: one pointer, the second\'s', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.compact({ trigger: 'manual' })
  host.now += 2000 // another second: another history file name
  await host.compact({ trigger: 'manual', instructions: 'second' })
  const files = host.historyFiles()
  assert.equal(files.length, 2, files.join('\n'))
  const context = await host.promptContext()
  const block = context.value.blocks.find((b) => b.name === 'compact-plus').text
  assert.equal(count(block, POINTER_HEAD), 1)
  assert.ok(block.includes(files[1]) && !block.includes(files[0]), 'the pointer is the second compaction\'s')
  const sees = host.modelSees()
  assert.equal(count(sees, POINTER_HEAD), 1)
  // The second one summarized only the first's summary: no person's message of its own to keep.
  assert.ok(count(sees, VERBATIM_OPEN) <= 1)
})

test('precompute: the summarizer gets the handoff, nothing is written, logged or pending; the compaction that installs it gets it all once', async () => {
  const host = withShim(register, { mode: 'headless' })
  const pre = await host.fire('session.compact', { trigger: 'precompute', messages: host.conversation }, (d) => host.summarize(d))
  assert.equal(pre.nexts, 1)
  assert.ok(host.requests.at(-1).instructions.includes('From the compact-plus mod:'))
  await host.settle()
  assert.deepEqual(host.historyFiles(), [])
  assert.deepEqual(host.logLines(), [])
  const early = await host.fire('session.append', summaryRow(), (d) => ({ message: d.message, uuid: 'x' }))
  assert.equal(early.value.message.content.length, 1, 'a precompute left blocks pending')
  await host.compact({ trigger: 'auto' })
  assert.equal(host.historyFiles().length, 1)
  assert.equal(host.logLines().filter((l) => l.event === 'compact').length, 1)
  once(host, 'after the compaction that installs it')
})
