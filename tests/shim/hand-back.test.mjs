// Issue [8], "Memory handed back": the core's linear memory never shrinks, so after one large
// compaction the instance would keep its peak for the rest of the process. Once no hook is in
// flight, the core says so (`handBack`, src/hooks/mod.rs) and the shim rebuilds the instance with
// its state carried (js/core.js `core.step`).
// bench/memory.mjs prints the figures; these check the behaviour.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { probe } from './wasm-probe.mjs'
import { register } from '../../js/compact-plus.js'
import { memoryBytes } from '../../pkg/compact_plus.js'
import { withShim, gate, VERBATIM_OPEN, POINTER_HEAD, count } from './fake-host.mjs'
import { makeSession } from '../../bench/session.mjs'

const MiB = 1024 * 1024
const big = makeSession(4096) // about 24 MB of messages, as bench/run.mjs's largest
const summaryRow = { message: { type: 'user', role: 'user', content: [{ type: 'text', text: 'This session is being continued from a previous conversation.' }] }, door: 'compaction', origin: { kind: 'engine' }, uuid: 'summary' }
const rowTexts = (o) => o.value.message.content.map((c) => c.text).join('\n')

test('after a large compaction the memory is handed back and the state carried: the blocks still reach the model, once', async () => {
  let peak = 0
  const host = withShim(register, { mode: 'headless', messages: big.messages, onCall: () => (peak = Math.max(peak, memoryBytes())) })
  await host.turnComplete() // the core is instantiated by its first hook
  await host.settle()
  const instances = probe.instances.length
  const out = await host.fire('session.compact', { trigger: 'auto', messages: host.conversation }, (d) => host.summarize(d))
  const after = memoryBytes()
  assert.equal(out.hookError, undefined)
  assert.deepEqual(out.value, out.below)
  assert.ok(peak > 32 * MiB, `the compaction peaked at ${peak} bytes only`)
  assert.ok(after < 8 * MiB, `${after} bytes kept after the hand-back`)
  const [line] = host.debugLines('memory handed back')
  assert.ok(line, host.debug.join('\n'))
  const [, was, now] = line.match(/\((\d+) bytes, now (\d+)\)/).map(Number)
  assert.ok(was >= peak && now === after, line)
  assert.equal(probe.instances.length, instances + 1)
  const { pending } = JSON.parse(probe.inits.at(-1).carried)
  assert.ok(pending?.words?.length > 0 && pending?.blocks?.length === 1, `the blocks were not carried: ${JSON.stringify(pending)?.slice(0, 200)}`)
  const row = await host.fire('session.append', summaryRow, (d) => ({ message: d.message, uuid: 'summary' }))
  assert.equal(count(rowTexts(row), VERBATIM_OPEN), 1)
  assert.equal(count(rowTexts(row), POINTER_HEAD), 1)
  assert.equal(host.logLines().filter((l) => l.event === 'compact').length, 1)
})

test('the hand-back waits for every hook in flight: a turn.complete held on its next keeps its machine, and the memory goes back when it ends', async () => {
  const host = withShim(register, { mode: 'headless', messages: big.messages })
  host.contextTokens = 1_000
  const held = gate()
  const turn = host.fire('turn.complete', { answer: 'a', durationMs: 5, isAborted: false, turnId: 't', reason: 'answer' }, () => held.wait().then(() => ({ text: 'a' })))
  await host.settle()
  const instances = probe.instances.length
  await host.fire('session.compact', { trigger: 'auto', messages: host.conversation }, (d) => host.summarize(d))
  assert.ok(memoryBytes() > 32 * MiB, 'handed back while a hook was in flight')
  assert.equal(probe.instances.length, instances)
  assert.equal(host.debugLines('memory handed back').length, 0)
  held.open()
  const out = await turn
  await host.settle()
  assert.equal(out.hookError, undefined)
  assert.deepEqual(out.value, { text: 'a' })
  assert.equal(host.debugLines('lost').length, 0, host.debug.join('\n'))
  assert.ok(host.callsOf('session.usage').length >= 1, 'its turn-end job never ran')
  assert.equal(host.debugLines('memory handed back').length, 1, host.debug.join('\n'))
  assert.ok(memoryBytes() < 8 * MiB)
  // And the blocks made before the hand-back are still there for the summary row.
  const row = await host.fire('session.append', summaryRow, (d) => ({ message: d.message, uuid: 'summary' }))
  assert.equal(count(rowTexts(row), VERBATIM_OPEN), 1)
})
